// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ui_bench.c - what the TUI costs the UI thread: 100 programs, one interval per frame.
 *
 * No BPF: a model is fed 100 programs' bpf_stats readings and, for half of them, 200
 * self-timed events per interval, with values that change every interval (so curses really
 * has cells to send). Each frame closes an interval and, on the measured side, redraws the
 * screen (header, counters, 100 rows, footer) through the real tui__draw into a 160x110
 * terminal written to /dev/null.
 * Baseline: the same loop without the redraw (model update and interval close only).
 * Heatmap: the redraw with the detail pane open on the heatmap (m) of a row with events.
 * Figures: UI-thread CPU time per frame (CLOCK_THREAD_CPUTIME_ID), medians over rounds that
 * alternate sides; at 1 Hz one frame per second is the UI thread's share of a core, plus the
 * 20 empty getch wake-ups per second measured separately.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "session/session.h"
#include "ui/tui/tui_int.h" /* to open the pane on the heatmap as the m key does */
#include "ui/tui/tui.h"

#define NPROGS 100
#define EVENTS 200 /* per events-carrying program per interval */
#define FRAMES 200 /* per round */
#define ROUNDS 5

/* This thread's CPU time in seconds. */
static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One interval of input: stats readings for every program, events for the even ones. */
static void feed(struct model *m, struct prog_stat *st, uint64_t frame)
{
	struct lat_event e = { .kind = LAT_EV_PROG };

	for (int i = 0; i < NPROGS; i++) {
		st[i].run_cnt += 1000 + (frame * 7 + i * 13) % 5000;
		st[i].run_time_ns += st[i].run_cnt % 100000;
	}
	model__apply_stats(m, st, NPROGS, frame * 1000000000ull);
	for (int i = 0; i < NPROGS; i += 2) {
		e.id = 1000 + i;
		for (int k = 0; k < EVENTS; k++) {
			e.dur_ns = 100 + (uint64_t)((k * 2654435761u + frame * 40503u + i) % 50000);
			model__add_event(m, &e, SRC_SELF);
		}
	}
	model__close_interval(m, (frame + 1) * 1000000000ull);
}

/* CPU seconds for FRAMES frames, drawing each when t is not NULL. */
static double round_cpu(struct model *m, struct prog_stat *st, struct tui *t, uint64_t *frame)
{
	double t0 = cpu_s();

	for (int f = 0; f < FRAMES; f++, (*frame)++) {
		feed(m, st, *frame);
		if (t)
			tui__draw(t);
	}
	return cpu_s() - t0;
}

/* CPU seconds of n getch calls that find no key (the loop's idle wake-ups). */
static double idle_cpu(int n)
{
	double t0 = cpu_s();

	timeout(0);
	for (int i = 0; i < n; i++)
		(void)getch();
	return cpu_s() - t0;
}

/* qsort comparison of doubles. */
static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	static struct opts o;
	static struct session s;
	static struct prog_stat st[NPROGS];
	double base[ROUNDS], draw[ROUNDS], heat[ROUNDS], idle;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr;
	struct tui *t;
	uint64_t frame = 0;
	int ret = 1;

	/* A session with a model and options only: no collector, no BPF. */
	o.interval_ns = 1000000000ull;
	o.theme = "default";
	s.o = &o;
	s.m = model__new(0);
	if (!s.m || !out || !in)
		goto cleanup;
	snprintf(s.m->source, sizeof(s.m->source), "stats+self");
	for (int i = 0; i < NPROGS; i++) {
		st[i].id = 1000 + i;
		snprintf(st[i].name, sizeof(st[i].name), "bench_prog_%03d", i);
		snprintf(st[i].type_name, sizeof(st[i].type_name), i % 3 ? "xdp" : "tracepoint");
	}
	setenv("LINES", "110", 1);
	setenv("COLUMNS", "160", 1);
	scr = newterm("xterm-256color", out, in);
	if (!scr) {
		fprintf(stderr, "bench: no xterm-256color terminfo entry\n");
		goto cleanup;
	}
	t = tui__new(&s);
	if (!t)
		goto end;
	feed(s.m, st, frame++); /* the first reading is the stats baseline */
	round_cpu(s.m, st, t, &frame); /* warm-up: allocations, first full paint */
	for (int r = 0; r < ROUNDS; r++) {
		base[r] = round_cpu(s.m, st, NULL, &frame) / FRAMES;
		draw[r] = round_cpu(s.m, st, t, &frame) / FRAMES;
		t->pane = t->heat = true;
		t->sel_id = 1000; /* events: a histogram and its heat history */
		heat[r] = round_cpu(s.m, st, t, &frame) / FRAMES;
		t->pane = t->heat = false;
	}
	idle = idle_cpu(20 * FRAMES) / FRAMES; /* 20 wake-ups per second at 1 Hz */
	tui__free(t);
	ret = 0;
end:
	endwin();
	delscreen(scr);
	if (ret)
		goto cleanup;
	qsort(base, ROUNDS, sizeof(double), dbl_cmp);
	qsort(draw, ROUNDS, sizeof(double), dbl_cmp);
	qsort(heat, ROUNDS, sizeof(double), dbl_cmp);
	printf("ui benchmark: %d programs (%d with histograms), %d frames x %d rounds, medians\n",
	       NPROGS, NPROGS / 2, FRAMES, ROUNDS);
	printf("  %-44s %10.1f us\n", "baseline: model update + close, no drawing", base[2] * 1e6);
	printf("  %-44s %10.1f us\n", "lattop: the same + tui__draw (100 rows)", draw[2] * 1e6);
	printf("  %-44s %10.1f us\n", "drawing alone (difference)", (draw[2] - base[2]) * 1e6);
	printf("  %-44s %10.1f us\n", "20 idle getch wake-ups", idle * 1e6);
	printf("  ratio lattop/baseline: %.2fx\n", draw[2] / base[2]);
	printf("  UI thread at 1 Hz: %.3f%% of a core (drawing %.3f%%; goal <= 2%%)\n",
	       (draw[2] + idle) * 100.0, (draw[2] - base[2]) * 100.0);
	printf("  %-44s %10.1f us\n", "the same with the heatmap pane open (m)", heat[2] * 1e6);
	printf("  ratio heatmap open/pane closed: %.2fx; UI thread at 1 Hz: %.3f%% of a core\n",
	       heat[2] / draw[2], (heat[2] + idle) * 100.0);
cleanup:
	model__free(s.m);
	if (out)
		fclose(out);
	if (in)
		fclose(in);
	return ret;
}
