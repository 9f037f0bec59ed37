// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * html_cmp_svg.c - the comparison report's charts (html_cmp.h), each showing A and B so a
 * reader compares them: percentiles over time (A dashed, B solid) on one log axis and one
 * time axis that starts at each recording's first interval; both heatmaps (compare__heat)
 * stacked on one row range and one shade scale; both whole-recording histograms mirrored on
 * one bar scale. A side's points are its blocks of intervals (model/compare.h), so the charts
 * show the data the verdicts came from. Colours are the page's CSS classes (html_page.c).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base/text.h"
#include "ui/columns.h"
#include "ui/html/html_cmp.h"

#define SVG_W HTML_SVG_W
#define PL HTML_PL
#define PR HTML_PR
#define PT HTML_PT
#define PB HTML_PB
#define PW HTML_PW

/* x of t ns after a recording's start on the shared time axis. */
static double t_x(const struct html_cmp *hc, double t)
{
	return PL + t * PW / (double)hc->t_ns;
}

/* The shared time axis with its bottom line at y: seven labelled ticks from 0 to the longer
 * recording's end. */
static void time_axis(FILE *f, const struct html_cmp *hc, int y)
{
	char buf[32];

	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", PL, y,
		SVG_W - PR, y);
	for (int i = 0; i <= 6; i++) {
		double t = (double)hc->t_ns * i / 6.0;

		snprintf(buf, sizeof(buf), "%.3gs", t / 1e9);
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>\n",
			t_x(hc, t), y + 16, i == 6 ? "end" : i ? "middle" : "start", buf);
	}
}

/* A block as the percentile chart draws it: its number, x, and p50, p99, p99.9, max (or its
 * runs per second alone). */
struct cpt {
	uint32_t blk;
	double x, v[4];
};

/* Both sides' points (main thread only; a side has at most CMP_MAX_BLOCKS blocks). */
static struct cpt pts[2][CMP_MAX_BLOCKS];
static size_t npts[2];

/* Side b's points of row r: percentiles of each block with a histogram (dist), or each
 * block's runs per second. A block whose histogram cannot be made (ENOMEM) is left out. */
static void side_points(struct html_cmp *hc, const struct cmp_row *r, int b, bool dist)
{
	const struct cmp_side *sd = b ? hc->v->sb : hc->v->sa;
	const struct cmp_series *cs = b ? r->sb : r->sa;
	const uint64_t *e = hc->edge[b];

	npts[b] = 0;
	for (size_t k = 0; cs && k < cs->nb && npts[b] < CMP_MAX_BLOCKS; k++) {
		const struct cmp_block *bl = &cs->b[k];
		struct cpt *p = &pts[b][npts[b]];
		uint64_t ns = bl->blk < sd->nblocks ? sd->block_ns[bl->blk] : 0;

		if (!ns)
			continue;
		p->blk = bl->blk;
		p->x = t_x(hc, (double)(e[bl->blk] + e[bl->blk + 1]) / 2);
		if (!dist) {
			p->v[0] = (double)bl->count * 1e9 / (double)ns;
		} else {
			if (!bl->n || cmp_series__block_hist(cs, k, &hc->scratch))
				continue;
			p->v[0] = (double)hist__percentile(&hc->scratch, 0.50);
			p->v[1] = (double)hist__percentile(&hc->scratch, 0.99);
			p->v[2] = (double)hist__percentile(&hc->scratch, 0.999);
			p->v[3] = (double)hc->scratch.max;
		}
		npts[b]++;
	}
}

/* The y axis of the percentile chart: log (ns) or linear from 0 (runs per second). */
struct yax {
	bool lin;
	struct html_logy lg;
	double max;
	int ph;
};

/* y of value v. */
static double y_at(const struct yax *a, double v)
{
	if (!a->lin)
		return html_svg__logy_at(&a->lg, v);
	return PT + a->ph - (a->max > 0 ? v * a->ph / a->max : 0);
}

