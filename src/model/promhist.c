// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * promhist.c - a lattop histogram as Prometheus classic and native buckets (see promhist.h for
 * the edges, the schema and the error bounds).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "model/promhist.h"

/* Join two runs of native buckets whose gap is at most this many empty buckets: two zero
 * deltas cost less than a new span. */
#define SPAN_JOIN_GAP 2

/* The upper edge of classic bucket i, in ns. */
uint64_t promhist__le_ns(int i) { return 1ull << (PROMHIST_LE_MIN_POW2 + i); }

/* Cumulative counts at the classic edges: a lattop bucket lies wholly below 2^k or wholly at
 * or above it, so comparing its highest value is exact. */
void promhist__classic(const struct hist *h, uint64_t *cum)
{
	uint64_t seen = 0, n = 0;
	uint32_t it = 0, b = 0;
	bool more = hist__next(h, &it, &b, &n);

	for (int i = 0; i < PROMHIST_LE_N; i++) {
		uint64_t edge = promhist__le_ns(i);

		for (; more && hist__bucket_hi(b) < edge; more = hist__next(h, &it, &b, &n))
			seen += n;
		cum[i] = seen;
	}
}

/* Native bucket index: the i with 2^((i-1)/2^schema) < v <= 2^(i/2^schema). */
int32_t promhist__native_index(double v_s)
{
	return (int32_t)ceil(log2(v_s) * (double)(1 << PROMHIST_SCHEMA));
}

/* Upper bound of native bucket i, in seconds. */
double promhist__native_upper(int32_t i)
{
	return exp2((double)i / (double)(1 << PROMHIST_SCHEMA));
}

/* The value lattop reports for bucket b (its midpoint clamped to [min, max]): the native
 * bucket that holds it holds every quantile lattop reports from b. */
static uint64_t bucket_value(const struct hist *h, uint32_t b)
{
	uint64_t lo = hist__bucket_lo(b), v = lo + (hist__bucket_hi(b) - lo) / 2;

	v = v < h->min ? h->min : v;
	return v > h->max ? h->max : v;
}

/* Append one bucket count (n, at native index idx) to out, opening a span when the gap from
 * the previous bucket is too wide; *prev_idx and *prev_cnt track the last bucket written. */
static void push_bucket(struct promhist_native *out, int32_t idx, uint64_t n, int32_t *prev_idx,
			uint64_t *prev_cnt)
{
	if (out->nspans && idx <= *prev_idx + SPAN_JOIN_GAP + 1) {
		for (int32_t g = *prev_idx + 1; g < idx; g++) {
			out->deltas[out->ndeltas++] = -(int64_t)*prev_cnt;
			*prev_cnt = 0;
		}
		out->spans[out->nspans - 1].length += (uint32_t)(idx - *prev_idx);
	} else {
		out->spans[out->nspans].offset = out->nspans ? idx - *prev_idx - 1 : idx;
		out->spans[out->nspans].length = 1;
		out->nspans++;
	}
	out->deltas[out->ndeltas++] = (int64_t)n - (int64_t)*prev_cnt;
	*prev_idx = idx;
	*prev_cnt = n;
}

/* Native index of each lattop bucket's midpoint, computed once (log2 per bucket is most of the
 * cost otherwise); only the first and last non-empty buckets, whose value may be clamped to
 * min or max, are computed afresh. */
#define NB ((1u << HIST_SUB_BITS) + (HIST_MAX_POW2 - HIST_SUB_BITS) * (1u << (HIST_SUB_BITS - 1)))
static int32_t mid_index[NB];
static pthread_once_t mid_once = PTHREAD_ONCE_INIT;

/* Fill mid_index. */
static void mid_init(void)
{
	for (uint32_t b = 0; b < hist__nbuckets() && b < NB; b++) {
		uint64_t lo = hist__bucket_lo(b), v = lo + (hist__bucket_hi(b) - lo) / 2;

		mid_index[b] = v ? promhist__native_index((double)v * 1e-9) : INT32_MIN;
	}
}

/* Native index of bucket b's reported value, or INT32_MIN for the zero bucket. */
static int32_t index_of(const struct hist *h, uint32_t b)
{
	uint64_t lo = hist__bucket_lo(b), v = lo + (hist__bucket_hi(b) - lo) / 2;

	if (b < NB && v >= h->min && v <= h->max)
		return mid_index[b];
	v = bucket_value(h, b);
	return v ? promhist__native_index((double)v * 1e-9) : INT32_MIN;
}

/* Fill out with h's native histogram: lattop buckets in order, each into the native bucket of
 * its reported value; buckets sharing a native index are adjacent and summed. */
int promhist__native(const struct hist *h, struct promhist_native *out)
{
	uint32_t nonzero = 0, it = 0, b;
	int32_t cur = 0, prev_idx = 0;
	uint64_t acc = 0, prev_cnt = 0, n;
	bool have = false;

	*out = (struct promhist_native){};
	while (hist__next(h, &it, &b, &n))
		nonzero++;
	if (!nonzero)
		return 0;
	pthread_once(&mid_once, mid_init);
	/* At most one span per non-empty bucket; deltas add at most SPAN_JOIN_GAP zeros each. */
	out->spans = malloc(nonzero * sizeof(*out->spans)); /* written as they are used */
	out->deltas = malloc((size_t)nonzero * (SPAN_JOIN_GAP + 1) * sizeof(*out->deltas));
	if (!out->spans || !out->deltas) {
		promhist__native_fini(out);
		return -ENOMEM;
	}
	for (it = 0; hist__next(h, &it, &b, &n);) {
		int32_t idx = index_of(h, b);

		if (idx == INT32_MIN) {
			out->zero_count += n;
			continue;
		}
		if (have && idx == cur) {
			acc += n;
			continue;
		}
		if (have)
			push_bucket(out, cur, acc, &prev_idx, &prev_cnt);
		have = true;
		cur = idx;
		acc = n;
	}
	if (have)
		push_bucket(out, cur, acc, &prev_idx, &prev_cnt);
	return 0;
}

/* Free a native histogram's arrays. */
void promhist__native_fini(struct promhist_native *n)
{
	free(n->spans);
	free(n->deltas);
	*n = (struct promhist_native){};
}
