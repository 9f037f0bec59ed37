// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * split_bench.c - what --per-cpu (and the C key) costs, against the same session unsplit.
 *
 * 100 watched programs whose in-kernel aggregates (struct lat_agg per CPU, in plain memory,
 * filled the way the probes fill them) gain 50 runs on every CPU per interval, on 8, 64 and 256
 * CPUs: each interval is harvested and closed on this thread as the UI thread does it live.
 *  1. Harvest: progagg__harvest and the model's add (the baseline) against
 *     progagg__harvest_split with each CPU's share added to its CPU series (medians of the
 *     UI thread's CPU per interval, all programs).
 *  2. Close: model__close_interval with and without the CPU series.
 *  3. Memory: the model's heap bytes (model__cost) after 60 intervals, and per CPU series.
 * Ratios against the baseline; nothing is asserted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/progagg.h"
#include "model/model.h"
#include "../tests/unit/aggsim.h"
#include "benchutil.h"

#define NPROG 100
#define RUNS 50
#define IVALS 60

static const int ncpus[] = { 8, 64, 256 };

struct share_to {
	struct model *m;
	uint32_t id;
};

static void on_share(void *arg, int cpu, const struct progagg_delta *d)
{
	struct share_to *to = arg;

	model__add_cpu_share(to->m, to->id, (uint32_t)cpu, d->idx, d->cnt, d->n, &d->d,
			     SRC_FENTRY);
}

/* One run of the session on ncpu CPUs, split or not: the median harvest and close CPU per
 * interval and the model's bytes at the end. */
static int run(int ncpu, bool split, uint64_t *harvest, uint64_t *close, size_t *bytes)
{
	struct lat_agg *mem = calloc((size_t)NPROG * ncpu, sizeof(*mem));
	struct progagg *pa[NPROG] = { 0 };
	struct progagg_delta *d = calloc(1, sizeof(*d));
	struct model *m = model__new(1);
	uint64_t hv[IVALS], cv[IVALS], seed = 88172645463325252ull;
	struct model_cost c;
	int err = -1;

	if (!mem || !d || !m)
		goto out;
	for (int p = 0; p < NPROG; p++) {
		struct series *se = model__series(m, LAT_EV_PROG, 100 + p, 0, 0);

		pa[p] = progagg__wrap(mem + (size_t)p * ncpu, ncpu);
		if (!pa[p] || !se)
			goto out;
		snprintf(se->name, sizeof(se->name), "bench_prog_%03d", p);
		if (split) {
			model__split(se, 1);
			se->cpu_rows = true;
		}
	}
	for (int k = 0; k < IVALS; k++) {
		uint64_t t0;

		for (int p = 0; p < NPROG; p++)
			for (int cpu = 0; cpu < ncpu; cpu++)
				for (int r = 0; r < RUNS; r++) {
					seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
					aggsim_add(&mem[(size_t)p * ncpu + cpu], 300 + seed % 3000);
				}
		t0 = thread_ns();
		for (int p = 0; p < NPROG; p++) {
			struct share_to to = { m, 100 + p };
			struct series *se;
			uint64_t n = split ? progagg__harvest_split(pa[p], false, d, on_share, &to)
					   : progagg__harvest(pa[p], false, d);

			se = model__find(m, LAT_EV_PROG, 100 + p, 0, 0);
			if (n && se)
				model__add_agg(m, se, d->idx, d->cnt, d->n, &d->d, SRC_FENTRY);
		}
		hv[k] = thread_ns() - t0;
		t0 = thread_ns();
		model__close_interval(m, 1 + (k + 1) * 1000000000ull);
		cv[k] = thread_ns() - t0;
	}
	*harvest = median(hv, IVALS);
	*close = median(cv, IVALS);
	model__cost(m, &c);
	*bytes = c.bytes;
	err = 0;
out:
	for (int p = 0; p < NPROG; p++)
		progagg__free(pa[p]);
	model__free(m);
	free(d);
	free(mem);
	return err;
}

int main(void)
{
	printf("split_bench: %d programs, %d runs per CPU per interval, %d intervals\n", NPROG,
	       RUNS, IVALS);
	printf("%5s %14s %14s %6s %12s %12s %6s %10s %10s %11s\n", "cpus", "harvest us",
	       "split us", "ratio", "close us", "split us", "ratio", "heap KiB", "split KiB",
	       "B/cpu-row");
	for (size_t i = 0; i < sizeof(ncpus) / sizeof(ncpus[0]); i++) {
		uint64_t h0, c0, h1, c1;
		size_t b0, b1;

		if (run(ncpus[i], false, &h0, &c0, &b0) || run(ncpus[i], true, &h1, &c1, &b1)) {
			fprintf(stderr, "split_bench: out of memory\n");
			return 1;
		}
		printf("%5d %14.1f %14.1f %6.2f %12.1f %12.1f %6.2f %10zu %10zu %11zu\n", ncpus[i],
		       h0 / 1e3, h1 / 1e3, (double)h1 / (double)(h0 ? h0 : 1), c0 / 1e3, c1 / 1e3,
		       (double)c1 / (double)(c0 ? c0 : 1), b0 / 1024, b1 / 1024,
		       (b1 - b0) / ((size_t)NPROG * ncpus[i]));
	}
	return 0;
}
