// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_model.c - the aggregated model: stats deltas, intervals, gone programs, events,
 * cumulative figures, reset and loss counters.
 */
#include <math.h>
#include <string.h>

#include "model/model.h"
#include "fixtures.h"
#include "test.h"


static void test_stats_deltas(void)
{
	struct model *m = model__new(0);
	struct prog_stat st[2] = { ps(10, "a", 500, 50000), ps(11, "b", 0, 0) };
	struct row r;
	struct series *a;

	/* The first scan is the baseline: what ran before lattop is not counted. */
	model__apply_stats(m, st, 2, 0);
	st[0] = ps(10, "a", 1500, 250000);
	model__apply_stats(m, st, 2, S);
	model__close_interval(m, S);
	a = model__find(m, LAT_EV_PROG, 10, 0, 0);
	if (!ASSERT_TRUE(a != NULL, "series a"))
		goto out;
	model__row(m, a, false, &r);
	ASSERT_EQ(r.count, 1000, "count is the delta");
	ASSERT_EQ((long long)r.rate, 1000, "rate per second");
	ASSERT_EQ((long long)r.avg_ns, 200, "avg = dtime/dcnt");
	ASSERT_EQ(r.has_dist, 0, "stats have no distribution");
	ASSERT_EQ((long long)(r.cpu_pct * 1000), 20, "cpu% = 200us / 1s");
	ASSERT_EQ(r.total_runs, 1500, "absolute run_cnt");
	/* Second interval of 2 s: 100 more runs. */
	st[0] = ps(10, "a", 1600, 260000);
	model__apply_stats(m, st, 2, 3 * S);
	model__close_interval(m, 3 * S);
	model__row(m, a, false, &r);
	ASSERT_EQ(r.count, 100, "second delta");
	ASSERT_EQ((long long)r.rate, 50, "rate over 2 s");
	model__row(m, a, true, &r);
	ASSERT_EQ(r.count, 1100, "cumulative");
out:
	model__free(m);
}

static void test_gone(void)
{
	struct model *m = model__new(0);
	struct prog_stat st[2] = { ps(10, "a", 1, 1), ps(11, "b", 1, 1) };
	struct series *a, *b;

	model__apply_stats(m, st, 2, 0);
	model__apply_stats(m, st, 1, S); /* b no longer loaded */
	b = model__find(m, LAT_EV_PROG, 11, 0, 0);
	ASSERT_TRUE(b && b->gone, "b gone");
	ASSERT_EQ(b ? b->gone_ns : 0, S, "gone at");
	a = model__find(m, LAT_EV_PROG, 10, 0, 0);
	if (ASSERT_NONNULL(a, "a still found"))
		ASSERT_EQ(a->gone, 0, "a stays");
	model__free(m);
}

static void test_events(void)
{
	struct model *m = model__new(0);
	struct lat_event e = { .kind = LAT_EV_PROG, .id = 7 };
	struct series *s;
	struct row r;

	for (int i = 1; i <= 1000; i++) {
		e.dur_ns = i * 10; /* 10 .. 10000 ns */
		ASSERT_OK(model__add_event(m, &e, SRC_FENTRY), "add");
	}
	model__close_interval(m, S);
	s = model__find(m, LAT_EV_PROG, 7, 0, 0);
	if (!ASSERT_NONNULL(s, "series 7"))
		goto out;
	model__row(m, s, false, &r);
	ASSERT_EQ(r.count, 1000, "count");
	ASSERT_EQ(r.has_dist, 1, "distribution");
	ASSERT_LE(r.p50 > 5000 ? r.p50 - 5000 : 5000 - r.p50, 5000 * 0.01, "p50 ~ 5000");
	ASSERT_LE(r.p99 > 9900 ? r.p99 - 9900 : 9900 - r.p99, 9900 * 0.01, "p99 ~ 9900");
	ASSERT_EQ(r.max, 10000, "max exact");
	ASSERT_EQ((long long)r.avg_ns, 5005, "mean exact");
	ASSERT_EQ(m->c_last.events, 1000, "events counted");
	/* An empty next interval: zero count, cumulative keeps everything. */
	model__close_interval(m, 2 * S);
	model__row(m, s, false, &r);
	ASSERT_EQ(r.count, 0, "empty interval");
	model__row(m, s, true, &r);
	ASSERT_EQ(r.count, 1000, "cumulative");
	/* Reset forgets cumulative figures only. */
	model__reset(m, 2 * S);
	model__row(m, s, true, &r);
	ASSERT_EQ(r.count, 0, "reset");
	ASSERT_EQ(m->n, 1, "series stays");
out:
	model__free(m);
}

