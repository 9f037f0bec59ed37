/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * promhist.h - a lattop histogram as Prometheus buckets: classic cumulative `le` buckets and a
 * native (sparse exponential) histogram. Pure arithmetic on struct hist: no I/O, no HTTP.
 *
 * Classic edges: le = 2^k ns for k = PROMHIST_LE_MIN_POW2 .. PROMHIST_LE_MAX_POW2 (32 ns ..
 * ~34.4 s), then +Inf. lattop's buckets never straddle a power of two, so a classic bucket
 * counts exactly the runs shorter than its edge (values are whole nanoseconds; a run of
 * exactly 2^k ns is counted in the next edge up). A quantile read from these buckets is only
 * known to within its power of two (up to 2x).
 *
 * Native histogram: schema PROMHIST_SCHEMA (7): 2^7 = 128 exponential buckets per power of
 * two, bucket i covering (2^((i-1)/128), 2^(i/128)] seconds, each 0.54% wide, narrower than
 * lattop's own widest relative bucket (0.78%). Each lattop bucket goes whole into the native
 * bucket holding its midpoint (the value lattop reports for it), so the order of samples is
 * kept and any quantile Prometheus interpolates lies within one native bucket (0.54%) of the
 * representative lattop reports, within 0.93% of it when lattop clamps to max. A zero bucket
 * of threshold PROMHIST_ZERO_THRESHOLD holds the 0 ns runs.
 *
 * Thread use: any thread; the functions read h only.
 */
#ifndef LAT_PROMHIST_H
#define LAT_PROMHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/hist.h"

#define PROMHIST_LE_MIN_POW2 5
#define PROMHIST_LE_MAX_POW2 35
#define PROMHIST_LE_N (PROMHIST_LE_MAX_POW2 - PROMHIST_LE_MIN_POW2 + 1) /* edges before +Inf */
#define PROMHIST_SCHEMA 7
#define PROMHIST_ZERO_THRESHOLD 1e-10 /* seconds: below 1 ns, so only 0 ns runs */

/* A run of consecutive native buckets: offset from the end of the previous span (from 0 for
 * the first: its first bucket's index), length buckets. */
struct promhist_span {
	int32_t offset;
	uint32_t length;
};

/* A native histogram: spans and, per bucket in order, the count minus the previous bucket's
 * (the first bucket's minus 0). */
struct promhist_native {
	uint64_t zero_count;
	uint32_t nspans, ndeltas;
	struct promhist_span *spans; /* nspans */
	int64_t *deltas;	     /* ndeltas = sum of the spans' lengths */
};

/* The upper edge of classic bucket i (0 .. PROMHIST_LE_N-1), in ns. */
uint64_t promhist__le_ns(int i);
/* Cumulative counts of h at the classic edges into cum[PROMHIST_LE_N] (+Inf is h->count). */
void promhist__classic(const struct hist *h, uint64_t *cum);
/* Native bucket index of a value in seconds (> 0) at PROMHIST_SCHEMA. */
int32_t promhist__native_index(double v_s);
/* Upper bound in seconds of native bucket i. */
double promhist__native_upper(int32_t i);
/* Fill out with h's native histogram (allocated; free with promhist__native_fini). Returns 0
 * or -ENOMEM. */
int promhist__native(const struct hist *h, struct promhist_native *out);
/* Free a native histogram's arrays (safe on a zeroed one). */
void promhist__native_fini(struct promhist_native *n);

#endif /* LAT_PROMHIST_H */
