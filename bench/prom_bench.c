// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom_bench.c - what --listen costs: the UI thread's publish (totals + snapshot) per interval
 * close and a scrape's rendering, with the exposition sizes, for N programs that each ran with
 * a realistic spread of latencies (and, in helpers mode, 4 helper rows each). Prints one line
 * per case; the interval close itself (model__close_interval) is the baseline.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ui/prom/prom_fmt.h"
#include "ui/prom/prom_snap.h"

/* CLOCK_MONOTONIC in ns. */
static uint64_t ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One interval of runs: each series gets `per` events spread log-uniformly over 50 ns..500 us. */
static void fill(struct model *m, int nprog, int helpers, int per)
{
	struct lat_event e = {};

	for (int p = 0; p < nprog; p++)
		for (int h = 0; h <= helpers; h++) {
			e.kind = h ? LAT_EV_HELPER : LAT_EV_PROG;
			e.id = 1000 + p;
			e.aux = h ? 1 + h : 0;
			e.aux2 = h ? 50 + h : 0;
			for (int i = 0; i < per; i++) {
				e.dur_ns = (uint64_t)(50 * exp((double)rand() / RAND_MAX * 9.2));
				model__add_event(m, &e, SRC_FENTRY);
			}
		}
}

/* Run one case: nprog programs (helpers rows each), iters intervals; report medians. */
static void run(int nprog, int helpers, int iters)
{
	struct model *m = model__new(0);
	struct prom_state *st = prom_state__new(300ull * 1000000000ull);
	uint64_t close_ns = 0, pub_ns = 0, render_ns[3] = {};
	size_t size[3] = {};

	for (int it = 0; it < iters; it++) {
		struct prom_snap *s;
		uint64_t t0, t1, t2;

		fill(m, nprog, helpers, 2000);
		t0 = ns();
		model__close_interval(m, (uint64_t)(it + 1) * 1000000000ull);
		t1 = ns();
		prom_state__update(st, m, 1e9 + it, 0);
		s = prom_state__snapshot(st, m, (uint64_t)(it + 1) * 1000000000ull);
		t2 = ns();
		close_ns += t1 - t0;
		pub_ns += t2 - t1;
		for (int f = 0; f < 3; f++) {
			char *out;
			size_t len;
			uint64_t r0 = ns();

			if (prom_fmt__render(s, (enum prom_fmt)f, &out, &len) == 0) {
				render_ns[f] += ns() - r0;
				size[f] = len;
				free(out);
			}
		}
		prom_snap__unref(s);
	}
	printf("prom_bench: %d programs x %d helpers: close %.2f ms, publish %.2f ms (%.1fx the "
	       "close); render text %.2f ms %zu B, openmetrics %.2f ms %zu B, protobuf %.2f ms "
	       "%zu B\n",
	       nprog, helpers, close_ns / 1e6 / iters, pub_ns / 1e6 / iters,
	       (double)pub_ns / (double)(close_ns ? close_ns : 1), render_ns[0] / 1e6 / iters,
	       size[0], render_ns[1] / 1e6 / iters, size[1], render_ns[2] / 1e6 / iters, size[2]);
	prom_state__free(st);
	model__free(m);
}

int main(void)
{
	srand(1);
	run(4, 0, 10);
	run(100, 0, 10);
	run(100, 4, 5);
	return 0;
}