/* The probes' cost: 1,000 probed runs at 200 ns each in a 1 s interval is 0.02% of a CPU; the
 * helper probes' 300,000 ns attributed to the program add 0.03%, in the interval and
 * cumulatively; a reset forgets the cumulative share. */
static void test_probe_cost(void)
{
	struct model *m = model__new(0);
	struct lat_event e = { .kind = LAT_EV_PROG, .id = 9, .dur_ns = 500 };
	struct series *s;

	m->run_cost_ns = 200;
	m->ncpu = 2;
	for (int i = 0; i < 1000; i++)
		ASSERT_OK(model__add_event(m, &e, SRC_FENTRY), "add");
	s = model__find(m, LAT_EV_PROG, 9, 0, 0);
	if (!ASSERT_NONNULL(s, "series 9"))
		goto out;
	model__close_interval(m, S);
	ASSERT_TRUE(fabs(model__probe_cost_pct(m, false) - 0.02) < 1e-9, "runs x run cost");
	for (int i = 0; i < 1000; i++)
		ASSERT_OK(model__add_event(m, &e, SRC_FENTRY), "add");
	model__add_helper_cost(m, s, 300000);
	model__close_interval(m, 2 * S);
	ASSERT_TRUE(fabs(model__probe_cost_pct(m, false) - 0.05) < 1e-9, "plus the helpers'");
	ASSERT_TRUE(fabs(model__probe_machine_pct(m, false) - 0.025) < 1e-9, "of 2 CPUs");
	ASSERT_EQ(s->st_cum.helper_ns, 300000, "cumulative share");
	model__close_interval(m, 3 * S);
	ASSERT_EQ(s->st_last.helper_ns, 0, "an interval without helper time");
	model__reset(m, 3 * S);
	ASSERT_EQ(s->st_cum.helper_ns, 0, "reset");
out:
	model__free(m);
}

static void test_many_series(void)
{
	struct model *m = model__new(0);
	struct lat_event e = { .kind = LAT_EV_HELPER, .dur_ns = 5 };

	/* 1000 series, each hit twice in different orders: the index finds each one again. */
	for (int round = 0; round < 2; round++)
		for (uint32_t i = 0; i < 1000; i++) {
			e.id = round ? 999 - i : i;
			e.aux = e.id % 7;
			model__add_event(m, &e, SRC_FENTRY);
		}
	ASSERT_EQ(m->n, 1000, "one series per key");
	model__close_interval(m, S);
	for (uint32_t i = 0; i < 1000; i += 97) {
		struct series *s = model__find(m, LAT_EV_HELPER, i, i % 7, 0);

		ASSERT_TRUE(s && s->h_last.count == 2, "two events per series");
	}
	ASSERT_TRUE(model__find(m, LAT_EV_HELPER, 5, 0, 0) == NULL, "other key absent");
	model__free(m);
}

static void test_losses(void)
{
	struct model *m = model__new(0);

	model__set_losses(m, &(struct model_losses){ .rb_drops = 5, .queue_drops = 2 });
	model__close_interval(m, S);
	ASSERT_EQ(m->c_last.rb_drops, 5, "rb");
	ASSERT_EQ(m->c_last.queue_drops, 2, "queue");
	model__set_losses(m, &(struct model_losses){ .rb_drops = 5, .queue_drops = 9, .nest = 1 });
	model__close_interval(m, 2 * S);
	ASSERT_EQ(m->c_last.rb_drops, 0, "no new rb drops");
	ASSERT_EQ(m->c_last.queue_drops, 7, "queue delta");
	ASSERT_EQ(m->c_last.nest, 1, "nest");
	ASSERT_EQ(m->c_cum.queue_drops, 9, "cumulative queue");
	model__free(m);
}

