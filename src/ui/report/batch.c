// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * batch.c - `-b`: one report per interval as text, CSV or JSON Lines, from the model's rows.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/jsonw.h"
#include "base/text.h"
#include "rec/replay.h"
#include "session/filter.h"
#include "ui/columns.h"
#include "ui/counters.h"
#include "ui/report/batch.h"

/* Longest table printed; more rows than this are summarised. */
#define BATCH_MAX_ROWS 4096

/* Wall-clock time of the end of the last interval, in ns since the epoch. */
static uint64_t wall_ns(const struct session *s)
{
	return session__wall_ns(s, s->m->last_end_ns);
}

/* Raw (machine) form of a cell for CSV (text__csv_field escapes and quotes it). */
static void cell_raw(const struct cell *c, char *buf, size_t len)
{
	switch (c->t) {
	case CELL_NULL:
		buf[0] = '\0';
		break;
	case CELL_U64:
		snprintf(buf, len, "%" PRIu64, c->u);
		break;
	case CELL_STR:
		snprintf(buf, len, "%s", c->s);
		break;
	case CELL_NS:
		snprintf(buf, len, "%.0f", c->d);
		break;
	case CELL_DBL:
	case CELL_PCT:
		snprintf(buf, len, "%.3f", c->d);
		break;
	}
}

/* A latency in ns as a JSON integer: rounded, 0 for a negative or NaN figure, and the largest
 * u64 for one past it (a hostile recording's sum can make an average of 2^64 ns, which no
 * cast may convert). */
static uint64_t ns_u64(double d)
{
	if (!(d >= 0))
		return 0;
	return d + 0.5 >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)(d + 0.5);
}

/* JSON form of a cell: integers exact, ratios as doubles. */
static void cell_json(struct jsonw *w, const struct cell *c)
{
	switch (c->t) {
	case CELL_U64:
		jsonw__u64(w, c->u);
		break;
	case CELL_STR:
		jsonw__string(w, c->s);
		break;
	case CELL_NS:
		jsonw__u64(w, ns_u64(c->d));
		break;
	case CELL_DBL:
	case CELL_PCT:
		jsonw__double(w, c->d);
		break;
	case CELL_NULL:
	default:
		jsonw__null(w);
		break;
	}
}

/* Widest bar of a --hist text histogram, in characters. */
#define HIST_BAR 40

/* The row's log2 histogram ranges into lr (at most 64); how many (0 without samples). */
static int row_log2(const struct row *r, struct hist_log2_row *lr)
{
	const struct hist *h = model__row_hist(r);

	return h && h->count ? hist__log2(h, lr, 64) : 0;
}

/* --hist in text: the row's log2 histogram as "[lo, hi] count ####" lines under it. */
static void text_hist(FILE *f, const struct row *r)
{
	struct hist_log2_row lr[64];
	int n = row_log2(r, lr);
	uint64_t widest = 0;

	for (int i = 0; i < n; i++)
		widest = lr[i].count > widest ? lr[i].count : widest;
	for (int i = 0; i < n; i++) {
		char range[80];

		fmt_log2_range(&lr[i], range, sizeof(range));
		fprintf(f, "    %s %.*s\n", range, log2_bar(lr[i].count, widest, HIST_BAR),
			"########################################");
	}
}

/* --hist in CSV: "lo:hi:count" per log2 range, ';'-separated ("" without samples). */
static void csv_hist(FILE *f, const struct row *r)
{
	struct hist_log2_row lr[64];
	int n = row_log2(r, lr);

	for (int i = 0; i < n; i++)
		fprintf(f, "%s%" PRIu64 ":%" PRIu64 ":%" PRIu64, i ? ";" : "", lr[i].lo, lr[i].hi,
			lr[i].count);
}

/* --hist in JSON: "hist": [[lo_ns, hi_ns, count], ...] ([] without samples). */
static void json_hist(struct jsonw *w, const struct row *r)
{
	struct hist_log2_row lr[64];
	int n = row_log2(r, lr);

	jsonw__key(w, "hist");
	jsonw__begin_array(w);
	for (int i = 0; i < n; i++) {
		jsonw__begin_array(w);
		jsonw__u64(w, lr[i].lo);
		jsonw__u64(w, lr[i].hi);
		jsonw__u64(w, lr[i].count);
		jsonw__end_array(w);
	}
	jsonw__end_array(w);
}

/* A span's filter and breakdown counters (filtered, folded) that it has: each calls put(arg,
 * name, value). */
