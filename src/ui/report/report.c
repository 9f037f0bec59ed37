// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * report.c - reports from a recording: totals over the whole recording per series (program
 * table, then helpers per program, then segments), and --raw events as CSV or trace JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/jsonw.h"
#include "base/text.h"
#include "rec/replay.h"
#include "session/filter.h"
#include "session/replay_src.h"
#include "ui/columns.h"
#include "ui/report/batch.h"
#include "ui/report/report.h"

/* The summary columns: those of the ETW design's tables. */
static const char *const sum_keys[] = { "count", "avg_ns", "p50_ns", "p95_ns",
					"p99_ns", "p999_ns", "max_ns" };
static const char *const sum_titles[] = { "COUNT", "AVG", "P50", "P95", "P99", "P99.9", "MAX" };
#define NSUM 7

/* The seven summary figures of a row (NaN-free; has_dist says whether 2..6 mean anything). */
static void sum_values(const struct row *r, double v[NSUM])
{
	v[0] = (double)r->count;
	v[1] = r->avg_ns;
	v[2] = (double)r->p50;
	v[3] = (double)r->p95;
	v[4] = (double)r->p99;
	v[5] = (double)r->p999;
	v[6] = (double)r->max;
}

/* qsort: by count, descending, ties by id. */
static int row_by_count(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return (a->s->id > b->s->id) - (a->s->id < b->s->id);
}

/* qsort: CPU rows by program ID, then CPU (span parts: by span, then part). */
static int row_by_cpu(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->s->id != b->s->id)
		return a->s->id < b->s->id ? -1 : 1;
	return (a->s->aux > b->s->aux) - (a->s->aux < b->s->aux);
}

/* A CPU series is reported when its program is (selectors look at the program's owner and
 * attach points, which only the program's series holds). */
static bool cpu_wanted(const struct session *s, const struct series *se)
{
	const struct series *p = model__find(s->m, LAT_EV_PROG, se->id, 0, 0);

	return session__wanted(s, p ? p : se);
}

/* Rows of one kind, cumulative, sorted (CPU rows by program and CPU); caller frees. */
static struct row *kind_rows(const struct session *s, uint16_t kind, size_t *n)
{
	struct row *rows = calloc(s->m->n ? s->m->n : 1, sizeof(*rows));

	*n = 0;
	if (!rows)
		return NULL;
	for (size_t i = 0; i < s->m->n; i++) {
		const struct series *se = &s->m->s[i];

		if (se->kind != kind)
			continue;
		if (kind == LAT_EV_PROG && !session__wanted(s, se))
			continue;
		if (kind == LAT_EV_PROG_CPU && !cpu_wanted(s, se))
			continue;
		model__row(s->m, se, true, &rows[(*n)++]);
	}
	qsort(rows, *n, sizeof(*rows),
	      kind == LAT_EV_PROG_CPU || kind == LAT_EV_SPAN_PART ? row_by_cpu : row_by_count);
	return rows;
}

/* A series' named counters (a span's unmatched, evicted, ...) over the whole recording. */
static void series_counters_json(struct jsonw *w, const struct row *r)
{
	int32_t pos = (int32_t)(r->s - r->m->s);
	bool open = false;

	for (size_t i = 0; i < r->m->nctr; i++) {
		if (r->m->ctr[i].series != pos)
			continue;
		if (!open) {
			jsonw__key(w, "counters");
			jsonw__begin_object(w);
			open = true;
		}
		jsonw__u64_field(w, r->m->ctr[i].name, r->m->ctr[i].cum);
	}
	if (open)
		jsonw__end_object(w);
}

/* A series' non-zero named counters as " [name N, ...]" text. */
static void series_counters_text(FILE *f, const struct row *r)
{
	int32_t pos = (int32_t)(r->s - r->m->s);
	bool any = false;

	for (size_t i = 0; i < r->m->nctr; i++) {
		if (r->m->ctr[i].series != pos || !r->m->ctr[i].cum)
			continue;
		fputs(any ? ", " : " [", f);
		text__fputs(f, r->m->ctr[i].name);
		fprintf(f, " %" PRIu64, r->m->ctr[i].cum);
		any = true;
	}
	if (any)
		fputc(']', f);
}

