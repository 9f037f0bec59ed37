// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rec_bench.c - what --raw costs per event, against the same run without it.
 *
 * Baseline: events into the model (what the UI thread does with each drained event), with an
 * interval recording (-w) closing every 100k events. --raw: the same plus recorder__event
 * (a 48-byte copy; every 1024 events a record is encoded and queued to the writer thread,
 * which write()s it to a file in /tmp and fdatasyncs at each interval). CPU is the process
 * CPU clock (UI + writer threads) and the UI thread's own clock; bytes/event is the file size
 * divided by the events that reached it. This loop produces far faster than any real session
 * (tens of millions of events/s), so the writer falls behind and whole frames are dropped and
 * counted ("lost frames"): that is the bounded queue doing its job, not a stall.
 * Rounds alternate sides; medians are reported with the ratio.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/model.h"
#include "rec/recorder.h"
#include "output/record.h"
#include "session/session.h"
#include "benchutil.h"

#define EVENTS 4000000
#define PER_INTERVAL 100000
#define ROUNDS 5

/* Process CPU time in ns (all threads). */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* One run: process CPU ns per event; UI-thread CPU ns per event, file bytes per event and
 * frames lost (queue full) in the out parameters. */
static double run(bool raw, double *ui_ns, double *bytes_per_ev, uint64_t *lost)
{
	static struct opts o;
	struct session s;
	char path[] = "/tmp/lattop-rec-bench-XXXXXX", err[256];
	struct stat st;
	uint64_t t0, t1, u0, lost_ev;
	int fd = mkstemp(path);

	memset(&s, 0, sizeof(s));
	o.interval_ns = 1000000000ull;
	s.o = &o;
	s.m = model__new(0);
	/* mkstemp reserved a unique name; the recorder creates only new files. */
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	if (fd < 0 || !s.m || session__record_start(&s, path, raw, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", fd < 0 ? "mkstemp failed" : err);
		exit(1);
	}
	t0 = cpu_ns();
	u0 = thread_ns();
	for (uint32_t i = 0; i < EVENTS; i++) {
		struct lat_event e = { .kind = LAT_EV_PROG, .id = 10 + (i & 3), .cpu = i & 7,
				       .pid = 100, .tid = 101, .start_ns = i * 1000ull,
				       .dur_ns = 200 + (i * 2654435761u) % 5000 };

		model__add_event(s.m, &e, SRC_SELF);
		if (s.rec)
			recorder__event(s.rec, &e);
		if ((i + 1) % PER_INTERVAL == 0) {
			model__close_interval(s.m, (i + 1) * 1000ull);
			session__record_interval(&s);
		}
	}
	*ui_ns = (double)(thread_ns() - u0) / EVENTS;
	*lost = recorder__lost(s.rec);
	lost_ev = recorder__lost_events(s.rec);
	session__record_stop(&s);
	t1 = cpu_ns();
	stat(path, &st);
	/* Per event that reached the file. */
	*bytes_per_ev = (double)st.st_size / (double)(EVENTS - lost_ev);
	unlink(path);
	model__free(s.m);
	return (double)(t1 - t0) / EVENTS;
}

/* qsort for doubles. */
static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	double base[ROUNDS], raw[ROUNDS], ubase[ROUNDS], uraw[ROUNDS], bb = 0, br = 0;
	uint64_t lb = 0, lr = 0, l;

	for (int r = 0; r < ROUNDS; r++) {
		base[r] = run(false, &ubase[r], &bb, &l);
		lb += l;
		raw[r] = run(true, &uraw[r], &br, &l);
		lr += l;
	}
	qsort(base, ROUNDS, sizeof(double), dcmp);
	qsort(raw, ROUNDS, sizeof(double), dcmp);
	qsort(ubase, ROUNDS, sizeof(double), dcmp);
	qsort(uraw, ROUNDS, sizeof(double), dcmp);
	printf("recording benchmark: %d rounds x %d events, medians\n", ROUNDS, EVENTS);
	printf("  %-28s %9s %9s %11s %11s\n", "", "CPU ns/ev", "UI ns/ev", "bytes/ev",
	       "lost frames");
	printf("  %-28s %9.1f %9.1f %11.2f %11llu\n", "model + interval recording",
	       base[ROUNDS / 2], ubase[ROUNDS / 2], bb, (unsigned long long)lb);
	printf("  %-28s %9.1f %9.1f %11.2f %11llu\n", "same + --raw", raw[ROUNDS / 2],
	       uraw[ROUNDS / 2], br, (unsigned long long)lr);
	printf("  ratio --raw/without: process CPU %.2fx (+%.1f ns/event), UI thread %.2fx "
	       "(+%.1f ns/event), +%.2f bytes/event\n",
	       raw[ROUNDS / 2] / base[ROUNDS / 2], raw[ROUNDS / 2] - base[ROUNDS / 2],
	       uraw[ROUNDS / 2] / ubase[ROUNDS / 2], uraw[ROUNDS / 2] - ubase[ROUNDS / 2],
	       br - bb);
	return 0;
}
