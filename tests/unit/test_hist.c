// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_hist.c - the log-linear histogram: layout, exactness, percentile accuracy against a sort
 * of the samples, merge, mean, clamping, log2 rows, and the cost of hist__add.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "model/hist.h"
#include "test.h"

#define NSAMPLES 1000000
#define MAX_NS 60000000000ull /* 60 s: the range the accuracy requirement covers */
#define TOP_VALUE ((1ull << HIST_MAX_POW2) - 1)

/* splitmix64 state; every test reseeds it so tests do not depend on their order. */
static uint64_t rng_state;

/* Seed the generator. */
static void rng_seed(uint64_t seed)
{
	rng_state = seed;
}

/* Next 64 random bits (splitmix64). */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform double in (0, 1): never 0, so logs and powers stay finite. */
static double rng_unit(void)
{
	return ((double)(rng_next() >> 11) + 0.5) * 0x1p-53;
}

/* Standard normal (Box-Muller, one of the pair). */
static double rng_normal(void)
{
	return sqrt(-2.0 * log(rng_unit())) * cos(2.0 * M_PI * rng_unit());
}

/* Round a sampled duration to whole ns in [1, 60 s]. */
static uint64_t to_ns(double x)
{
	if (!(x >= 1.0))
		return 1;
	if (x >= (double)MAX_NS)
		return MAX_NS;
	return (uint64_t)(x + 0.5);
}

/* Lognormal around a 2 us median, sigma 1.5. */
static uint64_t gen_lognormal(void)
{
	return to_ns(2000.0 * exp(1.5 * rng_normal()));
}

/* Pareto from 1 us, alpha 0.7: a tail so heavy that its top samples pile up at the 60 s cap. */
static uint64_t gen_pareto(void)
{
	return to_ns(1000.0 / pow(rng_unit(), 1.0 / 0.7));
}

/* Bimodal: 85% near 300 ns, 15% near 5 ms, each mode a narrow lognormal. */
static uint64_t gen_bimodal(void)
{
	if (rng_unit() < 0.85)
		return to_ns(300.0 * exp(0.05 * rng_normal()));
	return to_ns(5e6 * exp(0.1 * rng_normal()));
}

/* Log-uniform across 1 ns .. 60 s. */
static uint64_t gen_loguniform(void)
{
	return to_ns(exp(rng_unit() * log((double)MAX_NS)));
}

/* qsort comparator for uint64_t. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* qsort comparator for uint32_t. */
static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Fill v[0..n) from a generator. */
static void fill(uint64_t *v, size_t n, uint64_t (*gen)(void))
{
	for (size_t i = 0; i < n; i++)
		v[i] = gen();
}

/* True when two histograms hold the same samples, bucket by bucket. */
static bool hist_equal(const struct hist *a, const struct hist *b, const char *what)
{
	bool ok = true;

	ok &= ASSERT_EQ(a->count, b->count, what);
	ok &= ASSERT_TRUE(a->sum == b->sum, what);
	ok &= ASSERT_TRUE(a->min == b->min, what);
	ok &= ASSERT_TRUE(a->max == b->max, what);
	ok &= ASSERT_EQ(a->clamped, b->clamped, what);
	for (uint32_t i = 0; ok && i < hist__nbuckets(); i++)
		ok &= ASSERT_EQ(hist__at(a, i), hist__at(b, i), what);
	return ok;
}

/* Values below 2^HIST_SUB_BITS have a bucket each and come back exactly. */
static void test_exact_small(void)
{
	const uint64_t n = 1ull << HIST_SUB_BITS;
	struct hist h;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	for (uint64_t v = 0; v < n; v++) {
		ASSERT_EQ(hist__bucket(v), v, "bucket(v) == v");
		ASSERT_EQ(hist__bucket_lo((uint32_t)v), v, "lo");
		ASSERT_EQ(hist__bucket_hi((uint32_t)v), v, "hi");
		hist__add(&h, v);
	}
	/* One sample per value: the sample of rank i+1 is exactly i. */
	for (uint64_t i = 0; i < n; i++)
		if (!ASSERT_EQ(hist__percentile(&h, (double)(i + 1) / (double)n), i, "exact rank"))
			break;
	ASSERT_EQ(hist__percentile(&h, 0.0), 0, "q=0 is min");
	ASSERT_EQ(hist__percentile(&h, 1.0), n - 1, "q=1 is max");
	hist__fini(&h);
}

