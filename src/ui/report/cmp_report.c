// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmp_report.c - the batch reports of `lattop -r A --compare B -b`: text (per series an A line,
 * a B line, the changes and the noise), CSV (a line per series) or JSON (one document).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/jsonw.h"
#include "base/text.h"
#include "rec/replay.h"
#include "ui/columns.h"
#include "ui/report/cmp_report.h"

/* The section a kind of series goes under. */
static const char *kind_name(uint16_t kind)
{
	return kind == LAT_EV_PROG ? "programs" : kind == LAT_EV_HELPER ? "helpers" : "segments";
}

/* Write s cut and padded to width columns (left-aligned). */
static void put_col(FILE *f, const char *vis, int width)
{
	char cell[256];

	text__fit(cell, sizeof(cell), vis, width, true);
	fputs(cell, f);
}

/* One side's line of a row: name and type (or the verdict), the side, its figures. */
static void text_side(FILE *f, const struct cmp_row *r, bool b, const char *name,
		      const char *what)
{
	char buf[32];

	put_col(f, name, 32);
	fputc(' ', f);
	put_col(f, what, 14);
	fprintf(f, " %-6s", b ? "B" : "A");
	if (b ? r->has_count_b : r->has_count_a)
		fmt_count(b ? r->count_b : r->count_a, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "-");
	fprintf(f, " %12s", buf);
	for (int st = 0; st < CMP__NSTAT; st++) {
		const struct cmp_fig *fg = &r->f[st];

		cmp_view__fmt((enum cmp_stat)st, b ? fg->has_b : fg->has_a, b ? fg->b : fg->a, buf,
			      sizeof(buf));
		fprintf(f, " %9s", buf);
	}
	fputc('\n', f);
}

/* The change and noise lines of a matched row. */
static void text_change(FILE *f, const struct cmp_row *r)
{
	char buf[32];

	fprintf(f, "%-47s %-6s %12s", "", "change", "");
	for (int st = 0; st < CMP__NSTAT; st++) {
		cmp_view__fmt_change(&r->f[st], buf, sizeof(buf));
		fprintf(f, " %9s", buf);
	}
	fprintf(f, "\n%-47s %-6s %12s", "", "noise", "");
	for (int st = 0; st < CMP__NSTAT; st++) {
		const struct cmp_fig *fg = &r->f[st];

		if (!fg->has_change || isinf(fg->noise_pct))
			snprintf(buf, sizeof(buf), "-");
		else if (fg->noise_pct >= 1000)
			snprintf(buf, sizeof(buf), "+->999%%");
		else
			snprintf(buf, sizeof(buf), "+-%.1f%%", fg->noise_pct);
		fprintf(f, " %9s", buf);
	}
	fputc('\n', f);
}

/* One row as text: the A line, the B line (the verdict under the name), change, noise. */
static void text_row(FILE *f, const struct cmp_row *r)
{
	char name[256], what[128], verdict[32];

	cmp_view__labels(r, name, sizeof(name), what, sizeof(what));
	snprintf(verdict, sizeof(verdict), "  %s",
		 r->status == CMP_ONLY_A   ? "only in A"
		 : r->status == CMP_ONLY_B ? "only in B"
					   : compare__status_name(r->status));
	if (r->sa)
		text_side(f, r, false, name, what);
	if (r->sb)
		text_side(f, r, true, r->sa ? verdict : name, r->sa ? "" : what);
	if (r->sa && r->sb)
		text_change(f, r);
	else
		fprintf(f, "%s\n", verdict);
}

/* One side's line of the text header. */
static void text_file(FILE *f, const char *tag, struct session *s, const struct cmp_side *sd)
{
	struct replay *rp = session__replay(s);
	const struct rec_file *rf = replay__file(rp);
	time_t t = (time_t)(replay__wall_ns(rp, rf->nivals ? rec__ival_start(rf, 0) : 0) /
			    1000000000ull);
	char ts[32] = "?";
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "%s ", tag);
	text__fputs(f, replay__path(rp));
	fputs("  host ", f);
	text__fputs(f, replay__host(rp));
	fputs("  kernel ", f);
	text__fputs(f, replay__kernel(rp));
	fprintf(f, "  recorded %s  duration %.2fs  intervals %zu\n", ts, sd->dur_ns / 1e9,
		sd->added);
}

