// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * progtrace.bpf.c - per-invocation latency of one BPF program with fentry/fexit.
 *
 * The attach target is fixed at load time, so user space loads one copy of this object per
 * watched program (bpf_program__set_attach_target with the target's fd and BTF name) and sets
 * target_id in its rodata. All copies share `events`, `lat_drops`, `lat_nest` and `lat_hnest`.
 *
 * Programs nest on a CPU (task context interrupted by softirq, hardirq or NMI; a kprobe program
 * inside a watched program's map call; on PREEMPT_RT another task's program), so starts live
 * on a per-CPU stack (lat_nest), not in one slot. Each entry keeps the program, its start, the
 * interrupt context it entered in (nest.bpf.h cpu_irq_ctx, also for the helper probes) and a
 * tag: the probe's ctx pointer, which points into the trampoline's frame and is the same for
 * one call's fentry and fexit (both programs get the frame's argument area), and different for
 * any other call in flight on the CPU. In task context the tag also names the thread: its
 * address lies in the thread's kernel stack (same_task_stack, LAT_STACK_SHIFT).
 *
 * Where the runs go: with agg_on (the default) the exit adds the run to this copy's per-CPU
 * aggregate (lat_agg: bucket counts in the user-side histogram's layout, count, sum, max, min;
 * see struct lat_agg), which the collector reads through mmap each interval; nothing per run
 * leaves the CPU. Without it (a consumer needs every event: --raw recordings, or the budget of
 * aggregates is spent) the exit emits one 48-byte event into the shared ring buffer.
 *
 * The exit probe is attached before the entry probe; before detaching, user space turns the
 * entry off (entry_off) and waits for the calls in flight to pop their entries.
 *
 * The exit pops its own entry (same program, same tag), wherever it is on the stack. An exit
 * that finds none had its entry miss (the fentry was not attached yet when the call began,
 * or missed for recursion, counted by the kernel) and emits nothing: counted as unpaired,
 * which loses no measured call. An entry whose exit never came (a call that began before its
 * fexit was attached, a recursion miss of the exit) is stale; it is reclaimed, and counted in
 * `stale`, by the first probe that can prove it, never paired into a sample:
 *  - older than LAT_RUN_MAX_NS;
 *  - entered in a deeper interrupt context than the one now running (preempt_count bits only
 *    grow while an interrupt nests, so that interrupt has returned);
 *  - at a push: entered in the same context (and, in task context, by the same thread: the
 *    same stack) at or below the new call's frame, i.e. from a frame that has returned
 *    (stacks grow down, so a live outer call's frame lies above the new one's);
 *  - at a pop: above the popped entry, in the same context and (task context) thread: a call
 *    nested in the one returning must have returned first.
 * The popped entry becomes a tombstone (ID 0) where another task's entry lies above it (a
 * task that preempted this program, PREEMPT_RT); tombstones at the top are popped by the next
 * probe. A helper-call slot (lat_hnest) still in flight at the depth of an entry that goes is
 * reclaimed too, counted in the slots' `stale`: by the probe that pops the entry on the slow
 * paths, by the next push at that depth after the exit's straight path (nothing uses a slot
 * above the top entry meanwhile).
 *
 * Cost: the straight paths (an entry on an empty stack, an exit whose entry is on top) make as
 * many helper calls as the minimal reference probe (bench/vm): the CPU and the time at each
 * end, and the interrupt context at the entry. Measured under QEMU -icount (bench/README.md).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "agg.bpf.h"
#include "emit.bpf.h"
#include "nest.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* The watched program's ID (set before load). */
const volatile __u32 target_id = 0;

/* 1: aggregate in the kernel (lat_agg); 0: one ring-buffer event per run (set before load). */
const volatile __u32 agg_on = 1;

/* This copy's per-CPU aggregates are agg.bpf.h's lat_agg: user space sets its max_entries to
 * the number of possible CPUs before load (1 when agg_on is 0). */