/* Buckets tile 0 .. 2^HIST_MAX_POW2 - 1 with no gap or overlap, widths are powers of two. */
static void test_buckets_contiguous(void)
{
	uint32_t nb = hist__nbuckets();
	bool ok = true;

	ASSERT_EQ(nb, (1u << HIST_SUB_BITS) + (HIST_MAX_POW2 - HIST_SUB_BITS) *
						 (1u << (HIST_SUB_BITS - 1)), "nbuckets");
	ASSERT_EQ(hist__bucket_lo(0), 0, "first lo");
	for (uint32_t b = 0; ok && b < nb; b++) {
		uint64_t lo = hist__bucket_lo(b), hi = hist__bucket_hi(b), w = hi - lo + 1;

		ok &= ASSERT_TRUE(lo <= hi, "lo <= hi");
		ok &= ASSERT_TRUE((w & (w - 1)) == 0, "width is a power of two");
		ok &= ASSERT_EQ(hist__bucket(lo), b, "bucket(lo)");
		ok &= ASSERT_EQ(hist__bucket(hi), b, "bucket(hi)");
		ok &= ASSERT_EQ(hist__bucket(lo + w / 2), b, "bucket(middle)");
		if (b + 1 < nb)
			ok &= ASSERT_TRUE(hist__bucket_lo(b + 1) == hi + 1, "next lo == hi + 1");
		if (lo)
			ok &= ASSERT_TRUE(63 - __builtin_clzll(lo) == 63 - __builtin_clzll(hi),
					  "no bucket straddles a power of two");
	}
	ASSERT_TRUE(hist__bucket_hi(nb - 1) == TOP_VALUE, "last hi is the top of the range");
	ASSERT_EQ(hist__bucket(TOP_VALUE + 1), nb - 1, "above range: top bucket");
	ASSERT_EQ(hist__bucket(UINT64_MAX), nb - 1, "UINT64_MAX: top bucket");

	/* Random values over the whole 64-bit range land in a bucket that contains them. */
	rng_seed(7);
	for (int i = 0; ok && i < NSAMPLES; i++) {
		uint64_t v = rng_next() >> (rng_next() & 63);
		uint32_t b = hist__bucket(v);

		ok &= ASSERT_TRUE(b < nb, "in range");
		if (v <= TOP_VALUE)
			ok &= ASSERT_TRUE(hist__bucket_lo(b) <= v && v <= hist__bucket_hi(b),
					  "lo <= v <= hi");
	}
}

/* Every bucket's midpoint is within 2^-HIST_SUB_BITS of both its ends (the error bound). */
static void test_bucket_error_bound(void)
{
	const double bound = 1.0 / (1u << HIST_SUB_BITS);
	double worst = 0;
	struct hist h;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	for (uint32_t b = 0; b < hist__nbuckets(); b++) {
		uint64_t lo = hist__bucket_lo(b), hi = hist__bucket_hi(b), mid;
		double e;

		/* The representative, read back through add_bucket + percentile. */
		hist__reset(&h);
		hist__add_bucket(&h, b, 1);
		mid = hist__percentile(&h, 0.5);
		if (!ASSERT_TRUE(lo <= mid && mid <= hi, "midpoint inside its bucket"))
			break;
		if (!lo)
			continue;
		e = fmax((double)(mid - lo) / (double)lo, (double)(hi - mid) / (double)hi);
		worst = fmax(worst, e);
	}
	ASSERT_LE(worst, bound, "worst bucket error");
	printf("  info: worst-case bucket error %.4f%% (bound %.4f%%)\n", worst * 100, bound * 100);
	hist__fini(&h);
}