static void test_p99_history(void)
{
	struct model *m = model__new(0);
	struct lat_event e = { .kind = LAT_EV_PROG, .id = 3 };
	uint64_t out[MODEL_P99_RING + 5];
	struct series *s;
	size_t n;

	/* Interval i records 100 events of i * 1000 ns: its p99 is ~i us. */
	for (int i = 1; i <= MODEL_P99_RING + 10; i++) {
		e.dur_ns = (uint64_t)i * 1000;
		for (int k = 0; k < 100; k++)
			model__add_event(m, &e, SRC_SELF);
		model__close_interval(m, (uint64_t)i * S);
		s = model__find(m, LAT_EV_PROG, 3, 0, 0);
		if (!ASSERT_NONNULL(s, "series 3"))
			goto out;
		if (i == 3) {
			n = model__p99_history(m, s, out, MODEL_P99_RING);
			ASSERT_EQ(n, 3, "three intervals so far");
			ASSERT_LE(out[0] > 1000 ? out[0] - 1000 : 1000 - out[0], 10,
				  "oldest first");
			ASSERT_LE(out[2] > 3000 ? out[2] - 3000 : 3000 - out[2], 30, "newest last");
		}
	}
	n = model__p99_history(m, s, out, MODEL_P99_RING + 5);
	ASSERT_EQ(n, MODEL_P99_RING, "ring keeps the last MODEL_P99_RING");
	ASSERT_EQ(out[n - 1], (MODEL_P99_RING + 10) * 1000, "newest = last interval");
	ASSERT_EQ(out[0], 11 * 1000, "oldest = the 11th interval");
	n = model__p99_history(m, s, out, 4);
	ASSERT_EQ(n, 4, "a shorter copy");
	ASSERT_EQ(out[3], (MODEL_P99_RING + 10) * 1000, "ends with the newest");
	/* An empty interval records 0 (a gap in the sparkline). */
	model__close_interval(m, 100 * S);
	n = model__p99_history(m, s, out, MODEL_P99_RING);
	ASSERT_EQ(out[n - 1], 0, "empty interval");
	ASSERT_EQ(out[n - 2], (MODEL_P99_RING + 10) * 1000, "the last busy one before it");
	/* Idle closes cost nothing per series, yet each still shows as a 0, in order. */
	model__close_interval(m, 101 * S);
	model__close_interval(m, 102 * S);
	e.dur_ns = 5000;
	model__add_event(m, &e, SRC_SELF);
	model__close_interval(m, 103 * S);
	n = model__p99_history(m, s, out, MODEL_P99_RING);
	ASSERT_EQ(n, MODEL_P99_RING, "still a full ring");
	ASSERT_EQ(out[n - 1], 5000, "busy again");
	ASSERT_TRUE(out[n - 2] == 0 && out[n - 3] == 0 && out[n - 4] == 0, "three idle zeros");
	ASSERT_EQ(out[n - 5], (MODEL_P99_RING + 10) * 1000, "then the old newest");
	for (int i = 0; i < 2 * MODEL_P99_RING; i++)
		model__close_interval(m, (uint64_t)(104 + i) * S);
	n = model__p99_history(m, s, out, MODEL_P99_RING);
	ASSERT_EQ(n, MODEL_P99_RING, "full after a long idle spell");
	ASSERT_TRUE(out[0] == 0 && out[n - 1] == 0, "all zeros after a long idle spell");
out:
	model__free(m);
}

/* Count of log2 row r in heat slot sl (0 outside its span). */
static uint32_t heat_at(const struct heat_slot *sl, int r)
{
	return r >= sl->lo && r < sl->lo + sl->n ? sl->cnt[r - sl->lo] : 0;
}

