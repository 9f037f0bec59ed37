// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tui_draw.c - the TUI's table (columns fitted to the width) and the detail pane (log2
 * histogram with bars, p99 sparkline; or the heatmap, tui_heat.c) of the selected row.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/text.h"
#include "ui/tui/tui_int.h"

#define PANE_MAX_LOG2 48 /* log2 rows: 2^40 ns histograms have at most 41 */
#define PANE_MIN_TABLE 4 /* the table keeps its heading and three rows */

/* Text of cell c of row r (the heading when r is NULL). */
static void cell_text(const struct tui *t, const struct column *col, int c, const struct row *r,
		      char *v, size_t len)
{
	if (r) {
		struct cell cell;

		col->get(r, &cell);
		cell__text(&cell, v, len);
	} else {
		snprintf(v, len, "%s%s", col->title,
			 c == t->sortcol ? (t->reverse ? "^" : "v") : "");
	}
}

/* Widths of the columns for this screen: wide enough for every value, fitted to COLS. */
static void layout(const struct tui *t, const struct column *cols, int ncols, int *width)
{
	int need[TUI_MAX_COLUMNS], least[TUI_MAX_COLUMNS];
	char v[64];

	for (int c = 0; c < ncols; c++) {
		cell_text(t, &cols[c], c, NULL, v, sizeof(v));
		least[c] = text__cols(v);
		need[c] = least[c] > cols[c].width ? least[c] : cols[c].width;
	}
	for (size_t i = 0; i < t->nrows; i++)
		for (int c = 0; c < ncols; c++) {
			int l;

			cell_text(t, &cols[c], c, &t->rows[i], v, sizeof(v));
			l = text__cols(v);
			/* Names may widen their column up to 32; longer ones end in '~'. */
			if (cols[c].left && l > 32)
				l = 32;
			if (l > need[c])
				need[c] = l;
			if (l > least[c])
				least[c] = l;
		}
	for (int c = 0; c < ncols; c++)
		if (cols[c].data_only)
			need[c] = least[c] = 0;
	columns__fit(cols, ncols, need, least, COLS, width);
}

/* One table line (heading when r is NULL) with the given column widths. */
static void draw_line(struct tui *t, int y, const struct row *r, const struct column *cols,
		      int ncols, const int *width)
{
	char line[1024] = "";
	size_t l = 0;
	bool first = true;

	for (int c = 0; c < ncols && l < sizeof(line) - 1; c++) {
		int w = width[c];
		char v[64];

		if (!w)
			continue;
		cell_text(t, &cols[c], c, r, v, sizeof(v));
		if (!first && l + 1 < sizeof(line))
			line[l++] = ' ';
		/* Cut by characters, never inside one or inside an escape. */
		if (text__cols(v) > w && w > 1) { /* only text is ever cut: mark it */
			char cut[64];
			size_t k = text__fit(cut, sizeof(cut) - 1, v, w - 1, true);

			while (k && cut[k - 1] == ' ') /* padding where an escape did not fit */
				k--;
			cut[k++] = '~';
			cut[k] = '\0';
			snprintf(v, sizeof(v), "%s", cut);
		}
		l += text__fit(line + l, sizeof(line) - l, v, w, cols[c].left);
		first = false;
	}
	if (r && r->s->gone && l < sizeof(line) - 8)
		l += snprintf(line + l, sizeof(line) - l, " (gone)");
	if (r && r->sampled && l < sizeof(line) - 24)
		l += snprintf(line + l, sizeof(line) - l, " [timed %.0f%%]", r->timed * 100.0);
	if (r && r->s->note[0] && l < sizeof(line) - 8) {
		char note[4 * sizeof(r->s->note)];

		text__esc(note, sizeof(note), r->s->note);
		snprintf(line + l, sizeof(line) - l, " [%s]", note);
	}
	mvaddnstr(y, 0, line, COLS);
	clrtoeol();
}

/* text in the note colour on line y, cut at the screen's width, the rest of the line cleared. */
void tui__draw_note(const struct tui *t, int y, const char *text)
{
	attron(tui_attr(t, TH_NOTE));
	mvaddnstr(y, 0, text, COLS);
	attroff(tui_attr(t, TH_NOTE));
	clrtoeol();
}

