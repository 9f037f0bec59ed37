// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * progtrace.bpf.c - per-invocation latency of one BPF program with fentry/fexit.
 *
 * The attach target is fixed at load time, so user space loads one copy of this object per
 * watched program (bpf_program__set_attach_target with the target's fd and BTF name) and sets
 * target_id in its rodata. All copies share `events`, `lat_drops`, `lat_nest` and `lat_hnest`.
 *
 * Where starts live. In task context (the CPU's preempt_count has no NMI, hardirq or serving-
 * softirq bit: cpu_in_task), in a slot of the running task (nest.bpf.h task_idx: entries after
 * the per-CPU ones in lat_nest and lat_hnest, found from a hash of the task_struct's address,
 * claimed by compare-and-swap, the depth in the owner word), so that tasks preempting each
 * other inside watched programs (PREEMPT_RT, preempt=full: uprobe, cgroup, trampoline and
 * syscall programs run with only migration disabled) never share a stack; a task's own calls
 * nest there (a program in a program), deeper frames above. Interrupt contexts, which nothing
 * preempts, and every context where preempt_count cannot be read, use the CPU's stack, below.
 * Programs nest on a CPU (task context interrupted by softirq, hardirq or NMI; a kprobe program
 * inside a watched program's map call), so there starts live on a per-CPU stack (lat_nest),
 * not in one slot. Each entry keeps the program, its start, the
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
 * The popped entry becomes a tombstone (ID 0) where another entry lies above it that its pop
 * cannot prove stale; tombstones at the top are popped by the next probe. A helper-call slot
 * (lat_hnest) still in flight at the depth of an entry that goes is reclaimed too, counted in
 * the slots' `stale`: by the probe that pops the entry on the slow paths, by the next push at
 * that depth after the exit's straight path (nothing uses a slot above the top entry
 * meanwhile); a task's push looks only once helper probes may have filled one (hslots_on).
 *
 * Probe copies (copies = 1, where tasks are preempted inside BPF programs: PREEMPT_RT, or a
 * dynamic kernel in full or lazy mode; user space decides, progtrace__copies). The kernel runs
 * a tracing program under a per-CPU recursion count of its own (__bpf_prog_enter_recur:
 * prog->active, with only migration disabled): while one task is preempted inside our entry or
 * exit probe, or in the trampoline code around it, the kernel skips that probe for every other
 * task on the CPU. No instruction of ours runs in that window, so no probe can close it. A
 * second pair of identical programs (lat_prog_entry2, lat_prog_exit2) has counts of its own:
 * a call loses its entry (or exit) only if both copies are held by other preempted tasks on
 * that CPU at once. The first entry that runs pushes; the other finds the call's frame on top
 * and stops. The first exit that runs pops and marks the frame in the stack's `popped` (cleared
 * by every push); the other finds the mark, clears it and stops. `unpaired` then counts calls
 * whose entry both copies missed (user space shows it as recursion), prog_stale those whose
 * exit both missed.
 *
 * Cost: the straight paths (an entry into a task's free slot, an exit whose entry is on top of
 * the task's slot) ask the kernel for the context and the time at the entry, the task at both
 * ends, the time and the CPU at the exit (the aggregate is per CPU). Measured part by part under
 * QEMU -icount (bench/README.md "Part by part"): on 6.1 the task slot costs 10 instructions a
 * run over the per-CPU stack, the context read 16, the aggregate 29 over a log2 slot.
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

/* 1: the second pair of probes (lat_prog_entry2/exit2) is attached too (set before load; see
 * "Probe copies" above). 0: the probes skip the copies' checks. */
const volatile __u32 copies = 0;

/* Tests only (LATTOP_TEST_UNSEEN=N): every Nth run ends here unrecorded and uncounted, a run
 * the probes did not see, so that the test of lattop's audit against bpf_stats (unaccounted)
 * can make one on purpose. 0: off. */
const volatile __u32 lat_unseen_every = 0;
__u64 lat_unseen_n = 0;

/* This copy's per-CPU aggregates are agg.bpf.h's lat_agg: user space sets its max_entries and
 * agg_ncpu to the number of possible CPUs before load (1 when agg_on is 0). */
const volatile __u32 agg_ncpu = 1;

/* Set by user space before detaching: the entry stops pushing, so that the calls in flight can
 * finish through their exit before the links go (a trampoline replaced while a call runs in it
 * is patched to skip its fexit programs: the call's entry would be left stale). */
volatile __u32 entry_off SEC(".bss");

/* Set by user space (progtrace__hnest_fd) before any helper probe can take a helper-call slot,
 * and never cleared: until then every slot is empty, so the task path's push skips looking at
 * the slot of its depth (a map lookup and a load: 24 instructions a run on 6.1 under QEMU
 * -icount, 9 for this test instead; bench/README.md "Part by part"). */
volatile __u32 hslots_on SEC(".bss");

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

/* Where is this exit's entry? The topmost with our program and our frame (LAT_NEST_MAX: none). */
static __always_inline __u32 exit_find(const struct lat_nest *n, __u32 d, __u64 tag);

/* The interrupt contexts' path (and every context's where contexts cannot be read): the CPU's
 * stack. The hot path asks the kernel only for what it needs (helper calls are most of a
 * probe's cost): the CPU, the time, and the context, where it is stored. The rules above run
 * only where the stack is not empty. With copies, the first entry probe of this call that ran
 * pushed it: the other finds its frame and stops. */
static __always_inline int cpu_entry(__u64 tag, __u32 cur)
{
	__u32 cpu = bpf_get_smp_processor_id(), d, di;
	struct lat_nest *n = cpu_nest_at(cpu);
	struct lat_hnest *h = cpu_hnest_at(cpu);

	if (!n)
		return 0;
	d = n->depth;
	if (d) {
		if (d > LAT_NEST_MAX)
			d = LAT_NEST_MAX;
		if (copies && exit_find(n, d, tag) < LAT_NEST_MAX)
			return 0;
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
	if (copies)
		n->popped = 0; /* an exit's mark from an earlier call with this frame goes */
	return 0;
}

/* Write entry d of task slot n (index i in the maps): this call's, start last. The helper-call
 * slot at that depth goes with it (a call whose exit never came: counted stale on this CPU),
 * once helper probes may have used the slots (hslots_on). No context is stored: a task slot's
 * entries are all task context (ctx stays 0, and nothing reads it there). */
static __always_inline void task_write(struct lat_nest *n, __u32 i, __u32 d, __u64 tag)
{
	struct lat_hnest *h = hslots_on ? bpf_map_lookup_elem(&lat_hnest, &i) : NULL;

	d = NEST_IDX(d);
	n->ids[d] = target_id;
	n->tag[d] = tag;
	n->popped = 0;
	if (h && h->start_ns[d]) {
		struct lat_hnest *c = cpu_hnest_at(bpf_get_smp_processor_id());

		h->start_ns[d] = 0;
		if (c)
			__sync_fetch_and_add(&c->stale, 1);
	}
	n->start_ns[d] = bpf_ktime_get_ns();
}

/* Push this call on the slot the task holds (depth d, 1 to LAT_NEST_MAX): entries of deeper
 * frames than ours have returned (their exit never came: stale); one with our frame is this
 * call's, pushed by the other copy. The slot stays held throughout (depth 0 is never stored). */
static __always_inline int task_push(struct lat_nest *n, __u32 i, __u64 w, __u64 tag)
{
	__u64 key = w & ~LAT_TASK_DEPTH_MASK;
	__u32 d = w & LAT_TASK_DEPTH_MASK;

	if (d > LAT_NEST_MAX)
		d = LAT_NEST_MAX;
	if (!task_frame(n, d, tag)) { /* a dead task's entries, its task_struct reused */
		for (int k = 0; k < LAT_NEST_MAX && d > 0; k++, d--)
			CPU_COUNT(stale);
	}
	for (int k = 0; k < LAT_NEST_MAX && d > 0; k++) {
		if (n->tag[NEST_IDX(d - 1)] >= tag)
			break;
		CPU_COUNT(stale);
		d--;
	}
	if (d > 0 && n->tag[NEST_IDX(d - 1)] == tag) {
		n->owner = key | d;
		return 0;
	}
	if (d >= LAT_NEST_MAX) {
		n->owner = key | d;
		CPU_COUNT(overflow);
		return 0;
	}
	task_write(n, i, d, tag);
	n->owner = key | (d + 1);
	return 0;
}

/* Task context: the task's own slot, never shared with another task, so tasks that preempt
 * each other on a CPU keep their entries apart. The first of the slots it may use (nest.bpf.h
 * task_idx) that it holds, or that is free: claimed with a compare-and-swap (tasks on other
 * CPUs may claim it too); counted in `nest` (overflow) where all are held by others. */
static __always_inline int task_entry(__u64 tag)
{
	__u64 key = task_key();

	for (__u32 k = 0; k < LAT_TASK_PROBES; k++) {
		__u32 i = task_idx(key, k);
		struct lat_nest *n = bpf_map_lookup_elem(&lat_nest, &i);
		__u64 o;

		if (!n)
			return 0;
		o = n->owner;
		if (o & LAT_TASK_DEPTH_MASK) {
			if ((o & ~LAT_TASK_DEPTH_MASK) == key)
				return task_push(n, i, o, tag);
			continue;
		}
		if (__sync_val_compare_and_swap(&n->owner, o, key | 1) != o)
			continue;
		task_write(n, i, 0, tag);
		return 0;
	}
	CPU_COUNT(overflow);
	return 0;
}

static __always_inline int prog_entry(__u64 tag)
{
	if (entry_off)
		return 0;
	if (cpu_in_task())
		return task_entry(tag);
	return cpu_entry(tag, cpu_irq_ctx());
}

SEC("fentry/placeholder")
int BPF_PROG(lat_prog_entry)
{
	return prog_entry((__u64)ctx);
}

/* The copy (see "Probe copies"): the kernel skips each probe program on its own. */
SEC("fentry/placeholder")
int BPF_PROG(lat_prog_entry2)
{
	return prog_entry((__u64)ctx);
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

/* Add a run that began at start and ended at now to this copy's aggregate (or send it). */
static __always_inline int exit_sample(__u32 cpu, __u64 start, __u64 now)
{
	if (now - start > LAT_RUN_MAX_NS) {
		CPU_COUNT(stale); /* ours is too old to be a run: not a sample */
		return 0;
	}
#ifdef LAT_COMPAT
	/* No fetching atomics before 5.12: a plain increment (the knob's tests run one CPU). */
	if (lat_unseen_every && lat_unseen_n++ % lat_unseen_every == 0)
		return 0;
#else
	if (lat_unseen_every && __sync_fetch_and_add(&lat_unseen_n, 1) % lat_unseen_every == 0)
		return 0;
#endif
	/* One slot, a record per CPU: always there for a possible CPU; were it not, the run would
	 * go as an event rather than be lost. */
	if (!agg_on || !agg_add_at(0, agg_ncpu, cpu, now - start))
		emit_event(LAT_EV_PROG, 0, target_id, 0, 0, start, now - start);
	return 0;
}

/* Task context, the task's slot n (owner word w): pop entries of deeper frames (nested calls
 * whose exit never came: stale), then ours if it is on top. With copies, the first exit probe
 * to run marks the frame in popped, found or not; the other finds the mark, clears it and
 * stops (prog_exit). The mark is written before the owner word: once the depth is 0,
 * another task may claim the slot. */
static __always_inline int task_exit(struct lat_nest *n, __u64 w, __u64 tag, __u64 now)
{
	__u64 key = w & ~LAT_TASK_DEPTH_MASK, start = 0;
	__u32 d = w & LAT_TASK_DEPTH_MASK, d0;
	bool found = false;

	if (d > LAT_NEST_MAX)
		d = LAT_NEST_MAX;
	d0 = d;
	for (int k = 0; k < LAT_NEST_MAX && d > 0; k++) {
		if (n->tag[NEST_IDX(d - 1)] >= tag)
			break;
		CPU_COUNT(stale);
		d--;
	}
	if (d > 0 && n->tag[NEST_IDX(d - 1)] == tag && n->ids[NEST_IDX(d - 1)] == target_id) {
		start = n->start_ns[NEST_IDX(d - 1)];
		found = true;
		d--;
	}
	if (copies)
		n->popped = tag;
	if (d != d0)
		n->owner = key | d;
	if (!found) {
		CPU_COUNT(unpaired); /* both entry copies missed, or not attached yet */
		return 0;
	}
	return exit_sample(bpf_get_smp_processor_id(), start, now);
}

/* The CPU's stack (interrupt contexts). The common case is straight: our entry on top, a live
 * entry (or none) under it. It pops ours by lowering the depth (nothing reads above the top)
 * and leaves the helper-call slot at that depth to the next push there (see the entry). With
 * copies, the first exit to run marks the frame in popped; the other finds it and stops. */
static __always_inline int cpu_exit(__u64 tag, __u64 now)
{
	__u64 start = 0;
	__u32 cpu = bpf_get_smp_processor_id(), d, t;
	struct lat_nest *n = cpu_nest_at(cpu);

	if (!n)
		return 0;
	if (copies && n->popped == tag) {
		n->popped = 0;
		return 0;
	}
	d = n->depth;
	if (d > LAT_NEST_MAX)
		d = LAT_NEST_MAX;
	t = NEST_IDX(d - 1);
	if (d && n->ids[t] == target_id && n->tag[t] == tag &&
	    (t == 0 || n->ids[NEST_IDX(t - 1)] != 0)) {
		start = n->start_ns[t];
		n->depth = t;
	} else if (!exit_slow(n, cpu, d, tag, now, &start)) {
		if (copies)
			n->popped = tag;
		return 0;
	}
	if (copies)
		n->popped = tag;
	return exit_sample(cpu, start, now);
}

/* An exit off the straight path: in the running task's slot if its top entry was made on this
 * frame's stack (an interrupt's frame is on another stack), else on the CPU's stack. With
 * copies, a task whose slot has no entry left finds there the mark of the copy that ran first. */
static __always_inline int exit_other(__u64 key, __u64 tag, __u64 now)
{
	__u64 w = 0;
	__u32 i = 0;
	struct lat_nest *n = task_find(key, &i, &w);

	if (n) {
		if (copies && n->popped == tag) {
			n->popped = 0;
			return 0;
		}
		if (task_frame(n, w & LAT_TASK_DEPTH_MASK, tag))
			return task_exit(n, w, tag, now);
	}
	return cpu_exit(tag, now);
}

/* An exit. The straight path: the task holds the first slot it may use, our entry on top. */
static __always_inline int prog_exit(__u64 tag)
{
	__u64 now = bpf_ktime_get_ns(), key = task_key(), w, start;
	__u32 i = task_idx(key, 0), d;
	struct lat_nest *n = bpf_map_lookup_elem(&lat_nest, &i);

	if (!n)
		return 0;
	w = n->owner;
	d = (w & LAT_TASK_DEPTH_MASK) - 1;
	if ((w & ~LAT_TASK_DEPTH_MASK) != key || d >= LAT_NEST_MAX || n->tag[NEST_IDX(d)] != tag ||
	    n->ids[NEST_IDX(d)] != target_id || (copies && n->popped == tag))
		return exit_other(key, tag, now);
	start = n->start_ns[NEST_IDX(d)];
	if (copies)
		n->popped = tag;
	n->owner = key | d; /* the last store: at depth 0 another task may claim the slot */
	return exit_sample(bpf_get_smp_processor_id(), start, now);
}

SEC("fexit/placeholder")
int BPF_PROG(lat_prog_exit)
{
	return prog_exit((__u64)ctx);
}

SEC("fexit/placeholder")
int BPF_PROG(lat_prog_exit2)
{
	return prog_exit((__u64)ctx);
}