/* Percentiles of one distribution against the sorted samples; returns the worst error. */
static double check_accuracy(const char *name, uint64_t (*gen)(void), uint64_t seed)
{
	static const double qs[] = { 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999, 1.0 };
	uint64_t *v = malloc(NSAMPLES * sizeof(*v)), sum = 0;
	double worst = 0;
	struct hist h;

	if (!ASSERT_TRUE(v != NULL, "malloc") || !ASSERT_OK(hist__init(&h), "init")) {
		free(v);
		return 1;
	}
	rng_seed(seed);
	fill(v, NSAMPLES, gen);
	for (size_t i = 0; i < NSAMPLES; i++) {
		hist__add(&h, v[i]);
		sum += v[i];
	}
	qsort(v, NSAMPLES, sizeof(*v), cmp_u64);
	ASSERT_EQ(h.count, NSAMPLES, name);
	ASSERT_TRUE(h.sum == sum, name);
	ASSERT_TRUE(h.min == v[0] && h.max == v[NSAMPLES - 1], name);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		uint64_t rank = (uint64_t)ceil(qs[i] * NSAMPLES);
		uint64_t exact = v[rank - 1], got = hist__percentile(&h, qs[i]);
		double e = fabs((double)got - (double)exact) / (double)exact;

		if (!ASSERT_LE(e, 0.01, name))
			printf("  q=%g: got %" PRIu64 ", exact %" PRIu64 "\n", qs[i], got, exact);
		worst = fmax(worst, e);
	}
	printf("  info: %-11s p50 %" PRIu64 " p99 %" PRIu64 " p99.99 %" PRIu64
	       " max %" PRIu64 " ns: max relative error %.4f%%\n",
	       name, hist__percentile(&h, 0.5), hist__percentile(&h, 0.99),
	       hist__percentile(&h, 0.9999), h.max, worst * 100);
	hist__fini(&h);
	free(v);
	return worst;
}

/* Skewed distributions, 1M samples each: every percentile within 1% of the exact one. */
static void test_accuracy(void)
{
	ASSERT_LE(check_accuracy("lognormal", gen_lognormal, 1), 0.01, "lognormal");
	ASSERT_LE(check_accuracy("pareto", gen_pareto, 2), 0.01, "pareto");
	ASSERT_LE(check_accuracy("bimodal", gen_bimodal, 3), 0.01, "bimodal");
	ASSERT_LE(check_accuracy("log-uniform", gen_loguniform, 4), 0.01, "log-uniform");
}

/* Merging two histograms equals the histogram of the union of their samples. */
static void test_merge(void)
{
	struct hist a, b, u, m, empty;
	int err;

	err = hist__init(&a) | hist__init(&b) | hist__init(&u) | hist__init(&m) |
	      hist__init(&empty);
	if (!ASSERT_OK(err, "init"))
		goto cleanup;
	rng_seed(11);
	for (int i = 0; i < NSAMPLES / 2; i++) {
		uint64_t x = gen_lognormal(), y = gen_pareto();

		hist__add(&a, x);
		hist__add(&b, y);
		hist__add(&u, x);
		hist__add(&u, y);
	}
	/* Clamped samples and zeros must merge too. */
	hist__add(&a, 1ull << 50);
	hist__add(&u, 1ull << 50);
	hist__add(&b, 0);
	hist__add(&u, 0);

	hist__merge(&m, &a);
	hist__merge(&m, &empty); /* a no-op */
	if (!hist_equal(&m, &a, "merge into empty == src"))
		goto cleanup;
	hist__merge(&m, &b);
	hist_equal(&m, &u, "merge == union");
	ASSERT_EQ(m.clamped, 1, "clamped carried over");
	ASSERT_EQ(hist__percentile(&m, 0.999), hist__percentile(&u, 0.999), "p99.9");
	ASSERT_TRUE(m.min == 0 && m.max == 1ull << 50, "min/max");
cleanup:
	hist__fini(&a);
	hist__fini(&b);
	hist__fini(&u);
	hist__fini(&m);
	hist__fini(&empty);
}

/* The sum is exact and the mean matches the exact mean. */
static void test_mean(void)
{
	uint64_t sum = 0;
	long double exact;
	struct hist h;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	ASSERT_TRUE(hist__mean(&h) == 0, "empty mean");
	rng_seed(5);
	for (int i = 0; i < NSAMPLES; i++) {
		uint64_t v = gen_lognormal();

		hist__add(&h, v);
		sum += v;
	}
	exact = (long double)sum / NSAMPLES;
	ASSERT_TRUE(h.sum == sum, "sum is exact");
	ASSERT_LE(fabsl((long double)hist__mean(&h) - exact) / exact, 1e-9, "mean");
	printf("  info: mean %.3f ns, exact %.3Lf ns\n", hist__mean(&h), exact);
	hist__fini(&h);
}

