// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * html_svg.c - the HTML report's charts as inline SVG: percentiles over time (log scale), the
 * heatmap (log2 rows, time columns, each cell's shade its runs against the busiest cell), the
 * whole-recording histogram, and the loss counters over time. Colours are CSS classes the
 * page defines (html_page.c), so the charts follow dark mode and print. Every number written
 * is lattop's own; no string from the recording is written here but through text__html.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base/text.h"
#include "ui/columns.h"
#include "ui/html/html.h"

/* The plot area of every time chart (html.h): a 720-unit-wide view box with room for labels. */
#define SVG_W HTML_SVG_W
#define PL HTML_PL
#define PR HTML_PR
#define PT HTML_PT
#define PB HTML_PB
#define PW HTML_PW
#define HEAT_LEVELS HTML_HEAT_LEVELS

/* x of the centre of time column c. */
static double col_x(const struct html_data *d, uint32_t c)
{
	return PL + (c + 0.5) * PW / (double)(d->ncols ? d->ncols : 1);
}

/* Open an <svg> of height h with class cls and the accessible title: kind then the series. */
void html_svg__open(FILE *f, const char *cls, int h, const char *kind, const char *title)
{
	fprintf(f, "<svg class=\"chart %s\" viewBox=\"0 0 %d %d\" role=\"img\">\n<title>%s", cls,
		SVG_W, h, kind);
	if (title) {
		fputs(": ", f);
		text__html(f, title);
	}
	fputs("</title>\n", f);
}

/* Seconds as a short axis label ("0s", "90s", "2.5s"). */
static void fmt_secs(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%.3gs", ns / 1e9);
}

/* A flight dump's instant as a vertical line over a plot of height ph (between the column
 * edges around it, in proportion). */
static void fired_mark(FILE *f, const struct html_data *d, int ph)
{
	size_t c = 0;
	double x, frac = 0;

	if (!d->dumped || !d->ncols)
		return;
	while (c + 1 < d->ncols && d->col_t_ns[c + 1] <= d->fired_t_ns)
		c++;
	if (d->col_t_ns[c + 1] > d->col_t_ns[c])
		frac = (double)(d->fired_t_ns - d->col_t_ns[c]) /
		       (double)(d->col_t_ns[c + 1] - d->col_t_ns[c]);
	x = PL + (c + (frac > 1 ? 1 : frac)) * PW / (double)d->ncols;
	fprintf(f,
		"<line class=\"fired\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\">"
		"<title>trigger fired</title></line>\n",
		x, PT, x, PT + ph);
}

/* The time axis under a plot of height ph: about six labelled ticks at column edges. */
static void time_axis(FILE *f, const struct html_data *d, int ph)
{
	size_t step = d->ncols > 6 ? (d->ncols + 5) / 6 : 1;
	char buf[32];

	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", PL, PT + ph,
		SVG_W - PR, PT + ph);
	fired_mark(f, d, ph);
	for (size_t c = 0; c <= d->ncols; c += step) {
		double x = PL + c * PW / (double)(d->ncols ? d->ncols : 1);

		fmt_secs(d->col_t_ns[c], buf, sizeof(buf));
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"%s\">%s</text>\n",
			x, PT + ph + 16, c == d->ncols ? "end" : c ? "middle" : "start", buf);
	}
}

/* y of value v on a log axis (clamped to the plot). */
double html_svg__logy_at(const struct html_logy *a, double v)
{
	double l = log10(v > 1 ? v : 1), t = (l - a->llo) / (a->lhi - a->llo);

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	return PT + a->ph * (1 - t);
}

/* Set up a log axis covering lo..hi (ns) and draw its decade grid lines and labels. */
void html_svg__logy_axis(FILE *f, struct html_logy *a, double lo, double hi, int ph)
{
	char buf[32];

	a->ph = ph;
	a->llo = floor(log10(lo > 1 ? lo : 1));
	a->lhi = ceil(log10(hi > 1 ? hi : 1));
	if (a->lhi <= a->llo)
		a->lhi = a->llo + 1;
	for (double l = a->llo; l <= a->lhi; l++) {
		double y = html_svg__logy_at(a, pow(10, l));

		fmt_ns(pow(10, l), buf, sizeof(buf));
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", PL,
			y, SVG_W - PR, y);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			PL - 4, y + 4, buf);
	}
}

/* The value a line of the percentile chart takes at a point: 0 p50, 1 p99, 2 p99.9, 3 max,
 * 4 the average (a series without a distribution). */
static double pt_value(const struct html_pt *p, int which)
{
	switch (which) {
	case 0: return (double)p->p50;
	case 1: return (double)p->p99;
	case 2: return (double)p->p999;
	case 3: return (double)p->max;
	default: return p->avg_ns;
	}
}