static void seg_counters(const struct row *r, void (*put)(void *, const char *, uint64_t),
			 void *arg)
{
	const struct model_counter *c = NULL;

	if (r->s->kind != LAT_EV_SEG || !r->m)
		return;
	while ((c = model__counter_next(r->m, r->s, c)))
		if (!strcmp(c->name, "filtered") || !strcmp(c->name, "folded"))
			put(arg, c->name, r->cumulative ? c->cum : c->last);
}

static void text_counter(void *f, const char *name, uint64_t v)
{
	fprintf(f, " [%s %" PRIu64 "]", name, v);
}

static void json_counter(void *w, const char *name, uint64_t v)
{
	jsonw__u64_field(w, name, v);
}

/* What follows a text row's columns: why its figures are partial, its note, its counters. */
static void text_row_tail(FILE *f, const struct model *m, const struct row *r, bool cumulative)
{
	if (r->sampled)
		fprintf(f, " [timed %.1f%% of runs: watched in turns]", r->timed * 100.0);
	if (r->s->kind == LAT_EV_PROG &&
	    model__counter(m, r->s, MODEL_RECURSION_MISSES, cumulative))
		fprintf(f, " [%" PRIu64 " runs skipped by the kernel: recursion]",
			model__counter(m, r->s, MODEL_RECURSION_MISSES, cumulative));
	if (r->s->note[0]) {
		fputs(" [", f);
		text__fputs(f, r->s->note);
		fputc(']', f);
	}
	seg_counters(r, text_counter, f);
}

/* Text report: a header line, the drops line and the table. */
static void report_text(struct session *s, FILE *f, const struct row *rows, size_t n)
{
	int ncols;
	const struct column *cols = columns__for_mode(s->m->mode, &ncols);

	const struct model *m = s->m;
	const struct model_counters *mc = s->o->cumulative ? &m->c_cum : &m->c_last;
	char ts[32], line[512], src[64], tail[160];
	time_t t = (time_t)(wall_ns(s) / 1000000000ull);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "lattop %s  interval %.2fs  mode %s  source ", ts,
		(m->last_end_ns - m->last_start_ns) / 1e9, opts__mode_name(m->mode));
	text__fputs(f, model__source(m, src, sizeof(src)));
	fprintf(f, "%s\n", s->o->cumulative ? "  cumulative" : "");
	fmt_drops(mc, line, sizeof(line));
	fprintf(f, "%s\n", line);
	if (model__notice(m)[0]) {
		fputs("note: ", f);
		text__fputs(f, model__notice(m));
		fputc('\n', f);
	}
	batch__text_counters(f, m, s->o->cumulative);
	counters__budget_tail(m, s->o->cumulative, tail, sizeof(tail));
	if (m->floor_ns && m->run_cost_ns)
		fprintf(f,
			"probes: %d programs (%d fentry/fexit programs), %" PRIu64
			" ns a run (measured), %.2f%% of a CPU%s\n",
			m->probed, 2 * m->probed, m->run_cost_ns,
			model__probe_cost_pct(m, s->o->cumulative), tail);
	else if (m->floor_ns)
		fprintf(f, "probes: %d programs (%d fentry/fexit programs), ~%.2f%% of a CPU%s\n",
			m->probed, 2 * m->probed, model__probe_cost_pct(m, s->o->cumulative), tail);
	line[0] = '\0';
	for (int c = 0; c < ncols; c++) {
		const struct column *col = &cols[c];
		size_t l = strlen(line);

		if (col->data_only)
			continue;
		snprintf(line + l, sizeof(line) - l, c ? " %*s" : "%*s",
			 col->left ? -col->width : col->width, col->title);
	}
	fprintf(f, "%s\n", line);
	for (size_t i = 0; i < n; i++) {
		line[0] = '\0';
		for (int c = 0; c < ncols; c++) {
			const struct column *col = &cols[c];
			size_t l = strlen(line);
			char v[64];
			struct cell cell;

			if (col->data_only)
				continue;
			col->get(&rows[i], &cell);
			cell__text(&cell, v, sizeof(v));
			if (c && l + 1 < sizeof(line))
				line[l++] = ' ';
			/* Cut by characters, never inside one or inside an escape. */
			text__fit(line + l, sizeof(line) - l, v, col->width, col->left);
		}
		fprintf(f, "%s%s", line, rows[i].s->gone ? " (gone)" : "");
		text_row_tail(f, m, &rows[i], s->o->cumulative);
		fputc('\n', f);
		if (s->o->hist)
			text_hist(f, &rows[i]);
	}
	fputc('\n', f);
}