/* Values above the range go to the top bucket, are counted, and keep min/max/sum real. */
static void test_clamp(void)
{
	uint32_t top = hist__nbuckets() - 1;
	struct hist h;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	hist__add(&h, TOP_VALUE); /* the largest in-range value: not clamped */
	hist__add(&h, TOP_VALUE + 1);
	hist__add(&h, 1ull << 50);
	ASSERT_EQ(h.clamped, 2, "clamped");
	ASSERT_EQ(hist__at(&h, top), 3, "top bucket");
	ASSERT_EQ(h.count, 3, "count");
	ASSERT_TRUE(h.max == 1ull << 50, "max is the real value");
	ASSERT_TRUE(h.sum == TOP_VALUE + TOP_VALUE + 1 + (1ull << 50), "sum");
	ASSERT_TRUE(hist__percentile(&h, 1.0) == 1ull << 50, "q=1 is max");
	/* The top bucket's midpoint is below min here, so the answer clamps to min. */
	ASSERT_TRUE(hist__percentile(&h, 0.3) == TOP_VALUE, "clamped to min");
	hist__add(&h, UINT64_MAX);
	ASSERT_EQ(h.clamped, 3, "UINT64_MAX clamped");
	ASSERT_TRUE(h.sum == UINT64_MAX, "sum saturates");
	ASSERT_TRUE(h.max == UINT64_MAX, "max");
	hist__fini(&h);
}

/* Empty, reset and finished histograms answer 0 and are safe to use and free. */
static void test_empty(void)
{
	struct hist_log2_row rows[4];
	struct hist h, z;

	memset(&z, 0, sizeof(z));
	ASSERT_EQ(hist__percentile(&z, 0.5), 0, "zeroed percentile");
	hist__fini(&z); /* zeroed: no-op */
	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	ASSERT_EQ(hist__percentile(&h, 0.0), 0, "p0");
	ASSERT_EQ(hist__percentile(&h, 0.5), 0, "p50");
	ASSERT_EQ(hist__percentile(&h, 1.0), 0, "p100");
	ASSERT_TRUE(h.min == UINT64_MAX && h.max == 0, "empty min/max");
	ASSERT_EQ(hist__log2(&h, rows, 4), 0, "no log2 rows");
	hist__add(&h, 12345);
	hist__add(&h, 0);
	hist__reset(&h);
	ASSERT_EQ(h.count, 0, "reset count");
	ASSERT_EQ(hist__percentile(&h, 0.5), 0, "reset p50");
	ASSERT_TRUE(h.min == UINT64_MAX && h.max == 0 && h.sum == 0, "reset min/max/sum");
	for (uint32_t b = 0; b < hist__nbuckets(); b++)
		if (!ASSERT_EQ(hist__at(&h, b), 0, "reset buckets"))
			break;
	hist__fini(&h);
	hist__fini(&h); /* finished: no-op */
	ASSERT_TRUE(h.buckets == NULL, "fini clears");
}

/* Percentile edges: q outside [0, 1] or NaN, one sample, ceil of the rank. */
static void test_percentile_edges(void)
{
	struct hist h;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	hist__add(&h, 777777);
	ASSERT_EQ(hist__percentile(&h, 0.001), 777777, "one sample: clamped to min == max");
	ASSERT_EQ(hist__percentile(&h, 0.999), 777777, "one sample p99.9");
	hist__add(&h, 1000);
	hist__add(&h, 1000000000);
	ASSERT_EQ(hist__percentile(&h, -1), 1000, "q < 0 is min");
	ASSERT_EQ(hist__percentile(&h, NAN), 1000, "NaN is min");
	ASSERT_EQ(hist__percentile(&h, 2), 1000000000, "q > 1 is max");
	/* Ranks ceil(q * 3): q = 1/3 -> 1 (1000), 0.34 -> 2 (777777), 0.67 -> 3 (1e9). */
	ASSERT_LE(fabs((double)hist__percentile(&h, 1.0 / 3) - 1000) / 1000, 0.01, "rank 1");
	ASSERT_LE(fabs((double)hist__percentile(&h, 0.34) - 777777) / 777777, 0.01, "rank 2");
	ASSERT_LE(fabs((double)hist__percentile(&h, 0.67) - 1e9) / 1e9, 0.01, "rank 3");
	hist__fini(&h);
}

