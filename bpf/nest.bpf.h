/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nest.bpf.h - the per-CPU program stacks (struct lat_nest) shared by the program probes
 * (which push and pop) and the helper probes (which read the top to attribute a call), and the
 * per-CPU helper-call slots (struct lat_hnest), which the program probes reclaim when the
 * entry they belong to goes.
 *
 * User space creates both maps once and every copy reuses their fds. ARRAYs indexed by CPU:
 * their lookups are inlined by the verifier, so they call no traceable kernel function.
 * BPF_F_MMAPABLE for its page-aligned values: with whole-line records no cache line is written
 * by two CPUs (nothing maps them).
 */
#ifndef LATTOP_NEST_BPF_H
#define LATTOP_NEST_BPF_H

#include "lattop.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAT_NEST_ENTRIES(1)); /* user space creates it: LAT_NEST_ENTRIES(ncpu) */
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct lat_nest);
} lat_nest SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAT_NEST_ENTRIES(1));
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct lat_hnest);
} lat_hnest SEC(".maps");

/* CPU cpu's program stack, entry LAT_NEST_CPU0 + cpu (NULL only if the map is missing: user
 * space sizes it for every possible CPU, and the lookup's bounds check stops any index past
 * that, so no CPU ever lands in another's entry). A probe asks for its CPU once and passes it
 * around: bpf_get_smp_processor_id is a helper call on 6.1 (inlined from 6.10). */
static __always_inline struct lat_nest *cpu_nest_at(__u32 cpu)
{
	__u32 i = LAT_NEST_CPU0 + cpu;

	return bpf_map_lookup_elem(&lat_nest, &i);
}

/* CPU cpu's helper-call slots (NULL only if the map is missing). */
static __always_inline struct lat_hnest *cpu_hnest_at(__u32 cpu)
{
	__u32 i = LAT_NEST_CPU0 + cpu;

	return bpf_map_lookup_elem(&lat_hnest, &i);
}


/*
 * The CPU's preempt_count, which says whether it runs a task, serves softirqs, or handles a
 * hardirq or NMI. On x86 it is a per-CPU variable: `__preempt_count` (up to 6.1 and again from
 * 6.15) or the preempt_count field of `pcpu_hot` (6.2 to 6.14). Both are weak typed ksyms: where
 * one is missing from the kernel's BTF libbpf loads its address as 0, bpf_ksym_exists() is a
 * known false and the verifier drops that branch (selftests test_ksyms_weak.c). Where neither
 * exists (other architectures keep it in thread_info), every context reads 0: the helper probes
 * then attribute by the stack alone, as before, and user space says so
 * (helpertrace__ctx_readable checks the same two names in the kernel's BTF).
 */
extern const int __preempt_count __ksym __weak;

struct pcpu_hot___lat {
	int preempt_count;
} __attribute__((preserve_access_index));
extern const struct pcpu_hot___lat pcpu_hot __ksym __weak;

#ifndef bpf_ksym_exists /* libbpf >= 1.2 has it */
#define bpf_ksym_exists(sym) (!!(sym))
#endif

/* Set before load: behave as if neither variable existed (LATTOP_IRQ_CTX_FAIL, for tests of
 * the fallback). Every object including this header has its own copy; user space sets all. */
const volatile __u32 lat_ctx_off = 0;

/* log2 of the kernel's THREAD_SIZE (set before load; see LAT_STACK_SHIFT in lattop.h). */
const volatile __u32 lat_stack_shift = LAT_STACK_SHIFT;

/* Is frame (a probe's ctx pointer: a trampoline's frame or a kprobe's pt_regs, both on the stack
 * the probed code runs on) on the task stack of stored, an entry's tag read back from the map?
 * Meaningful in task context only: interrupts run on the CPU's stacks. The verifier allows no
 * arithmetic on the ctx pointer, only comparisons (with CAP_PERFMON), so the stack's bounds are
 * computed from the stored tag, a number; barrier_var keeps clang from folding the two
 * comparisons into a subtraction from the pointer. */
static __always_inline bool same_task_stack(__u64 stored, __u64 frame)
{
	__u64 lo = stored >> (lat_stack_shift & 63) << (lat_stack_shift & 63);
	__u64 hi = lo + (1ull << (lat_stack_shift & 63));

	barrier_var(lo);
	barrier_var(hi);
	return frame >= lo && frame < hi;
}

/* The running task: the key of its slot (a task_struct is cache-line aligned, so the low bits
 * are free for the slot's depth). A helper call: the verifier allows no arithmetic on a
 * probe's frame, so the frame's stack cannot name the slot. In an interrupt it is the
 * interrupted task: a slot is used only for frames on its owner's stack (task_frame). */
