/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * html_cmp.h - `lattop -r A --compare B --html OUT.html`: the HTML report of a comparison, one
 * self-contained file like the one-recording report (html.h: the same style sheet, chart parts
 * and file rules). It renders the comparison ui/compare.h opens (cmp_view__open: both sides,
 * matched rows, verdicts, significance); nothing is matched or judged here.
 *
 * The page: both recordings' metadata side by side, the verdicts' tally, a summary table of
 * every row (verdict, each figure's change, '*' significant) sorted so the largest significant
 * slow-downs come first, and per row a section with both sides' figures and charts: the
 * percentiles over time of A (dashed) and B (solid) on one time axis from each recording's
 * start, both heatmaps on one shade scale and one row range, and both whole-recording
 * histograms mirrored on one scale (A left, B right).
 *
 * Thread use: main thread only.
 */
#ifndef LAT_HTML_CMP_H
#define LAT_HTML_CMP_H

#include <signal.h>
#include <stdio.h>

#include "ui/cmpview.h"
#include "ui/html/html.h"

/* The comparison as the page draws it. */
struct html_cmp {
	const struct cmp_view *v;
	size_t *order;       /* row indexes in page order: slower first, then changed, faster,
			      * only in B, only in A, unchanged */
	size_t shown;        /* rows given a section (at most HTML_MAX_SERIES) */
	uint64_t *edge[2];   /* A's and B's block edges, ns from the recording's first interval
			      * (nblocks + 1 each) */
	uint64_t t_ns;       /* the time axis of both: the longer recording's duration */
	struct hist scratch; /* one block's histogram */
};

/* Write the comparison report of A (s) and B (s->o->compare) to s->o->html, a new file.
 * Returns an exit status: 0; 2 for a bad pair or a name taken; 1 when the file could not be
 * written (one sentence on stderr, no file left). */
int html_cmp__run(struct session *s, volatile sig_atomic_t *stop);
/* Set up hc for v: the order and the time axes. Returns 0 or -ENOMEM. */
int html_cmp__init(struct html_cmp *hc, const struct cmp_view *v);
/* Free what hc holds (a zeroed hc is fine). */
void html_cmp__fini(struct html_cmp *hc);
/* Write the comparison page to f. */
void html_cmp__page(FILE *f, struct html_cmp *hc);
/* Charts (html_cmp_svg.c), each one <svg> titled "kind: title": both sides' percentiles (or
 * runs per second, for counts only) over time; both heatmaps stacked; both histograms. */
void html_cmp_svg__pct(FILE *f, struct html_cmp *hc, const struct cmp_row *r, const char *title);
void html_cmp_svg__heat(FILE *f, const struct html_cmp *hc, const struct cmp_row *r,
			const char *title);
void html_cmp_svg__hist(FILE *f, const struct cmp_row *r, const char *title);

#endif /* LAT_HTML_CMP_H */