/* add_bucket adds n samples at the bucket's midpoint; replaying buckets rebuilds a histogram. */
static void test_add_bucket(void)
{
	struct hist a, r;
	uint32_t b = hist__bucket(5000000);
	uint64_t mid;

	if (!ASSERT_OK(hist__init(&a) | hist__init(&r), "init"))
		goto cleanup;
	hist__add_bucket(&a, b, 10);
	mid = hist__percentile(&a, 0.5);
	ASSERT_TRUE(mid == hist__bucket_lo(b) + (hist__bucket_hi(b) - hist__bucket_lo(b)) / 2,
		    "midpoint");
	ASSERT_EQ(a.count, 10, "count");
	ASSERT_TRUE(a.sum == 10 * mid && a.min == mid && a.max == mid, "sum/min/max");
	ASSERT_EQ(hist__at(&a, b), 10, "bucket");
	hist__add_bucket(&a, b, 0);
	hist__add_bucket(&a, hist__nbuckets(), 5); /* unknown bucket: ignored */
	ASSERT_EQ(a.count, 10, "ignored");

	/* Replay a histogram's buckets into another: same buckets, percentiles within 1%. */
	hist__reset(&a);
	rng_seed(9);
	for (int i = 0; i < 100000; i++)
		hist__add(&a, gen_pareto());
	for (uint32_t i = 0; i < hist__nbuckets(); i++)
		hist__add_bucket(&r, i, hist__at(&a, i));
	ASSERT_EQ(r.count, a.count, "replayed count");
	for (uint32_t i = 0; i < hist__nbuckets(); i++)
		if (!ASSERT_EQ(hist__at(&r, i), hist__at(&a, i), "replayed bucket"))
			break;
	ASSERT_LE(fabs(hist__mean(&r) - hist__mean(&a)) / hist__mean(&a), 0.01, "replayed mean");
	ASSERT_LE(fabs((double)hist__percentile(&r, 0.99) - (double)hist__percentile(&a, 0.99)) /
			  (double)hist__percentile(&a, 0.99), 0.01, "replayed p99");
cleanup:
	hist__fini(&a);
	hist__fini(&r);
}

/* log2 rows: contiguous powers of two, [0,0] for zeros, gaps kept, counts exact. */
static void test_log2(void)
{
	struct hist_log2_row rows[HIST_MAX_POW2 + 1];
	uint64_t want[HIST_MAX_POW2 + 1] = { 0 }, total = 0;
	struct hist h;
	int n;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	/* Gaps: 1 and 1024 give rows [1,1] .. [1024,2047], the middle ones empty. */
	hist__add(&h, 1);
	hist__add(&h, 1500);
	n = hist__log2(&h, rows, HIST_MAX_POW2 + 1);
	ASSERT_EQ(n, 11, "rows 2^0 .. 2^10");
	ASSERT_TRUE(rows[0].lo == 1 && rows[0].hi == 1 && rows[0].count == 1, "first row");
	ASSERT_TRUE(rows[5].lo == 32 && rows[5].hi == 63 && rows[5].count == 0, "empty middle");
	ASSERT_TRUE(rows[10].lo == 1024 && rows[10].hi == 2047 && rows[10].count == 1, "last");
	ASSERT_EQ(hist__log2(&h, rows, 3), 3, "truncated to max");

	/* Counts per row match the samples exactly (no bucket straddles a power of two). */
	hist__reset(&h);
	rng_seed(13);
	for (int i = 0; i < NSAMPLES; i++) {
		uint64_t v = i % 1000 ? gen_lognormal() : 0;

		hist__add(&h, v);
		want[v ? 64 - __builtin_clzll(v) : 0]++;
	}
	n = hist__log2(&h, rows, HIST_MAX_POW2 + 1);
	ASSERT_TRUE(n > 1 && rows[0].lo == 0 && rows[0].hi == 0, "[0,0] row first");
	for (int i = 0; i < n; i++) {
		int r = rows[i].lo ? 64 - __builtin_clzll(rows[i].lo) : 0;

		total += rows[i].count;
		ASSERT_EQ(rows[i].count, want[r], "row count");
		if (i)
			ASSERT_TRUE(rows[i].lo == rows[i - 1].hi + 1, "rows contiguous");
		if (rows[i].lo)
			ASSERT_TRUE(rows[i].hi == 2 * rows[i].lo - 1 &&
					    (rows[i].lo & (rows[i].lo - 1)) == 0,
				    "power-of-two row");
	}
	ASSERT_EQ(total, h.count, "rows sum to count");
	ASSERT_TRUE(rows[n - 1].count > 0, "last row non-empty");
	hist__fini(&h);
}

