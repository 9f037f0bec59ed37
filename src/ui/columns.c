// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * columns.c - the programs-mode columns and cell formatting.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "ui/columns.h"

/* Column getters: one per column, reading a computed row. */
static void get_id(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_U64, .u = r->s->id, .plain = true };
}

static void get_type(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_STR, .s = r->s->type[0] ? r->s->type : "-" };
	if (r->s->kind == LAT_EV_PROG_CPU || r->s->kind == LAT_EV_SPAN_GRP)
		c->shown = "";
}

/* An activity row's parent row (its second label), "" for the others. */
static void get_parent(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_STR, .s = rows__is_activity(r->s) ? r->s->sub : "" };
}

static void get_name(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_STR, .s = r->s->name, .indent = r->depth };
	if (r->s->kind == LAT_EV_PROG_CPU || r->s->kind == LAT_EV_SPAN_GRP)
		c->shown = r->label;
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

/* Where the row's count and percentiles come from (model.h struct row's source). */
static void get_source(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_STR, .s = r->source ? r->source : "-" };
}

/* The share of the window's runs that were timed: 100 when every run was, less when the program
 * was watched in turns (its percentiles are then a sample). */
static void get_timed(const struct row *r, struct cell *c)
{
	*c = r->timed >= 0 ? (struct cell){ .t = CELL_PCT, .d = r->timed * 100.0 }
			   : (struct cell){ 0 };
}

/* Why a program is not measured per invocation, one word (its note says the whole reason). */
static void get_why(const struct row *r, struct cell *c)
{
	const char *w = model__note_word(r->s->note);

	*c = w[0] ? (struct cell){ .t = CELL_STR, .s = w } : (struct cell){ 0 };
}

/* Who and where: the first owner, its container (or unit) and the first attach point. */
static void get_owner(const struct row *r, struct cell *c)
{
	*c = r->owner[0] ? (struct cell){ .t = CELL_STR, .s = r->owner } : (struct cell){ 0 };
}

static void get_container(const struct row *r, struct cell *c)
{
	*c = r->container[0] ? (struct cell){ .t = CELL_STR, .s = r->container }
			     : (struct cell){ 0 };
}

static void get_attach(const struct row *r, struct cell *c)
{
	*c = r->attach[0] ? (struct cell){ .t = CELL_STR, .s = r->attach } : (struct cell){ 0 };
}

/* The latency columns every mode shows, with the same widths and drop order in each (one
 * definition, so a width or a drop priority cannot drift between modes). */
#define LATENCY_COLUMNS                                                                          \
	{ "COUNT", "count", 11, false, get_count, 0, false },                                       \
	{ "RATE/S", "rate", 8, false, get_rate, 3, false },                                         \
	{ "AVG", "avg_ns", 8, false, get_avg, 2, false },                                           \
	{ "P50", "p50_ns", 8, false, get_p50, 1, false },                                           \
	{ "P95", "p95_ns", 8, false, get_p95, 6, false },                                           \
	{ "P99", "p99_ns", 8, false, get_p99, 0, false },                                           \
	{ "P99.9", "p999_ns", 8, false, get_p999, 7, false },                                       \
	{ "MAX", "max_ns", 8, false, get_max, 4, false }

const struct column prog_columns[] = {
	/* drop: on a narrow screen RUNS goes first, then CPU%, P99.9, P95, TYPE, MAX, RATE/S, AVG,
	 * P50; ID, NAME, COUNT and P99 always stay (6 + 12 + 11 + 8 + 3 spaces = 40 columns). */
	{ "ID", "prog_id", 6, false, get_id, 0, false },
	{ "TYPE", "prog_type", 13, true, get_type, 5, false },
	{ "NAME", "prog_name", 18, true, get_name, 0, false },
	LATENCY_COLUMNS,
	{ "CPU%", "cpu_pct", 6, false, get_cpu, 8, false },
	{ "RUNS", "run_cnt", 14, false, get_runs, 9, false },
	{ "SRC", "count_source", 6, true, get_source, COLUMN_OPTIONAL, false },
	{ "TIMED", "timed_pct", 6, false, get_timed, COLUMN_OPTIONAL + 1, true },
	{ "WHY", "not_watched", 9, true, get_why, COLUMN_OPTIONAL + 2, true },
	/* Shown where the screen has room (the detail pane says all of it). */
	{ "OWNER", "owner", 18, true, get_owner, COLUMN_OPTIONAL + 3, false },
	{ "CONTAINER", "container", 16, true, get_container, COLUMN_OPTIONAL + 5, false },
	{ "ATTACH", "attach", 22, true, get_attach, COLUMN_OPTIONAL + 4, false },
};
const int prog_ncolumns = sizeof(prog_columns) / sizeof(prog_columns[0]);

