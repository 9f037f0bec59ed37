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

/* 1: the copies lat_helper_entry2/entry_btf2/exit2 are attached too (set before load), as for
 * the program probes (progtrace.bpf.c "Probe copies"): the first entry that runs takes the
 * slot, the first exit closes it, and the other finds it taken by its own frame or closed. */
const volatile __u32 copies = 0;

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

/* In task context, is the caller the thread that entered entry d of the CPU's stack? Only
 * where contexts cannot be read does a task's entry go there (progtrace.bpf.c); an interrupt
 * runs on top of the interrupted thread, so outside task context the thread says nothing. The
 * thread is told by its stack: the probe's frame (a trampoline's frame, or a kprobe's pt_regs,
 * both on the stack the call runs on) against the entry's (same_task_stack in nest.bpf.h). */
static __always_inline bool same_task(const struct lat_nest *n, __u32 d, __u64 frame)
{
	return !cpu_ctx_readable() || n->ctx[d] || same_task_stack(n->tag[d], frame);
}

/* Does the running task (in an interrupt: the interrupted one) hold entries in its slot? */
static __always_inline bool task_in_prog(void)
{
	__u64 w = 0;
	__u32 i = 0;

	return task_find(task_key(), &i, &w) && (w & LAT_TASK_DEPTH_MASK);
}

/* Take helper-call slot d of h (a task's or the CPU's) for this call, unless a traced call
 * already holds it (busy, counted in c: this CPU's slots), or, with copies, this call's other
 * entry probe took it. */
static __always_inline int slot_take(struct lat_hnest *h, struct lat_hnest *c, __u32 d, __u64 frame,
				     struct bpf_map *map, bool typed)
{
	d &= LAT_NEST_MAX - 1;
	if (h->start_ns[d]) {
		if (!copies || h->frame[d] != frame)
			__sync_fetch_and_add(&c->busy, 1);
		return 0;
	}
	/* A direct load where the function's BTF types the argument (lat_helper_entry_btf), else
	 * a read that trusts no type (the generic helpers declare u64 arguments). */
	h->map_id[d] = typed ? map->id : BPF_CORE_READ(map, id);
	h->func[d] = func_idx;
	h->frame[d] = frame;
	h->start_ns[d] = bpf_ktime_get_ns();
	return 0;
}

/* A traced call starts. In task context the caller's own slot (progtrace.bpf.c: a task keeps
 * its entries in a slot of its own) says which watched program it runs, if any: the top entry
 * there, never another task's. Elsewhere, the program on top of the CPU's stack, unless none
 * runs (counted in outside; in foreign where the interrupt landed in a task's watched program)
 * or the call comes from another interrupt context than that program's (foreign). A task in
 * no watched program that preempted one is outside. */
static __always_inline int helper_enter(void *ctx, struct bpf_map *map, bool kprobe, bool typed)
{
	__u32 cpu = bpf_get_smp_processor_id(); /* once: a helper call on 6.1 */
	struct lat_nest *n = cpu_nest_at(cpu);
	struct lat_hnest *h = cpu_hnest_at(cpu);
	__u32 d, cur;

	if (!n || !h || entry_off)
		return 0;
	cur = cpu_irq_ctx();
	if (cpu_ctx_readable() && (cur == 0 || (kprobe && cur == LAT_CTX_INT3))) {
		__u64 w = 0;
		__u32 i = 0;
		struct lat_nest *tn = task_find(task_key(), &i, &w);
		struct lat_hnest *th;

		d = w & LAT_TASK_DEPTH_MASK;
		if (tn && task_frame(tn, d, (__u64)ctx)) {
			th = bpf_map_lookup_elem(&lat_hnest, &i);
			if (!th)
				return 0;
			return slot_take(th, h, d - 1, (__u64)ctx, map, typed);
		}
	}
	d = n->depth;
	if (d == 0 || d > LAT_NEST_MAX) {
		if (cur && task_in_prog())
			__sync_fetch_and_add(&h->foreign, 1); /* it interrupted a watched program */
		else
			__sync_fetch_and_add(&h->outside, 1);
		return 0;
	}
	d = (d - 1) & (LAT_NEST_MAX - 1);
	if (!same_ctx(n->ctx[d], cur, kprobe) || !same_task(n, d, (__u64)ctx)) {
		__sync_fetch_and_add(&h->foreign, 1);
		return 0;
	}
	return slot_take(h, h, d, (__u64)ctx, map, typed);
}

/* Close slot d of h if this call took it (its fentry's frame; a kretprobe's pt_regs are not
 * its kprobe's, so there the function decides), and aggregate or send it for program prog. */
static __always_inline int slot_close(struct lat_hnest *h, __u32 d, __u32 prog, __u64 frame,
				      bool kprobe, __u64 now, bool task)
{
	__u64 start;

	d &= LAT_NEST_MAX - 1;
	start = h->start_ns[d];
	if (!start || h->func[d] != func_idx || (!kprobe && h->frame[d] != frame)) {
		/* Not ours: skipped at entry (counted there), or closed by the copy, which leaves
		 * its frame. With copies, a task's own call that finds the slot free and not its
		 * frame's had both entry copies miss: counted (lost, shown as recursion). */
		if (copies && task && !kprobe && !start && h->frame[d] != frame) {
			struct lat_hnest *c = cpu_hnest_at(bpf_get_smp_processor_id());

			if (c)
				__sync_fetch_and_add(&c->lost, 1);
		}
		return 0;
	}
	h->start_ns[d] = 0;
	if (!helper_agg(bpf_get_smp_processor_id(), prog, h->map_id[d], now - start))
		emit_event(LAT_EV_HELPER, 0, prog, helper_id, h->map_id[d], start, now - start);
	return 0;
}

/* A traced call returns: close the slot its entry took, in the task's slot where the caller's
 * task holds one, else on the CPU's stack. A foreign call returning (an interrupt's call inside
 * the top program's own call of the same function) must leave that slot alone: its entry was
 * not ours, and the slot belongs to the interrupted call. */
static __always_inline int helper_leave(void *ctx, bool kprobe)
{
	__u64 now = bpf_ktime_get_ns(), w = 0;
	__u32 cpu, d, i = 0;
	struct lat_nest *n = task_find(task_key(), &i, &w);
	struct lat_hnest *h;

	d = w & LAT_TASK_DEPTH_MASK;
	if (n && task_frame(n, d, (__u64)ctx)) {
		h = bpf_map_lookup_elem(&lat_hnest, &i);
		if (!h)
			return 0;
		d = (d - 1) & (LAT_NEST_MAX - 1);
		return slot_close(h, d, n->ids[d], (__u64)ctx, kprobe, now, true);
	}
	cpu = bpf_get_smp_processor_id();
	n = cpu_nest_at(cpu);
	h = cpu_hnest_at(cpu);
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
	return slot_close(h, d, n->ids[d], (__u64)ctx, kprobe, now, false);
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

/* The copies (see copies above): the kernel skips each probe program on its own. */
SEC("fentry/placeholder")
int BPF_PROG(lat_helper_entry2, struct bpf_map *map)
{
	return helper_enter(ctx, map, false, false);
}

SEC("fentry/placeholder")
int BPF_PROG(lat_helper_entry_btf2, struct bpf_map *map)
{
	return helper_enter(ctx, map, false, true);
}

SEC("fexit/placeholder")
int BPF_PROG(lat_helper_exit2)
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
