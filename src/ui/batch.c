// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * batch.c - `-b`: one report per interval as text, CSV or JSON Lines, from the model's rows.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "collect/replay.h"
#include "ui/columns.h"
#include "ui/ui.h"

/* Longest table printed; more rows than this are summarised. */
#define BATCH_MAX_ROWS 4096

/* Wall-clock time of the end of the last interval, in ns since the epoch. */
static uint64_t wall_ns(const struct session *s)
{
	struct timespec ts;

	if (s->rp)
		return replay__wall_ns(s->rp, s->m->last_end_ns);
	clock_gettime(CLOCK_REALTIME, &ts);
	/* The interval ended at last_end_ns (monotonic); map it to wall time via "now". */
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec - (now_ns() - s->m->last_end_ns);
}

/* Print a CSV field, quoted when it holds a comma or a quote. */
static void csv_field(FILE *f, const char *v)
{
	if (!strpbrk(v, ",\"\n")) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (; *v; v++) {
		if (*v == '"')
			fputc('"', f);
		fputc(*v, f);
	}
	fputc('"', f);
}

/* Raw (machine) form of a cell for CSV. */
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

/* JSON form of a cell. */
static cJSON *cell_json(const struct cell *c)
{
	switch (c->t) {
	case CELL_U64:
		return cJSON_CreateNumber((double)c->u);
	case CELL_STR:
		return cJSON_CreateString(c->s);
	case CELL_NS:
		return cJSON_CreateNumber(c->d < 0 ? 0 : (double)(uint64_t)(c->d + 0.5));
	case CELL_DBL:
	case CELL_PCT:
		return cJSON_CreateNumber(c->d);
	case CELL_NULL:
	default:
		return cJSON_CreateNull();
	}
}

/* Text report: a header line, the drops line and the table. */
static void report_text(struct session *s, FILE *f, const struct row *rows, size_t n)
{
	int ncols;
	const struct column *cols = columns__for_mode(s->m->mode, &ncols);

	const struct model *m = s->m;
	const struct model_counters *mc = s->o->cumulative ? &m->c_cum : &m->c_last;
	char ts[32], line[512], src[64];
	time_t t = (time_t)(wall_ns(s) / 1000000000ull);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "lattop %s  interval %.2fs  mode %s  source %s%s\n", ts,
		(m->last_end_ns - m->last_start_ns) / 1e9, opts__mode_name(m->mode),
		model__source(m, src, sizeof(src)),
		s->o->cumulative ? "  cumulative" : "");
	fprintf(f,
		"drops: ringbuf %" PRIu64 "  queue %" PRIu64 "  recursion %" PRIu64 "  nest %" PRIu64
		"  events %" PRIu64 "\n",
		mc->rb_drops, mc->queue_drops, mc->recursion, mc->nest, mc->events);
	if (model__notice(m)[0])
		fprintf(f, "note: %s\n", model__notice(m));
	batch__text_counters(f, m, s->o->cumulative);
	if (m->floor_ns)
		fprintf(f, "probes: %d programs (%d fentry/fexit programs), ~%.2f%% of a CPU\n",
			m->probed, 2 * m->probed, model__probe_cost_pct(m, s->o->cumulative));
	line[0] = '\0';
	for (int c = 0; c < ncols; c++) {
		const struct column *col = &cols[c];
		size_t l = strlen(line);

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

			col->get(&rows[i], &cell);
			cell__text(&cell, v, sizeof(v));
			snprintf(line + l, sizeof(line) - l, c ? " %*.*s" : "%*.*s",
				 col->left ? -col->width : col->width, col->width, v);
		}
		fprintf(f, "%s%s%s%s%s\n", line, rows[i].s->gone ? " (gone)" : "",
			rows[i].s->note[0] ? " [" : "", rows[i].s->note,
			rows[i].s->note[0] ? "]" : "");
	}
	fputc('\n', f);
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
		fputs(",gone,rb_drops,queue_drops,recursion_drops,nest_drops,counters,note\n", f);
	}
	batch__named_str(m, s->o->cumulative, named, sizeof(named));
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%" PRIu64 ",%" PRIu64 ",%s,%s", ts, m->last_end_ns - m->last_start_ns,
			opts__mode_name(m->mode), model__source(m, src, sizeof(src)));
		for (int c = 0; c < ncols; c++) {
			struct cell cell;
			char v[128];

			cols[c].get(&rows[i], &cell);
			cell_raw(&cell, v, sizeof(v));
			fputc(',', f);
			csv_field(f, v);
		}
		fprintf(f, ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", rows[i].s->gone,
			mc->rb_drops, mc->queue_drops, mc->recursion, mc->nest);
		csv_field(f, named);
		fputc(',', f);
		csv_field(f, rows[i].s->note);
		fputc('\n', f);
	}
}

/* The session-wide named counters as "name value  name value" (sep " ") or "name=value;..."
 * into buf ("" when there are none). */