/* Helpers-mode getters: the calling program, the helper and its map. */
static void get_prog_name(const struct row *r, struct cell *c)
{
	*c = (struct cell){ .t = CELL_STR, .s = r->prog_name ? r->prog_name : "-" };
}

static void get_helper(const struct row *r, struct cell *c)
{
	*c = r->s->kind == LAT_EV_HELPER ? (struct cell){ .t = CELL_STR, .s = r->s->name }
					 : (struct cell){ .t = CELL_STR, .s = "(program)" };
}

static void get_helper_id(const struct row *r, struct cell *c)
{
	*c = r->s->kind == LAT_EV_HELPER ? (struct cell){ .t = CELL_U64, .u = r->s->aux }
					 : (struct cell){ 0 };
}

static void get_map_id(const struct row *r, struct cell *c)
{
	*c = r->s->kind == LAT_EV_HELPER && r->s->aux2 ? (struct cell){ .t = CELL_U64, .u = r->s->aux2 }
							: (struct cell){ 0 };
}

static void get_map_name(const struct row *r, struct cell *c)
{
	*c = r->s->kind == LAT_EV_HELPER ? (struct cell){ .t = CELL_STR, .s = r->s->sub }
					 : (struct cell){ 0 };
}

static void get_map_type(const struct row *r, struct cell *c)
{
	*c = r->s->kind == LAT_EV_HELPER ? (struct cell){ .t = CELL_STR, .s = r->s->type }
					 : (struct cell){ 0 };
}

const struct column helper_columns[] = {
	/* drop: FN first, then MAP ID, P99.9, P95, MAP TYPE, MAX, RATE/S, AVG, P50. */
	{ "ID", "prog_id", 6, false, get_id, 0, false },
	{ "PROGRAM", "prog_name", 16, true, get_prog_name, 0, false },
	{ "HELPER", "helper", 21, true, get_helper, 0, false },
	{ "FN", "helper_id", 3, false, get_helper_id, 9, false },
	{ "MAP ID", "map_id", 6, false, get_map_id, 8, false },
	{ "MAP", "map_name", 14, true, get_map_name, 0, false },
	{ "MAP TYPE", "map_type", 10, true, get_map_type, 5, false },
	LATENCY_COLUMNS,
};
const int helper_ncolumns = sizeof(helper_columns) / sizeof(helper_columns[0]);

/* Segments-mode getters: a span's loss counters, over the row's interval or cumulative. */
#define LOSS_GETTER(fn, name)                                                                    \
	static void fn(const struct row *r, struct cell *c)                                      \
	{                                                                                        \
		*c = (struct cell){ .t = CELL_U64,                                               \
				    .u = r->m ? model__counter(r->m, r->s, name, r->cumulative)  \
					      : 0 };                                             \
	}
LOSS_GETTER(get_unmatched, "unmatched")
LOSS_GETTER(get_evicted, "evicted")
LOSS_GETTER(get_collided, "collided")
LOSS_GETTER(get_overflow, "overflow")

/* Part part's row of span row r, over the same window: false when the span is not split. */
static bool part_row(const struct row *r, unsigned part, struct row *out)
{
	const struct series *p = r->m ? model__span_part(r->m, r->s, part) : NULL;

	if (!p)
		return false;
	model__row(r->m, p, r->cumulative, out);
	return true;
}

/* Part part's share of span row r's wall time, in percent (null: not split, or no samples). */
static void part_share(const struct row *r, unsigned part, struct cell *c)
{
	double wall = r->avg_ns * (double)r->count;
	struct row pr;

	*c = (struct cell){ 0 };
	if (part_row(r, part, &pr) && pr.count && wall > 0)
		*c = (struct cell){ .t = CELL_PCT, .d = 100.0 * pr.avg_ns * (double)pr.count / wall };
}

/* Part part's p50 or p99 (null: not split, or no samples). */
static void part_pct(const struct row *r, unsigned part, bool p99, struct cell *c)
{
	struct row pr;

	*c = (struct cell){ 0 };
	if (part_row(r, part, &pr) && pr.count)
		*c = (struct cell){ .t = CELL_NS, .d = (double)(p99 ? pr.p99 : pr.p50) };
}

#define PART_GETTERS(part, share, p50, p99)                                                      \
	static void share(const struct row *r, struct cell *c) { part_share(r, part, c); }       \
	static void p50(const struct row *r, struct cell *c) { part_pct(r, part, false, c); }    \
	static void p99(const struct row *r, struct cell *c) { part_pct(r, part, true, c); }
PART_GETTERS(LAT_PART_ONCPU, get_on_pct, get_on_p50, get_on_p99)
PART_GETTERS(LAT_PART_RUNQ, get_rq_pct, get_rq_p50, get_rq_p99)
PART_GETTERS(LAT_PART_SLEEP, get_sl_pct, get_sl_p50, get_sl_p99)

