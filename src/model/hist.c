// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hist.c - log-linear latency histogram (the HdrHistogram layout, integers only).
 *
 * Layout: bpf/hist_bucket.h (one definition for the BPF programs and this file): 128 exact
 * buckets for 0 .. 127, then 64 equal sub-buckets per power of two up to 2^40, 2240 in all.
 *
 * Error: a bucket [lo, lo+w-1] with lo >= H*w is represented by its midpoint
 * lo + (w-1)/2 (rounded down), which is within w/2 of any value in it; relative to the value
 * that is at most (w/2)/(H*w) = 2^-HIST_SUB_BITS = 0.78%. A percentile is the representative
 * of the bucket that holds the exact sample of that rank, so the same bound holds for every
 * percentile; clamping to [min, max] only moves the answer towards the exact sample.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/hist.h"

#define HALF LAT_HIST_HALF /* sub-buckets per power of two */
#define NBUCKETS LAT_HIST_NBUCKETS
#define TOP_VALUE LAT_HIST_TOP /* largest value bucketed without clamping */
#define NROWS (HIST_MAX_POW2 + 1) /* log2 rows: [0,0] and [2^k, 2^(k+1)-1], k < 40 */

/* Representative of bucket b: its midpoint, rounded down. */
static inline uint64_t bucket_mid(uint32_t b)
{
	unsigned int shift = lat_hist_bucket_shift(b);

	return lat_hist_bucket_lo(b) + (shift ? (1ull << (shift - 1)) - 1 : 0);
}

/* Saturating 64-bit add: the sum sticks at UINT64_MAX rather than wrapping. */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Number of buckets in the layout. */
uint32_t hist__nbuckets(void)
{
	return NBUCKETS;
}

/* Bucket index a value falls into (values above 2^HIST_MAX_POW2 - 1 go to the top bucket). */
uint32_t hist__bucket(uint64_t v)
{
	return lat_hist_bucket(v);
}

/* Lowest value mapped to bucket b (indexes past the end are read as the top bucket). */
uint64_t hist__bucket_lo(uint32_t b)
{
	return lat_hist_bucket_lo(b < NBUCKETS ? b : NBUCKETS - 1);
}

/* Highest value mapped to bucket b (the top bucket also holds the clamped values above it). */
uint64_t hist__bucket_hi(uint32_t b)
{
	return lat_hist_bucket_hi(b < NBUCKETS ? b : NBUCKETS - 1);
}

