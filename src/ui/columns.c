// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * columns.c - the programs-mode columns and cell formatting.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/columns.h"

/* Column getters: one per column, reading a computed row. */
static void get_id(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_U64, .u = r->s->id };
}

static void get_type(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_STR, .s = r->s->type[0] ? r->s->type : "-" };
}

static void get_name(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_STR, .s = r->s->name };
}

static void get_count(const struct row *r, struct cell *c)
{
	*c = r->has_rate ? (struct cell){ .t = CELL_U64, .u = r->count } : (struct cell){ 0 };
}

static void get_rate(const struct row *r, struct cell *c)
{
	*c = r->has_rate ? (struct cell){ .t = CELL_DBL, .d = r->rate } : (struct cell){ 0 };
}

static void get_avg(const struct row *r, struct cell *c)
{
	*c = r->has_rate && r->count ? (struct cell){ .t = CELL_NS, .d = r->avg_ns }
				     : (struct cell){ 0 };
}

/* Percentile getters share one shape: a value only where a distribution exists. */
#define PCT_GETTER(fn, field)                                                                    \
	static void fn(const struct row *r, struct cell *c)                                      \
	{                                                                                        \
		*c = r->has_dist && r->count ? (struct cell){ .t = CELL_NS, .d = (double)r->field } \
					     : (struct cell){ 0 };                               \
	}
PCT_GETTER(get_p50, p50)
PCT_GETTER(get_p95, p95)
PCT_GETTER(get_p99, p99)
PCT_GETTER(get_p999, p999)
PCT_GETTER(get_max, max)

static void get_cpu(const struct row *r, struct cell *c)
{
	*c = r->cpu_pct >= 0 ? (struct cell){ .t = CELL_PCT, .d = r->cpu_pct } : (struct cell){ 0 };
}

static void get_runs(const struct row *r, struct cell *c)
{
	*c = (r->s->src & SRC_STATS) ? (struct cell){ .t = CELL_U64, .u = r->total_runs }
				     : (struct cell){ 0 };
}

const struct column prog_columns[] = {
	{ "ID", "prog_id", 6, false, get_id },
	{ "TYPE", "prog_type", 13, true, get_type },
	{ "NAME", "prog_name", 18, true, get_name },
	{ "COUNT", "count", 11, false, get_count },
	{ "RATE/S", "rate", 8, false, get_rate },
	{ "AVG", "avg_ns", 8, false, get_avg },
	{ "P50", "p50_ns", 8, false, get_p50 },
	{ "P95", "p95_ns", 8, false, get_p95 },
	{ "P99", "p99_ns", 8, false, get_p99 },
	{ "P99.9", "p999_ns", 8, false, get_p999 },
	{ "MAX", "max_ns", 8, false, get_max },
	{ "CPU%", "cpu_pct", 6, false, get_cpu },
	{ "RUNS", "run_cnt", 14, false, get_runs },
};
const int prog_ncolumns = sizeof(prog_columns) / sizeof(prog_columns[0]);

/* Default sort: COUNT. */
int columns__default_sort(void)
{
	return 3;
}

/* Format a duration with adaptive units. */
void fmt_ns(double ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%.*fus", ns < 1e4 ? 2 : ns < 1e5 ? 1 : 0, ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%.*fms", ns < 1e7 ? 2 : ns < 1e8 ? 1 : 0, ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
}

/* Format an integer with thousands separators. */
void fmt_count(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v), o = 0;

	for (int i = 0; i < n && o + 2 < (int)len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
}

/* Format a rate with k/M suffixes. */
void fmt_rate(double v, char *buf, size_t len)
{
	if (v < 10000)
		snprintf(buf, len, "%.0f", v);
	else if (v < 1e7)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.1fM", v / 1e6);
}

/* Format a cell for humans. */
void cell__text(const struct cell *c, char *buf, size_t len)
{
	switch (c->t) {
	case CELL_NULL:
		snprintf(buf, len, "-");
		break;
	case CELL_U64:
		fmt_count(c->u, buf, len);
		break;
	case CELL_DBL:
		fmt_rate(c->d, buf, len);
		break;
	case CELL_STR:
		snprintf(buf, len, "%s", c->s);
		break;
	case CELL_NS:
		fmt_ns(c->d, buf, len);
		break;
	case CELL_PCT:
		snprintf(buf, len, "%.1f", c->d);
		break;
	}
}

/* Numeric value of a cell for sorting. */
static double cell_num(const struct cell *c)
{
	return c->t == CELL_U64 ? (double)c->u : c->d;
}

/* Compare two rows by column (descending for numbers, ascending for strings). */
int columns__cmp(const struct column *col, const struct row *a, const struct row *b)
{
	struct cell ca, cb;

	col->get(a, &ca);
	col->get(b, &cb);
	if (ca.t == CELL_NULL || cb.t == CELL_NULL)
		return (ca.t == CELL_NULL) - (cb.t == CELL_NULL);
	if (ca.t == CELL_STR)
		return strcmp(ca.s, cb.s);
	if (cell_num(&ca) != cell_num(&cb))
		return cell_num(&ca) > cell_num(&cb) ? -1 : 1;
	return 0;
}