/* Segments mode's last CSV columns: group (a group row's label), filtered and folded (a span's
 * counters, empty where it has none). */
static void csv_seg(FILE *f, const struct row *r)
{
	const struct model_counter *c = NULL;
	uint64_t v[2] = {};
	bool has[2] = {};

	fputc(',', f);
	if (r->s->kind == LAT_EV_SPAN_GRP)
		text__csv_field(f, r->s->sub);
	while (r->s->kind == LAT_EV_SEG && r->m && (c = model__counter_next(r->m, r->s, c))) {
		int k = !strcmp(c->name, "filtered") ? 0 : !strcmp(c->name, "folded") ? 1 : -1;

		if (k >= 0) {
			has[k] = true;
			v[k] = r->cumulative ? c->cum : c->last;
		}
	}
	for (int k = 0; k < 2; k++) {
		fputc(',', f);
		if (has[k])
			fprintf(f, "%" PRIu64, v[k]);
	}
}

/* CSV report: a header on the first report, one line per row. */
static void report_csv(struct session *s, FILE *f, const struct row *rows, size_t n, bool first)
{
	int ncols;
	const struct column *cols = columns__for_mode(s->m->mode, &ncols);

	const struct model *m = s->m;
	const struct model_counters *mc = s->o->cumulative ? &m->c_cum : &m->c_last;
	uint64_t ts = wall_ns(s);
	char src[64], named[512];

	if (first) {
		fputs("ts_ns,interval_ns,mode,source", f);
		for (int c = 0; c < ncols; c++)
			fprintf(f, ",%s", cols[c].key);
		fputs(",gone,rb_drops,queue_drops,recursion_drops,nest_drops,counters,note", f);
		fputs(s->o->hist ? ",hist" : "", f);
		fputs(s->m->mode == MODE_SEGMENTS ? ",group,filtered,folded" : "", f);
		fputs(s->o->per_cpu ? ",cpu\n" : "\n", f);
	}
	counters__named_str(m, s->o->cumulative, named, sizeof(named));
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%s,", ts, m->last_end_ns - m->last_start_ns,
			opts__mode_name(m->mode));
		text__csv_field(f, model__source(m, src, sizeof(src)));
		for (int c = 0; c < ncols; c++) {
			struct cell cell;
			char v[128];

			cols[c].get(&rows[i], &cell);
			cell_raw(&cell, v, sizeof(v));
			fputc(',', f);
			text__csv_field(f, v);
		}
		fprintf(f, ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", rows[i].s->gone,
			mc->rb_drops, mc->queue_drops, mc->recursion, mc->nest);
		text__csv_field(f, named);
		fputc(',', f);
		text__csv_field(f, rows[i].s->note);
		if (s->o->hist) {
			fputc(',', f);
			csv_hist(f, &rows[i]);
		}
		if (s->m->mode == MODE_SEGMENTS) /* a group's label; a span's counters */
			csv_seg(f, &rows[i]);
		if (s->o->per_cpu) { /* empty on a program's own row */
			fputc(',', f);
			if (rows[i].s->kind == LAT_EV_PROG_CPU)
				fprintf(f, "%" PRIu32, rows[i].s->aux);
		}
		fputc('\n', f);
	}
}

/* Text form: a "counters:" line when there are session-wide named counters. */
void batch__text_counters(FILE *f, const struct model *m, bool cumulative)
{
	char buf[512];

	counters__named_line(m, cumulative, buf, sizeof(buf));
	if (buf[0])
		fprintf(f, "counters: %s\n", buf);
}

/* JSON form: a "counters" object of the session-wide named counters (absent when none). */
void batch__json_named(struct jsonw *w, const struct model *m, bool cumulative)
{
	bool open = false;

	for (size_t i = 0; i < m->nctr; i++) {
		const struct model_counter *c = &m->ctr[i];

		if (c->series >= 0)
			continue;
		if (!open) {
			jsonw__key(w, "counters");
			jsonw__begin_object(w);
			open = true;
		}
		jsonw__u64_field(w, c->name, cumulative ? c->cum : c->last);
	}
	if (open)
		jsonw__end_object(w);
}

/* The loss counters ("drops": ringbuf, queue, recursion, nest) and "events" as members. */
void batch__json_counters(struct jsonw *w, const struct model_counters *mc)
{
	jsonw__key(w, "drops");
	jsonw__begin_object(w);
	jsonw__u64_field(w, "ringbuf", mc->rb_drops);
	jsonw__u64_field(w, "queue", mc->queue_drops);
	jsonw__u64_field(w, "recursion", mc->recursion);
	jsonw__u64_field(w, "nest", mc->nest);
	jsonw__end_object(w);
	jsonw__u64_field(w, "events", mc->events);
}

