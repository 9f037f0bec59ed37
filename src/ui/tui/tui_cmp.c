// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tui_cmp.c - the comparison's screen (lattop -r A --compare B; keys and loop in tui.c): a
 * header naming both recordings, the verdicts' tally, a table of series with each figure's
 * change from A to B ('*' significant), and the selected series' pane: both sides' figures,
 * then their log2 histograms side by side on one bar scale (A left, B right) or, with `m`,
 * their heatmaps over the whole recordings stacked on one shade scale (A above B).
 */
#include <string.h>

#include "base/text.h"
#include "rec/replay.h"
#include "ui/cmpview.h"
#include "ui/tui/tui.h"
#include "ui/tui/tui_int.h"

#define CMP_COLW 9       /* a change column: "+100.0%*" and a space */
#define CMP_STATW 10     /* the verdict column */
#define CMP_HEAT_COLS 512 /* heatmap columns at most (wider terminals get this many) */
#define CMP_MIN_TABLE 4  /* the table keeps its heading and three rows */

static const char *const titles[CMP__NSTAT] = { "RATE", "P50", "P95", "P99", "P99.9", "MAX" };

/* The verdict as the table shows it. */
static const char *verdict(enum cmp_status st)
{
	return st == CMP_ONLY_A ? "only A" : st == CMP_ONLY_B ? "only B" : compare__status_name(st);
}

/* The header (both recordings) and the tally line; returns the lines used. */
static int draw_head(struct tui *t, int y)
{
	const struct cmp_view *v = t->cmp;
	size_t cnt[CMP__NSTATUS] = { 0 };
	char line[1024], a[256], b[256];

	for (size_t i = 0; i < v->c.n; i++)
		cnt[v->c.rows[i].status]++;
	/* The paths, or their last parts, or those alone: the first form that fits. */
	for (int base = 0; base < 3; base++) {
		const char *pa = replay__path(session__replay(v->a));
		const char *pb = replay__path(session__replay((struct session *)&v->b));

		text__esc(a, sizeof(a), base && strrchr(pa, '/') ? strrchr(pa, '/') + 1 : pa);
		text__esc(b, sizeof(b), base && strrchr(pb, '/') ? strrchr(pb, '/') + 1 : pb);
		if (base == 2)
			snprintf(line, sizeof(line), "lattop %s  compare  A %s  B %s", LATTOP_VERSION,
				 a, b);
		else
			snprintf(line, sizeof(line), "lattop %s  compare  A %s (%zu intervals, "
				 "%.1fs)  B %s (%zu intervals, %.1fs)", LATTOP_VERSION, a,
				 v->sa->added, v->sa->dur_ns / 1e9, b, v->sb->added,
				 v->sb->dur_ns / 1e9);
		if (text__cols(line) <= COLS)
			break;
	}
	attron(tui_attr(t, TH_HEADER));
	mvaddnstr(y, 0, line, COLS);
	clrtoeol();
	mvchgat(y, 0, -1, tui_attr(t, TH_HEADER), PAIR_NUMBER(tui_attr(t, TH_HEADER)), NULL);
	attroff(tui_attr(t, TH_HEADER));
	snprintf(line, sizeof(line),
		 "%zu slower, %zu faster, %zu changed, %zu unchanged, %zu only in A, %zu only in "
		 "B; changes A -> B, * significant: beyond the bucket error (%.2f%%) and the "
		 "bootstrap noise",
		 cnt[CMP_SLOWER], cnt[CMP_FASTER], cnt[CMP_CHANGED], cnt[CMP_UNCHANGED],
		 cnt[CMP_ONLY_A], cnt[CMP_ONLY_B], v->c.bucket_err_pct);
	return 1 + tui__draw_wrapped(y + 1, line, LINES >= 20 ? 2 : 1, tui_attr(t, TH_NOTE));
}