static void named_fmt(const struct model *m, bool cumulative, const char *eq, const char *sep,
		      char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->nctr && at < len; i++) {
		const struct model_counter *c = &m->ctr[i];

		if (c->series >= 0)
			continue;
		at += snprintf(buf + at, len - at, "%s%s%s%" PRIu64, at ? sep : "", c->name, eq,
			       cumulative ? c->cum : c->last);
	}
}

/* CSV form of the session-wide named counters. */
void batch__named_str(const struct model *m, bool cumulative, char *buf, size_t len)
{
	named_fmt(m, cumulative, "=", ";", buf, len);
}

/* One-line form for the TUI: "name value  name value". */
void batch__named_line(const struct model *m, bool cumulative, char *buf, size_t len)
{
	named_fmt(m, cumulative, " ", "  ", buf, len);
}

/* Text form: a "counters:" line when there are session-wide named counters. */
void batch__text_counters(FILE *f, const struct model *m, bool cumulative)
{
	char buf[512];

	named_fmt(m, cumulative, " ", "  ", buf, sizeof(buf));
	if (buf[0])
		fprintf(f, "counters: %s\n", buf);
}

/* JSON form: a "counters" object of the session-wide named counters (absent when none). */
void batch__json_named(void *rootp, const struct model *m, bool cumulative)
{
	cJSON *o = NULL;

	for (size_t i = 0; i < m->nctr; i++) {
		const struct model_counter *c = &m->ctr[i];

		if (c->series >= 0)
			continue;
		if (!o)
			o = cJSON_AddObjectToObject(rootp, "counters");
		cJSON_AddNumberToObject(o, c->name, (double)(cumulative ? c->cum : c->last));
	}
}

/* Add the loss counters ("drops": ringbuf, queue, recursion, nest) and "events" to root. */
void batch__json_counters(void *rootp, const struct model_counters *mc)
{
	cJSON *root = rootp, *drops = cJSON_AddObjectToObject(root, "drops");

	cJSON_AddNumberToObject(drops, "ringbuf", (double)mc->rb_drops);
	cJSON_AddNumberToObject(drops, "queue", (double)mc->queue_drops);
	cJSON_AddNumberToObject(drops, "recursion", (double)mc->recursion);
	cJSON_AddNumberToObject(drops, "nest", (double)mc->nest);
	cJSON_AddNumberToObject(root, "events", (double)mc->events);
}

/* JSON Lines report: one object per interval. */
static void report_json(struct session *s, FILE *f, const struct row *rows, size_t n)
{
	int ncols;
	const struct column *cols = columns__for_mode(s->m->mode, &ncols);

	const struct model *m = s->m;
	const struct model_counters *mc = s->o->cumulative ? &m->c_cum : &m->c_last;
	cJSON *root = cJSON_CreateObject(), *arr;
	char src[64];
	char *txt;

	cJSON_AddNumberToObject(root, "ts_ns", (double)wall_ns(s));
	cJSON_AddNumberToObject(root, "interval_ns", (double)(m->last_end_ns - m->last_start_ns));
	cJSON_AddStringToObject(root, "mode", opts__mode_name(m->mode));
	cJSON_AddStringToObject(root, "source", model__source(m, src, sizeof(src)));
	cJSON_AddBoolToObject(root, "cumulative", s->o->cumulative);
	if (model__notice(m)[0])
		cJSON_AddStringToObject(root, "notice", model__notice(m));
	batch__json_counters(root, mc);
	batch__json_named(root, m, s->o->cumulative);
	if (m->floor_ns) {
		cJSON *pr = cJSON_AddObjectToObject(root, "probes");

		cJSON_AddNumberToObject(pr, "programs", m->probed);
		cJSON_AddNumberToObject(pr, "floor_ns", (double)m->floor_ns);
		cJSON_AddNumberToObject(pr, "cost_pct", model__probe_cost_pct(m, s->o->cumulative));
	}
	arr = cJSON_AddArrayToObject(root, "rows");
	for (size_t i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		for (int c = 0; c < ncols; c++) {
			struct cell cell;

			cols[c].get(&rows[i], &cell);
			cJSON_AddItemToObject(o, cols[c].key, cell_json(&cell));
		}
		cJSON_AddBoolToObject(o, "gone", rows[i].s->gone);
		if (rows[i].s->note[0])
			cJSON_AddStringToObject(o, "note", rows[i].s->note);
		cJSON_AddItemToArray(arr, o);
	}
	txt = cJSON_PrintUnformatted(root);
	if (txt)
		fprintf(f, "%s\n", txt);
	free(txt);
	cJSON_Delete(root);
}

/* Print the report of the last closed interval. */
void batch__report(struct session *s, FILE *f, bool first)
{
	static struct row rows[BATCH_MAX_ROWS];
	size_t n = session__rows(s, s->o->cumulative, -1, false, rows, BATCH_MAX_ROWS);

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
int batch__run(struct session *s)
{
	long printed = 0;

	if (s->warn[0])
		fprintf(stderr, "lattop: warning: %s\n", s->warn);
	for (;;) {
		struct timespec nap = { 0, 5000000 }; /* drain every 5 ms */
		uint64_t now = now_ns();

		if (ui_stop || (s->end_ns && now >= s->end_ns)) {
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