/* Who holds a program and where it is attached, whole: an "attr" object (absent when not
 * known). Strings go out escaped (jsonw), whatever bytes the kernel or /proc gave. */
void batch__json_attr(struct jsonw *w, const struct prog_attr *a)
{
	if (!a)
		return;
	jsonw__key(w, "attr");
	jsonw__begin_object(w);
	jsonw__key(w, "owners");
	jsonw__begin_array(w);
	for (uint32_t i = 0; i < a->nowners; i++) {
		jsonw__begin_object(w);
		jsonw__s64_field(w, "pid", a->owners[i].pid);
		jsonw__string_field(w, "comm", a->owners[i].comm);
		jsonw__end_object(w);
	}
	jsonw__end_array(w);
	jsonw__u64_field(w, "owners_total", a->owners_total);
	jsonw__string_field(w, "cgroup", a->cgroup);
	jsonw__string_field(w, "container", a->container);
	jsonw__string_field(w, "unit", a->unit);
	jsonw__key(w, "attach");
	jsonw__begin_array(w);
	for (uint32_t i = 0; i < a->npoints; i++) {
		jsonw__begin_object(w);
		jsonw__string_field(w, "kind", a->points[i].kind);
		jsonw__string_field(w, "where", a->points[i].where);
		jsonw__u64_field(w, "link_id", a->points[i].link_id);
		jsonw__end_object(w);
	}
	jsonw__end_array(w);
	jsonw__u64_field(w, "attach_total", a->points_total);
	jsonw__u64_field(w, "uid", a->uid);
	jsonw__u64_field(w, "loaded_at", a->load_time_s);
	jsonw__string_field(w, "tag", a->tag);
	jsonw__u64_field(w, "verified_insns", a->verified_insns);
	jsonw__end_object(w);
}

/* A program row's named counters in the window (the kernel's recursion_misses), as a
 * "counters" object; absent when it has none. (Span rows say theirs in columns.) */
static void json_prog_counters(struct jsonw *w, const struct row *r)
{
	const struct model_counter *c = model__counter_next(r->m, r->s, NULL);

	if (!c)
		return;
	jsonw__key(w, "counters");
	jsonw__begin_object(w);
	for (; c; c = model__counter_next(r->m, r->s, c))
		jsonw__u64_field(w, c->name, r->cumulative ? c->cum : c->last);
	jsonw__end_object(w);
}

/* One row of a JSON Lines report: its columns, gone, note and --hist. */
static void json_row(struct jsonw *w, const struct session *s, const struct column *cols, int ncols,
		     const struct row *r)
{
	jsonw__begin_object(w);
	for (int c = 0; c < ncols; c++) {
		struct cell cell;

		cols[c].get(r, &cell);
		jsonw__key(w, cols[c].key);
		cell_json(w, &cell);
	}
	if (r->s->kind == LAT_EV_PROG_CPU)
		jsonw__u64_field(w, "cpu", r->s->aux);
	if (r->s->kind == LAT_EV_SPAN_GRP)
		jsonw__string_field(w, "group", r->s->sub);
	seg_counters(r, json_counter, w);
	jsonw__bool_field(w, "gone", r->s->gone);
	if (r->sampled)
		jsonw__bool_field(w, "sampled", true);
	if (r->s->probe_ns)
		jsonw__u64_field(w, "probe_ns", r->s->probe_ns);
	if (r->s->helper_ns)
		jsonw__u64_field(w, "helper_ns", r->s->helper_ns);
	if (r->s->st_cum.helper_ns)
		jsonw__u64_field(w, "helper_probe_ns",
				 s->o->cumulative ? r->s->st_cum.helper_ns : r->s->st_last.helper_ns);
	if (r->s->note[0])
		jsonw__string_field(w, "note", r->s->note);
	batch__json_attr(w, r->s->attr);
	if (r->s->kind == LAT_EV_PROG)
		json_prog_counters(w, r);
	if (s->o->hist)
		json_hist(w, r);
	jsonw__end_object(w);
}

/* The probes' budget in a JSON report: budget_pct (null for max), machine_pct, turns and
 * the programs that cannot be watched. */