/* One table line: name, verdict, the changes (the heading when r is NULL). */
static void draw_line(int y, const struct cmp_row *r, int namew)
{
	char line[1024], name[256], what[128], cell[256], buf[32];
	size_t l;

	if (r) {
		cmp_view__labels(r, name, sizeof(name), what, sizeof(what));
		if (what[0] && strlen(name) + strlen(what) + 4 < sizeof(name))
			snprintf(name + strlen(name), sizeof(name) - strlen(name), " (%s)", what);
	} else {
		snprintf(name, sizeof(name), "NAME");
	}
	if (text__cols(name) > namew) { /* cut names end in '~', as in the session's table */
		size_t k = text__fit(cell, sizeof(cell) - 1, name, namew - 1, true);

		while (k && cell[k - 1] == ' ')
			k--;
		cell[k] = '\0';
		snprintf(cell + k, sizeof(cell) - k, "~%*s", namew - 1 - text__cols(cell), "");
	} else {
		text__fit(cell, sizeof(cell), name, namew, true);
	}
	l = (size_t)snprintf(line, sizeof(line), "%s %-*s", cell, CMP_STATW - 1,
			     r ? verdict(r->status) : "VERDICT");
	for (int st = 0; st < CMP__NSTAT && l < sizeof(line); st++) {
		if (r)
			cmp_view__fmt_change(&r->f[st], buf, sizeof(buf));
		l += (size_t)snprintf(line + l, sizeof(line) - l, "%*s", CMP_COLW,
				      r ? buf : titles[st]);
	}
	mvaddnstr(y, 0, line, COLS);
	clrtoeol();
}

/* The table in lines y0 .. y0 + height - 1, scrolled to the selection. */
static void draw_table(struct tui *t, int y0, int height)
{
	int namew = COLS - CMP_STATW - CMP__NSTAT * CMP_COLW - 1;

	namew = namew < 8 ? 8 : namew > 60 ? 60 : namew;
	attron(tui_attr(t, TH_TITLE));
	draw_line(y0, NULL, namew);
	mvchgat(y0, 0, -1, tui_attr(t, TH_TITLE), PAIR_NUMBER(tui_attr(t, TH_TITLE)), NULL);
	attroff(tui_attr(t, TH_TITLE));
	height--;
	tui__scroll(t, height);
	for (int i = 0; i < height; i++) {
		int idx = t->top + i;
		const struct cmp_row *r;
		enum theme_slot sl;

		if (idx >= (int)t->nrows) {
			move(y0 + 1 + i, 0);
			clrtoeol();
			continue;
		}
		r = &t->cmp->c.rows[idx];
		sl = r->status == CMP_SLOWER ? TH_WARN : r->status >= CMP_ONLY_A ? TH_DIM : TH_TABLE;
		attron(tui_attr(t, sl));
		draw_line(y0 + 1 + i, r, namew);
		attroff(tui_attr(t, sl));
		if (idx == t->sel)
			mvchgat(y0 + 1 + i, 0, -1, tui_attr(t, TH_SELECT),
				PAIR_NUMBER(tui_attr(t, TH_SELECT)), NULL);
	}
}

/* The lowest and highest log2 rows with runs on either side; false when neither has any. */
static bool log2_span(const uint64_t *pa, const uint64_t *pb, int *lo, int *hi)
{
	*lo = MODEL_HEAT_ROWS;
	*hi = -1;
	for (int r = 0; r < MODEL_HEAT_ROWS; r++)
		if (pa[r] || pb[r]) {
			*lo = r < *lo ? r : *lo;
			*hi = r;
		}
	return *hi >= 0;
}

/* The first of `lines` consecutive rows in lo .. hi with the most runs of both sides. */
static int busiest(const uint64_t *pa, const uint64_t *pb, int lo, int hi, int lines)
{
	uint64_t sum = 0, best = 0;
	int start = lo;

	for (int r = lo; r <= hi; r++) {
		sum += pa[r] + pb[r];
		if (r - lo >= lines)
			sum -= pa[r - lines] + pb[r - lines];
		if (r - lo >= lines - 1 && sum >= best) {
			best = sum;
			start = r - lines + 1;
		}
	}
	return start;
}

/* Lines the pane wants for the selected row (0 when closed). */
static int pane_height(const struct tui *t, int avail)
{
	const struct cmp_row *r;
	uint64_t pa[MODEL_HEAT_ROWS], pb[MODEL_HEAT_ROWS];
	int lo, hi, want = 4;

	if (!t->pane || !t->nrows)
		return 0;
	r = &t->cmp->c.rows[t->sel];
	cmp_view__log2(r->sa, pa);
	cmp_view__log2(r->sb, pb);
	if (log2_span(pa, pb, &lo, &hi))
		want = t->heat ? 3 + 3 + 2 * (hi - lo + 1) : 3 + hi - lo + 1;
	if (want > avail - CMP_MIN_TABLE)
		want = avail - CMP_MIN_TABLE;
	return want < 4 ? 0 : want;
}

