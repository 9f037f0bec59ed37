/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * benchutil.h - what the host benchmarks share: this thread's CPU clock and the median of a
 * round's samples.
 */
#ifndef LAT_BENCHUTIL_H
#define LAT_BENCHUTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* This thread's CPU time in ns. */
static inline uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline int bench_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The median of n values (sorts them); 0 for none. */
static inline uint64_t median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), bench_cmp_u64);
	return n ? v[n / 2] : 0;
}

#endif /* LAT_BENCHUTIL_H */
