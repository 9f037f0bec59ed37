/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hist_bucket.h - the log-linear histogram's bucket layout: one definition for BPF and user space.
 *
 * Included by bpf/ (after vmlinux.h) and by src/model/hist.c (with <linux/types.h>), so that
 * a histogram aggregated in the kernel and one filled in user space put every duration in the
 * same bucket and can be merged by adding counts.
 *
 * Layout, with S = 2^LAT_HIST_SUB_BITS (128) and H = S/2 (64):
 *
 *   - values 0 .. S-1 have one bucket each (buckets 0 .. S-1, exact);
 *   - a value v >= S whose highest set bit is p (S <= 2^p <= v < 2^(p+1)) falls into one of the
 *     H equal sub-buckets of [2^p, 2^(p+1)), each w = 2^(p-LAT_HIST_SUB_BITS+1) wide.
 *
 * Both cases are one formula. Let shift = max(p, SUB_BITS-1) - (SUB_BITS-1), which is what
 * msb(v | (S-1)) - (SUB_BITS-1) computes without a branch on the value's range. Then
 *
 *   index = shift * H + (v >> shift)
 *
 * For shift 0 that is v itself; for shift >= 1, v >> shift lies in [H, S), so each power of two
 * takes the next H indexes. Powers 2^SUB_BITS .. 2^(MAX_POW2-1) give (MAX_POW2 - SUB_BITS) rows
 * of H after the S exact buckets: NBUCKETS = S + (MAX_POW2 - SUB_BITS) * H = 2240. Values above
 * LAT_HIST_TOP clamp into the top bucket.
 *
 * The highest set bit: user space uses one clz instruction; BPF cannot, because Debian 12's
 * clang 14 crashes in BPF instruction selection on __builtin_clzll (checked: "PLEASE submit a
 * bug report", SelectionDAG legalisation of ctlz), so BPF uses a six-step binary search with no
 * loop (about 20 instructions, nothing for the verifier to bound). The unit test checks both
 * against each other at every bit position, and a host test runs the BPF build of
 * lat_hist_bucket on every bucket boundary.
 *
 * BPF callers: the verifier cannot see that the index is below LAT_HIST_NBUCKETS; check it
 * (`if (b >= LAT_HIST_NBUCKETS)`) before indexing an array with it, and keep it in a __u64:
 * with a __u32, clang 14 compared one zero-extended copy and indexed with another, and the
 * verifier refused the access (bench/vm/xdpbench_probe.bpf.c).
 */
#ifndef LATTOP_HIST_BUCKET_H
#define LATTOP_HIST_BUCKET_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define LAT_HIST_SUB_BITS 7  /* 128 sub-buckets per power of two: <= 0.78% relative error */
#define LAT_HIST_MAX_POW2 40 /* values up to 2^40 ns (~18.3 min) are bucketed without clamping */
#define LAT_HIST_SUB (1u << LAT_HIST_SUB_BITS) /* exact buckets, and values per row of H */
#define LAT_HIST_HALF (LAT_HIST_SUB >> 1)      /* sub-buckets per power of two */
#define LAT_HIST_NBUCKETS (LAT_HIST_SUB + (LAT_HIST_MAX_POW2 - LAT_HIST_SUB_BITS) * LAT_HIST_HALF)
#define LAT_HIST_TOP ((1ull << LAT_HIST_MAX_POW2) - 1) /* largest value bucketed unclamped */

_Static_assert(LAT_HIST_SUB_BITS >= 1 && LAT_HIST_SUB_BITS < LAT_HIST_MAX_POW2 &&
		   LAT_HIST_MAX_POW2 < 64,
	       "hist layout constants out of range");

/* Highest set bit of v (v != 0) by binary search: no loop and no clz, for BPF. */
static inline __attribute__((always_inline)) __u32 lat_hist_msb_search(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/* Highest set bit of v (v != 0): one instruction in user space, the search in BPF. */
static inline __attribute__((always_inline)) __u32 lat_hist_msb(__u64 v)
{
#ifdef __bpf__
	return lat_hist_msb_search(v);
#else
	return (__u32)(63 - __builtin_clzll(v));
#endif
}

/* Bucket of a duration, values above LAT_HIST_TOP clamped into the top bucket. */
static inline __attribute__((always_inline)) __u32 lat_hist_bucket(__u64 v)
{
	__u32 shift;

	v = v < LAT_HIST_TOP ? v : LAT_HIST_TOP;
	shift = lat_hist_msb(v | (LAT_HIST_SUB - 1)) - (LAT_HIST_SUB_BITS - 1);
	return shift * LAT_HIST_HALF + (__u32)(v >> shift);
}

/* Width exponent of bucket b (0 for the exact buckets); b must be < LAT_HIST_NBUCKETS. */
static inline __attribute__((always_inline)) __u32 lat_hist_bucket_shift(__u32 b)
{
	return b < LAT_HIST_SUB ? 0 : b / LAT_HIST_HALF - 1;
}

/* Lowest value of bucket b; b must be < LAT_HIST_NBUCKETS. */
static inline __attribute__((always_inline)) __u64 lat_hist_bucket_lo(__u32 b)
{
	__u32 shift = lat_hist_bucket_shift(b);

	return shift ? (__u64)(b % LAT_HIST_HALF + LAT_HIST_HALF) << shift : b;
}

/* Highest value of bucket b (the top bucket also takes the clamped values above it); b must be
 * < LAT_HIST_NBUCKETS. */
static inline __attribute__((always_inline)) __u64 lat_hist_bucket_hi(__u32 b)
{
	return lat_hist_bucket_lo(b) + (1ull << lat_hist_bucket_shift(b)) - 1;
}

#endif /* LATTOP_HIST_BUCKET_H */