const struct column seg_columns[] = {
	/* drop: RUNQ% first, then ONCPU%, OVERFLOW, COLLIDED, EVICTED, UNMATCHED, P99.9, P95,
	 * KIND, MAX, RATE/S, AVG, P50. COUNT stays at index 3, the default sort column of every
	 * mode. */
	{ "ID", "span_id", 3, false, get_id, 0, false },
	{ "SPAN", "span", 18, true, get_name, 0, false },
	{ "KIND", "kind", 10, true, get_type, 5, false },
	LATENCY_COLUMNS,
	{ "PARENT", "parent", 12, true, get_parent, 12, false },
	{ "UNMATCHED", "unmatched", 10, false, get_unmatched, 8, false },
	{ "EVICTED", "evicted", 8, false, get_evicted, 9, false },
	{ "COLLIDED", "collided", 8, false, get_collided, 10, false },
	{ "OVERFLOW", "overflow", 8, false, get_overflow, 11, false },
	/* A split span's on-CPU and run-queue shares of its wall time ("-": not split); the
	 * sleeping share and the parts' percentiles go to CSV and JSON (the TUI's o key shows
	 * each part's histogram). */
	{ "ONCPU%", "oncpu_pct", 6, false, get_on_pct, 12, false },
	{ "RUNQ%", "runq_pct", 6, false, get_rq_pct, 13, false },
	{ "SLEEP%", "sleep_pct", 6, false, get_sl_pct, 14, true },
	{ "ONCPU P50", "oncpu_p50_ns", 9, false, get_on_p50, 14, true },
	{ "ONCPU P99", "oncpu_p99_ns", 9, false, get_on_p99, 14, true },
	{ "RUNQ P50", "runq_p50_ns", 9, false, get_rq_p50, 14, true },
	{ "RUNQ P99", "runq_p99_ns", 9, false, get_rq_p99, 14, true },
	{ "SLEEP P50", "sleep_p50_ns", 9, false, get_sl_p50, 14, true },
	{ "SLEEP P99", "sleep_p99_ns", 9, false, get_sl_p99, 14, true },
};
const int seg_ncolumns = sizeof(seg_columns) / sizeof(seg_columns[0]);

/* The columns of a mode. */
const struct column *columns__for_mode(enum lat_mode mode, int *n)
{
	if (mode == MODE_SEGMENTS) {
		*n = seg_ncolumns;
		return seg_columns;
	}
	if (mode == MODE_HELPERS) {
		*n = helper_ncolumns;
		return helper_columns;
	}
	*n = prog_ncolumns;
	return prog_columns;
}

/* Default sort: the COUNT column of the mode's table. */
int columns__default_sort(enum lat_mode mode)
{
	int n;
	const struct column *cols = columns__for_mode(mode, &n);

	for (int c = 0; c < n; c++)
		if (!strcmp(cols[c].key, "count"))
			return c;
	return 0;
}

/* Width of a line of the given column widths (0 = dropped). */
static int line_width(const int *width, int n)
{
	int w = 0, shown = 0;

	for (int c = 0; c < n; c++)
		if (width[c]) {
			w += width[c];
			shown++;
		}
	return w + (shown ? shown - 1 : 0);
}

/* A name cut while numbers are padded takes the padding, rightmost column first: at 130 columns
 * "demo_xdp_ar~" beside a RUNS column 14 wide for 6 digits. */
static void names_take_padding(const struct column *cols, int n, const int *least, int *width)
{
	for (int t = 0; t < n; t++) {
		int want = width[t] && cols[t].left ? least[t] - width[t] : 0;

		for (int c = n - 1; c >= 0 && want > 0; c--) {
			int give = width[c] && !cols[c].left ? width[c] - least[c] : 0;

			if (give > want)
				give = want;
			if (give > 0) {
				width[c] -= give;
				width[t] += give;
				want -= give;
			}
		}
	}
}

/* Drop whole columns whose drop number is at least min, the highest first, until the line
 * (w wide) fits screen_cols or none is left; returns the new width. */
static int drop_down_to(const struct column *cols, int n, int *width, int min, int screen_cols,
			int w)
{
	while (w > screen_cols) {
		int victim = -1;

		for (int c = 0; c < n; c++)
			if (width[c] && cols[c].drop >= min &&
			    (victim < 0 || cols[c].drop > cols[victim].drop))
				victim = c;
		if (victim < 0)
			break;
		width[victim] = 0;
		w = line_width(width, n);
	}
	return w;
}

/* Fit columns into the screen width: optional columns, names, then by priority; then a cut
 * name takes what numbers only pad. */