/* The text report. */
int cmp_report__text(const struct cmp_view *v, FILE *f)
{
	size_t cnt[CMP__NSTATUS] = { 0 };
	uint16_t kind = 0;

	for (size_t i = 0; i < v->c.n; i++)
		cnt[v->c.rows[i].status]++;
	fputs("lattop compare\n", f);
	text_file(f, "A (before)", v->a, v->sa);
	text_file(f, "B (after) ", (struct session *)&v->b, v->sb);
	fprintf(f,
		"significant (*): beyond the bucket error (+-%.2f%% for p50 .. p99.9; the rate is "
		"exact) and the noise (%.0f standard deviations of the change over %d bootstrap "
		"draws of each recording's intervals, fixed seed); the max, one run, never\n",
		v->c.bucket_err_pct, CMP_NOISE_Z, CMP_RESAMPLES);
	fprintf(f,
		"series: %zu slower, %zu faster, %zu changed, %zu unchanged, %zu only in A, %zu "
		"only in B\n",
		cnt[CMP_SLOWER], cnt[CMP_FASTER], cnt[CMP_CHANGED], cnt[CMP_UNCHANGED],
		cnt[CMP_ONLY_A], cnt[CMP_ONLY_B]);
	for (size_t i = 0; i < v->c.n; i++) {
		const struct cmp_row *r = &v->c.rows[i];

		if (r->key.kind != kind) {
			kind = r->key.kind;
			fprintf(f, "\n%s\n%-32s %-14s %-6s %12s", kind_name(kind),
				kind == LAT_EV_HELPER ? "PROGRAM: HELPER" : "NAME",
				kind == LAT_EV_PROG ? "TYPE" : kind == LAT_EV_HELPER ? "MAP" : "",
				"SIDE", "COUNT");
			fprintf(f, " %9s %9s %9s %9s %9s %9s\n", "RATE/S", "P50", "P95", "P99",
				"P99.9", "MAX");
		}
		text_row(f, r);
	}
	fflush(f);
	return ferror(f) ? EXIT_RUNTIME : EXIT_OK;
}

/* A number field of CSV (empty when undefined). */
static void csv_num(FILE *f, bool has, double v, const char *fmt)
{
	fputc(',', f);
	if (has && isfinite(v))
		fprintf(f, fmt, v);
}

/* The CSV report: a header, then one line per series. */
int cmp_report__csv(const struct cmp_view *v, FILE *f)
{
	fputs("kind,name,type,prog_name,map_name,status,count_a,count_b", f);
	for (int st = 0; st < CMP__NSTAT; st++) {
		const char *n = compare__stat_name((enum cmp_stat)st);

		fprintf(f, ",%s_a,%s_b,%s_change_pct,%s_noise_pct,%s_significant", n, n, n, n, n);
	}
	fputc('\n', f);
	for (size_t i = 0; i < v->c.n; i++) {
		const struct cmp_row *r = &v->c.rows[i];

		fprintf(f, "%s,", kind_name(r->key.kind));
		text__csv_field(f, r->key.name);
		fputc(',', f);
		text__csv_field(f, r->key.type);
		fputc(',', f);
		text__csv_field(f, r->key.prog);
		fputc(',', f);
		text__csv_field(f, r->key.sub);
		fprintf(f, ",%s,", compare__status_name(r->status));
		if (r->has_count_a)
			fprintf(f, "%" PRIu64, r->count_a);
		fputc(',', f);
		if (r->has_count_b)
			fprintf(f, "%" PRIu64, r->count_b);
		for (int st = 0; st < CMP__NSTAT; st++) {
			const struct cmp_fig *fg = &r->f[st];
			const char *fmt = st == CMP_RATE ? "%.3f" : "%.0f";

			csv_num(f, fg->has_a, fg->a, fmt);
			csv_num(f, fg->has_b, fg->b, fmt);
			csv_num(f, fg->has_change, fg->change_pct, "%.2f");
			csv_num(f, fg->has_change, fg->noise_pct, "%.2f");
			fprintf(f, ",%d", fg->significant);
		}
		fputc('\n', f);
	}
	fflush(f);
	return ferror(f) ? EXIT_RUNTIME : EXIT_OK;
}

