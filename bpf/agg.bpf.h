/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * agg.bpf.h - add one run to a per-CPU in-kernel aggregate (struct lat_agg, bpf/lattop.h):
 * shared by the program probes (progtrace.bpf.c), the helper probes (helpertrace.bpf.c), each
 * of which gets its own mmapable lat_agg array, defined here, the spans (span.bpf.h: one
 * array for the spans object and its fentry/fexit copies) and the vhost chain (vhost.bpf.c).
 *
 * Only the CPU a record belongs to adds to it, with atomic adds (a probe nested on the same CPU
 * between a load and a store of the one it interrupted cannot lose an increment); max and
 * min_inv rise by compare-and-swap. The collector takes what a record gained with atomic
 * exchanges (collect/progagg.c).
 */
#ifndef LATTOP_AGG_BPF_H
#define LATTOP_AGG_BPF_H

#include "lattop.h"

/* The aggregates (struct lat_agg) of the object that includes this: user space sizes the array
 * before load (progtrace.bpf.c: one record per possible CPU; helpertrace.bpf.c: one per site
 * and CPU; span.bpf.h: one per span and CPU; vhost.bpf.c: one per segment and CPU; 1 when
 * nothing is aggregated) and mmaps it. An ARRAY: its lookup is inlined by the verifier, so it
 * calls no traceable kernel function. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct lat_agg);
} lat_agg SEC(".maps");

#ifndef LAT_COMPAT
/* Raise *p to v unless it is already as large; a nested probe on this CPU may change *p between
 * the load and the swap, so try again (each retry means *p grew: four are plenty). */
static __always_inline void agg_raise(__u64 *p, __u64 v)
{
	for (int k = 0; k < 4; k++) {
		__u64 old = *p;

		if (v <= old || __sync_val_compare_and_swap(p, old, v) == old)
			return;
	}
}
#endif

#ifdef LAT_COMPAT
/*
 * The objects built for kernels before 5.12 (LAT_COMPAT: no atomic compare-and-swap, no fetching
 * atomics; the verifier refuses the instruction, "BPF_STX uses reserved fields"). Only this
 * CPU's probes write the record, and probes on one CPU nest last in, first out (an interrupting
 * probe runs to its end before the interrupted one goes on; on those kernels nothing preempts
 * a task inside a BPF program), so a plain read-modify-write is exact unless a nested probe
 * updates the same word between its load and its store. The record's `nest` counts the
 * updates in progress (a nested probe leaves it as it found it, so a plain increment and
 * decrement keep it right); the outermost update raises max and min_inv, any nested one
 * max_n and min_inv_n, which no update at the outer level touches. A run that ends two levels
 * deep inside the update of a run one level deep could be lost from max_n or min_inv_n (never
 * from the buckets, and the harvest keeps max and min within the buckets taken).
 */
#define agg_fence() asm volatile("" ::: "memory")

static __always_inline void agg_minmax(struct lat_agg *a, __u64 dur)
{
	__u32 lvl = a->nest;

	a->nest = lvl + 1;
	agg_fence();
	if (lvl == 0) {
		if (dur > a->max)
			a->max = dur;
		if (~dur > a->min_inv)
			a->min_inv = ~dur;
	} else {
		if (dur > a->max_n)
			a->max_n = dur;
		if (~dur > a->min_inv_n)
			a->min_inv_n = ~dur;
	}
	agg_fence();
	a->nest = lvl;
}
#else
static __always_inline void agg_minmax(struct lat_agg *a, __u64 dur)
{
	agg_raise(&a->max, dur);
	agg_raise(&a->min_inv, ~dur);
}
#endif

/* Add one run of dur ns to a (this CPU's record). The bucket before the count, so that a count
 * the collector sees has its bucket behind it. */
static __always_inline void agg_add(struct lat_agg *a, __u64 dur)
{
	__u64 b = lat_hist_bucket(dur); /* a __u64: see hist_bucket.h */

	if (b >= LAT_HIST_NBUCKETS)
		return;
	__sync_fetch_and_add(&a->buckets[b], 1);
	__sync_fetch_and_add(&a->sum, dur);
	__sync_fetch_and_add(&a->count, 1);
	agg_minmax(a, dur);
}

/* Add one run of dur ns to slot's record of CPU cpu, the layout every user of lat_agg shares:
 * ncpu records per slot (a program, a (program, map) site, a span, a vhost segment), record
 * slot * ncpu + cpu. ncpu is the number of possible CPUs, which every CPU id is below (a
 * caller whose ncpu can be 0, aggregation off, tests that first). False when the record is not
 * there (past what user space sized), so the caller can send the run as an event instead. */
static __always_inline bool agg_add_at(__u32 slot, __u32 ncpu, __u32 cpu, __u64 dur)
{
	__u32 i = slot * ncpu + cpu;
	struct lat_agg *a;

	if (cpu >= ncpu) /* never for a possible CPU; else it would be the next slot's record */
		return false;

	a = bpf_map_lookup_elem(&lat_agg, &i);
	if (!a)
		return false;
	agg_add(a, dur);
	return true;
}

#endif /* LATTOP_AGG_BPF_H */