/* Set by user space before detaching: the entry stops pushing, so that the calls in flight can
 * finish through their exit before the links go (a trampoline replaced while a call runs in it
 * is patched to skip its fexit programs: the call's entry would be left stale). */
volatile __u32 entry_off SEC(".bss");

/* A stack index the verifier can bound: the mask, kept even where clang has proved it
 * redundant (it drops it otherwise, and the verifier cannot follow clang's proof). */
static __always_inline __u32 nest_idx(__u32 i)
{
	barrier_var(i);
	return i & (LAT_NEST_MAX - 1);
}
#define NEST_IDX(i) nest_idx(i)

/* A helper-call slot at depth i goes with its program entry: reclaim a call still in it. */
static __always_inline void slot_reclaim(struct lat_hnest *h, __u32 i)
{
	if (h && h->start_ns[NEST_IDX(i)]) {
		h->start_ns[NEST_IDX(i)] = 0;
		h->stale++;
	}
}

/* Is entry i stale, seen from a probe running in context ctx at time now? Rules that hold at
 * both ends (age, a deeper context that has returned). */
static __always_inline bool stale_any(const struct lat_nest *n, __u32 i, __u32 ctx, __u64 now)
{
	return now - n->start_ns[NEST_IDX(i)] > LAT_RUN_MAX_NS || n->ctx[NEST_IDX(i)] > ctx;
}

/* Was entry i made on the stack a probe with frame tag in context ctx runs on? Task context:
 * each thread has its own stack, which the frame's address names (same_task_stack); an
 * interrupt context runs on the CPU's. */
static __always_inline bool same_stack(const struct lat_nest *n, __u32 i, __u32 ctx, __u64 tag)
{
	return n->ctx[NEST_IDX(i)] == ctx && (ctx || same_task_stack(n->tag[NEST_IDX(i)], tag));
}

/* The entry's slow path, when the stack is not empty: reclaim stale entries from the top down
 * (a live entry under a stale one waits for the next probe); returns the depth left. Frames
 * compare only where contexts are known: without them an interrupt's frame (the IRQ stack) and
 * the interrupted task's are on different stacks. */
static __always_inline __u32 entry_reclaim(struct lat_nest *n, struct lat_hnest *h, __u32 d,
					   __u32 cur, __u64 tag)
{
	__u64 now = bpf_ktime_get_ns();
	bool frames = cpu_ctx_readable();

	for (int k = 0; k < LAT_NEST_MAX && d > 0; k++) {
		__u32 t = d - 1;

		if (n->ids[NEST_IDX(t)] != 0) { /* 0: a tombstone (see the exit) */
			if (!stale_any(n, t, cur, now) &&
			    !(frames && same_stack(n, t, cur, tag) && n->tag[NEST_IDX(t)] <= tag))
				break;
			n->stale++;
			slot_reclaim(h, t);
		}
		d = t;
	}
	return d;
}

/* The hot path asks the kernel only for what it needs (helper calls are most of a probe's
 * cost, as many as the minimal reference probe makes): the CPU at each end, the time at each
 * end, and the context at the entry, where it is stored; the thread is the frame's stack. The
 * rules above run only where the stack is not empty. */
SEC("fentry/placeholder")
int BPF_PROG(lat_prog_entry)
{
	__u64 tag = (__u64)ctx;
	__u32 cpu = bpf_get_smp_processor_id(), cur, d, di;
	struct lat_nest *n = cpu_nest_at(cpu);
	struct lat_hnest *h = cpu_hnest_at(cpu);

	if (!n || entry_off)
		return 0;
	cur = cpu_irq_ctx();
	d = n->depth;
	if (d) {
		if (d > LAT_NEST_MAX)
			d = LAT_NEST_MAX;
		d = entry_reclaim(n, h, d, cur, tag);
	}
	if (d >= LAT_NEST_MAX) {
		n->depth = d;
		n->overflow++;
		return 0;
	}
	di = NEST_IDX(d); /* the index once: each NEST_IDX is a mask clang must keep */
	n->ids[di] = target_id;
	/* The context the program runs in: a map call from another one is not its own. */
	n->ctx[di] = cur;
	n->tag[di] = tag;
	n->start_ns[di] = bpf_ktime_get_ns();
	/* A slot left at this depth (a helper call whose exit never came, in an entry the exit's
	 * straight path popped without looking at the slots) goes now, counted stale: no helper
	 * probe uses a slot above the top entry, so it could wait until this push. */
	slot_reclaim(h, di);
	n->depth = d + 1;
	return 0;
}