static void test_heat_history(void)
{
	struct model *m = model__new(0);
	struct lat_event e = { .kind = LAT_EV_PROG, .id = 4 };
	struct heat_slot out[MODEL_P99_RING];
	int r1us = model__heat_row(1000), r100us = model__heat_row(100000);
	struct model_cost c0, c1;
	struct series *s;
	size_t n, heat;

	ASSERT_EQ(r1us, 10, "1000 ns is in [512, 1023]");
	ASSERT_EQ(r100us, 17, "100 us is in [65536, 131071]");
	ASSERT_EQ(model__heat_row(0), 0, "0 has its own row");
	ASSERT_EQ(model__heat_row(UINT64_MAX), MODEL_HEAT_ROWS - 1, "the top row takes the rest");
	model__cost(m, &c0);
	/* Interval i: 90 runs at 1 us and 10 at 100 us in the first 50, then 100 at 100 us;
	 * interval i + 1 has i + 1 runs so each slot is told apart after the ring wraps. */
	for (int i = 0; i < MODEL_P99_RING + 40; i++) {
		for (int k = 0; k <= i + 100; k++) {
			e.dur_ns = i < 50 && k < 90 ? 1000 : 100000;
			model__add_event(m, &e, SRC_SELF);
		}
		model__close_interval(m, (uint64_t)(i + 1) * S);
	}
	s = model__find(m, LAT_EV_PROG, 4, 0, 0);
	if (!ASSERT_NONNULL(s, "series 4"))
		goto out;
	n = model__heat_history(m, s, out, MODEL_P99_RING);
	ASSERT_EQ(n, MODEL_P99_RING, "the ring keeps MODEL_P99_RING intervals");
	/* out[0] is interval 40 (the 41st), out[9] interval 49, out[10] interval 50. */
	ASSERT_EQ(heat_at(&out[0], r1us), 90, "oldest after the wrap: 90 at 1 us");
	ASSERT_EQ(heat_at(&out[0], r100us), 41 + 100 - 90, "and the rest at 100 us");
	ASSERT_EQ(out[0].p50, r1us, "p50 row before the step");
	ASSERT_EQ(out[0].p99, r100us, "p99 row before the step");
	ASSERT_EQ(heat_at(&out[10], r1us), 0, "none at 1 us after the step");
	ASSERT_EQ(heat_at(&out[10], r100us), 151, "all 151 at 100 us after the step");
	ASSERT_EQ(out[10].p50, r100us, "p50 row after the step");
	ASSERT_EQ(heat_at(&out[n - 1], r100us), MODEL_P99_RING + 40 + 100, "newest last");
	ASSERT_EQ(out[n - 1].n, 1, "one row spanned: one count held");
	n = model__heat_history(m, s, out, 5);
	ASSERT_EQ(n, 5, "a narrower pane gets the newest 5");
	ASSERT_EQ(heat_at(&out[4], r100us), MODEL_P99_RING + 40 + 100, "ending with the newest");
	/* Idle closes show as empty intervals at the right, in order. */
	model__close_interval(m, 200 * S);
	model__close_interval(m, 201 * S);
	n = model__heat_history(m, s, out, MODEL_P99_RING);
	ASSERT_TRUE(out[n - 1].n == 0 && out[n - 2].n == 0, "two idle intervals");
	ASSERT_EQ(heat_at(&out[n - 3], r100us), MODEL_P99_RING + 40 + 100,
		  "then the last busy one");
	/* Memory: the slots and the rows their runs spanned (8 rows when the step was in view). */
	model__cost(m, &c1);
	heat = c1.bytes - c1.hist_bytes - c0.bytes - m->cap * (sizeof(*m->s) + sizeof(*m->act)) -
	       m->index_cap * sizeof(*m->index);
	ASSERT_GE(heat, MODEL_P99_RING * sizeof(struct heat_slot), "the slots are counted");
	ASSERT_LE(heat, MODEL_P99_RING * (sizeof(struct heat_slot) + 8 * sizeof(uint32_t)),
		  "heat history within 60 slots of 8 rows");
out:
	model__free(m);
}

/* Add n events of dur_ns to program id. */
static void events(struct model *m, uint32_t id, int n, uint64_t dur_ns)
{
	for (int i = 0; i < n; i++) {
		struct lat_event ev = { .kind = LAT_EV_PROG, .id = id, .dur_ns = dur_ns };

		model__add_event(m, &ev, SRC_FENTRY);
	}
}

/* A probed program's count comes from its events only: an interval whose runs bpf_stats saw
 * before any event arrived shows 0 (those events count in the next interval), so the
 * per-interval counts add up to the runs exactly (issue 16: they added up to 902,604 of
 * 900,000). An unprobed program keeps the stats delta, and each row says which it is. */