/* A row's summary figures as text: count, then avg .. max ("-" where the source has none). */
static void text_sums(FILE *f, const struct row *r)
{
	double v[NSUM];
	char buf[32];

	sum_values(r, v);
	if (r->has_rate)
		fmt_count(r->count, buf, sizeof(buf));
	else /* no source behind the row (--no-stats, no probes): no count, not 0 */
		snprintf(buf, sizeof(buf), "-");
	fprintf(f, " %12s", buf);
	for (int c = 1; c < NSUM; c++) {
		if (!r->has_rate || (c > 1 && !r->has_dist))
			snprintf(buf, sizeof(buf), "-");
		else
			fmt_ns(v[c], buf, sizeof(buf));
		fprintf(f, " %8s", buf);
	}
}

/* The summary columns' headings. */
static void text_sum_titles(FILE *f)
{
	for (int c = 0; c < NSUM; c++)
		fprintf(f, " %*s", c ? 8 : 12, sum_titles[c]);
	fputc('\n', f);
}

/* Write the visible form of s cut to and padded to width columns (left-aligned). */
static void text_col(FILE *f, const char *s, int width)
{
	char vis[256], cell[256];

	text__esc(vis, sizeof(vis), s);
	text__fit(cell, sizeof(cell), vis, width, true);
	fputs(cell, f);
}

/* One text table of programs or segments. */
static void text_table(FILE *f, const char *title, const struct row *rows, size_t n)
{
	fprintf(f, "%s\n%10s %-13s %-24s", title, "ID", "TYPE", "NAME");
	text_sum_titles(f);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		fprintf(f, "%10u ", r->s->id);
		text_col(f, r->s->kind == LAT_EV_PROG_CPU ? r->s->sub : r->s->type, 13);
		fputc(' ', f);
		text_col(f, r->s->name, 24);
		text_sums(f, r);
		series_counters_text(f, r);
		fprintf(f, "%s\n", r->s->gone ? " (gone)" : "");
	}
	fputc('\n', f);
}