/* A double member, null when undefined. */
static void json_num(struct jsonw *w, const char *key, bool has, double v)
{
	if (has && isfinite(v))
		jsonw__double_field(w, key, v);
	else
		jsonw__null_field(w, key);
}

/* One side's description as a member of the open object. */
static void json_file(struct jsonw *w, const char *key, struct session *s,
		      const struct cmp_side *sd)
{
	struct replay *rp = session__replay(s);
	const struct rec_file *rf = replay__file(rp);

	jsonw__key(w, key);
	jsonw__begin_object(w);
	jsonw__string_field(w, "file", replay__path(rp));
	jsonw__string_field(w, "host", replay__host(rp));
	jsonw__string_field(w, "kernel", replay__kernel(rp));
	jsonw__string_field(w, "mode", rec__meta_str(rf, "mode"));
	jsonw__u64_field(w, "start_ns",
			 replay__wall_ns(rp, rf->nivals ? rec__ival_start(rf, 0) : 0));
	jsonw__u64_field(w, "duration_ns", sd->dur_ns);
	jsonw__u64_field(w, "intervals", sd->added);
	jsonw__end_object(w);
}

/* One row as a JSON object: its key, verdict, counts and each figure's a, b, change, noise,
 * bucket error and significance. */
static void json_row(struct jsonw *w, const struct cmp_row *r)
{
	jsonw__begin_object(w);
	jsonw__string_field(w, "kind", kind_name(r->key.kind));
	jsonw__string_field(w, "name", r->key.name);
	if (r->key.kind == LAT_EV_PROG)
		jsonw__string_field(w, "type", r->key.type);
	if (r->key.attach[0])
		jsonw__string_field(w, "attach", r->key.attach);
	if (r->key.kind == LAT_EV_HELPER) {
		jsonw__string_field(w, "prog_name", r->key.prog);
		jsonw__string_field(w, "map_name", r->key.sub);
	}
	jsonw__string_field(w, "status", compare__status_name(r->status));
	if (r->has_count_a)
		jsonw__u64_field(w, "count_a", r->count_a);
	else
		jsonw__null_field(w, "count_a");
	if (r->has_count_b)
		jsonw__u64_field(w, "count_b", r->count_b);
	else
		jsonw__null_field(w, "count_b");
	for (int st = 0; st < CMP__NSTAT; st++) {
		const struct cmp_fig *fg = &r->f[st];

		jsonw__key(w, compare__stat_name((enum cmp_stat)st));
		jsonw__begin_object(w);
		json_num(w, "a", fg->has_a, fg->a);
		json_num(w, "b", fg->has_b, fg->b);
		json_num(w, "change_pct", fg->has_change, fg->change_pct);
		json_num(w, "noise_pct", fg->has_change, fg->noise_pct);
		jsonw__double_field(w, "bucket_error_pct", fg->err_pct);
		jsonw__bool_field(w, "significant", fg->significant);
		jsonw__end_object(w);
	}
	jsonw__end_object(w);
}

/* The JSON report: one document on a line, built in memory first (a failure prints
 * nothing). */
int cmp_report__json(const struct cmp_view *v, FILE *f)
{
	struct jsonw_mem m;
	char *txt;

	if (jsonw__mem_open(&m))
		return EXIT_RUNTIME;
	jsonw__begin_object(&m.w);
	json_file(&m.w, "a", v->a, v->sa);
	json_file(&m.w, "b", (struct session *)&v->b, v->sb);
	jsonw__double_field(&m.w, "bucket_error_pct", v->c.bucket_err_pct);
	jsonw__u64_field(&m.w, "resamples", CMP_RESAMPLES);
	jsonw__u64_field(&m.w, "seed", CMP_SEED);
	jsonw__u64_field(&m.w, "max_blocks", CMP_MAX_BLOCKS);
	jsonw__key(&m.w, "series");
	jsonw__begin_array(&m.w);
	for (size_t i = 0; i < v->c.n; i++)
		json_row(&m.w, &v->c.rows[i]);
	jsonw__end_array(&m.w);
	jsonw__end_object(&m.w);
	txt = jsonw__mem_close(&m);
	if (!txt)
		return EXIT_RUNTIME;
	fprintf(f, "%s\n", txt);
	free(txt);
	fflush(f);
	return ferror(f) ? EXIT_RUNTIME : EXIT_OK;
}
