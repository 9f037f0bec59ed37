/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hist.h - log-linear latency histogram (HdrHistogram layout, integer only).
 *
 * Values are nanoseconds, 0 .. 2^HIST_MAX_POW2 - 1 (2^40 ns ~ 18 min; larger values clamp into
 * the top bucket and are counted in `clamped`, while min, max and sum keep the real value).
 * Values below 2^HIST_SUB_BITS are exact; above, each power of two is split into
 * 2^(HIST_SUB_BITS-1) equal sub-buckets (layout: bpf/hist_bucket.h, shared with the BPF
 * programs; error bound: hist.c).
 * Worst-case relative error of any percentile: 2^-HIST_SUB_BITS (0.78%).
 * Merging two histograms is an exact sum.
 *
 * Storage: hist__add (the live path: one clz and one increment per event) needs the dense
 * array of counters (hist__init, hist__densify); an empty histogram from hist__init_empty
 * holds no memory, and replayed
 * buckets (hist__add_bucket, hist__add_sparse) are kept sparse, as sorted (index, count)
 * pairs, until more than HIST_SPARSE_MAX buckets are non-empty, so what a recording costs in
 * memory follows what it holds, not the layout's 2240 buckets per histogram.
 *
 * Thread use: a histogram belongs to one thread at a time (the UI/aggregation thread).
 */
#ifndef LAT_HIST_H
#define LAT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist_bucket.h" /* the bucket layout, shared with the BPF programs */

#define HIST_SUB_BITS LAT_HIST_SUB_BITS /* 128 sub-buckets per power of two: <= 0.78% error */
#define HIST_MAX_POW2 LAT_HIST_MAX_POW2 /* values up to 2^40 ns (~18.3 min) are not clamped */
/* Non-empty buckets kept sparse (12 bytes each) before the dense array (17,920 bytes): a
 * replayed histogram goes dense only after 1 KB or more of recorded bucket pairs. */
#define HIST_SPARSE_MAX 512

struct hist {
	uint64_t count;   /* samples recorded */
	uint64_t sum;     /* sum of values (saturating) */
	uint64_t min;     /* smallest value recorded (UINT64_MAX when empty) */
	uint64_t max;     /* largest value recorded (0 when empty) */
	uint64_t clamped; /* samples above the top of the range */
	uint64_t *buckets; /* dense: hist__nbuckets() counters, or NULL (sparse or empty) */
	uint64_t *scnt;    /* sparse: counts of the non-empty buckets, then their indexes */
	uint32_t *sidx;    /* (ascending, in the same allocation as scnt) */
	uint32_t nnz, scap; /* sparse pairs used and allocated */
};

/* Number of buckets in the layout. */
uint32_t hist__nbuckets(void);
/* Bucket index a value falls into. */
uint32_t hist__bucket(uint64_t v);
/* Lowest value mapped to bucket b. */
uint64_t hist__bucket_lo(uint32_t b);
/* Highest value mapped to bucket b. */
uint64_t hist__bucket_hi(uint32_t b);

/* Initialise an empty histogram with dense buckets (what hist__add needs); 0 or -ENOMEM. */
int hist__init(struct hist *h);
/* Initialise an empty histogram that holds no memory (sparse until it needs more). */
void hist__init_empty(struct hist *h);
/* Make the buckets dense (the sparse pairs move over); 0 or -ENOMEM. */
int hist__densify(struct hist *h);
/* Release a histogram's memory and leave it empty, holding nothing (safe on a zeroed or
 * finished one). */
void hist__fini(struct hist *h);
/* Forget all samples, keep the memory. */
void hist__reset(struct hist *h);
/* Record one value: the hot path. The buckets must be dense (hist__init, hist__densify). */
void hist__add(struct hist *h, uint64_t v);
/* Record n samples of bucket b's representative value (used by replay of bucket deltas);
 * unknown buckets are ignored. Returns 0 or -ENOMEM (nothing recorded). */
int hist__add_bucket(struct hist *h, uint32_t b, uint64_t n);
/* Add n bucket counts (idx[i] += cnt[i], idx ascending; unknown indexes ignored) without
 * touching count, sum, min, max (the caller has them exactly). Returns 0 or -ENOMEM (then
 * nothing was added). */
int hist__add_sparse(struct hist *h, const uint32_t *idx, const uint64_t *cnt, size_t n);
/* dst += src (exact). Returns 0 or -ENOMEM (dst unchanged). */
int hist__merge(struct hist *dst, const struct hist *src);
/* Count in bucket b (0 for unknown buckets). */
uint64_t hist__at(const struct hist *h, uint32_t b);
/* The non-empty buckets in ascending order: start with *it = 0; each call sets *b and *n and
 * returns true, or returns false after the last. */
bool hist__next(const struct hist *h, uint32_t *it, uint32_t *b, uint64_t *n);
/* Bytes of bucket storage the histogram holds. */
size_t hist__bytes(const struct hist *h);
/* Value at quantile q (0..1): the midpoint of the bucket holding rank ceil(q*count), clamped
 * to [min, max]; q <= 0 (or NaN) gives min, q >= 1 max, an empty histogram 0. */
uint64_t hist__percentile(const struct hist *h, double q);
/* Mean in ns (0 when empty). */
double hist__mean(const struct hist *h);

/* One row of a coarse log2 view: [lo, hi] and its count. */
struct hist_log2_row {
	uint64_t lo, hi, count;
};
/* Fill up to max rows of a log2 view (power-of-two ranges from the lowest to the highest
 * non-empty one); returns the number of rows. */
int hist__log2(const struct hist *h, struct hist_log2_row *rows, int max);

#endif /* LAT_HIST_H */
