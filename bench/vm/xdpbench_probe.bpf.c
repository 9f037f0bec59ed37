// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * xdpbench_probe.bpf.c - observers the VM benchmark compares lattop with (attach targets are set
 * at load time, to the running bench_empty program).
 *
 * ref_entry/ref_exit: the minimal reference probe of issue 13, what bpftrace's `fentry:bpf` +
 * hist() or ebpf_exporter compile to: the entry stores a start in a per-CPU array, the exit
 * adds one to the per-CPU log2 histogram slot of the delta. Nothing else: no nesting, no
 * count/sum/max, no loss accounting.
 *
 * agg_entry/agg_exit: a prototype of in-kernel aggregation for lattop: a per-CPU stack of
 * starts (nesting on a CPU is LIFO outside PREEMPT_RT), and per CPU one log-linear histogram in
 * the user-side layout (bpf/hist_bucket.h) with an exact count, sum and max beside it, each
 * updated with an atomic add on the CPU's own memory (a program nested on the same CPU between
 * a load and a store cannot lose an increment; no other CPU writes that line). With agg_atomic
 * cleared before load the adds are plain (load, add, store): what atomics cost under the
 * benchmark's emulation, not a correct observer (a nested program can lose an increment).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "hist_bucket.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define REF_SLOTS 64

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ref_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, REF_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} ref_hist SEC(".maps");

/* Reference entry: the start time in this CPU's slot. */
SEC("fentry/placeholder")
int BPF_PROG(ref_entry)
{
	__u32 zero = 0;
	__u64 *s = bpf_map_lookup_elem(&ref_start, &zero);

	if (s)
		*s = bpf_ktime_get_ns();
	return 0;
}

/* Reference exit: one more in the log2 slot of the delta (bpftrace's hist(): slot 0 for 0,
 * else 1 + the highest set bit). */
SEC("fexit/placeholder")
int BPF_PROG(ref_exit)
{
	__u32 zero = 0, slot;
	__u64 *s = bpf_map_lookup_elem(&ref_start, &zero), *c, d;

	if (!s)
		return 0;
	d = bpf_ktime_get_ns() - *s;
	slot = d ? lat_hist_msb_search(d) + 1 : 0;
	c = bpf_map_lookup_elem(&ref_hist, &slot);
	if (c)
		*c += 1;
	return 0;
}

/* Atomic adds (set before load; the verifier drops the branch not taken). */
const volatile bool agg_atomic = true;

/* One CPU's aggregate of the watched program: 17,944 bytes (2240 buckets + 3 counters). */
struct agg_cpu {
	__u64 count, sum, max;
	__u64 buckets[LAT_HIST_NBUCKETS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct agg_cpu);
} agg SEC(".maps");

#define AGG_NEST 8
struct agg_nest {
	__u64 depth;
	__u64 start[AGG_NEST];
	__u64 overflow; /* calls nested deeper than AGG_NEST: not timed, counted */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct agg_nest);
} agg_stack SEC(".maps");

/* Prototype entry: push the start on this CPU's stack. */
SEC("fentry/placeholder")
int BPF_PROG(agg_entry)
{
	__u32 zero = 0;
	struct agg_nest *n = bpf_map_lookup_elem(&agg_stack, &zero);
	__u64 d;

	if (!n)
		return 0;
	d = n->depth++;
	if (d >= AGG_NEST) {
		n->overflow++;
		return 0;
	}
	n->start[d & (AGG_NEST - 1)] = bpf_ktime_get_ns();
	return 0;
}

/* Prototype exit: pop the start, add the duration to this CPU's histogram and counters. */
SEC("fexit/placeholder")
int BPF_PROG(agg_exit)
{
	__u64 now = bpf_ktime_get_ns(), d, dur, b;
	__u32 zero = 0;
	struct agg_nest *n = bpf_map_lookup_elem(&agg_stack, &zero);
	struct agg_cpu *a = bpf_map_lookup_elem(&agg, &zero);

	if (!n || !a || !n->depth)
		return 0;
	d = --n->depth;
	if (d >= AGG_NEST)
		return 0;
	dur = now - n->start[d & (AGG_NEST - 1)];
	/* A 64-bit index: with a 32-bit one clang compares one zero-extended copy and indexes
	 * with another, which the verifier cannot bound (it refused the add past the value). */
	b = lat_hist_bucket(dur);
	if (b >= LAT_HIST_NBUCKETS)
		return 0;
	if (agg_atomic) {
		__sync_fetch_and_add(&a->buckets[b], 1);
		__sync_fetch_and_add(&a->count, 1);
		__sync_fetch_and_add(&a->sum, dur);
	} else {
		a->buckets[b] += 1;
		a->count += 1;
		a->sum += dur;
	}
	if (dur > a->max)
		a->max = dur; /* a nested exit may raise it in between: max stays a lower bound */
	return 0;
}