/* The helper table of one program: its helpers with their maps. */
static void text_helpers(FILE *f, const struct series *prog, uint32_t prog_id,
			 const struct row *rows, size_t n)
{
	if (prog) {
		fputs("helpers of ", f);
		text__fputs(f, prog->name);
		fprintf(f, " (ID %u)\n", prog_id);
	} else
		fprintf(f, "helpers of program ID %u\n", prog_id);
	fprintf(f, "  %-21s %3s %6s %-16s %-13s", "HELPER", "FN", "MAP ID", "MAP", "MAP TYPE");
	text_sum_titles(f);
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		fputs("  ", f);
		text_col(f, r->s->name, 21);
		fprintf(f, " %3u %6u ", r->s->aux, r->s->aux2);
		text_col(f, r->s->sub[0] ? r->s->sub : "-", 16);
		fputc(' ', f);
		text_col(f, r->s->type[0] ? r->s->type : "-", 13);
		text_sums(f, r);
		series_counters_text(f, r);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* Whether s is an EventHeader activity's row (session/kind_eh.c names their kinds). */
static bool eh_row(const struct series *s)
{
	return !strcmp(s->type, "activity") || !strcmp(s->type, "self") ||
	       !strcmp(s->type, "event") || !strcmp(s->type, "value");
}

/* One series as a JSON object; helper rows name their program and map. The figures are
 * integers (exact) but avg_ns, a ratio. */
static void row_json(struct jsonw *w, const struct row *r)
{
	const uint64_t v[NSUM] = { r->count, 0, r->p50, r->p95, r->p99, r->p999, r->max };

	jsonw__begin_object(w);
	jsonw__u64_field(w, "id", r->s->id);
	if (r->s->kind == LAT_EV_HELPER) {
		jsonw__u64_field(w, "prog_id", r->s->id);
		jsonw__string_field(w, "prog_name", r->prog_name ? r->prog_name : "");
		jsonw__u64_field(w, "helper", r->s->aux);
		jsonw__u64_field(w, "map_id", r->s->aux2);
		jsonw__string_field(w, "map_name", r->s->sub);
		jsonw__string_field(w, "map_type", r->s->type);
	}
	if (r->s->kind == LAT_EV_PROG_CPU)
		jsonw__u64_field(w, "cpu", r->s->aux);
	if (r->s->kind == LAT_EV_SEG && eh_row(r->s))
		jsonw__string_field(w, "parent", r->s->sub); /* an activity's parent row ("" none) */
	jsonw__string_field(w, "type", r->s->type);
	jsonw__string_field(w, "name", r->s->name);
	for (int c = 0; c < NSUM; c++) {
		if (!(r->has_rate && (c <= 1 || r->has_dist)))
			jsonw__null_field(w, sum_keys[c]);
		else if (c == 1)
			jsonw__double_field(w, sum_keys[c], r->avg_ns);
		else
			jsonw__u64_field(w, sum_keys[c], v[c]);
	}
	jsonw__bool_field(w, "gone", r->s->gone);
	jsonw__string_field(w, "count_source", r->source);
	series_counters_json(w, r);
	jsonw__end_object(w);
}

/* One series as a CSV line (helper rows end with their program's and map's names). */
static void row_csv(FILE *f, const char *kind, const struct row *r)
{
	double v[NSUM];

	sum_values(r, v);
	fprintf(f, "%s,%u,%u,%u,", kind, r->s->id, r->s->aux, r->s->aux2);
	text__csv_field(f, r->s->type);
	fputc(',', f);
	text__csv_field(f, r->s->name);
	for (int c = 0; c < NSUM; c++) {
		if (r->has_rate && (c <= 1 || r->has_dist))
			fprintf(f, ",%.0f", v[c]);
		else
			fputs(",", f);
	}
	fprintf(f, ",%d,", r->s->gone);
	if (r->s->kind == LAT_EV_HELPER) {
		text__csv_field(f, r->prog_name ? r->prog_name : "");
		fputc(',', f);
		text__csv_field(f, r->s->sub);
	} else {
		fputc(',', f);
	}
	fprintf(f, ",%s\n", r->source);
}

/* Where a report's rows go: a text table, CSV lines or (w set) members of a JSON object. */
struct sink {
	FILE *f;
	enum out_fmt out;
	struct jsonw *w;
};

/* Emit one table of rows (programs or segments) to the sink: in JSON, an array named kind. */
static void emit_table(struct sink *k, const char *kind, const struct row *rows, size_t n,
		       bool always)
{
	if (k->out == OUT_TEXT) {
		if (n || always)
			text_table(k->f, kind, rows, n);
		return;
	}
	if (k->w) {
		jsonw__key(k->w, kind);
		jsonw__begin_array(k->w);
	}
	for (size_t i = 0; i < n; i++) {
		if (k->w)
			row_json(k->w, &rows[i]);
		else
			row_csv(k->f, kind, &rows[i]);
	}
	if (k->w)
		jsonw__end_array(k->w);
}

/* qsort: helper rows grouped by program ID, then as row_by_count within a program (ties by
 * position in the model, the order a stable sort of one program's rows gives). */
static int helper_by_prog(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->s->id != b->s->id)
		return a->s->id < b->s->id ? -1 : 1;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return (a->s > b->s) - (a->s < b->s);
}

/* Emit one program's helper rows (rows[0..n), its series prog, or NULL when not recorded);
 * in JSON, into the "helpers" array the caller opened. */
static void emit_helpers(struct sink *k, const struct series *prog, uint32_t prog_id,
			 struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rows[i].prog_name = prog ? prog->name : NULL;
	if (n && k->out == OUT_TEXT)
		text_helpers(k->f, prog, prog_id, rows, n);
	for (size_t i = 0; i < n && k->out != OUT_TEXT; i++) {
		if (k->w)
			row_json(k->w, &rows[i]);
		else
			row_csv(k->f, "helpers", &rows[i]);
	}
}

/* The helper rows of program id in h[0..nh) (grouped by helper_by_prog): first at *at. */
static size_t helper_group(const struct row *h, size_t nh, uint32_t id, size_t *at)
{
	size_t lo = 0, hi = nh, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h[mid].s->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < nh && h[end].s->id == id; end++)
		;
	*at = lo;
	return end - lo;
}

/* qsort comparator for uint32_t. */
static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