/* Where is this exit's entry? The topmost with our program and our frame (LAT_NEST_MAX: none). */
static __always_inline __u32 exit_find(const struct lat_nest *n, __u32 d, __u64 tag)
{
	for (int k = 0; k < LAT_NEST_MAX; k++) {
		__u32 t;

		if ((__u32)k >= d)
			break;
		t = d - 1 - k;
		if (n->ids[NEST_IDX(t)] == target_id && n->tag[NEST_IDX(t)] == tag)
			return t;
	}
	return LAT_NEST_MAX;
}

/* The exit's slow path: our entry is not the top one, or a tombstone lies under it. Find ours,
 * take its start (*start) and pop what the rules allow; false: no entry of ours (unpaired). */
static __always_inline bool exit_slow(struct lat_nest *n, __u32 cpu, __u32 d, __u64 tag,
				      __u64 now, __u64 *start)
{
	struct lat_hnest *h = cpu_hnest_at(cpu);
	__u32 cur = 0, i = exit_find(n, d, tag);
	bool known = false; /* cur read (only for entries above ours) */

	if (i >= LAT_NEST_MAX) {
		n->unpaired++;
		return false;
	}
	*start = n->start_ns[NEST_IDX(i)];
	slot_reclaim(h, i);
	/* Ours becomes a tombstone (no program has ID 0); then pop from the top down to the first
	 * live entry: tombstones, and entries above ours of calls nested in ours that never saw
	 * their exit (stale). Another task's entry above ours (it preempted us) stops the pop, and
	 * ours stays a tombstone under it until that one is popped. */
	n->ids[NEST_IDX(i)] = 0;
	for (int k = 0; k < LAT_NEST_MAX; k++) {
		__u32 t;

		if (d == 0)
			break;
		t = d - 1;
		if (n->ids[NEST_IDX(t)] != 0) {
			if (t < i)
				break;
			if (!known) {
				cur = cpu_irq_ctx();
				known = true;
			}
			if (!stale_any(n, t, cur, now) && !same_stack(n, t, cur, tag))
				break;
			n->stale++;
			slot_reclaim(h, t);
		}
		d = t;
	}
	n->depth = d;
	return true;
}

/* The common case is straight: our entry on top, a live entry (or none) under it. It pops
 * ours by lowering the depth (nothing reads above the top) and leaves the helper-call slot at
 * that depth to the next push there (see the entry). */
SEC("fexit/placeholder")
int BPF_PROG(lat_prog_exit)
{
	__u64 now = bpf_ktime_get_ns(), tag = (__u64)ctx, start = 0;
	__u32 cpu = bpf_get_smp_processor_id(), d, t;
	struct lat_nest *n = cpu_nest_at(cpu);

	if (!n)
		return 0;
	d = n->depth;
	if (d > LAT_NEST_MAX)
		d = LAT_NEST_MAX;
	t = NEST_IDX(d - 1);
	if (d && n->ids[t] == target_id && n->tag[t] == tag &&
	    (t == 0 || n->ids[NEST_IDX(t - 1)] != 0)) {
		start = n->start_ns[t];
		n->depth = t;
	} else if (!exit_slow(n, cpu, d, tag, now, &start)) {
		return 0;
	}
	if (now - start > LAT_RUN_MAX_NS) {
		n->stale++; /* ours is too old to be a run: not a sample */
		return 0;
	}
	if (agg_on)
		agg_add_at(0, LAT_MAX_CPUS, cpu, now - start); /* one slot: a record per CPU */
	else
		emit_event(LAT_EV_PROG, 0, target_id, 0, 0, start, now - start);
	return 0;
}
