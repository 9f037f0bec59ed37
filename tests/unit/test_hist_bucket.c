// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_hist_bucket.c - the shared bucket function (bpf/hist_bucket.h) at every bucket boundary.
 *
 * The reference is the layout written out from its definition (128 exact buckets, then 64
 * sub-buckets per power of two up to 2^40), not the header's formula. For each bucket: its lower
 * bound, lower - 1, upper bound and upper + 1, and the values 0, 1, the top of the range and
 * UINT64_MAX, must land in the bucket the reference says, both through lat_hist_bucket and
 * through the user-side histogram (hist__add, then which bucket holds the sample); the BPF
 * build's highest-bit search must agree with clz at every bit position; and counts aggregated
 * per bucket the way a BPF program would (then merged with hist__add_sparse) must give the same
 * histogram as hist__add of the same values.
 */
#include <stdint.h>

#include "hist_bucket.h"
#include "model/hist.h"
#include "test.h"

/* Bucket b's bounds from the layout's definition alone (no shift formula, no msb). */
static void ref_range(uint32_t b, uint64_t *lo, uint64_t *hi)
{
	uint32_t row, sub;

	if (b < 128) {
		*lo = *hi = b;
		return;
	}
	row = (b - 128) / 64; /* power of two 2^(7 + row) */
	sub = (b - 128) % 64; /* which of its 64 equal parts */
	*lo = (1ull << (7 + row)) + (uint64_t)sub * (2ull << row);
	*hi = *lo + (2ull << row) - 1;
	if (b == LAT_HIST_NBUCKETS - 1)
		*hi = UINT64_MAX; /* the top bucket takes every clamped value */
}

/* The only bucket of a one-sample histogram (UINT32_MAX when none or several). */
static uint32_t recorded_bucket(const struct hist *h)
{
	uint32_t it = 0, b, found = UINT32_MAX, seen = 0;
	uint64_t n;

	while (hist__next(h, &it, &b, &n)) {
		found = b;
		seen++;
	}
	return seen == 1 ? found : UINT32_MAX;
}

/* One value: the bucket the reference says, through the header and through the histogram. */
static bool check_value(struct hist *h, uint64_t v, uint32_t want)
{
	bool ok = true;
	char what[96];

	snprintf(what, sizeof(what), "lat_hist_bucket(%ju) (want %u)", (uintmax_t)v, want);
	ok &= ASSERT_EQ(lat_hist_bucket(v), want, what);
	hist__reset(h);
	hist__add(h, v);
	snprintf(what, sizeof(what), "hist__add(%ju) recorded in bucket %u", (uintmax_t)v, want);
	ok &= ASSERT_EQ(recorded_bucket(h), want, what);
	ok &= ASSERT_EQ(hist__at(h, want), 1, what);
	return ok;
}

/* The layout's size and every bucket's bounds, from the header and from hist's own API. */
static void test_bounds(void)
{
	ASSERT_EQ(LAT_HIST_NBUCKETS, 2240, "2240 buckets");
	ASSERT_EQ(hist__nbuckets(), LAT_HIST_NBUCKETS, "hist uses the shared layout");
	for (uint32_t b = 0; b < LAT_HIST_NBUCKETS; b++) {
		uint64_t lo, hi;
		bool ok = true;

		ref_range(b, &lo, &hi);
		ok &= ASSERT_EQ(lat_hist_bucket_lo(b), lo, "lat_hist_bucket_lo");
		ok &= ASSERT_EQ(hist__bucket_lo(b), lo, "hist__bucket_lo");
		if (b < LAT_HIST_NBUCKETS - 1) {
			ok &= ASSERT_EQ(lat_hist_bucket_hi(b), hi, "lat_hist_bucket_hi");
			ok &= ASSERT_EQ(hist__bucket_hi(b), hi, "hist__bucket_hi");
		} else {
			ok &= ASSERT_EQ(lat_hist_bucket_hi(b), LAT_HIST_TOP, "top bucket's hi");
		}
		if (!ok) {
			printf("  bucket %u: reference [%ju, %ju]\n", b, (uintmax_t)lo,
			       (uintmax_t)hi);
			return;
		}
	}
}