/* One side's figures line of the pane ("A  20,000 runs  1,000/s  p50 ..."). */
static void draw_figs(int y, const struct cmp_row *r, bool b)
{
	char line[512], buf[32];
	size_t l;

	if (!(b ? r->sb : r->sa)) {
		mvprintw(y, 0, "  %s  not recorded", b ? "B" : "A");
		clrtoeol();
		return;
	}
	if (b ? r->has_count_b : r->has_count_a)
		fmt_count(b ? r->count_b : r->count_a, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "-");
	l = (size_t)snprintf(line, sizeof(line), "  %s  %s runs", b ? "B" : "A", buf);
	for (int st = 0; st < CMP__NSTAT && l < sizeof(line); st++) {
		const struct cmp_fig *f = &r->f[st];

		cmp_view__fmt((enum cmp_stat)st, b ? f->has_b : f->has_a, b ? f->b : f->a, buf,
			      sizeof(buf));
		l += (size_t)snprintf(line + l, sizeof(line) - l, st ? "  %s %s" : "  %s%s/s",
				      st ? compare__stat_name((enum cmp_stat)st) : "", buf);
	}
	mvaddnstr(y, 0, line, COLS);
	clrtoeol();
}

/* One side's count and bar of a histogram line, in room columns. */
static void hist_cell(struct tui *t, uint64_t n, uint64_t widest, int room)
{
	char cnt[32];
	int bar;

	fmt_count(n, cnt, sizeof(cnt));
	printw(" %10s ", cnt);
	bar = log2_bar(n, widest, room - 12);
	attron(tui_attr(t, TH_BAR));
	for (int k = 0; k < room - 12; k++)
		addch(k < bar ? '#' : ' ');
	attroff(tui_attr(t, TH_BAR));
}

/* Both sides' log2 histograms side by side from line y (at most lines); returns lines drawn. */
static int draw_hists(struct tui *t, const struct cmp_row *r, int y, int lines)
{
	uint64_t pa[MODEL_HEAT_ROWS], pb[MODEL_HEAT_ROWS], widest = 0;
	int lo, hi, start, n, room;

	cmp_view__log2(r->sa, pa);
	cmp_view__log2(r->sb, pb);
	if (!log2_span(pa, pb, &lo, &hi)) {
		mvaddnstr(y, 0, "  no latency distribution on either side: bpf_stats gives only "
				"counts and run time", COLS);
		clrtoeol();
		return 1;
	}
	n = hi - lo + 1 < lines ? hi - lo + 1 : lines;
	start = busiest(pa, pb, lo, hi, n);
	for (int k = lo; k <= hi; k++)
		widest = pa[k] > widest ? pa[k] : pb[k] > widest ? pb[k] : widest;
	room = (COLS - 24) / 2;
	for (int i = 0; i < n; i++) {
		int k = start + i;
		char lo_s[16], hi_s[16];

		fmt_ns(k ? (double)(1ull << (k - 1)) : 0, lo_s, sizeof(lo_s));
		fmt_ns((double)(1ull << k), hi_s, sizeof(hi_s));
		mvprintw(y + i, 0, "  [%7s, %7s) A", lo_s, hi_s);
		hist_cell(t, pa[k], widest, room - 2);
		addstr("  B");
		hist_cell(t, pb[k], widest, room - 2);
		clrtoeol();
	}
	return n;
}

/* Heatmap columns of both sides (UI thread only; too big for the stack). */
static struct heat_slot heat_a[CMP_HEAT_COLS], heat_b[CMP_HEAT_COLS];
static uint32_t heat_ca[CMP_HEAT_COLS * MODEL_HEAT_ROWS], heat_cb[CMP_HEAT_COLS * MODEL_HEAT_ROWS];

/* The busiest count of rows bot .. top of n slots. */
static uint32_t heat_max(const struct heat_slot *sl, size_t n, int bot, int top)
{
	uint32_t max = 0;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < sl[i].n; k++)
			if (sl[i].lo + k >= bot && sl[i].lo + k <= top && sl[i].cnt[k] > max)
				max = sl[i].cnt[k];
	return max;
}

/* One side's heatmap under its label line; returns the lines drawn (*colour: whether the
 * shades were colours). */
static int heat_side(struct tui *t, const struct cmp_row *r, bool b, int top, int rows,
		     uint32_t max, int y, bool *colour)
{
	const struct cmp_side *sd = b ? t->cmp->sb : t->cmp->sa;
	const struct cmp_series *cs = b ? r->sb : r->sa;
	size_t n;

	mvprintw(y, 0, "  %s (%s), whole recording, oldest left:", b ? "B" : "A",
		 b ? "after" : "before");
	clrtoeol();
	if (!cs) {
		mvaddnstr(y + 1, 0, "  not recorded", COLS);
		clrtoeol();
		return 2;
	}
	n = compare__heat(sd, cs, COLS - 10 < CMP_HEAT_COLS ? (size_t)COLS - 10 : CMP_HEAT_COLS,
			  b ? heat_b : heat_a, b ? heat_cb : heat_ca);
	*colour = tui__heat_rows(t, b ? heat_b : heat_a, n, top, rows, max, y + 1);
	return 1 + rows;
}

