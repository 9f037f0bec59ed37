// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * helpertrace.bpf.c - latency of map operations, attributed to the watched program running.
 *
 * The verifier turns map helpers into direct calls of the map type's implementation
 * (htab_map_update_elem, __htab_map_lookup_elem, queue_stack_map_push_elem, ...), so lattop
 * traces those kernel functions: one copy of this object per function (the target is fixed at
 * load time). A call counts for program P only when P is on top of this CPU's program stack
 * (lat_nest, pushed by progtrace's fentry) and the call runs in the interrupt context P entered
 * in: calls while no watched program runs are not attributed (counted in `outside`), nor calls
 * from a hardirq, softirq or NMI that interrupted P, e.g. an unwatched program on a timer
 * tracepoint, nor, in task context, calls from another thread than P's (a task that preempted
 * P, PREEMPT_RT) (both counted in `foreign`). A program nested in the same context (a kprobe
 * program inside P's map call) is not told apart this way.
 *
 * Two probe sets share the logic: fentry/fexit, and kprobe/kretprobe where fentry on the
 * function fails (user space loads one set). Every map operation takes the map first: its id
 * is read at entry and kept in the slot, since a kretprobe sees no arguments.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "agg.bpf.h"
#include "emit.bpf.h"
#include "nest.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load: the BPF_FUNC_* number this function implements, and its index. */
const volatile __u32 helper_id = 0;
const volatile __u32 func_idx = 0;

/* In-kernel aggregation (set before load): the (program, map) pairs this function's calls are
 * aggregated for, agg_nsites of them, each with agg_ncpu records in lat_agg (site k, CPU c at
 * k * agg_ncpu + c). A call of another pair, or with agg_nsites 0, is sent as an event. */
const volatile __u32 agg_nsites = 0;
const volatile __u32 agg_ncpu = 1;
const volatile struct lat_hagg_site agg_sites[LAT_HAGG_SITES] = {};

/* The aggregates are agg.bpf.h's lat_agg: user space sets its max_entries to
 * agg_nsites * agg_ncpu before load (1 without sites). */

/* Aggregate a call of program prog on map of dur ns, on CPU cpu, if the pair is one of ours. */
static __always_inline bool helper_agg(__u32 cpu, __u32 prog, __u32 map, __u64 dur)
{
	for (__u32 k = 0; k < LAT_HAGG_SITES; k++) {
		if (k >= agg_nsites)
			return false;
		if (agg_sites[k].prog_id == prog && agg_sites[k].map_id == map)
			return agg_add_at(k, agg_ncpu, cpu, dur);
	}
	return false;
}

/* Set by user space before detaching: no new call takes a slot, so the calls in flight can
 * finish through their exit before the links go (see progtrace.bpf.c entry_off). */
volatile __u32 entry_off SEC(".bss");

/*
 * Does a probe running in context now run in the context top entered in? fentry/fexit run in
 * the caller's context: equal bits. A kprobe where ftrace cannot patch the function (6.18
 * builds queue_stack_maps.o, lpm_trie.o without ftrace) is an int3, and x86 handles a
 * kernel-mode int3 like an NMI (irqentry_nmi_enter adds NMI_OFFSET + HARDIRQ_OFFSET) until
 * the kprobe is optimized into a jump: the kprobe twins accept that too. The price, on
 * kprobes only: a real NMI program interrupting the watched one (the same bits) is not told
 * apart. The kretprobe side runs from the return trampoline (no int3), but accepts the same so
 * that an NMI call taken at entry is closed at exit.
 */
static __always_inline bool same_ctx(__u32 top, __u32 now, bool kprobe)
{
	return now == top || (kprobe && now == top + LAT_CTX_INT3);
}

/* In task context, is the caller the thread that entered entry d? Where programs are
 * preemptible (PREEMPT_RT) another task can run on the CPU while d's program is preempted, e.g.
 * the timer thread running soft hrtimers: its calls are not d's. An interrupt runs on top of
 * the interrupted thread, so outside task context the thread says nothing; where contexts
 * cannot be read (every one reads 0) the old attribution by the stack alone stays, as the
 * notice says (the program probes compare threads only there too: progtrace.bpf.c). The
 * thread is told by its stack: the probe's frame (a trampoline's frame, or a kprobe's pt_regs,
 * both on the stack the call runs on) against the entry's (same_task_stack in nest.bpf.h). */
static __always_inline bool same_task(const struct lat_nest *n, __u32 d, __u64 frame)
{
	return !cpu_ctx_readable() || n->ctx[d] || same_task_stack(n->tag[d], frame);
}

/* A traced call starts: take the slot of the program on top of the stack, unless no watched
 * program runs (counted in outside), the call comes from another interrupt context than that
 * program's (foreign), or a traced call already holds the slot (busy). */
static __always_inline int helper_enter(void *ctx, struct bpf_map *map, bool kprobe, bool typed)
{
	__u32 cpu = bpf_get_smp_processor_id(); /* once: a helper call on 6.1 */
	struct lat_nest *n = cpu_nest_at(cpu);
	struct lat_hnest *h = cpu_hnest_at(cpu);
	__u32 d;

	if (!n || !h || entry_off)
		return 0;
	d = n->depth;
	if (d == 0 || d > LAT_NEST_MAX) {
		h->outside++;
		return 0;
	}
	d = (d - 1) & (LAT_NEST_MAX - 1);
	if (!same_ctx(n->ctx[d], cpu_irq_ctx(), kprobe) || !same_task(n, d, (__u64)ctx)) {
		h->foreign++;
		return 0;
	}
	if (h->start_ns[d]) {
		h->busy++;
		return 0;
	}
	/* A direct load where the function's BTF types the argument (lat_helper_entry_btf), else
	 * a read that trusts no type (the generic helpers declare u64 arguments). */
	h->map_id[d] = typed ? map->id : BPF_CORE_READ(map, id);
	h->func[d] = func_idx;
	h->frame[d] = (__u64)ctx;
	h->start_ns[d] = bpf_ktime_get_ns();
	return 0;
}

/* A traced call returns: emit it if its entry took the slot. A foreign call returning (an
 * interrupt's call inside the top program's own call of the same function) must leave that
 * slot alone: its entry was not ours, and the slot belongs to the interrupted call. */
static __always_inline int helper_leave(void *ctx, bool kprobe)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 cpu = bpf_get_smp_processor_id(); /* once: a helper call on 6.1 */
	struct lat_nest *n = cpu_nest_at(cpu);
	struct lat_hnest *h = cpu_hnest_at(cpu);
	__u64 start;
	__u32 d;

	if (!n || !h)
		return 0;
	d = n->depth;
	if (d == 0 || d > LAT_NEST_MAX)
		return 0;
	d = (d - 1) & (LAT_NEST_MAX - 1);
	/* fexit gets the same frame as its fentry: the slot's frame tells the call that took it
	 * from any other (a foreign one has its own frame), without reading the context again. A
	 * kretprobe's pt_regs are not its kprobe's: there the context and thread decide. */
	if (kprobe && (!same_ctx(n->ctx[d], cpu_irq_ctx(), kprobe) || !same_task(n, d, (__u64)ctx)))
		return 0; /* counted as foreign at entry */
	start = h->start_ns[d];
	if (!start || h->func[d] != func_idx || (!kprobe && h->frame[d] != (__u64)ctx))
		return 0; /* not ours: skipped at entry (counted there) */
	h->start_ns[d] = 0;
	if (!helper_agg(cpu, n->ids[d], h->map_id[d], now - start))
		emit_event(LAT_EV_HELPER, 0, n->ids[d], helper_id, h->map_id[d], start,
			   now - start);
	return 0;
}

SEC("fentry/placeholder")
int BPF_PROG(lat_helper_entry, struct bpf_map *map)
{
	return helper_enter(ctx, map, false, false);
}

/* The same where the function's BTF says its first argument is a struct bpf_map * (user space
 * checks before choosing it): the verifier then lets the probe load map->id directly instead
 * of calling bpf_probe_read_kernel. */
SEC("fentry/placeholder")
int BPF_PROG(lat_helper_entry_btf, struct bpf_map *map)
{
	return helper_enter(ctx, map, false, true);
}

SEC("fexit/placeholder")
int BPF_PROG(lat_helper_exit)
{
	return helper_leave(ctx, false);
}

/* The kprobe twins: attached by user space to the function it names (no auto-attach). */
SEC("kprobe")
int BPF_KPROBE(lat_helper_kentry, struct bpf_map *map)
{
	return helper_enter(ctx, map, true, false);
}

SEC("kretprobe")
int BPF_KRETPROBE(lat_helper_kexit)
{
	return helper_leave(ctx, true);
}