/* A linear axis from 0 to max runs per second: grid lines and labels at 0, half, max. */
static void lin_axis(FILE *f, struct yax *a, double max)
{
	char buf[32];

	a->max = max;
	for (int i = 0; i <= 2; i++) {
		double v = max * i / 2, y = y_at(a, v);

		fmt_rate(v, buf, sizeof(buf));
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", PL,
			y, SVG_W - PR, y);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s/s</text>\n",
			PL - 4, y + 4, buf);
	}
}

/* One line of side b: figure `which` of its points, a gap where blocks had no runs (an
 * isolated point is a dot). */
static void side_line(FILE *f, int b, int which, const struct yax *a, const char *cls)
{
	long prev = -2;

	if (!npts[b])
		return;
	fprintf(f, "<path class=\"line %s %s\" d=\"", cls, b ? "lb" : "la");
	for (size_t i = 0; i < npts[b]; i++) {
		const struct cpt *p = &pts[b][i];
		bool cont = (long)p->blk == prev + 1;

		fprintf(f, "%c%.1f %.1f%s", cont ? 'L' : 'M', p->x, y_at(a, p->v[which]),
			cont ? "" : "h0.5");
		prev = p->blk;
	}
	fputs("\"/>\n", f);
}

/* Both sides' percentiles over time. */
void html_cmp_svg__pct(FILE *f, struct html_cmp *hc, const struct cmp_row *r, const char *title)
{
	static const char *const cls[] = { "l50", "l99", "l999", "lmax" };
	const int ph = 160;
	bool dist = (r->sa && r->sa->has_dist) || (r->sb && r->sb->has_dist);
	int nl = dist ? 4 : 1;
	double lo = INFINITY, hi = 0;
	struct yax a = { .lin = !dist, .ph = ph };

	for (int b = 0; b < 2; b++) {
		side_points(hc, r, b, dist);
		for (size_t i = 0; i < npts[b]; i++) {
			lo = pts[b][i].v[0] < lo ? pts[b][i].v[0] : lo;
			hi = pts[b][i].v[nl - 1] > hi ? pts[b][i].v[nl - 1] : hi;
		}
	}
	html_svg__open(f, "cmppct", ph + PT + PB,
		       dist ? "percentiles over time, A dashed, B solid"
			    : "runs per second over time, A dashed, B solid",
		       title);
	if (dist)
		html_svg__logy_axis(f, &a.lg, isfinite(lo) ? lo : 1, hi, ph);
	else
		lin_axis(f, &a, hi > 0 ? hi : 1);
	time_axis(f, hc, PT + ph);
	for (int b = 0; b < 2; b++)
		for (int w = 0; w < nl; w++)
			side_line(f, b, w, &a, dist ? cls[w] : "lavg");
	fputs("</svg>\n", f);
	if (dist)
		fputs("<p class=\"legend\"><span class=\"key\" style=\"background:var(--c50)\">"
		      "</span>p50<span class=\"key\" style=\"background:var(--c99)\"></span>p99"
		      "<span class=\"key\" style=\"background:var(--c999)\"></span>p99.9"
		      "<span class=\"key\" style=\"background:var(--cmax)\"></span>max; "
		      "dashed A (before), solid B (after); time from each recording's start</p>\n",
		      f);
	else
		fputs("<p class=\"note\">No per-invocation latency (bpf_stats counts and run "
		      "time): runs per second, dashed A (before), solid B (after).</p>\n",
		      f);
}

/* Heatmap columns of both sides and their x extents (main thread only; too big for the
 * stack). */
static struct heat_slot hslot[2][HTML_COLS];
static uint32_t hcnt[2][HTML_COLS * MODEL_HEAT_ROWS];
static double hx0[2][HTML_COLS], hx1[2][HTML_COLS];

/* Side b's heatmap columns of row r (compare__heat) and where each starts and ends on the
 * shared time axis; returns the columns (0: no histogram on that side). */