static void json_budget(struct jsonw *w, const struct model *m, bool cumulative)
{
	double mach = model__probe_machine_pct(m, cumulative);

	if (!m->has_budget)
		return;
	jsonw__key(w, "budget_pct");
	if (m->budget_pct < 0)
		jsonw__null(w);
	else
		jsonw__double(w, m->budget_pct);
	if (mach >= 0)
		jsonw__double_field(w, "machine_pct", mach);
	jsonw__s64_field(w, "cpus", m->ncpu);
	jsonw__bool_field(w, "turns", m->turns);
	jsonw__s64_field(w, "wanted", m->watch_want);
	jsonw__s64_field(w, "unwatchable", m->unprobeable);
	if (m->switch_ns)
		jsonw__u64_field(w, "switch_ns", m->switch_ns);
	if (m->turn_ns)
		jsonw__u64_field(w, "turn_ns", m->turn_ns);
}

/* JSON Lines report: one object per interval. */
static void report_json(struct session *s, FILE *f, const struct row *rows, size_t n)
{
	int ncols;
	const struct column *cols = columns__for_mode(s->m->mode, &ncols);

	const struct model *m = s->m;
	const struct model_counters *mc = s->o->cumulative ? &m->c_cum : &m->c_last;
	struct jsonw w;
	char src[64];

	jsonw__init(&w, f);
	jsonw__begin_object(&w);
	jsonw__u64_field(&w, "ts_ns", wall_ns(s));
	jsonw__u64_field(&w, "interval_ns", m->last_end_ns - m->last_start_ns);
	jsonw__string_field(&w, "mode", opts__mode_name(m->mode));
	jsonw__string_field(&w, "source", model__source(m, src, sizeof(src)));
	jsonw__bool_field(&w, "cumulative", s->o->cumulative);
	if (model__notice(m)[0])
		jsonw__string_field(&w, "notice", model__notice(m));
	batch__json_counters(&w, mc);
	batch__json_named(&w, m, s->o->cumulative);
	if (m->floor_ns) {
		jsonw__key(&w, "probes");
		jsonw__begin_object(&w);
		jsonw__s64_field(&w, "programs", m->probed);
		jsonw__u64_field(&w, "floor_ns", m->floor_ns);
		if (m->run_cost_ns)
			jsonw__u64_field(&w, "run_cost_ns", m->run_cost_ns);
		jsonw__double_field(&w, "cost_pct", model__probe_cost_pct(m, s->o->cumulative));
		json_budget(&w, m, s->o->cumulative);
		jsonw__end_object(&w);
	}
	jsonw__key(&w, "rows");
	jsonw__begin_array(&w);
	for (size_t i = 0; i < n; i++)
		json_row(&w, s, cols, ncols, &rows[i]);
	jsonw__end_array(&w);
	jsonw__end_object(&w);
	fputc('\n', f);
}

/* Print the report of the last closed interval. */
void batch__report(struct session *s, FILE *f, bool first)
{
	static struct row rows[BATCH_MAX_ROWS];
	struct row_order ord;
	size_t n;

	columns__order(s->m->mode, -1, false, &ord);
	n = session__rows(s, s->o->cumulative, &ord, rows, BATCH_MAX_ROWS);

	switch (s->o->out) {
	case OUT_TEXT:
	case OUT_TRACE: /* events only: never reaches here */
		report_text(s, f, rows, n);
		break;
	case OUT_CSV:
		report_csv(s, f, rows, n, first);
		break;
	case OUT_JSON:
		report_json(s, f, rows, n);
		break;
	}
	fflush(f);
}

/* Run batch mode until -n/-D or a signal. */
int batch__run(struct session *s, volatile sig_atomic_t *stop)
{
	long printed = 0;

	if (s->warn[0])
		text__line(stderr, "lattop: warning: ", s->warn);
	for (;;) {
		struct timespec nap = { 0, 5000000 }; /* drain every 5 ms */
		uint64_t now = now_ns();

		if (*stop || (s->end_ns && now >= s->end_ns)) {
			/* -D or a signal: the last, partial interval is reported too (unless it
			 * is only the instant after a regular close), so nothing measured is
			 * lost at the end. */
			if (now - s->m->open_start_ns >= s->o->interval_ns / 10) {
				session__flush(s);
				session__close_interval(s, now);
				batch__report(s, stdout, printed++ == 0);
			}
			break;
		}
		if (session__tick(s, now)) {
			batch__report(s, stdout, printed++ == 0);
			if (s->o->iterations && printed >= s->o->iterations)
				break;
		}
		nanosleep(&nap, NULL);
	}
	return EXIT_OK;
}
