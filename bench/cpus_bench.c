// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cpus_bench.c - what a machine with many possible CPUs costs lattop per interval: the harvest
 * of 1,000 watched programs' in-kernel aggregates (struct lat_agg, one record per possible CPU
 * and program, in plain memory, filled the way the probes fill them) on 512 CPUs, against the
 * same 1,000 programs on 8 CPUs (the baseline), and what the per-CPU maps take.
 *
 * Two loads on 512 CPUs: each program runs on 8 of them (the others idle: a harvest reads their
 * count only, cpu_moved in collect/progagg.c), and the worst case, every program on every CPU.
 * 50 runs per busy CPU per interval; the UI thread's CPU per harvest of all programs (with
 * the model's add), median of IVALS intervals. Ratios against the baseline; nothing is
 * asserted. Needs ~4.6 GB of memory for the 512-CPU aggregates (1,000 x 512 x 9,024 B): the
 * kernel memory the probes would take if the aggregates' budget allowed them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/progagg.h"
#include "model/model.h"
#include "../tests/unit/aggsim.h"
#include "benchutil.h"

#define NPROG 1000
#define RUNS 50
#define IVALS 15
#define BUSY 8 /* CPUs each program runs on in the spread load */

/* Median harvest CPU (ns) of NPROG programs on ncpu CPUs, busy of which run each program
 * (program p on CPUs (p * 7 + j * ncpu / busy) % ncpu: spread over the machine). -1: no
 * memory. */
static int64_t run(int ncpu, int busy)
{
	struct lat_agg *mem = calloc((size_t)NPROG * ncpu, sizeof(*mem));
	struct progagg **pa = calloc(NPROG, sizeof(*pa));
	struct progagg_delta *d = calloc(1, sizeof(*d));
	struct model *m = model__new(1);
	uint64_t hv[IVALS], seed = 88172645463325252ull, sum = 0;
	int64_t res = -1;

	if (!mem || !pa || !d || !m)
		goto out;
	for (int p = 0; p < NPROG; p++) {
		struct series *se = model__series(m, LAT_EV_PROG, 100 + p, 0, 0);

		pa[p] = progagg__wrap(mem + (size_t)p * ncpu, ncpu);
		if (!pa[p] || !se)
			goto out;
		snprintf(se->name, sizeof(se->name), "bench_prog_%04d", p);
	}
	for (int k = 0; k < IVALS; k++) {
		uint64_t t0;

		for (int p = 0; p < NPROG; p++)
			for (int j = 0; j < busy; j++) {
				int cpu = (p * 7 + j * (ncpu / busy)) % ncpu;

				for (int r = 0; r < RUNS; r++) {
					seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
					aggsim_add(&mem[(size_t)p * ncpu + cpu], 300 + seed % 3000);
				}
			}
		t0 = thread_ns();
		for (int p = 0; p < NPROG; p++) {
			uint64_t n = progagg__harvest(pa[p], false, d);
			struct series *se = model__find(m, LAT_EV_PROG, 100 + p, 0, 0);

			if (n && se)
				model__add_agg(m, se, d->idx, d->cnt, d->n, &d->d, SRC_FENTRY);
			sum += n;
		}
		hv[k] = thread_ns() - t0;
		model__close_interval(m, 1 + (k + 1) * 1000000000ull);
	}
	/* Every run harvested: the figure is of a harvest that did its whole job. */
	if (sum != (uint64_t)NPROG * busy * RUNS * IVALS) {
		fprintf(stderr, "cpus_bench: harvested %llu runs, expected %llu\n",
			(unsigned long long)sum, (unsigned long long)NPROG * busy * RUNS * IVALS);
		goto out;
	}
	res = (int64_t)median(hv, IVALS);
out:
	for (int p = 0; pa && p < NPROG; p++)
		progagg__free(pa[p]);
	free(pa);
	model__free(m);
	free(d);
	free(mem);
	return res;
}

int main(void)
{
	struct {
		const char *what;
		int ncpu, busy;
	} cases[] = {
		{ "8 CPUs, all busy (baseline)", 8, 8 },
		{ "512 CPUs, 8 busy per program", 512, BUSY },
		{ "512 CPUs, all busy", 512, 512 },
	};
	int64_t base = 0;

	printf("cpus_bench: %d programs, %d runs per busy CPU per interval, %d intervals\n", NPROG,
	       RUNS, IVALS);
	printf("%-30s %12s %7s %16s %18s\n", "case", "harvest ms", "ratio", "kernel MiB/prog",
	       "aggregated (64M)");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t ns = run(cases[i].ncpu, cases[i].busy);

		if (ns < 0) {
			fprintf(stderr, "cpus_bench: out of memory (%s)\n", cases[i].what);
			return 1;
		}
		if (!i)
			base = ns ? ns : 1;
		printf("%-30s %12.2f %7.2f %16.3f %18zu\n", cases[i].what, ns / 1e6,
		       (double)ns / (double)base, progagg__bytes(cases[i].ncpu) / 1048576.0,
		       progagg__max_programs(cases[i].ncpu, LAT_AGG_BUDGET));
	}
	/* The other per-CPU maps: one entry per possible CPU, once per session. */
	printf("per CPU, once: lat_nest %zu B + lat_hnest %zu B + lat_drops %zu B + vhost vcpu "
	       "%zu B; per watched program, site, span or segment: lat_agg %zu B\n",
	       sizeof(struct lat_nest), sizeof(struct lat_hnest), sizeof(struct lat_drops),
	       sizeof(struct lat_vhost_cpu_counters), sizeof(struct lat_agg));
	return 0;
}