/* True when some program series (whatever its aux) has ID id: ids[0..n) sorted. */
static bool has_id(const uint32_t *ids, size_t n, uint32_t id)
{
	return bsearch(&id, ids, n, sizeof(*ids), cmp_u32) != NULL;
}

/* qsort: the first series of each group, by position in the model. */
static int group_by_first(const void *pa, const void *pb)
{
	const struct series *a = *(const struct series *const *)pa;
	const struct series *b = *(const struct series *const *)pb;

	return (a > b) - (a < b);
}

/* Helpers of programs the recording never named: one table per program ID whose first helper
 * (in the model's order) the filter lets through, in the order of those first helpers. */
static int emit_orphans(struct sink *k, const struct session *s, struct row *h, size_t nh)
{
	const struct series **first = calloc(nh ? nh : 1, sizeof(*first));
	uint32_t *ids = calloc(s->m->n ? s->m->n : 1, sizeof(*ids));
	size_t ng = 0, nids = 0, at, n;

	if (!first || !ids) {
		free(first);
		free(ids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->m->n; i++)
		if (s->m->s[i].kind == LAT_EV_PROG)
			ids[nids++] = s->m->s[i].id;
	qsort(ids, nids, sizeof(*ids), cmp_u32);
	for (size_t i = 0; i < nh; i += n) {
		n = helper_group(h, nh, h[i].s->id, &at);
		if (has_id(ids, nids, h[i].s->id))
			continue;
		first[ng] = h[i].s;
		for (size_t j = i; j < i + n; j++)
			first[ng] = h[j].s < first[ng] ? h[j].s : first[ng];
		if (session__wanted(s, first[ng]))
			ng++;
	}
	qsort(first, ng, sizeof(*first), group_by_first);
	for (size_t g = 0; g < ng; g++) {
		n = helper_group(h, nh, first[g]->id, &at);
		emit_helpers(k, NULL, first[g]->id, h + at, n);
	}
	free(first);
	free(ids);
	return 0;
}

/* Each program's share on each CPU (--per-cpu): a table after the programs'. */
static int emit_cpus(struct sink *k, const struct session *s)
{
	size_t n;
	struct row *rows = kind_rows(s, LAT_EV_PROG_CPU, &n);

	if (!rows)
		return -ENOMEM;
	emit_table(k, "cpus", rows, n, true);
	free(rows);
	return 0;
}

/* The program table, then a helper table per program (in the program table's order; helpers
 * of a program the recording never named last), then segments. Every helper row is computed
 * once and grouped by program, so this is n log n in the series, whatever their mix. */
static int emit_tables(struct sink *k, const struct session *s)
{
	size_t n, nh, at;
	struct row *rows = kind_rows(s, LAT_EV_PROG, &n), *h;
	int e;

	if (!rows)
		return -ENOMEM;
	h = kind_rows(s, LAT_EV_HELPER, &nh);
	if (!h) {
		free(rows);
		return -ENOMEM;
	}
	qsort(h, nh, sizeof(*h), helper_by_prog);
	emit_table(k, "programs", rows, n, true);
	if (s->o->per_cpu && emit_cpus(k, s)) {
		free(rows);
		free(h);
		return -ENOMEM;
	}
	if (k->w) {
		jsonw__key(k->w, "helpers");
		jsonw__begin_array(k->w);
	}
	for (size_t i = 0; i < n; i++) {
		size_t c = helper_group(h, nh, rows[i].s->id, &at);

		emit_helpers(k, rows[i].s, rows[i].s->id, h + at, c);
	}
	free(rows);
	e = emit_orphans(k, s, h, nh);
	if (k->w)
		jsonw__end_array(k->w);
	free(h);
	if (e)
		return e;
	rows = kind_rows(s, LAT_EV_SEG, &n);
	if (!rows)
		return -ENOMEM;
	emit_table(k, "segments", rows, n, false);
	free(rows);
	/* Split spans' parts (type: oncpu, runq, sleep), by span then part. */
	rows = kind_rows(s, LAT_EV_SPAN_PART, &n);
	if (!rows)
		return -ENOMEM;
	emit_table(k, "span_parts", rows, n, false);
	free(rows);
	return 0;
}

/* The text header of the totals: the recording, its span, its losses. */
static void totals_text_head(struct session *s, FILE *f)
{
	struct replay *rp = session__replay(s);
	const struct model *m = s->m;
	const struct model_counters *c = &m->c_cum;
	char ts[32] = "?";
	time_t t = (time_t)(replay__wall_ns(rp, m->cum_start_ns) / 1000000000ull);
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	fputs("lattop replay ", f);
	text__fputs(f, replay__path(rp));
	fputs("  host ", f);
	text__fputs(f, replay__host(rp));
	fputs("  kernel ", f);
	text__fputs(f, replay__kernel(rp));
	fprintf(f, "  recorded %s  duration %.2fs  intervals %zu  source ", ts,
		(m->last_end_ns - m->cum_start_ns) / 1e9, replay__file(rp)->nivals);
	text__line(f, "", m->source);
	fprintf(f,
		"drops: ringbuf %" PRIu64 "  queue %" PRIu64 "  recursion %" PRIu64
		"  nest %" PRIu64 "  events %" PRIu64 "\n",
		c->rb_drops, c->queue_drops, c->recursion, c->nest, c->events);
	batch__text_counters(f, m, true);
	fputc('\n', f);
}

/* The JSON members of the totals before the tables (the object is open). */
static void totals_json_head(struct session *s, struct jsonw *w)
{
	struct replay *rp = session__replay(s);
	const struct model *m = s->m;

	jsonw__string_field(w, "file", replay__path(rp));
	jsonw__string_field(w, "host", replay__host(rp));
	jsonw__string_field(w, "kernel", replay__kernel(rp));
	jsonw__u64_field(w, "start_ns", replay__wall_ns(rp, m->cum_start_ns));
	jsonw__u64_field(w, "duration_ns", m->last_end_ns - m->cum_start_ns);
	jsonw__u64_field(w, "intervals", replay__file(rp)->nivals);
	jsonw__string_field(w, "source", m->source);
	batch__json_counters(w, &m->c_cum);
	batch__json_named(w, m, true);
}

/* The totals as one JSON document on a line: built in memory first, so a failure midway
 * prints nothing. Returns 0 or -ENOMEM. */
static int totals_json(struct session *s, FILE *f)
{
	struct jsonw w;
	struct sink k = { .out = OUT_JSON, .w = &w };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int e;

	if (!mem)
		return -ENOMEM;
	k.f = mem;
	jsonw__init(&w, mem);
	jsonw__begin_object(&w);
	totals_json_head(s, &w);
	e = emit_tables(&k, s);
	jsonw__end_object(&w);
	if (fclose(mem) && !e)
		e = -ENOMEM;
	if (!e) {
		fwrite(buf, 1, len, f);
		fputc('\n', f);
	}
	free(buf);
	return e;
}

/* Print totals over the whole recording per series. */
int report__totals(struct session *s, FILE *f)
{
	struct sink k = { .f = f, .out = s->o->out };

	if (s->o->out != OUT_TEXT && s->o->out != OUT_CSV) {
		if (totals_json(s, f))
			return EXIT_RUNTIME;
		fflush(f);
		return EXIT_OK;
	}
	if (s->o->out == OUT_TEXT) {
		totals_text_head(s, f);
	} else {
		fputs("kind,id,aux,aux2,type,name", f);
		for (int i = 0; i < NSUM; i++)
			fprintf(f, ",%s", sum_keys[i]);
		fputs(",gone,prog_name,map_name,count_source\n", f);
	}
	if (emit_tables(&k, s))
		return EXIT_RUNTIME;
	fflush(f);
	return EXIT_OK;
}

/* Name of an event's series ("" when unknown). */
static const char *event_name(struct model *m, const struct lat_event *e)
{
	const struct series *s = model__find(m, e->kind, e->id, e->aux, e->aux2);

	if (!s && e->kind == LAT_EV_HELPER)
		s = model__find(m, LAT_EV_PROG, e->id, 0, 0);
	return s ? s->name : "";
}

/* One event of a Chrome/Perfetto trace: an "X" (complete) event, times in microseconds with
 * ns digits, from integers. */
static void trace_event(FILE *f, const struct lat_event *e, const char *name, uint64_t base)
{
	struct jsonw w;

	jsonw__init(&w, f);
	jsonw__begin_object(&w);
	jsonw__string_field(&w, "name", *name ? name : "?");
	jsonw__string_field(&w, "cat", e->kind == LAT_EV_PROG	       ? "prog"
				       : e->kind == LAT_EV_HELPER      ? "helper"
				       : e->kind == LAT_EV_SPAN_PART ? "span_part"
								       : "segment");
	jsonw__string_field(&w, "ph", "X");
	jsonw__key(&w, "ts");
	jsonw__decimal(&w, e->start_ns >= base ? e->start_ns - base : 0, 3);
	jsonw__key(&w, "dur");
	jsonw__decimal(&w, e->dur_ns, 3);
	jsonw__u64_field(&w, "pid", e->pid);
	jsonw__u64_field(&w, "tid", e->tid);
	jsonw__key(&w, "args");
	jsonw__begin_object(&w);
	if (e->kind == LAT_EV_SEG) {
		jsonw__u64_field(&w, "segment", e->id); /* a segment's or span's index */
	} else if (e->kind == LAT_EV_SPAN_PART) { /* a split span's part of one sample */
		jsonw__u64_field(&w, "segment", e->id);
		jsonw__string_field(&w, "part", model__part_name(e->aux));
	} else {
		jsonw__u64_field(&w, "prog_id", e->id);
		if (e->kind == LAT_EV_HELPER) {
			jsonw__u64_field(&w, "helper", e->aux);
			jsonw__u64_field(&w, "map_id", e->aux2);
		}
	}
	jsonw__u64_field(&w, "cpu", e->cpu);
	jsonw__end_object(&w);
	jsonw__end_object(&w);
}

/* Export a --raw recording event by event (CSV or trace JSON). */
int report__events(struct session *s, FILE *f)
{
	struct replay *rp = session__replay(s);
	const struct rec_file *rf = replay__file(rp);
	uint64_t base = rf->nivals ? rec__ival_start(rf, 0) : 0;
	bool trace = s->o->out == OUT_TRACE, first = true;

	if (!rf->nevents) {
		fputs("lattop: ", stderr);
		text__fputs(stderr, replay__path(rp));
		fputs(" holds no events: record with -w FILE --raw to export events\n", stderr);
		return EXIT_RUNTIME;
	}
	if (trace)
		fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f);
	else
		fputs("kind,prog_id,prog_name,aux,aux2,cpu,pid,tid,start_ns,dur_ns\n", f);
	for (size_t i = 0; i < rf->nrecs; i++) {
		uint32_t n;

		rec__event(rf, i, 0, NULL, &n);
		for (uint32_t j = 0; j < n; j++) {
			struct lat_event e;
			const char *name;

			rec__event(rf, i, j, &e, NULL);
			name = event_name(s->m, &e);
			if (!trace) {
				fprintf(f, "%u,%u,", e.kind, e.id);
				text__csv_field(f, name);
				fprintf(f, ",%u,%u,%u,%u,%u,%llu,%llu\n", e.aux, e.aux2, e.cpu, e.pid,
					e.tid, (unsigned long long)e.start_ns,
					(unsigned long long)e.dur_ns);
				continue;
			}
			if (!first)
				fputs(",\n", f);
			first = false;
			trace_event(f, &e, name, base);
		}
	}
	if (trace)
		fputs("\n]}\n", f);
	fflush(f);
	return EXIT_OK;
}

/* Per-interval batch reports, as live batch prints them. */
static int run_intervals(struct session *s, volatile sig_atomic_t *stop)
{
	size_t n = replay__count(session__replay(s));

	if (s->o->iterations && (size_t)s->o->iterations < n)
		n = (size_t)s->o->iterations;
	for (size_t k = 1; k <= n && !*stop; k++) {
		if (session__seek(s, k))
			return EXIT_RUNTIME;
		batch__report(s, stdout, k == 1);
	}
	return EXIT_OK;
}

/* The replay's batch front ends (-r FILE -b). */
int report__run(struct session *s, volatile sig_atomic_t *stop)
{
	if (s->o->events)
		return session__seek_all(s) ? EXIT_RUNTIME : report__events(s, stdout);
	if (s->o->iterations)
		return run_intervals(s, stop);
	return session__seek_all(s) ? EXIT_RUNTIME : report__totals(s, stdout);
}