/* Scroll the table's height rows of t->nrows so the selection is visible. */
void tui__scroll(struct tui *t, int height)
{
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + height)
		t->top = t->sel - height + 1;
	if (t->top > (int)t->nrows - height)
		t->top = (int)t->nrows - height; /* no empty space below after a resize */
	if (t->top < 0)
		t->top = 0;
}

/* The table, scrolled so the selection is visible. */
void tui__draw_table(struct tui *t, int y0, int height)
{
	int ncols, width[TUI_MAX_COLUMNS];
	const struct column *cols = columns__for_mode(t->s->m->mode, &ncols);

	if (ncols > TUI_MAX_COLUMNS)
		ncols = TUI_MAX_COLUMNS;
	layout(t, cols, ncols, width);
	attron(tui_attr(t, TH_TITLE));
	draw_line(t, y0, NULL, cols, ncols, width);
	mvchgat(y0, 0, -1, tui_attr(t, TH_TITLE), PAIR_NUMBER(tui_attr(t, TH_TITLE)), NULL);
	attroff(tui_attr(t, TH_TITLE));
	height--;
	tui__scroll(t, height);
	for (int i = 0; i < height; i++) {
		int idx = t->top + i;
		const struct row *r;

		if (idx >= (int)t->nrows) {
			move(y0 + 1 + i, 0);
			clrtoeol();
			continue;
		}
		r = &t->rows[idx];
		attron(tui_attr(t, r->s->gone ? TH_DIM : TH_TABLE));
		draw_line(t, y0 + 1 + i, r, cols, ncols, width);
		attroff(tui_attr(t, r->s->gone ? TH_DIM : TH_TABLE));
		if (idx == t->sel)
			mvchgat(y0 + 1 + i, 0, -1, tui_attr(t, TH_SELECT),
				PAIR_NUMBER(tui_attr(t, TH_SELECT)), NULL);
	}
}

/* Lines of the pane that say who holds the program and where it is attached. */
#define PANE_ATTR_LINES 3

static int attr_lines(const struct series *s)
{
	return s->attr ? PANE_ATTR_LINES : 0;
}

/* Who and where, in PANE_ATTR_LINES lines from y: owners, container/unit/cgroup; the attach
 * points; load facts. Strings from the kernel and /proc in their visible form. */
static void draw_attr(const struct row *r, int y)
{
	const struct prog_attr *a = r->s->attr;
	uint64_t rm = model__counter(r->m, r->s, MODEL_RECURSION_MISSES, true);
	char line[1600], e[4 * 256];
	size_t l = 0;

	l += snprintf(line, sizeof(line), "  owner:");
	if (!a->nowners)
		l += snprintf(line + l, sizeof(line) - l, " none (held by a pin or a link only)");
	for (uint32_t i = 0; i < a->nowners && l < sizeof(line); i++) {
		text__esc(e, sizeof(e), a->owners[i].comm);
		l += snprintf(line + l, sizeof(line) - l, " %s[%d]", e, a->owners[i].pid);
	}
	if (l < sizeof(line) && a->owners_total > a->nowners)
		l += snprintf(line + l, sizeof(line) - l, " +%u", a->owners_total - a->nowners);
	if (l < sizeof(line) && a->container[0]) {
		text__esc(e, sizeof(e), a->container);
		l += snprintf(line + l, sizeof(line) - l, "  container %s", e);
	}
	if (l < sizeof(line) && a->unit[0]) {
		text__esc(e, sizeof(e), a->unit);
		l += snprintf(line + l, sizeof(line) - l, "  unit %s", e);
	}
	if (l < sizeof(line) && a->cgroup[0]) {
		text__esc(e, sizeof(e), a->cgroup);
		snprintf(line + l, sizeof(line) - l, "  cgroup %s", e);
	}
	mvaddnstr(y, 0, line, COLS);
	clrtoeol();
	l = snprintf(line, sizeof(line), "  attach:");
	if (!a->npoints)
		l += snprintf(line + l, sizeof(line) - l, " unknown (no link; not found from a device)");
	for (uint32_t i = 0; i < a->npoints && l < sizeof(line); i++) {
		char w[4 * sizeof(a->points[0].where)];

		text__esc(e, sizeof(e), a->points[i].kind);
		text__esc(w, sizeof(w), a->points[i].where);
		l += snprintf(line + l, sizeof(line) - l, "%s %s %s", i ? ";" : "", e, w);
	}
	if (l < sizeof(line) && a->points_total > a->npoints)
		snprintf(line + l, sizeof(line) - l, " +%u", a->points_total - a->npoints);
	mvaddnstr(y + 1, 0, line, COLS);
	clrtoeol();
	{
		time_t when = (time_t)a->load_time_s;
		struct tm tm;
		char date[32] = "-";

		if (a->load_time_s && localtime_r(&when, &tm))
			strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
		text__esc(e, sizeof(e), a->tag);
		l = snprintf(line, sizeof(line),
			     "  loaded %s by uid %u  tag %s  %u instructions verified", date, a->uid,
			     e[0] ? e : "-", a->verified_insns);
		if (rm && l < sizeof(line))
			snprintf(line + l, sizeof(line) - l,
				 "  %llu runs skipped by the kernel (recursion) since lattop started",
				 (unsigned long long)rm);
	}
	mvaddnstr(y + 2, 0, line, COLS);
	clrtoeol();
}

