/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * progagg.h - read one watched program's in-kernel aggregates (struct lat_agg, one per CPU)
 * through mmap and turn what they gained since the last harvest into one histogram delta.
 *
 * No syscall per harvest: the map's memory is mapped once. A CPU whose count has not moved is
 * skipped after one load; on the others each non-empty bucket, the sum, max and min are taken
 * out with an atomic exchange, so a run the probes add meanwhile lands in this harvest or the
 * next, never in both or neither. The delta's count is the sum of the buckets taken: count and
 * buckets always agree (the sum, max and min of a run in flight may land one harvest apart
 * from its bucket; max and min are then widened to the buckets' range).
 *
 * Thread use: the UI/main thread only.
 */
#ifndef LAT_PROGAGG_H
#define LAT_PROGAGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lattop.h"
#include "model/model.h"

struct progagg;

/* One harvest, merged over CPUs: n non-empty buckets (idx ascending, cnt[i] runs in bucket
 * idx[i]) and the exact summary. Caller-owned scratch, reused from harvest to harvest. */
struct progagg_delta {
	uint64_t dense[LAT_HIST_NBUCKETS];
	uint32_t idx[LAT_HIST_NBUCKETS];
	uint64_t cnt[LAT_HIST_NBUCKETS];
	size_t n;
	struct hist_delta d;
};

/* Where a harvest goes: series (kind, id, aux, aux2) gained d (the session's model; UI thread).
 * Programs: (LAT_EV_PROG, prog id, 0, 0); helpers: (LAT_EV_HELPER, prog id, helper, map id). */
typedef void (*progagg_sink)(void *arg, uint16_t kind, uint32_t id, uint32_t aux, uint32_t aux2,
			     const struct progagg_delta *d);

/* Bytes the aggregates of one program take in the kernel on ncpu CPUs (whole pages). */
size_t progagg__bytes(int ncpu);
/* Possible CPUs (never clamped): the records each series has in a lat_agg array. */
int progagg__ncpu(void);
/* The cap on all in-kernel aggregates of a session (programs, helpers, spans together):
 * LAT_AGG_BUDGET, or LATTOP_AGG_BUDGET bytes when set (a debug knob for tests). */
size_t progagg__budget(void);
/* Whether one more program fits: used bytes already taken, budget the cap (LAT_AGG_BUDGET). */
bool progagg__fits(size_t used, int ncpu, size_t budget);
/* Programs that fit in budget on ncpu CPUs. */
size_t progagg__max_programs(int ncpu, size_t budget);

/* Map the aggregates of map fd (ncpu entries); NULL + errno. */
struct progagg *progagg__open(int map_fd, int ncpu);
/* Read aggregates in plain memory (ncpu struct lat_agg at mem, not owned): for tests. */
struct progagg *progagg__wrap(struct lat_agg *mem, int ncpu);
/* Unmap and free (NULL is a no-op). */
void progagg__free(struct progagg *pa);
/* Take what the aggregates gained since the last harvest into out (all CPUs). force: look at
 * every CPU, also those whose count seems unchanged (the last harvest before a detach).
 * Returns the runs harvested (out->d.count). */
uint64_t progagg__harvest(struct progagg *pa, bool force, struct progagg_delta *out);
/* One CPU's share of a split harvest (its runs, buckets and summary). */
typedef void (*progagg_cpu_fn)(void *arg, int cpu, const struct progagg_delta *d);
/* progagg__harvest, with each CPU's share handed to fn(arg, cpu, share) first (the CPUs
 * with runs, ascending): the shares' counts and buckets add up exactly to out's. The first
 * split harvest allocates the CPUs' own carries (ncpu x 24 bytes) and one share's scratch;
 * without that memory it harvests unsplit. */
uint64_t progagg__harvest_split(struct progagg *pa, bool force, struct progagg_delta *out,
				progagg_cpu_fn fn, void *arg);
/* Runs aggregated so far on all CPUs (the kernel's counts; never reset). */
uint64_t progagg__total(const struct progagg *pa);

#endif /* LAT_PROGAGG_H */