/* Initialise an empty histogram that holds no memory. */
void hist__init_empty(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/* Initialise an empty histogram with dense buckets. */
int hist__init(struct hist *h)
{
	hist__init_empty(h);
	return hist__densify(h);
}

/* Release a histogram's memory and leave it empty (safe on a zeroed or finished one). */
void hist__fini(struct hist *h)
{
	free(h->buckets);
	free(h->scnt);
	hist__init_empty(h);
}

/* Forget all samples, keep the memory. */
void hist__reset(struct hist *h)
{
	if (h->buckets)
		memset(h->buckets, 0, (size_t)NBUCKETS * sizeof(*h->buckets));
	h->nnz = 0;
	h->count = h->sum = h->max = h->clamped = 0;
	h->min = UINT64_MAX;
}

/* Make the buckets dense (the sparse pairs move into the array); 0 or -ENOMEM. */
int hist__densify(struct hist *h)
{
	uint64_t *d;

	if (h->buckets)
		return 0;
	d = calloc(NBUCKETS, sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->nnz; i++)
		d[h->sidx[i]] = h->scnt[i];
	free(h->scnt);
	h->scnt = NULL;
	h->sidx = NULL;
	h->nnz = h->scap = 0;
	h->buckets = d;
	return 0;
}

/* Room for n sparse pairs (n <= HIST_SPARSE_MAX); 0 or -ENOMEM. One allocation holds the
 * counts and then the indexes; it grows by doubling. */
static int sparse_room(struct hist *h, uint32_t n)
{
	uint32_t cap = h->scap ? h->scap : 8;
	uint64_t *p;

	if (n <= h->scap)
		return 0;
	while (cap < n)
		cap *= 2;
	cap = cap < HIST_SPARSE_MAX ? cap : HIST_SPARSE_MAX;
	p = malloc((size_t)cap * (sizeof(*h->scnt) + sizeof(*h->sidx)));
	if (!p)
		return -ENOMEM;
	if (h->nnz) {
		memcpy(p, h->scnt, (size_t)h->nnz * sizeof(*h->scnt));
		memcpy(p + cap, h->sidx, (size_t)h->nnz * sizeof(*h->sidx));
	}
	free(h->scnt);
	h->scnt = p;
	h->sidx = (uint32_t *)(p + cap);
	h->scap = cap;
	return 0;
}

/* First sparse position whose index is >= b (binary search). */
static uint32_t sparse_pos(const struct hist *h, uint32_t b)
{
	uint32_t lo = 0, hi = h->nnz;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (h->sidx[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Add bucket counts (idx ascending, each < NBUCKETS, no zero counts) to the buckets, dense or
 * sparse. Sparse: count the union's size, go dense when it exceeds HIST_SPARSE_MAX, else merge
 * in place from the back (the union's size is exact, so the untouched front stays put).
 * Linear in nnz + n. Returns 0 or -ENOMEM with nothing added.
 */
static int add_sorted(struct hist *h, const uint32_t *idx, const uint64_t *cnt, size_t n)
{
	size_t i = 0, j = 0, u = 0;
	int64_t a, b, k;

	if (!n)
		return 0;
	while (!h->buckets && (i < h->nnz || j < n) && u <= HIST_SPARSE_MAX) {
		uint32_t x = i < h->nnz ? h->sidx[i] : UINT32_MAX, y = j < n ? idx[j] : UINT32_MAX;
		uint32_t at = x < y ? x : y;

		while (i < h->nnz && h->sidx[i] == at)
			i++;
		while (j < n && idx[j] == at)
			j++;
		u++;
	}
	if (!h->buckets && u > HIST_SPARSE_MAX && hist__densify(h))
		return -ENOMEM;
	if (h->buckets) {
		for (j = 0; j < n; j++)
			h->buckets[idx[j]] += cnt[j];
		return 0;
	}
	if (sparse_room(h, (uint32_t)u))
		return -ENOMEM;
	a = (int64_t)h->nnz - 1;
	b = (int64_t)n - 1;
	k = (int64_t)u; /* the slot last written; u = nothing written yet */
	while (b >= 0) {
		/* On a tie the stored pair goes first: its slot may be the one written next. */
		bool old = a >= 0 && h->sidx[a] >= idx[b];
		uint32_t at = old ? h->sidx[a] : idx[b];
		uint64_t c = old ? h->scnt[a--] : cnt[b--];

		if (k < (int64_t)u && h->sidx[k] == at) {
			h->scnt[k] += c;
			continue;
		}
		k--;
		h->sidx[k] = at;
		h->scnt[k] = c;
	}
	h->nnz = (uint32_t)u;
	return 0;
}

/*
 * Record one value: the hot path (once per event), so one clz and conditional moves only; the
 * buckets are dense (the caller made them so).
 * min, max and sum keep the real value even when it is clamped into the top bucket.
 */
void hist__add(struct hist *h, uint64_t v)
{
	h->buckets[lat_hist_bucket(v)]++;
	h->clamped += v > TOP_VALUE;
	h->count++;
	h->sum = sat_add(h->sum, v);
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
}

/* Record n samples of bucket b's representative value (unknown buckets are ignored). */
int hist__add_bucket(struct hist *h, uint32_t b, uint64_t n)
{
	uint64_t v, prod;

	if (!n || b >= NBUCKETS)
		return 0;
	if (add_sorted(h, &b, &n, 1))
		return -ENOMEM;
	v = bucket_mid(b);
	if (__builtin_mul_overflow(v, n, &prod))
		prod = UINT64_MAX;
	h->count += n;
	h->sum = sat_add(h->sum, prod);
	h->min = v < h->min ? v : h->min;
	h->max = v > h->max ? v : h->max;
	return 0;
}

/* Add bucket counts only. The input is filtered (unknown indexes, zero counts) and sorted
 * checks made in chunks on the stack, so add_sorted sees clean ascending runs. */
int hist__add_sparse(struct hist *h, const uint32_t *idx, const uint64_t *cnt, size_t n)
{
	uint32_t ci[64];
	uint64_t cc[64];
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (idx[i] >= NBUCKETS || !cnt[i])
			continue;
		/* A run must ascend: an index below the previous one starts a new run. */
		if (k == 64 || (k && idx[i] < ci[k - 1])) {
			if (add_sorted(h, ci, cc, k))
				return -ENOMEM;
			k = 0;
		}
		ci[k] = idx[i];
		cc[k++] = cnt[i];
	}
	return add_sorted(h, ci, cc, k);
}

/* dst += src, bucket by bucket (exact; both use the one layout). */
int hist__merge(struct hist *dst, const struct hist *src)
{
	if (!src->count)
		return 0;
	if (src->buckets) {
		if (hist__densify(dst))
			return -ENOMEM;
		for (uint32_t b = 0; b < NBUCKETS; b++)
			dst->buckets[b] += src->buckets[b];
	} else if (add_sorted(dst, src->sidx, src->scnt, src->nnz)) {
		return -ENOMEM;
	}
	dst->count += src->count;
	dst->sum = sat_add(dst->sum, src->sum);
	dst->clamped += src->clamped;
	dst->min = src->min < dst->min ? src->min : dst->min;
	dst->max = src->max > dst->max ? src->max : dst->max;
	return 0;
}

/* Count in bucket b. */
uint64_t hist__at(const struct hist *h, uint32_t b)
{
	uint32_t i;

	if (b >= NBUCKETS)
		return 0;
	if (h->buckets)
		return h->buckets[b];
	i = sparse_pos(h, b);
	return i < h->nnz && h->sidx[i] == b ? h->scnt[i] : 0;
}

/* The next non-empty bucket from *it (a bucket index when dense, a pair when sparse). */
bool hist__next(const struct hist *h, uint32_t *it, uint32_t *b, uint64_t *n)
{
	if (h->buckets) {
		for (; *it < NBUCKETS; (*it)++) {
			if (!h->buckets[*it])
				continue;
			*b = *it;
			*n = h->buckets[(*it)++];
			return true;
		}
		return false;
	}
	for (; *it < h->nnz; (*it)++) {
		if (!h->scnt[*it])
			continue;
		*b = h->sidx[*it];
		*n = h->scnt[(*it)++];
		return true;
	}
	return false;
}

/* Bytes of bucket storage. */
size_t hist__bytes(const struct hist *h)
{
	return (h->buckets ? (size_t)NBUCKETS * sizeof(*h->buckets) : 0) +
	       (size_t)h->scap * (sizeof(*h->scnt) + sizeof(*h->sidx));
}

/*
 * Value at quantile q: the representative of the bucket holding the sample of rank
 * ceil(q * count) (1-based), clamped to [min, max]. q <= 0 (or NaN) gives min, q >= 1 max,
 * an empty histogram 0. Not a hot path: one scan of the non-empty buckets.
 */
uint64_t hist__percentile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0, v, n;
	double x;

	if (!h->count)
		return 0;
	if (!(q > 0))
		return h->min;
	if (q >= 1)
		return h->max;
	x = q * (double)h->count;
	rank = (uint64_t)x;
	if ((double)rank < x)
		rank++; /* ceil without libm */
	if (rank < 1)
		rank = 1;
	for (uint32_t it = 0, b; hist__next(h, &it, &b, &n);) {
		seen += n;
		if (seen < rank)
			continue;
		v = bucket_mid(b);
		v = v < h->min ? h->min : v;
		return v > h->max ? h->max : v;
	}
	return h->max; /* unreachable while the buckets add up to count */
}

/* Mean in ns (0 when empty). */
double hist__mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

/* Log2 row of bucket b: 0 for the value 0, else k + 1 for [2^k, 2^(k+1) - 1]. */
static int bucket_row(uint32_t b)
{
	uint64_t lo = lat_hist_bucket_lo(b);

	return lo ? 64 - __builtin_clzll(lo) : 0; /* no bucket straddles a power of two */
}

/*
 * Fill up to max rows of a log2 view: power-of-two rows from the lowest to the highest
 * non-empty one, empty rows in between included; [0, 0] is a row of its own when 0 was seen.
 * Returns the number of rows filled.
 */
int hist__log2(const struct hist *h, struct hist_log2_row *rows, int max)
{
	uint64_t per[NROWS] = { 0 };
	int lo = NROWS, hi = -1, n = 0;
	uint64_t c;

	for (uint32_t it = 0, b; hist__next(h, &it, &b, &c);) {
		int r = bucket_row(b);

		per[r] += c;
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
	}
	for (int r = lo; r <= hi && n < max; r++, n++) {
		rows[n].lo = r ? 1ull << (r - 1) : 0;
		rows[n].hi = r ? (1ull << r) - 1 : 0;
		rows[n].count = per[r];
	}
	return n;
}
