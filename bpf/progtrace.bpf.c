// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * progtrace.bpf.c - per-invocation latency of one BPF program with fentry/fexit.
 *
 * The attach target is fixed at load time, so user space loads one copy of this object per
 * watched program (bpf_program__set_attach_target with the target's fd and BTF name) and sets
 * target_id in its rodata. All copies share `events`, `lat_drops` and `lat_nest`.
 *
 * Programs nest on a CPU (task context interrupted by softirq, hardirq or NMI), so starts live
 * on a per-CPU stack (lat_nest), not in one slot: fentry pushes (id, start), fexit pops and
 * emits. An exit whose top is another program means our entry was missed: counted, and the
 * stack is left as it was. Each entry also keeps the interrupt context the program entered in
 * (nest.bpf.h cpu_irq_ctx), for the helper probes.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "emit.bpf.h"
#include "nest.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The watched program's ID (set before load). */
const volatile __u32 target_id = 0;

SEC("fentry/placeholder")
int BPF_PROG(lat_prog_entry)
{
	struct lat_nest *n = cpu_nest();
	__u32 d;

	if (!n)
		return 0;
	d = n->depth;
	if (d >= LAT_NEST_MAX) {
		n->overflow++;
		n->depth = d + 1;
		return 0;
	}
	n->ids[d & (LAT_NEST_MAX - 1)] = target_id;
	/* The context the program runs in: a map call from another one is not its own. */
	n->ctx[d & (LAT_NEST_MAX - 1)] = cpu_irq_ctx();
	n->start_ns[d & (LAT_NEST_MAX - 1)] = bpf_ktime_get_ns();
	n->depth = d + 1;
	return 0;
}

SEC("fexit/placeholder")
int BPF_PROG(lat_prog_exit)
{
	__u64 now = bpf_ktime_get_ns();
	struct lat_nest *n = cpu_nest();
	__u32 d;

	if (!n)
		return 0;
	d = n->depth;
	if (d == 0) {
		n->underflow++;
		return 0;
	}
	d--;
	n->depth = d;
	if (d >= LAT_NEST_MAX)
		return 0; /* pushed beyond the stack: counted as overflow at entry */
	if (n->ids[d & (LAT_NEST_MAX - 1)] != target_id) {
		/* Our entry was missed (the top is an outer program): leave the outer one's
		 * start in place for its own exit. */
		n->depth = d + 1;
		n->mismatch++;
		return 0;
	}
	emit_event(LAT_EV_PROG, 0, target_id, 0, 0, n->start_ns[d & (LAT_NEST_MAX - 1)],
		   now - n->start_ns[d & (LAT_NEST_MAX - 1)]);
	return 0;
}