static size_t heat_cols(const struct html_cmp *hc, const struct cmp_row *r, int b)
{
	const struct cmp_side *sd = b ? hc->v->sb : hc->v->sa;
	const struct cmp_series *cs = b ? r->sb : r->sa;
	size_t n;

	if (!cs || !cs->has_dist)
		return 0;
	n = compare__heat(sd, cs, HTML_COLS, hslot[b], hcnt[b]);
	for (size_t i = 0; i < n; i++)
		hx0[b][i] = -1;
	for (size_t k = 0; k < sd->nblocks && n; k++) {
		size_t i = k * n / sd->nblocks; /* compare__heat's column of block k */

		if (hx0[b][i] < 0)
			hx0[b][i] = t_x(hc, (double)hc->edge[b][k]);
		hx1[b][i] = t_x(hc, (double)hc->edge[b][k + 1]);
	}
	return n;
}

/* Runs of a slot on log2 row `row`. */
static uint32_t slot_at(const struct heat_slot *sl, int row)
{
	return row >= sl->lo && row < sl->lo + sl->n ? sl->cnt[row - sl->lo] : 0;
}

/* One row of side b's heatmap at y: adjacent columns of one shade become one rectangle. */
static void heat_row(FILE *f, int b, size_t n, int row, uint32_t max, double y, double rh)
{
	size_t start = 0;
	int level = 0;

	for (size_t i = 0; i <= n; i++) {
		uint32_t c = i < n ? slot_at(&hslot[b][i], row) : 0;
		int l = c ? html_svg__heat_level(c, max) : 0;

		if (level && l != level)
			fprintf(f, "<rect class=\"h%d\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
				   "height=\"%.1f\"/>\n",
				level, hx0[b][start], y, hx1[b][i - 1] - hx0[b][start], rh);
		if (l != level) {
			start = i;
			level = l;
		}
	}
}

/* p50 (which 0) or p99 of side b's columns traced at the centre of their rows; top is the
 * y of row hi. */
static void heat_trace(FILE *f, int b, size_t n, int hi, double top, double rh, int which)
{
	long prev = -2;

	fprintf(f, "<path class=\"trace %s\" d=\"", which ? "l99" : "l50");
	for (size_t i = 0; i < n; i++) {
		const struct heat_slot *sl = &hslot[b][i];
		int row = which ? sl->p99 : sl->p50;
		bool cont = (long)i == prev + 1;

		if (!sl->n)
			continue;
		fprintf(f, "%c%.1f %.1f%s", cont ? 'L' : 'M', (hx0[b][i] + hx1[b][i]) / 2,
			top + (hi - row + 0.5) * rh, cont ? "" : "h0.5");
		prev = (long)i;
	}
	fputs("\"/>\n", f);
}

/* Side b's panel from y: its label (saying why when it has no columns: the series is not
 * in that recording, or has no histogram there), then its rows lo .. hi with their labels
 * and the p50 and p99 traces; returns the y below it. */
static double heat_panel(FILE *f, const struct cmp_row *r, int b, size_t n, int lo, int hi,
			 uint32_t max, double y, double rh)
{
	char buf[32];

	fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\">%s%s</text>\n", PL, y + 11,
		b ? "B (after)" : "A (before)",
		n ? "" : (b ? r->sb : r->sa) ? ": no latency distribution" : ": not recorded");
	y += 15;
	if (!n)
		return y;
	for (int row = lo; row <= hi; row++) {
		double ry = y + (hi - row) * rh;

		heat_row(f, b, n, row, max, ry, rh);
		fmt_ns(row ? (double)(1ull << (row - 1)) : 0, buf, sizeof(buf));
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			PL - 4, ry + rh / 2 + 4, buf);
	}
	heat_trace(f, b, n, hi, y, rh, 0);
	heat_trace(f, b, n, hi, y, rh, 1);
	return y + (hi - lo + 1) * rh + 6;
}

