/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * aggsim.h - in-kernel aggregates in plain memory, filled the way bpf/progtrace.bpf.c's
 * agg_add fills them (without its atomics): for the harvest's unit tests and split_bench.
 */
#ifndef LAT_TEST_AGGSIM_H
#define LAT_TEST_AGGSIM_H

#include "lattop.h"

/* What a probe's exit adds for one run of dur ns on its CPU. */
static inline void aggsim_add(struct lat_agg *a, uint64_t dur)
{
	a->buckets[lat_hist_bucket(dur)]++;
	a->sum += dur;
	a->count++;
	a->max = dur > a->max ? dur : a->max;
	a->min_inv = ~dur > a->min_inv ? ~dur : a->min_inv;
}

#endif /* LAT_TEST_AGGSIM_H */