/* True when h's buckets are exactly ref's (and hist__next lists them in order). */
static bool same_buckets(const struct hist *h, const uint64_t *ref, const char *what)
{
	uint32_t it = 0, b, prev = 0, nz = 0, seen = 0;
	bool ok = true;
	uint64_t n;

	for (uint32_t i = 0; ok && i < hist__nbuckets(); i++) {
		ok &= ASSERT_EQ(hist__at(h, i), ref[i], what);
		nz += ref[i] != 0;
	}
	while (ok && hist__next(h, &it, &b, &n)) {
		ok &= ASSERT_TRUE(b >= prev && n == ref[b], what);
		prev = b + 1;
		seen++;
	}
	return ok && ASSERT_EQ(seen, nz, what);
}

/* Replayed buckets stay sparse (memory follows the non-empty buckets) until more than
 * HIST_SPARSE_MAX are used, then go dense; any mix of runs, repeats, unknown indexes, zero
 * counts and merges in either direction gives the same buckets as a plain array. */
static void test_sparse(void)
{
	static uint64_t ref[4096], ref2[4096];
	const uint32_t nb = hist__nbuckets();
	uint32_t idx[300];
	uint64_t cnt[300];
	struct hist a, b, d;
	size_t dense = (size_t)nb * sizeof(uint64_t);

	hist__init_empty(&a);
	hist__init_empty(&b);
	hist__init_empty(&d);
	ASSERT_EQ(hist__bytes(&a), 0, "empty holds nothing");
	/* One bucket: a few dozen bytes, not the dense array. */
	ASSERT_OK(hist__add_bucket(&a, 100, 3), "add_bucket");
	ref[100] = 3;
	ASSERT_LE(hist__bytes(&a), 128, "one bucket is small");
	ASSERT_TRUE(a.buckets == NULL, "still sparse");
	/* Runs with repeats, unknown indexes and zero counts, out of order between runs. */
	rng_seed(5);
	for (int round = 0; round < 40 && !a.buckets; round++) {
		size_t n = 1 + rng_next() % 20;
		uint32_t at = (uint32_t)(rng_next() % nb);

		for (size_t i = 0; i < n; i++) {
			idx[i] = at < nb ? at : nb + 7; /* the last ones may be unknown */
			cnt[i] = rng_next() % 4;        /* zeros are ignored */
			if (at < nb)
				ref[at] += cnt[i];
			at += (uint32_t)(rng_next() % 3); /* 0: the same index again */
		}
		if (!ASSERT_OK(hist__add_sparse(&a, idx, cnt, n), "add_sparse"))
			break;
	}
	ASSERT_TRUE(a.buckets == NULL && a.nnz <= HIST_SPARSE_MAX, "sparse after 40 small runs");
	ASSERT_LE(hist__bytes(&a), dense / 4, "far smaller than dense");
	same_buckets(&a, ref, "sparse = reference");
	/* Descending input: each index is a run of its own. */
	for (int i = 0; i < 10; i++) {
		idx[i] = 2000 - 10 * (uint32_t)i;
		cnt[i] = 1;
		ref[idx[i]] += 1;
	}
	ASSERT_OK(hist__add_sparse(&a, idx, cnt, 10), "descending");
	same_buckets(&a, ref, "descending = reference");
	/* Merge a sparse one into another sparse one. */
	for (uint32_t i = 0; i < 200; i++) {
		idx[i] = i * 7 % nb;
		cnt[i] = i + 1;
	}
	qsort(idx, 200, sizeof(idx[0]), cmp_u32);
	for (uint32_t i = 0; i < 200; i++)
		ref2[idx[i]] += cnt[i];
	ASSERT_OK(hist__add_sparse(&b, idx, cnt, 200), "b");
	b.count = 1; /* merge skips an empty source: say it holds something */
	ASSERT_OK(hist__merge(&a, &b), "merge sparse");
	for (uint32_t i = 0; i < nb; i++)
		ref[i] += ref2[i];
	same_buckets(&a, ref, "sparse merge = reference");
	/* Past HIST_SPARSE_MAX non-empty buckets it goes dense, with the same buckets. */
	for (uint32_t i = 0; i < 300; i++) {
		idx[i] = i * 4 + 3;
		cnt[i] = 2;
		ref[idx[i]] += 2;
	}
	ASSERT_OK(hist__add_sparse(&a, idx, cnt, 300), "many");
	for (uint32_t i = 0; i < 300; i++) {
		idx[i] = 1300 + i * 3;
		cnt[i] = 1;
		ref[idx[i]] += 1;
	}
	ASSERT_OK(hist__add_sparse(&a, idx, cnt, 300), "more");
	ASSERT_TRUE(a.buckets != NULL && a.scnt == NULL, "dense past the limit");
	ASSERT_EQ(hist__bytes(&a), dense, "dense bytes");
	same_buckets(&a, ref, "dense = reference");
	/* A sparse source into a dense one, and a dense source into an empty one. */
	ASSERT_OK(hist__merge(&a, &b), "sparse into dense");
	for (uint32_t i = 0; i < nb; i++)
		ref[i] += ref2[i];
	same_buckets(&a, ref, "sparse into dense = reference");
	a.count = 1;
	ASSERT_OK(hist__merge(&d, &a), "dense into empty");
	ASSERT_TRUE(d.buckets != NULL, "a dense source makes the target dense");
	same_buckets(&d, ref, "dense into empty = reference");
	/* Percentiles and log2 rows agree between the sparse and the dense form of the same
	 * samples (hist__init makes d dense). */
	hist__fini(&a);
	hist__fini(&d);
	ASSERT_OK(hist__init(&d), "dense init");
	rng_seed(11);
	for (int i = 0; i < 300; i++) {
		uint32_t bk = hist__bucket(gen_lognormal());

		hist__add_bucket(&a, bk, 1 + (uint64_t)i % 3);
		hist__add_bucket(&d, bk, 1 + (uint64_t)i % 3);
	}
	ASSERT_TRUE(a.buckets == NULL && d.buckets != NULL, "one sparse, one dense");
	hist_equal(&a, &d, "sparse = dense");
	for (int q = 0; q <= 100; q++)
		if (!ASSERT_EQ(hist__percentile(&a, q / 100.0), hist__percentile(&d, q / 100.0),
			       "sparse and dense percentiles"))
			break;
	{
		struct hist_log2_row ra[64], rd[64];
		int na = hist__log2(&a, ra, 64), nd = hist__log2(&d, rd, 64);

		ASSERT_TRUE(na == nd && na > 0 && !memcmp(ra, rd, (size_t)na * sizeof(ra[0])),
			    "sparse and dense log2 rows");
	}
	hist__fini(&a);
	hist__fini(&b);
	hist__fini(&d);
}