/* The parts' words in the pane's title (enum lat_span_part). */
static const char *const part_words[LAT_PART__COUNT] = { "", "on-CPU ", "runnable ",
							  "sleeping " };

/* The row the pane shows: the selected one, or (o) its span's part, computed into buf. NULL: a
 * part of a span that is not split. */
static const struct row *pane_row(const struct tui *t, struct row *buf)
{
	const struct row *r = &t->rows[t->sel];
	const struct series *p;

	if (!t->part || r->s->kind != LAT_EV_SEG || r->s->id >= LAT_SPAN_MAX)
		return r;
	p = model__span_part(t->s->m, r->s, t->part);
	if (!p)
		return NULL;
	model__row(t->s->m, p, t->cumulative, buf);
	return buf;
}

/* Lines the detail pane wants. */
int tui__pane_height(const struct tui *t, int avail)
{
	struct hist_log2_row rows[PANE_MAX_LOG2];
	const struct hist *h;
	const struct row *r;
	struct row pr;
	int want;

	if (!t->pane || !t->nrows)
		return 0;
	r = pane_row(t, &pr);
	if (!r)
		return avail - PANE_MIN_TABLE < 2 ? 0 : 2; /* the title and one sentence */
	h = model__row_hist(r);
	/* Title, the log2 rows (at least one line for "no samples"), the sparkline. */
	if (h && t->heat)
		want = 1 + tui__heat_height(t, r->s);
	else
		want = h ? 2 + (h->count ? hist__log2(h, rows, PANE_MAX_LOG2) : 1) : 2;
	want += attr_lines(t->rows[t->sel].s);
	if (want > avail - PANE_MIN_TABLE)
		want = avail - PANE_MIN_TABLE;
	return want < 2 ? 0 : want;
}

/* The window of n consecutive rows (of total) holding the most samples. */
static int busiest_window(const struct hist_log2_row *rows, int total, int n)
{
	uint64_t sum = 0, best = 0;
	int start = 0;

	for (int i = 0; i < total; i++) {
		sum += rows[i].count;
		if (i >= n)
			sum -= rows[i - n].count;
		if (i >= n - 1 && sum > best) {
			best = sum;
			start = i - n + 1;
		}
	}
	return start;
}

/* Histogram rows "[lo, hi]  count  ####", bars scaled to the widest count; returns the
 * number of lines drawn. */
static int draw_log2(struct tui *t, const struct hist *h, int y, int lines)
{
	struct hist_log2_row rows[PANE_MAX_LOG2];
	int n = hist__log2(h, rows, PANE_MAX_LOG2), start = 0;
	uint64_t widest = 0;

	if (!h->count || !n) {
		mvaddnstr(y, 0, "  no runs in this interval", COLS);
		clrtoeol();
		return 1;
	}
	if (n > lines)
		start = busiest_window(rows, n, lines);
	for (int i = 0; i < n; i++)
		widest = rows[i].count > widest ? rows[i].count : widest;
	for (int i = 0; i < lines && start + i < n; i++) {
		const struct hist_log2_row *r = &rows[start + i];
		char range[80], text[96];
		int bar;

		fmt_log2_range(r, range, sizeof(range));
		snprintf(text, sizeof(text), "  %s ", range);
		mvaddnstr(y + i, 0, text, COLS);
		bar = log2_bar(r->count, widest, COLS - (int)strlen(text) - 1);
		attron(tui_attr(t, TH_BAR));
		for (int k = 0; k < bar; k++)
			addch('#');
		attroff(tui_attr(t, TH_BAR));
		clrtoeol();
	}
	return n - start < lines ? n - start : lines;
}