/* One line of the percentile chart as a path: a gap where columns had no runs (an isolated
 * point is a dot: a round cap on a tiny segment). */
static void pct_line(FILE *f, const struct html_data *d, const struct html_series *se,
		     const struct html_logy *a, int which, const char *cls)
{
	long prev = -2;

	fprintf(f, "<path class=\"line %s\" d=\"", cls);
	for (size_t i = 0; i < se->npt; i++) {
		const struct html_pt *p = &se->pt[i];

		if (which < 4 && !p->dist)
			continue;
		fprintf(f, "%c%.1f %.1f", (long)p->col == prev + 1 ? 'L' : 'M', col_x(d, p->col),
			html_svg__logy_at(a, pt_value(p, which)));
		if ((long)p->col != prev + 1)
			fputs("h0.5", f);
		prev = p->col;
	}
	fputs("\"/>\n", f);
}

/* The percentiles of a series over time: p50, p99, p99.9 and max on a log scale (the average
 * alone for a series without per-invocation latency). */
void html_svg__pct(FILE *f, const struct html_data *d, const struct html_series *se)
{
	static const char *const cls[] = { "l50", "l99", "l999", "lmax", "lavg" };
	const int ph = 150;
	double lo = INFINITY, hi = 0;
	bool dist = se->total.has_dist;
	struct html_logy a;

	for (size_t i = 0; i < se->npt; i++) {
		const struct html_pt *p = &se->pt[i];
		double v0 = dist ? (double)p->p50 : p->avg_ns, v1 = dist ? (double)p->max : p->avg_ns;

		if (dist && !p->dist)
			continue;
		lo = v0 < lo ? v0 : lo;
		hi = v1 > hi ? v1 : hi;
	}
	html_svg__open(f, "pct", ph + PT + PB, dist ? "percentiles over time" : "average over time",
		 se->title);
	html_svg__logy_axis(f, &a, isfinite(lo) ? lo : 1, hi, ph);
	time_axis(f, d, ph);
	for (int w = dist ? 0 : 4; w < (dist ? 4 : 5); w++)
		pct_line(f, d, se, &a, w, cls[w]);
	fputs("</svg>\n", f);
}

/* The rows a series' heatmap spans, and its busiest cell. */
static void heat_span(const struct html_series *se, uint32_t *lo, uint32_t *hi, uint64_t *max)
{
	*lo = MODEL_HEAT_ROWS;
	*hi = 0;
	*max = 0;
	for (size_t i = 0; i < se->ncell; i++) {
		const struct html_cell *c = &se->cell[i];

		*lo = c->row < *lo ? c->row : *lo;
		*hi = c->row > *hi ? c->row : *hi;
		*max = c->count > *max ? c->count : *max;
	}
}

/* Shade 1..HEAT_LEVELS of a cell with n runs against the busiest cell's max. */
int html_svg__heat_level(uint64_t n, uint64_t max)
{
	int l = (int)ceil((double)n * HEAT_LEVELS / (double)max);

	return l < 1 ? 1 : l > HEAT_LEVELS ? HEAT_LEVELS : l;
}

/* One heatmap row: runs of adjacent columns of the same shade become one rectangle. */
static void heat_row(FILE *f, const struct html_data *d, const struct html_series *se,
		     uint32_t row, uint64_t max, double y, double rh)
{
	double cw = PW / (double)(d->ncols ? d->ncols : 1);
	long start = -1, last = -2;
	int level = 0;

	for (size_t i = 0; i <= se->ncell; i++) {
		const struct html_cell *c = i < se->ncell ? &se->cell[i] : NULL;
		int l;

		if (c && c->row != row)
			continue;
		l = c ? html_svg__heat_level(c->count, max) : 0;
		if (start >= 0 && (!c || (long)c->col != last + 1 || l != level)) {
			fprintf(f, "<rect class=\"h%d\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
				   "height=\"%.1f\"/>\n",
				level, PL + start * cw, y, (last - start + 1) * cw, rh);
			start = -1;
		}
		if (!c)
			break;
		if (start < 0) {
			start = c->col;
			level = l;
		}
		last = c->col;
	}
}

/* p50 and p99 traced across the heatmap, at the centre of the row holding each. */
static void heat_trace(FILE *f, const struct html_data *d, const struct html_series *se,
		       uint32_t hi, double rh, int which, const char *cls)
{
	long prev = -2;

	fprintf(f, "<path class=\"trace %s\" d=\"", cls);
	for (size_t i = 0; i < se->npt; i++) {
		const struct html_pt *p = &se->pt[i];
		uint32_t row;

		if (!p->dist)
			continue;
		row = (uint32_t)model__heat_row(which ? p->p99 : p->p50);
		fprintf(f, "%c%.1f %.1f", (long)p->col == prev + 1 ? 'L' : 'M', col_x(d, p->col),
			PT + (hi - row + 0.5) * rh);
		if ((long)p->col != prev + 1)
			fputs("h0.5", f);
		prev = p->col;
	}
	fputs("\"/>\n", f);
}

