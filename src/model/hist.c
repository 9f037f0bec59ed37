// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hist.c - log-linear latency histogram (the HdrHistogram layout).
 *
 * Values below S = 2^HIST_SUB_BITS have a bucket each (exact). A value v >= S with highest set
 * bit p falls into one of S/2 equal sub-buckets of [2^p, 2^(p+1)), each 2^(p-HIST_SUB_BITS+1)
 * wide: relative width 2^(1-HIST_SUB_BITS) = 1/64, so the bucket midpoint is within 0.79% of
 * any value in it. Index = S + (p - HIST_SUB_BITS) * S/2 + (v >> (p - HIST_SUB_BITS + 1)) - S/2.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/hist.h"

#define SUB (1u << HIST_SUB_BITS)
#define HALF (SUB / 2)
#define NBUCKETS (SUB + (HIST_MAX_POW2 - HIST_SUB_BITS) * HALF)
#define TOP_VALUE ((1ull << HIST_MAX_POW2) - 1)

/* Number of buckets in the layout. */
uint32_t hist__nbuckets(void)
{
	return NBUCKETS;
}

/* Bucket index a value falls into (values above the range go to the top bucket). */
uint32_t hist__bucket(uint64_t v)
{
	unsigned p;

	if (v < SUB)
		return (uint32_t)v;
	if (v > TOP_VALUE)
		v = TOP_VALUE;
	p = 63 - __builtin_clzll(v);
	return SUB + (p - HIST_SUB_BITS) * HALF + (uint32_t)(v >> (p - HIST_SUB_BITS + 1)) - HALF;
}

/* Lowest value mapped to bucket b. */
uint64_t hist__bucket_lo(uint32_t b)
{
	uint32_t j, sub;

	if (b < SUB)
		return b;
	j = (b - SUB) / HALF;
	sub = (b - SUB) % HALF + HALF;
	return (uint64_t)sub << (j + 1);
}

/* Highest value mapped to bucket b. */
uint64_t hist__bucket_hi(uint32_t b)
{
	if (b < SUB)
		return b;
	return hist__bucket_lo(b) + (1ull << ((b - SUB) / HALF + 1)) - 1;
}

/* Representative value of bucket b: its midpoint. */
static uint64_t bucket_mid(uint32_t b)
{
	uint64_t lo = hist__bucket_lo(b);

	return lo + (hist__bucket_hi(b) - lo) / 2;
}

/* Initialise an empty histogram. */
int hist__init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->buckets = calloc(NBUCKETS, sizeof(*h->buckets));
	if (!h->buckets)
		return -ENOMEM;
	h->nbuckets = NBUCKETS;
	h->min = UINT64_MAX;
	return 0;
}

/* Release a histogram's memory. */
void hist__fini(struct hist *h)
{
	free(h->buckets);
	memset(h, 0, sizeof(*h));
}

/* Forget all samples, keep the memory. */
void hist__reset(struct hist *h)
{
	if (h->buckets)
		memset(h->buckets, 0, h->nbuckets * sizeof(*h->buckets));
	h->count = h->sum = h->max = h->clamped = 0;
	h->min = UINT64_MAX;
}

/* Saturating add. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Record one value. */
void hist__add(struct hist *h, uint64_t v)
{
	if (v > TOP_VALUE)
		h->clamped++;
	h->buckets[hist__bucket(v)]++;
	h->count++;
	h->sum = sat_add(h->sum, v);
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Record n samples of bucket b's representative value. */
void hist__add_bucket(struct hist *h, uint32_t b, uint64_t n)
{
	uint64_t v, prod;

	if (!n || b >= h->nbuckets)
		return;
	v = bucket_mid(b);
	h->buckets[b] += n;
	h->count += n;
	prod = __builtin_mul_overflow(v, n, &prod) ? UINT64_MAX : prod;
	h->sum = sat_add(h->sum, prod);
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* dst += src (exact). */
void hist__merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return;
	for (uint32_t b = 0; b < dst->nbuckets; b++)
		dst->buckets[b] += src->buckets[b];
	dst->count += src->count;
	dst->sum = sat_add(dst->sum, src->sum);
	dst->clamped += src->clamped;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* Value at quantile q. */
uint64_t hist__percentile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, v;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)(q * (double)h->count);
	if ((double)rank < q * (double)h->count)
		rank++;
	if (rank < 1)
		rank = 1;
	for (uint32_t b = 0; b < h->nbuckets; b++) {
		seen += h->buckets[b];
		if (seen >= rank) {
			v = bucket_mid(b);
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}

/* Mean in ns. */
double hist__mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

/* Power-of-two row index of a value: 0 for 0, else 1 + floor(log2 v). */
static int log2_row(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

/* Fill a coarse log2 view. */
int hist__log2(const struct hist *h, struct hist_log2_row *rows, int max)
{
	uint64_t per[65] = { 0 };
	int lo = 65, hi = -1, n = 0;

	for (uint32_t b = 0; b < h->nbuckets; b++) {
		int r;

		if (!h->buckets[b])
			continue;
		r = log2_row(hist__bucket_lo(b));
		per[r] += h->buckets[b];
		if (r < lo)
			lo = r;
		if (r > hi)
			hi = r;
	}
	for (int r = lo; r <= hi && n < max; r++, n++) {
		rows[n].lo = r ? 1ull << (r - 1) : 0;
		rows[n].hi = r ? (1ull << (r - 1)) * 2 - 1 : 0;
		rows[n].count = per[r];
	}
	return n;
}