/* Each bucket's lower bound, lower - 1, upper bound, upper + 1; then 0, 1, the top, past it. */
static void test_every_boundary(void)
{
	struct hist h;
	uint32_t checked = 0;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	for (uint32_t b = 0; b < LAT_HIST_NBUCKETS; b++) {
		uint64_t lo, hi;
		bool ok = true;

		ref_range(b, &lo, &hi);
		ok &= check_value(&h, lo, b);
		if (b > 0)
			ok &= check_value(&h, lo - 1, b - 1);
		ok &= check_value(&h, hi, b);
		if (b < LAT_HIST_NBUCKETS - 1)
			ok &= check_value(&h, hi + 1, b + 1);
		checked += 2 + (b > 0) + (b < LAT_HIST_NBUCKETS - 1);
		if (!ok) {
			printf("  bucket %u: reference [%ju, %ju]\n", b, (uintmax_t)lo,
			       (uintmax_t)hi);
			goto out;
		}
	}
	check_value(&h, 0, 0);
	check_value(&h, 1, 1);
	check_value(&h, LAT_HIST_TOP, LAT_HIST_NBUCKETS - 1);
	check_value(&h, LAT_HIST_TOP + 1, LAT_HIST_NBUCKETS - 1);
	check_value(&h, UINT64_MAX, LAT_HIST_NBUCKETS - 1);
	ASSERT_EQ(checked, 4 * LAT_HIST_NBUCKETS - 2, "values checked");
out:
	hist__fini(&h);
}

/* The BPF build's highest-bit search equals clz's answer at every bit position and around it. */
static void test_msb_search(void)
{
	for (int k = 0; k < 64; k++) {
		uint64_t p = 1ull << k;
		uint64_t vals[] = {p, p | (p - 1), p + (k > 0), p | (p >> 1)};

		for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
			if (!ASSERT_EQ(lat_hist_msb_search(vals[i]), (uint32_t)k, "msb search") ||
			    !ASSERT_EQ(lat_hist_msb(vals[i]), (uint32_t)k, "msb"))
				return;
		}
	}
}

/* Counts aggregated per bucket as a BPF program does (count, sum, max beside them), merged into
 * a histogram with hist__add_sparse, equal hist__add of the same values bucket for bucket. */
static void test_kernel_side_merge(void)
{
	static uint64_t cnt[LAT_HIST_NBUCKETS];
	static uint32_t idx[LAT_HIST_NBUCKETS];
	struct hist direct, merged;
	uint64_t x = 88172645463325252ull, n = 0, sum = 0, max = 0;

	if (!ASSERT_OK(hist__init(&direct), "init") || !ASSERT_OK(hist__init(&merged), "init"))
		goto out;
	for (int i = 0; i < 200000; i++) {
		uint64_t v;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = x >> (x % 60); /* spread over every magnitude */
		cnt[lat_hist_bucket(v)]++;
		n++;
		sum += v;
		max = v > max ? v : max;
		hist__add(&direct, v);
	}
	for (uint32_t b = 0; b < LAT_HIST_NBUCKETS; b++)
		idx[b] = b;
	if (!ASSERT_OK(hist__add_sparse(&merged, idx, cnt, LAT_HIST_NBUCKETS), "add_sparse"))
		goto out;
	for (uint32_t b = 0; b < LAT_HIST_NBUCKETS; b++)
		if (!ASSERT_EQ(hist__at(&merged, b), hist__at(&direct, b), "same bucket counts"))
			break;
	ASSERT_EQ(n, direct.count, "count");
	ASSERT_EQ(max, direct.max, "max");
	ASSERT_TRUE(sum == direct.sum || direct.sum == UINT64_MAX, "sum (or saturated)");
out:
	hist__fini(&direct);
	hist__fini(&merged);
}

int main(void)
{
	test__suite = "hist_bucket";
	RUN_TEST(test_bounds);
	RUN_TEST(test_every_boundary);
	RUN_TEST(test_msb_search);
	RUN_TEST(test_kernel_side_merge);
	printf("hist_bucket: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