/* The heatmap of a series: time columns, log2 rows (the lowest at the bottom) labelled with
 * each row's lower edge, p50 and p99 traced. */
void html_svg__heat(FILE *f, const struct html_data *d, const struct html_series *se)
{
	uint32_t lo, hi;
	uint64_t max;
	double rh;
	int ph, every;
	char buf[32];

	heat_span(se, &lo, &hi, &max);
	if (!se->ncell)
		return;
	rh = 160.0 / (hi - lo + 1);
	rh = rh > 18 ? 18 : rh < 6 ? 6 : rh;
	ph = (int)ceil(rh * (hi - lo + 1));
	every = rh >= 12 ? 1 : rh >= 8 ? 2 : 3;
	html_svg__open(f, "heat", ph + PT + PB, "heatmap", se->title);
	for (uint32_t r = lo; r <= hi; r++) {
		double y = PT + (hi - r) * rh;

		heat_row(f, d, se, r, max, y, rh);
		if ((r - lo) % (uint32_t)every)
			continue;
		fmt_ns(r ? (double)(1ull << (r - 1)) : 0, buf, sizeof(buf));
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			PL - 4, y + rh / 2 + 4, buf);
	}
	heat_trace(f, d, se, hi, rh, 0, "l50");
	heat_trace(f, d, se, hi, rh, 1, "l99");
	time_axis(f, d, ph);
	fputs("</svg>\n", f);
}

/* The whole-recording histogram of a series: one bar per power of two, with its count. */
void html_svg__hist(FILE *f, const struct html_series *se)
{
	const int rh = 16, bx = 190, bw = SVG_W - bx - 90;
	uint64_t max = 0;
	char lo[32], hi[32], cnt[32];

	if (!se->nhist)
		return;
	for (int i = 0; i < se->nhist; i++)
		max = se->hist[i].count > max ? se->hist[i].count : max;
	html_svg__open(f, "hist", se->nhist * rh + 2 * PT, "histogram", se->title);
	for (int i = 0; i < se->nhist; i++) {
		const struct hist_log2_row *r = &se->hist[i];
		double y = PT + i * rh, w = max ? (double)r->count * bw / (double)max : 0;

		fmt_ns((double)r->lo, lo, sizeof(lo));
		fmt_ns((double)r->hi + 1, hi, sizeof(hi)); /* ranges share their edges */
		fmt_count(r->count, cnt, sizeof(cnt));
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">[%s, %s)</text>\n",
			bx - 6, y + 12, lo, hi);
		fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%.2f\" height=\"%d\"/>\n",
			bx, y + 2, w, rh - 3);
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", bx + w + 4,
			y + 12, cnt);
	}
	fputs("</svg>\n", f);
}

/* The session's loss counters over time, on a linear scale from 0. */
void html_svg__losses(FILE *f, const struct html_data *d)
{
	static const char *const cls[HL__COUNT] = { "lrb", "lq", "lrec", "lnest", "lnamed" };
	const int ph = 110;
	uint64_t max = 0;
	char buf[32];

	for (size_t c = 0; c < d->ncols; c++)
		for (int k = 0; k < HL__COUNT; k++)
			max = d->loss[c][k] > max ? d->loss[c][k] : max;
	html_svg__open(f, "losses", ph + PT + PB, "losses over time", NULL);
	if (!max)
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
			   "nothing was lost</text>\n",
			SVG_W / 2, PT + ph / 2);
	fmt_count(max, buf, sizeof(buf));
	if (max)
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
			PL - 4, PT + 4, buf);
	fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", PL - 4,
		PT + ph + 4);
	fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", PL, PT,
		SVG_W - PR, PT);
	for (int k = 0; k < HL__COUNT && d->ncols; k++) {
		fprintf(f, "<path class=\"line %s\" d=\"", cls[k]);
		for (size_t c = 0; c < d->ncols; c++)
			fprintf(f, "%c%.1f %.1f%s", c ? 'L' : 'M', col_x(d, (uint32_t)c),
				PT + ph - (max ? (double)d->loss[c][k] * ph / (double)max : 0),
				d->ncols == 1 ? "h0.5" : "");
		fputs("\"/>\n", f);
	}
	time_axis(f, d, ph);
	fputs("</svg>\n", f);
}