static __always_inline __u64 task_key(void)
{
	return bpf_get_current_task() & ~LAT_TASK_DEPTH_MASK;
}

/* Entry k of the slots a task with key may use (k < LAT_TASK_PROBES), the same array index in
 * lat_nest and lat_hnest: a hash of the task_struct's address, then the next slots. */
static __always_inline __u32 task_idx(__u64 key, __u32 k)
{
	__u64 b = key >> 10;

	return ((__u32)(b ^ (b >> 10) ^ (b >> 20)) + k) & (LAT_TASK_SLOTS - 1);
}

/* The slot of the task with key among the LAT_TASK_PROBES it may use: the one it holds (with a
 * depth), else the one it held last (depth 0: all its entries popped, so another task may
 * claim it at any moment); its index in *idx and its owner word in *w; NULL where none is.
 * Only the holder of a slot with a depth writes it, so what it reads there stays true until it
 * writes. */
static __always_inline struct lat_nest *task_find(__u64 key, __u32 *idx, __u64 *w)
{
	struct lat_nest *last = NULL;

	for (__u32 k = 0; k < LAT_TASK_PROBES; k++) {
		__u32 i = task_idx(key, k);
		struct lat_nest *n = bpf_map_lookup_elem(&lat_nest, &i);
		__u64 o;

		if (!n)
			break;
		o = n->owner;
		if ((o & ~LAT_TASK_DEPTH_MASK) != key)
			continue;
		if (o & LAT_TASK_DEPTH_MASK) {
			*idx = i;
			*w = o;
			return n;
		}
		if (!last) {
			*idx = i;
			*w = o;
			last = n;
		}
	}
	return last;
}

/* A loss counter of this CPU's stack, from a task slot's path: an atomic add, since the task
 * may be preempted between a load and a store by another that counts too. */
#define CPU_COUNT(field)                                                                          \
	do {                                                                                     \
		struct lat_nest *c_ = cpu_nest_at(bpf_get_smp_processor_id());                   \
		if (c_)                                                                          \
			__sync_fetch_and_add(&c_->field, 1);                                     \
	} while (0)

/* Is frame on the stack of the task whose slot n holds depth d (its top entry's frame)? No in
 * an interrupt (its own stack), nor for entries a dead task left to a task_struct reused. */
static __always_inline bool task_frame(const struct lat_nest *n, __u32 d, __u64 frame)
{
	return d > 0 && d <= LAT_NEST_MAX && same_task_stack(n->tag[(d - 1) & (LAT_NEST_MAX - 1)], frame);
}

/* The interrupt-context bits of this CPU's preempt_count (LAT_CTX_MASK), 0 where unreadable. */
static __always_inline __u32 cpu_irq_ctx(void)
{
	if (lat_ctx_off)
		return 0;
	if (bpf_ksym_exists(&__preempt_count)) {
		const int *pc = bpf_this_cpu_ptr(&__preempt_count);

		return (__u32)*pc & LAT_CTX_MASK;
	}
	if (bpf_ksym_exists(&pcpu_hot)) {
		const struct pcpu_hot___lat *hot = bpf_this_cpu_ptr(&pcpu_hot);

		return (__u32)hot->preempt_count & LAT_CTX_MASK;
	}
	return 0;
}

/* True when this CPU runs a task (no NMI, hardirq or serving-softirq bit) and contexts can be
 * read: the task-slot path. One helper call, no more tests on the hot path. */
static __always_inline bool cpu_in_task(void)
{
#ifdef LAT_COMPAT
	/* Task slots are claimed by compare-and-swap, which these kernels lack (agg.bpf.h); nothing
	 * preempts a task inside a BPF program there, so every context takes the CPU's stack. */
	return false;
#endif
	if (lat_ctx_off)
		return false;
	if (bpf_ksym_exists(&__preempt_count)) {
		const int *pc = bpf_this_cpu_ptr(&__preempt_count);

		return !((__u32)*pc & LAT_CTX_MASK);
	}
	if (bpf_ksym_exists(&pcpu_hot)) {
		const struct pcpu_hot___lat *hot = bpf_this_cpu_ptr(&pcpu_hot);

		return !((__u32)hot->preempt_count & LAT_CTX_MASK);
	}
	return false;
}

/* True when cpu_irq_ctx() tells contexts apart (false where it reads 0 everywhere). Each test
 * is made a number first: clang would otherwise OR the two addresses, which the verifier
 * refuses ("bitwise operator |= on pointer prohibited"). */
static __always_inline bool cpu_ctx_readable(void)
{
	__u32 a = bpf_ksym_exists(&__preempt_count), b = bpf_ksym_exists(&pcpu_hot);

	barrier_var(a);
	barrier_var(b);
	return !lat_ctx_off && (a || b);
}

#endif /* LATTOP_NEST_BPF_H */
