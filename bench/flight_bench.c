// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flight_bench.c - what --flight costs, against the same session without it.
 *
 * A session of 100 programs with per-invocation histograms (200 runs of each per interval,
 * spread over a few hundred ns to a few us, like the demo's) is closed interval by interval
 * on this thread, as the UI thread closes a live one: model__close_interval alone (the
 * baseline), or followed by flight__interval (--flight).
 *  1. Memory: 900 intervals (15 minutes at -d 1) held; the heap in use (mallinfo2) against
 *     the same 900 intervals closed without --flight, and the flight's own count per interval
 *     of history per series.
 *  2. Close time: the UI thread's CPU per close, with and without --flight (medians).
 *  3. A 64 MiB dump: the flight filled to a 64 MiB cap, one dump written by the dump thread
 *     into a new directory under the working directory (a real disk, fdatasync included)
 *     while intervals keep closing: the dump's time, and the close times during it (median,
 *     max) against the closes before it.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "model/model.h"
#include "rec/flight.h"
#include "rec/recorder.h"
#include "benchutil.h"

#define NPROG 100
#define RUNS 200
#define HOLD 900
#define DUMP_CAP (64ull << 20)

/* A model of NPROG named programs (one stats scan). */
static struct model *new_model(void)
{
	static struct prog_stat st[NPROG];
	struct model *m = model__new(0);

	for (int i = 0; m && i < NPROG; i++) {
		st[i] = (struct prog_stat){.id = 100 + i, .type = 6};
		snprintf(st[i].name, sizeof(st[i].name), "bench_prog_%03d", i);
		snprintf(st[i].type_name, sizeof(st[i].type_name), "xdp");
	}
	if (m)
		model__apply_stats(m, st, NPROG, 0);
	return m;
}

/* Feed interval k's runs and close it at its end (1 s intervals); the UI-thread CPU ns the
 * close took (with flight__interval when f is set) into *close_ns. */
static void interval(struct model *m, struct flight *f, uint64_t k, uint64_t *close_ns)
{
	uint64_t t0;

	for (int p = 0; p < NPROG; p++)
		for (int r = 0; r < RUNS; r++) {
			uint32_t h = (uint32_t)(k * 7919u + p * 104729u + r * 2654435761u);
			struct lat_event e = {.kind = LAT_EV_PROG,
					      .id = 100 + p,
					      .dur_ns = 300 + h % (2000 + 40 * p)};

			model__add_event(m, &e, SRC_SELF);
		}
	t0 = thread_ns();
	model__close_interval(m, (k + 1) * 1000000000ull);
	if (f)
		flight__interval(f, m, "");
	*close_ns = thread_ns() - t0;
}

/* Close HOLD intervals with or without a flight; the heap in use after them and the median
 * close time. */
static void hold(bool flight, size_t *heap, uint64_t *close_med, struct flight_stats *fs)
{
	static uint64_t t[HOLD];
	struct flight_cfg cfg = {
	    .keep_ns = 3600 * 1000000000ull, .max_bytes = 1ull << 30, .dir = "."};
	size_t before = mallinfo2().uordblks;
	struct model *m = new_model();
	struct flight *f = flight ? flight__new(&cfg) : NULL;

	if (!m || (flight && !f)) {
		fprintf(stderr, "flight_bench: out of memory\n");
		exit(1);
	}
	for (uint64_t k = 0; k < HOLD; k++)
		interval(m, f, k, &t[k]);
	*heap = mallinfo2().uordblks - before;
	*close_med = median(t, HOLD);
	if (f)
		flight__stats(f, fs);
	flight__free(f);
	model__free(m);
}

/* Fill a flight to DUMP_CAP, dump it into dir while closing intervals; prints the figures. */
static void dump_64(const char *dir)
{
	struct flight_cfg cfg = {
	    .keep_ns = 100000 * 1000000000ull, .max_bytes = DUMP_CAP, .dir = dir};
	static uint64_t before[200], during[20000];
	struct model *m = new_model();
	struct flight *f = flight__new(&cfg);
	struct rec_meta meta = {
	    .m = m, .mode_name = "programs", .filter = "", .interval_ns = 1000000000ull};
	struct flight_why why = {.trigger = FT_SIGNAL};
	struct flight_stats fs;
	uint64_t k = 0, w0, nd = 0, t;
	char err[320], msg[640];
	bool failed;

	if (!m || !f) {
		fprintf(stderr, "flight_bench: out of memory\n");
		exit(1);
	}
	do {
		interval(m, f, k++, &t);
		flight__stats(f, &fs);
	} while (fs.bytes < DUMP_CAP - DUMP_CAP / 64);
	for (size_t i = 0; i < 200; i++)
		interval(m, f, k++, &before[i]);
	why.fired_ns = now_ns();
	w0 = now_ns();
	if (flight__dump(f, &meta, &why, err, sizeof(err))) {
		fprintf(stderr, "flight_bench: %s\n", err);
		exit(1);
	}
	for (flight__stats(f, &fs); fs.pending && nd < 20000; flight__stats(f, &fs))
		interval(m, f, k++, &during[nd++]);
	flight__drain(f);
	w0 = now_ns() - w0;
	flight__stats(f, &fs);
	while (flight__poll(f, msg, sizeof(msg), &failed))
		if (failed)
			fprintf(stderr, "flight_bench: %s\n", msg);
	printf("64 MiB dump: %.1f MiB written in %.0f ms (create to close, "
	       "fdatasync included; %.0f ms from the request), %.0f MiB/s\n",
	       fs.last_dump_bytes / 1048576.0, fs.last_dump_ns / 1e6, w0 / 1e6,
	       fs.last_dump_bytes / 1048576.0 / (fs.last_dump_ns / 1e9));
	qsort(during, nd, sizeof(*during), bench_cmp_u64);
	printf("intervals held after the dump %llu; not kept while it held the oldest ones: %llu\n",
	       (unsigned long long)fs.intervals, (unsigned long long)fs.skipped);
	printf("close during the dump: median %.1f us, max %.1f us over %llu closes; before it: "
	       "median %.1f us (ratio %.2f)\n",
	       median(during, nd) / 1e3, nd ? during[nd - 1] / 1e3 : 0, (unsigned long long)nd,
	       median(before, 200) / 1e3, (double)median(during, nd) / (double)median(before, 200));
	flight__free(f);
	model__free(m);
}

int main(void)
{
	struct flight_stats fs = {0};
	size_t heap0, heap1;
	uint64_t c0, c1;
	char dir[] = "lattop-flight-bench-XXXXXX";
	char cmd[128];

	hold(false, &heap0, &c0, &fs);
	hold(true, &heap1, &c1, &fs);
	printf("flight_bench: %d programs with histograms, %d runs each per interval\n", NPROG,
	       RUNS);
	printf("15 min (%d intervals) held: %.1f MiB in the flight, %.1f bytes per interval per "
	       "series; heap %.1f MiB without --flight, %.1f MiB with (ratio %.2f)\n",
	       HOLD, fs.bytes / 1048576.0, (double)fs.bytes / (double)(HOLD * NPROG),
	       heap0 / 1048576.0, heap1 / 1048576.0, (double)heap1 / (double)heap0);
	printf("close (UI-thread CPU, median): %.1f us without --flight, %.1f us with (ratio "
	       "%.2f)\n",
	       c0 / 1e3, c1 / 1e3, (double)c1 / (double)c0);
	if (!mkdtemp(dir)) {
		perror("flight_bench: mkdtemp");
		return 1;
	}
	dump_64(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", dir);
	return system(cmd) ? 1 : 0;
}