/* Time 10M hist__add calls, best of 3 runs (informational), and check all were counted. */
static void test_add_cost(void)
{
	enum { NVALS = 1 << 16, NADDS = 10000000 };
	static uint64_t vals[NVALS];
	double best = 0;
	struct hist h;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	rng_seed(17);
	fill(vals, NVALS, gen_lognormal);
	for (int run = 0; run < 3; run++) {
		struct timespec t0, t1;
		double ns;

		hist__reset(&h);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (int i = 0; i < NADDS; i++)
			hist__add(&h, vals[i & (NVALS - 1)]);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
		best = run && best < ns ? best : ns;
		ASSERT_EQ(h.count, NADDS, "count");
	}
	printf("  info: hist__add: %d adds in %.1f ms (best of 3), %.2f ns/add\n", NADDS,
	       best / 1e6, best / NADDS);
	hist__fini(&h);
}

int main(void)
{
	test__suite = "hist";
	RUN_TEST(test_exact_small);
	RUN_TEST(test_buckets_contiguous);
	RUN_TEST(test_bucket_error_bound);
	RUN_TEST(test_accuracy);
	RUN_TEST(test_merge);
	RUN_TEST(test_mean);
	RUN_TEST(test_clamp);
	RUN_TEST(test_empty);
	RUN_TEST(test_percentile_edges);
	RUN_TEST(test_add_bucket);
	RUN_TEST(test_log2);
	RUN_TEST(test_sparse);
	RUN_TEST(test_add_cost);
	printf("hist: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