/* Both sides' heatmaps stacked on one row range and one shade scale. */
void html_cmp_svg__heat(FILE *f, const struct html_cmp *hc, const struct cmp_row *r,
			const char *title)
{
	size_t n[2] = { heat_cols(hc, r, 0), heat_cols(hc, r, 1) };
	int lo = MODEL_HEAT_ROWS, hi = -1;
	uint32_t max = 0;
	double rh, y = PT, h;
	char buf[32];

	for (int b = 0; b < 2; b++)
		for (size_t i = 0; i < n[b]; i++)
			for (int k = 0; k < hslot[b][i].n; k++) {
				int row = hslot[b][i].lo + k;

				lo = row < lo ? row : lo;
				hi = row > hi ? row : hi;
				max = hslot[b][i].cnt[k] > max ? hslot[b][i].cnt[k] : max;
			}
	if (hi < 0)
		return;
	rh = 120.0 / (hi - lo + 1);
	rh = rh > 14 ? 14 : rh < 5 ? 5 : rh;
	h = PT + 2 * 15 + 12 + (n[0] && n[1] ? 2 : 1) * (hi - lo + 1) * rh + PB;
	html_svg__open(f, "cmpheat", (int)ceil(h), "heatmaps, A above B, one shade scale", title);
	for (int b = 0; b < 2; b++)
		y = heat_panel(f, r, b, n[b], lo, hi, max, y, rh);
	time_axis(f, hc, (int)ceil(y));
	fputs("</svg>\n", f);
	fmt_count(max, buf, sizeof(buf));
	fprintf(f, "<p class=\"legend\">One shade scale for A and B: the darkest cells hold %s "
		   "runs; p50 and p99 traced.</p>\n",
		buf);
}

/* Both sides' whole-recording log2 histograms mirrored on one scale: A's bars go left of the
 * middle line, B's right, each with its count. */
void html_cmp_svg__hist(FILE *f, const struct cmp_row *r, const char *title)
{
	const int rh = 16, lx = 150, cx = lx + (SVG_W - lx) / 2, hw = (SVG_W - lx) / 2 - 60;
	uint64_t p[2][MODEL_HEAT_ROWS], max = 0;
	int lo = MODEL_HEAT_ROWS, hi = -1;
	char a[32], b[32];

	cmp_view__log2(r->sa, p[0]);
	cmp_view__log2(r->sb, p[1]);
	for (int k = 0; k < MODEL_HEAT_ROWS; k++) {
		if (p[0][k] || p[1][k]) {
			lo = k < lo ? k : lo;
			hi = k;
		}
		max = p[0][k] > max ? p[0][k] : p[1][k] > max ? p[1][k] : max;
	}
	if (hi < 0)
		return;
	html_svg__open(f, "cmphist", (hi - lo + 2) * rh + 2 * PT, "histograms, A left, B right",
		       title);
	fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">A (before)</text>\n"
		   "<text class=\"tick\" x=\"%d\" y=\"%d\">B (after)</text>\n",
		cx - 6, PT + 12, cx + 6, PT + 12);
	for (int k = lo; k <= hi; k++) {
		double y = PT + (k - lo + 1) * rh;
		double wa = (double)p[0][k] * hw / (double)max, wb = (double)p[1][k] * hw / (double)max;

		fmt_ns(k ? (double)(1ull << (k - 1)) : 0, a, sizeof(a));
		fmt_ns((double)(1ull << k), b, sizeof(b));
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">[%s, %s)</text>\n",
			lx - 6, y + 12, a, b);
		fmt_count(p[0][k], a, sizeof(a));
		fmt_count(p[1][k], b, sizeof(b));
		fprintf(f, "<rect class=\"bara\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\"/>\n"
			   "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			cx - wa, y + 2, wa, rh - 3, cx - wa - 4, y + 12, a);
		fprintf(f, "<rect class=\"barb\" x=\"%d\" y=\"%.1f\" width=\"%.2f\" height=\"%d\"/>\n"
			   "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			cx, y + 2, wb, rh - 3, cx + wb + 4, y + 12, b);
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n</svg>\n", cx,
		PT + rh, cx, PT + (hi - lo + 2) * rh);
}