static void test_probed_count_from_events_only(void)
{
	struct model *m = model__new(0);
	struct prog_stat st[2] = { ps(10, "watched", 300000, 0), ps(11, "other", 0, 0) };
	uint64_t sum = 0;
	struct series *w, *o;
	struct row r;

	model__apply_stats(m, st, 2, 0); /* baseline */
	w = model__find(m, LAT_EV_PROG, 10, 0, 0);
	o = model__find(m, LAT_EV_PROG, 11, 0, 0);
	if (!ASSERT_TRUE(w && o, "series"))
		goto out;
	model__set_probing(m, w, true);
	/* Interval 1: 2,604 runs, their events still in flight. */
	st[0] = ps(10, "watched", 302604, 2604 * 500);
	st[1] = ps(11, "other", 70, 7000);
	model__apply_stats(m, st, 2, S);
	model__close_interval(m, S);
	model__row(m, w, false, &r);
	ASSERT_EQ(r.count, 0, "no event yet: 0, not the stats delta");
	ASSERT_EQ(r.total_runs, 302604, "run_cnt still shown");
	ASSERT_EQ(strcmp(r.source, "events"), 0, "source events");
	sum += r.count;
	model__row(m, o, false, &r);
	ASSERT_EQ(r.count, 70, "unprobed: the stats delta");
	ASSERT_EQ(strcmp(r.source, "stats"), 0, "source stats");
	/* Interval 2: those events arrive with 257,396 more. */
	events(m, 10, 260000, 501);
	st[0] = ps(10, "watched", 560000, 260000 * 500);
	model__apply_stats(m, st, 2, 2 * S);
	model__close_interval(m, 2 * S);
	model__row(m, w, false, &r);
	ASSERT_EQ(r.count, 260000, "the events");
	ASSERT_EQ(r.has_dist, 1, "percentiles");
	sum += r.count;
	ASSERT_EQ(sum, 260000, "per-interval counts add up to the runs");
	model__row(m, w, true, &r);
	ASSERT_EQ(r.count, 260000, "cumulative: the events");
	/* Detached during interval 3: its late events still count there, and its stats delta
	 * does not; interval 4 is stats again. */
	model__set_probing(m, w, false);
	events(m, 10, 5, 501);
	st[0] = ps(10, "watched", 560100, 0);
	model__apply_stats(m, st, 2, 3 * S);
	model__close_interval(m, 3 * S);
	model__row(m, w, false, &r);
	ASSERT_EQ(r.count, 5, "interval probed for a while: events only");
	st[0] = ps(10, "watched", 560170, 0);
	model__apply_stats(m, st, 2, 4 * S);
	model__close_interval(m, 4 * S);
	model__row(m, w, false, &r);
	ASSERT_EQ(r.count, 70, "unprobed again: stats");
	ASSERT_EQ(strcmp(r.source, "stats"), 0, "source stats again");
	/* Cumulative stays with the events, since it was measured in the window; a reset
	 * starts a window that was never measured. */
	model__row(m, w, true, &r);
	ASSERT_EQ(r.count, 260005, "cumulative: events only");
	model__reset(m, 4 * S);
	st[0] = ps(10, "watched", 560270, 0);
	model__apply_stats(m, st, 2, 5 * S);
	model__close_interval(m, 5 * S);
	model__row(m, w, true, &r);
	ASSERT_EQ(r.count, 100, "after reset, never measured: stats");
out:
	model__free(m);
}

/* --no-stats: a scan lists programs but its counters are not this session's (0, or someone
 * else's system-wide stats): a probed program's figures come from its events alone, 0 runs
 * while probed is 0, and an unprobed one has no figures at all, never zeros. */
