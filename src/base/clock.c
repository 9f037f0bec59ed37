// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * clock.c - CLOCK_MONOTONIC in ns (see clock.h).
 */
#include <time.h>

#include "base/clock.h"

/* CLOCK_MONOTONIC in ns. */
uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}