int columns__fit(const struct column *cols, int n, const int *need, const int *least,
		 int screen_cols, int *width)
{
	int w;

	for (int c = 0; c < n; c++)
		width[c] = need[c];
	w = line_width(width, n);
	/* Optional columns go before a name is cut, the highest drop number first. */
	w = drop_down_to(cols, n, width, COLUMN_OPTIONAL, screen_cols, w);
	/* Text columns that are never dropped (NAME) give back their room first. */
	for (int c = n - 1; c >= 0 && w > screen_cols; c--) {
		int give = cols[c].left && !cols[c].drop ? width[c] - COLUMN_MIN_TEXT : 0;

		if (give > w - screen_cols)
			give = w - screen_cols;
		if (give > 0) {
			width[c] -= give;
			w -= give;
		}
	}
	/* Then whole columns go, the highest drop number first. */
	w = drop_down_to(cols, n, width, 1, screen_cols, w);
	/* Room a dropped column left goes back to the text columns that shrank. */
	for (int c = 0; c < n && w < screen_cols; c++) {
		int grow = width[c] ? need[c] - width[c] : 0;

		if (grow > screen_cols - w)
			grow = screen_cols - w;
		if (grow > 0) {
			width[c] += grow;
			w += grow;
		}
	}
	if (least)
		names_take_padding(cols, n, least, width);
	return w;
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

/* Format a rate with thousands separators below 10,000, k/M suffixes above. */
void fmt_rate(double v, char *buf, size_t len)
{
	if (v < 10000)
		fmt_count(v > 0 ? (uint64_t)(v + 0.5) : 0, buf, len);
	else if (v < 1e7)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.1fM", v / 1e6);
}

/* The human loss line: "drops: ringbuf 0  queue 0  recursion 0  nest 0  events 48,820". */
void fmt_log2_range(const struct hist_log2_row *r, char *buf, size_t len)
{
	char lo[16], hi[16], cnt[32];

	/* Half-open, so a range ends where the next begins: [2.05us, 4.10us) then [4.10us, ...). */
	fmt_ns((double)r->lo, lo, sizeof(lo));
	fmt_ns((double)r->hi + 1, hi, sizeof(hi));
	fmt_count(r->count, cnt, sizeof(cnt));
	snprintf(buf, len, "[%8s, %8s) %13s", lo, hi, cnt);
}

/* Bar length of a log2 range: count scaled to room by the widest count. */
int log2_bar(uint64_t count, uint64_t widest, int room)
{
	int bar;

	if (room <= 0 || !widest)
		return 0;
	bar = (int)((double)count / (double)widest * room + 0.5);
	return count && !bar ? 1 : bar;
}

/* The loss counters as the human drops line. */
void fmt_drops(const struct model_counters *mc, char *buf, size_t len)
{
	char rb[32], q[32], rec[32], nest[32], ev[32];

	fmt_count(mc->rb_drops, rb, sizeof(rb));
	fmt_count(mc->queue_drops, q, sizeof(q));
	fmt_count(mc->recursion, rec, sizeof(rec));
	fmt_count(mc->nest, nest, sizeof(nest));
	fmt_count(mc->events, ev, sizeof(ev));
	snprintf(buf, len, "drops: ringbuf %s  queue %s  recursion %s  nest %s  events %s", rb, q,
		 rec, nest, ev);
}

/* Format a cell for humans (strings in their visible form). */
void cell__text(const struct cell *c, char *buf, size_t len)
{
	switch (c->t) {
	case CELL_NULL:
		snprintf(buf, len, "-");
		break;
	case CELL_U64:
		if (c->plain)
			snprintf(buf, len, "%" PRIu64, c->u);
		else
			fmt_count(c->u, buf, len);
		break;
	case CELL_DBL:
		fmt_rate(c->d, buf, len);
		break;
	case CELL_STR: /* names come from the kernel or a file */
		if (c->indent && len > 2u * c->indent) { /* a child row of a tree */
			memset(buf, ' ', 2u * c->indent);
			text__esc(buf + 2u * c->indent, len - 2u * c->indent,
				  c->shown ? c->shown : c->s);
			break;
		}
		text__esc(buf, len, c->shown ? c->shown : c->s);
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

/* row_order comparison: arg is the column. */
static int column_order_cmp(const void *arg, const struct row *a, const struct row *b)
{
	return columns__cmp(arg, a, b);
}

/* The order of a mode's rows by column sortcol (the default one when out of range). */
void columns__order(enum lat_mode mode, int sortcol, bool reverse, struct row_order *ord)
{
	int ncols;
	const struct column *cols = columns__for_mode(mode, &ncols);

	if (sortcol < 0 || sortcol >= ncols)
		sortcol = columns__default_sort(mode);
	ord->cmp = column_order_cmp;
	ord->arg = &cols[sortcol];
	ord->reverse = reverse;
}