static void test_no_stats(void)
{
	struct model *m = model__new(0);
	struct prog_stat st[2] = { ps(10, "watched", 1000, 90000), ps(11, "other", 500, 7000) };
	struct series *w, *o;
	struct row r;

	m->no_stats = true;
	model__apply_stats(m, st, 2, 0);
	w = model__find(m, LAT_EV_PROG, 10, 0, 0);
	o = model__find(m, LAT_EV_PROG, 11, 0, 0);
	if (!ASSERT_TRUE(w && o, "scan lists the programs"))
		goto out;
	ASSERT_STREQ(w->name, "watched", "name from the scan");
	ASSERT_EQ(w->src & SRC_STATS, 0, "no stats source");
	model__set_probing(m, w, true);
	/* Interval 1: the counters move (stats on elsewhere), no event harvested yet. */
	st[0] = ps(10, "watched", 3000, 290000);
	st[1] = ps(11, "other", 900, 9000);
	model__apply_stats(m, st, 2, S);
	model__close_interval(m, S);
	model__row(m, w, false, &r);
	ASSERT_EQ(r.has_rate, 1, "probed: measured");
	ASSERT_EQ(r.count, 0, "probed, no event: 0 runs, not the counters' delta");
	ASSERT_STREQ(r.source, "events", "source events");
	ASSERT_TRUE(r.cpu_pct < 0, "no CPU% without stats");
	ASSERT_EQ(r.total_runs, 0, "no run_cnt taken");
	model__row(m, o, false, &r);
	ASSERT_EQ(r.has_rate, 0, "unprobed: no count");
	ASSERT_EQ(r.has_dist, 0, "unprobed: no percentiles");
	ASSERT_TRUE(r.cpu_pct < 0, "unprobed: no CPU%");
	ASSERT_STREQ(r.source, "-", "unprobed: no source");
	/* Interval 2: 1,000 runs as events; "other" is unloaded. */
	events(m, 10, 1000, 700);
	model__apply_stats(m, st, 1, 2 * S);
	model__close_interval(m, 2 * S);
	model__row(m, w, false, &r);
	ASSERT_EQ(r.count, 1000, "exact count from the events");
	ASSERT_EQ(r.has_dist, 1, "percentiles");
	ASSERT_TRUE(r.p50 > 0, "p50");
	ASSERT_TRUE(o->gone, "an unloaded program is gone without stats too");
	/* Interval 3: detached, nothing measured it: no figures, not an empty histogram's 0. */
	model__set_probing(m, w, false);
	model__close_interval(m, 3 * S);
	model__close_interval(m, 4 * S);
	model__row(m, w, false, &r);
	ASSERT_EQ(r.has_rate, 0, "detached: no figures");
	model__row(m, w, true, &r);
	ASSERT_EQ(r.count, 1000, "cumulative keeps the measured runs");
out:
	model__free(m);
}

/* The kernel's recursion_misses of a program: what it had before the first scan is not the
 * session's; growth after it is the program's named loss counter, per interval and in all,
 * with bpf_stats off too. */
static void test_recursion_misses(void)
{
	struct model *m = model__new(0);
	struct prog_stat st = ps(7, "tr", 10, 100);
	struct series *s;

	if (!ASSERT_NONNULL(m, "model"))
		return;
	m->no_stats = true;
	st.recursion_misses = 5;
	model__apply_stats(m, &st, 1, 0);
	model__close_interval(m, S);
	s = model__find(m, LAT_EV_PROG, 7, 0, 0);
	ASSERT_EQ(model__counter(m, s, MODEL_RECURSION_MISSES, true), 0, "history not counted");
	st.recursion_misses = 8;
	model__apply_stats(m, &st, 1, S);
	model__close_interval(m, 2 * S);
	ASSERT_EQ(model__counter(m, s, MODEL_RECURSION_MISSES, false), 3, "growth in the interval");
	st.recursion_misses = 9;
	model__apply_stats(m, &st, 1, 2 * S);
	model__close_interval(m, 3 * S);
	ASSERT_EQ(model__counter(m, s, MODEL_RECURSION_MISSES, false), 1, "next interval");
	ASSERT_EQ(model__counter(m, s, MODEL_RECURSION_MISSES, true), 4, "since start");
	ASSERT_TRUE(model__counter_next(m, s, NULL) != NULL, "a counter of the program");
	model__free(m);
}

int main(void)
{
	RUN_TEST(test_recursion_misses);
	test__suite = "model";
	RUN_TEST(test_stats_deltas);
	RUN_TEST(test_gone);
	RUN_TEST(test_events);
	RUN_TEST(test_probe_cost);
	RUN_TEST(test_many_series);
	RUN_TEST(test_losses);
	RUN_TEST(test_p99_history);
	RUN_TEST(test_heat_history);
	RUN_TEST(test_probed_count_from_events_only);
	RUN_TEST(test_no_stats);
	printf("model: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