/* Sparkline of the p99 history: block characters in a UTF-8 locale, ASCII otherwise. */
static void draw_spark(struct tui *t, const struct series *s, int y)
{
	static const char *const blocks[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
					       "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char ascii[] = "_.-=+*#@";
	uint64_t v[MODEL_P99_RING], lo = UINT64_MAX, hi = 0;
	char lo_s[16], hi_s[16], head[64];
	size_t n = model__p99_history(t->s->m, s, v, MODEL_P99_RING);
	int room;

	for (size_t i = 0; i < n; i++) {
		if (v[i] && v[i] < lo)
			lo = v[i];
		hi = v[i] > hi ? v[i] : hi;
	}
	snprintf(head, sizeof(head), "  p99, last %zu intervals: ", n);
	mvaddnstr(y, 0, head, COLS);
	/* Room for the bars, keeping 22 columns for the range when the screen is wide enough. */
	room = COLS - (int)strlen(head) - 1;
	room -= room > 40 ? 22 : 0;
	if (room < 0)
		room = 0;
	if ((int)n > room) { /* the newest ones fit */
		memmove(v, v + (n - room), room * sizeof(v[0]));
		n = room;
	}
	attron(tui_attr(t, TH_SPARK));
	for (size_t i = 0; i < n; i++) {
		int level = hi ? (int)((double)v[i] * 7.0 / (double)hi + 0.5) : 0;

		if (!v[i])
			addch(' '); /* no runs that interval */
		else if (MB_CUR_MAX > 1)
			addstr(blocks[level]);
		else
			addch(ascii[level]);
	}
	attroff(tui_attr(t, TH_SPARK));
	if (hi && COLS - getcurx(stdscr) > 20) {
		fmt_ns((double)lo, lo_s, sizeof(lo_s));
		fmt_ns((double)hi, hi_s, sizeof(hi_s));
		printw("  %s .. %s", lo_s, hi_s);
	}
	clrtoeol();
}

/* A CPU row's name in the pane's title: "PROG on cpu N", and in cumulative figures when the
 * program was split after the cumulative figures began, since when (session seconds). */
static void cpu_title(const struct tui *t, const struct series *c, char *name, size_t len)
{
	const struct model *m = t->s->m;
	const struct series *p = model__find(t->s->m, LAT_EV_PROG, c->id, 0, 0);
	size_t l = strlen(name);

	snprintf(name + l, len - l, " on cpu %u", c->aux);
	l = strlen(name);
	if (t->cumulative && p && p->split_ns > m->cum_start_ns)
		snprintf(name + l, len - l, " (split at +%.0fs)",
			 (double)(p->split_ns - m->start_ns) / 1e9);
}

/* The pane of a span that is not split, asked for a part (o): its title and one sentence. */
static void draw_no_split(struct tui *t, int y0, int height)
{
	const struct row *r = &t->rows[t->sel];
	char title[400], name[4 * sizeof(r->s->name)];

	text__esc(name, sizeof(name), r->s->name);
	snprintf(title, sizeof(title), " %u %s: %stime (o: next part, Enter closes)", r->s->id,
		 name, part_words[t->part]);
	attron(tui_attr(t, TH_TITLE));
	mvaddnstr(y0, 0, title, COLS);
	clrtoeol();
	attroff(tui_attr(t, TH_TITLE));
	tui__draw_note(t, y0 + 1, "  The on-CPU split is not available for this span: its start "
				  "and end are not keyed by the task that runs them.");
	for (int i = 2; i < height; i++) {
		move(y0 + i, 0);
		clrtoeol();
	}
}

/* The pane title's name of row r, escaped: a CPU's share says since when, a span's group
 * "SPAN [arg0=1]". */
static void pane_name(const struct tui *t, const struct row *r, char *name, size_t len)
{
	size_t l;

	text__esc(name, len, r->s->name);
	if (r->s->kind == LAT_EV_PROG_CPU) /* one CPU's share: since the split, when later */
		cpu_title(t, r->s, name, len);
	if (r->s->kind != LAT_EV_SPAN_GRP || strlen(name) + 3 >= len)
		return;
	l = strlen(name);
	snprintf(name + l, len - l, " [");
	text__esc(name + l + 2, len - l - 2, r->s->sub);
	l = strlen(name);
	snprintf(name + l, len - l, "]");
}

/* The detail pane of the selected row (of a span, the part o chose). */
void tui__draw_pane(struct tui *t, int y0, int height)
{
	struct row pr;
	const struct row *r = pane_row(t, &pr);
	const struct hist *h = r ? model__row_hist(r) : NULL;
	char title[512], cnt[32], name[4 * sizeof(pr.s->name) + 64], note[4 * sizeof(pr.s->note)];
	const char *part = t->part && r ? part_words[t->part] : "";

	if (!r) {
		draw_no_split(t, y0, height);
		return;
	}
	pane_name(t, r, name, sizeof(name));
	text__esc(note, sizeof(note), r->s->note);
	fmt_count(h ? h->count : r->count, cnt, sizeof(cnt));
	if (h && t->heat) /* each column is one interval: `c` (cumulative) cannot apply */
		snprintf(title, sizeof(title),
			 " %u %s: %slatency heatmap of the last intervals%s (m histogram, Enter "
			 "closes)",
			 r->s->id, name, part,
			 t->cumulative ? ", one per column: c does not apply" : "");
	else if (h && r->sampled)
		snprintf(title, sizeof(title),
			 " %u %s: %s %slatency histogram of the %s runs timed, %.0f%% (watched in "
			 "turns: --budget; Enter closes)",
			 r->s->id, name, t->cumulative ? "cumulative" : "interval", part, cnt,
			 r->timed * 100.0);
	else if (h)
		snprintf(title, sizeof(title),
			 " %u %s: %s %slatency histogram, %s runs (Enter closes)", r->s->id, name,
			 t->cumulative ? "cumulative" : "interval", part, cnt);
	else if (r->has_rate)
		snprintf(title, sizeof(title), " %u %s: %s runs %s (Enter closes)", r->s->id, name,
			 cnt, t->cumulative ? "in all" : "in the interval");
	else /* no source behind the row (--no-stats): no count, not a count of 0 */
		snprintf(title, sizeof(title), " %u %s: no figures (Enter closes)", r->s->id, name);
	attron(tui_attr(t, TH_TITLE));
	mvaddnstr(y0, 0, title, COLS);
	clrtoeol();
	mvchgat(y0, 0, -1, tui_attr(t, TH_TITLE), PAIR_NUMBER(tui_attr(t, TH_TITLE)), NULL);
	attroff(tui_attr(t, TH_TITLE));
	if (r->s->attr && height > PANE_ATTR_LINES + 1) {
		draw_attr(r, y0 + 1);
		y0 += PANE_ATTR_LINES;
		height -= PANE_ATTR_LINES;
	}
	if (!h) {
		char why[1024];

		snprintf(why, sizeof(why), "  %s%s%s.",
			 (r->s->src & SRC_STATS)
				 ? "No latency distribution for this program: bpf_stats gives "
				   "only run counts and run time"
				 : "No figures for this program: bpf_stats is off (--no-stats) "
				   "and no probes measured it",
			 r->s->note[0] ? "; "
				       : " (watch it with -p or f where the kernel allows fentry)",
			 note);
		tui__draw_note(t, y0 + 1, why);
		for (int i = 2; i < height; i++) {
			move(y0 + i, 0);
			clrtoeol();
		}
		return;
	}
	if (t->heat) {
		for (int i = 1 + tui__draw_heat(t, r->s, y0 + 1, height - 1); i < height; i++) {
			move(y0 + i, 0);
			clrtoeol();
		}
		return;
	}
	for (int i = 1 + draw_log2(t, h, y0 + 1, height - 2); i < height - 1; i++) {
		move(y0 + i, 0);
		clrtoeol();
	}
	draw_spark(t, r->s, y0 + height - 1);
}