/* Both sides' heatmaps stacked from line y (at most lines, the legend included), on one row
 * range and one shade scale; returns the lines drawn. */
static int draw_heats(struct tui *t, const struct cmp_row *r, int y, int lines)
{
	uint64_t pa[MODEL_HEAT_ROWS], pb[MODEL_HEAT_ROWS];
	int lo, hi, rows, top, used;
	uint32_t max;
	bool colour = false;
	char legend[200], maxs[32];
	size_t na = 0, nb = 0, cols = COLS - 10 < CMP_HEAT_COLS ? (size_t)COLS - 10 : CMP_HEAT_COLS;

	cmp_view__log2(r->sa, pa);
	cmp_view__log2(r->sb, pb);
	if (lines < 5 || COLS < 30 || !log2_span(pa, pb, &lo, &hi)) {
		mvaddnstr(y, 0, lines < 5 || COLS < 30 ? "  heatmaps: too small (enlarge the terminal)"
						       : "  no latency distribution on either side",
			  COLS);
		clrtoeol();
		return 1;
	}
	rows = (lines - 3) / 2 < hi - lo + 1 ? (lines - 3) / 2 : hi - lo + 1;
	top = busiest(pa, pb, lo, hi, rows) + rows - 1;
	if (r->sa)
		na = compare__heat(t->cmp->sa, r->sa, cols, heat_a, heat_ca);
	if (r->sb)
		nb = compare__heat(t->cmp->sb, r->sb, cols, heat_b, heat_cb);
	max = heat_max(heat_a, na, top - rows + 1, top);
	max = heat_max(heat_b, nb, top - rows + 1, top) > max ? heat_max(heat_b, nb, top - rows + 1, top) : max;
	used = heat_side(t, r, false, top, rows, max, y, &colour);
	used += heat_side(t, r, true, top, rows, max, y + used, &colour);
	fmt_count(max, maxs, sizeof(maxs));
	snprintf(legend, sizeof(legend),
		 colour ? "  one scale for A and B; shade: runs, dark red few .. yellow %s; o p50, "
			  "x p99, X both"
			: "  one scale for A and B; shade \" .:-=+*#%%@\": runs up to %s; p50 "
			  "underlined, p99 reversed",
		 maxs);
	tui__draw_note(t, y + used, legend);
	return used + 1;
}

/* The pane of the selected row in lines y0 .. y0 + height - 1. */
static void draw_pane(struct tui *t, int y0, int height)
{
	const struct cmp_row *r = &t->cmp->c.rows[t->sel];
	char title[512], name[256], what[128];
	int used;

	cmp_view__labels(r, name, sizeof(name), what, sizeof(what));
	snprintf(title, sizeof(title), " %s%s%s%s: %s, A before, B after (%s, Enter closes)", name,
		 what[0] ? " (" : "", what, what[0] ? ")" : "", verdict(r->status),
		 t->heat ? "m histograms" : "m heatmaps");
	attron(tui_attr(t, TH_TITLE));
	mvaddnstr(y0, 0, title, COLS);
	clrtoeol();
	mvchgat(y0, 0, -1, tui_attr(t, TH_TITLE), PAIR_NUMBER(tui_attr(t, TH_TITLE)), NULL);
	attroff(tui_attr(t, TH_TITLE));
	draw_figs(y0 + 1, r, false);
	draw_figs(y0 + 2, r, true);
	used = 3 + (t->heat ? draw_heats(t, r, y0 + 3, height - 3)
			    : draw_hists(t, r, y0 + 3, height - 3));
	for (int i = used; i < height; i++) {
		move(y0 + i, 0);
		clrtoeol();
	}
}

/* The comparison's screen but the footer. */
void tui__draw_compare(struct tui *t)
{
	int y, table_h, pane_h, rows_h;

	t->nrows = t->cmp->c.n;
	if (t->sel >= (int)t->nrows)
		t->sel = t->nrows ? (int)t->nrows - 1 : 0;
	y = draw_head(t, 0);
	table_h = LINES - 1 - y;
	pane_h = pane_height(t, table_h);
	rows_h = table_h - pane_h;
	if (pane_h && (int)t->nrows + 1 < rows_h)
		rows_h = (int)t->nrows + 1;
	draw_table(t, y, rows_h);
	if (pane_h)
		draw_pane(t, y + rows_h, pane_h);
	for (int i = y + rows_h + pane_h; i < LINES - 1; i++) {
		move(i, 0);
		clrtoeol();
	}
}
