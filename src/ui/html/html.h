/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * html.h - `lattop -r FILE --html OUT.html`: one self-contained HTML file (inline SVG and CSS,
 * no script, nothing fetched) with the recording's metadata, its loss counters over time, and
 * per series its percentiles over time, its heatmap and its whole-recording histogram.
 *
 * The report is made in two steps: html_data__collect reads one replayed session into a struct
 * html_data (no model pointer kept), and the writer renders from html_data alone. With
 * --compare the page is the comparison's instead (html_cmp.h), drawn from ui/compare.h's view
 * with the same style sheet, chart parts and file rules.
 *
 * Thread use: main thread only.
 */
#ifndef LAT_HTML_H
#define LAT_HTML_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "session/session.h"

/* Time columns a chart has at most: a longer recording puts several intervals in a column
 * (their histograms merged, so a column's percentiles are exact for its runs). */
#define HTML_COLS 240
/* Series the report shows at most (the highest p99 first); the rest are counted. */
#define HTML_MAX_SERIES 1000

/* Session-wide loss counters over time: the four of every session, then the named loss
 * counters (a span's unmatched ..., the vhost chain's) summed. */
enum html_loss { HL_RINGBUF, HL_QUEUE, HL_RECURSION, HL_NEST, HL_NAMED, HL__COUNT };

/* One time column of a series that had runs in it. */
struct html_pt {
	uint32_t col;
	bool dist;    /* the percentiles mean something (per-invocation source) */
	uint64_t count;
	double avg_ns;
	uint64_t p50, p99, p999, max;
};

/* One non-empty heatmap cell: runs in a column on a log2 row (model__heat_row). */
struct html_cell {
	uint32_t col;
	uint32_t row;
	uint64_t count;
};

/* One series of the report, with everything the page shows of it. */
struct html_series {
	uint16_t kind;
	uint32_t id, aux, aux2;
	char title[256]; /* raw bytes from the recording: escape when writing */
	char type[32];
	const char *source; /* "events", "self", "stats" (a static string) */
	struct row total;   /* whole recording (total.s and total.m are not kept: NULL) */
	struct html_pt *pt; /* columns with runs, ascending */
	size_t npt, ptcap;
	struct html_cell *cell; /* heatmap cells, by column then row */
	size_t ncell, cellcap;
	struct hist_log2_row hist[MODEL_HEAT_ROWS]; /* whole-recording log2 histogram */
	int nhist;
	/* Collecting only. */
	struct hist acc;  /* the open column's runs */
	uint64_t acc_count;
	double acc_time;  /* avg_ns x count of the open column's intervals */
	bool acc_dist, touched;
};

/* One replayed recording, as the report shows it. */
struct html_data {
	char path[4096], host[256], kernel[256], source[64], mode[16], damage[320], notice[320];
	uint64_t start_wall_ns, duration_ns, interval_ns, lost_frames;
	size_t nivals, per_col, ncols;
	uint64_t *col_t_ns;            /* ncols + 1 column edges, ns from the first interval */
	uint64_t (*loss)[HL__COUNT];   /* ncols rows of loss counts */
	struct model_counters totals;  /* the session's counters over the whole recording */
	struct html_series *ser;       /* sorted by p99 (then count), descending, when done */
	size_t nser, sercap;
	size_t idle;                   /* series without runs, not shown */
	size_t hidden;                 /* series past HTML_MAX_SERIES, not shown */
	/* A flight dump: why it was written, and the instant it fired (ns from the first
	 * interval's start), which every chart over time marks. */
	bool dumped;
	char dump[400];
	uint64_t fired_t_ns;
};

/* The charts' layout: a view box HTML_SVG_W units wide, the plot inside these margins (left
 * for value labels, bottom for time labels). */
#define HTML_SVG_W 720
#define HTML_PL 66
#define HTML_PR 10
#define HTML_PT 8
#define HTML_PB 24
#define HTML_PW (HTML_SVG_W - HTML_PL - HTML_PR)
#define HTML_HEAT_LEVELS 9 /* shades of a non-empty heatmap cell (CSS classes h1 .. h9) */

/* A log-scale y axis (html_svg__logy_axis sets it up). */
struct html_logy {
	double llo, lhi;
	int ph;
};

/* Read the replayed session s (session__open_replay) interval by interval into d (zeroed
 * first). Returns 0, -EINTR when *stop was set, or -ENOMEM. */
int html_data__collect(struct html_data *d, struct session *s, volatile sig_atomic_t *stop);
/* Free what d holds (a zeroed d is fine). */
void html_data__free(struct html_data *d);
/* Write the report page of d to f (html_page.c). */
void html__page(FILE *f, const struct html_data *d);
/* Charts (html_svg.c): the percentiles of series se over time, its heatmap, its histogram, and
 * the session's losses over time, each one <svg> element. */
void html_svg__pct(FILE *f, const struct html_data *d, const struct html_series *se);
void html_svg__heat(FILE *f, const struct html_data *d, const struct html_series *se);
void html_svg__hist(FILE *f, const struct html_series *se);
void html_svg__losses(FILE *f, const struct html_data *d);
/* Chart parts (html_svg.c): open an <svg> of class "chart CLS" and height h titled "kind:
 * title" (title escaped; NULL: kind alone); a log axis over lo .. hi ns with its decade
 * lines; the y of a value on it; the shade (1 .. HTML_HEAT_LEVELS) of n runs against max. */
void html_svg__open(FILE *f, const char *cls, int h, const char *kind, const char *title);
void html_svg__logy_axis(FILE *f, struct html_logy *a, double lo, double hi, int ph);
double html_svg__logy_at(const struct html_logy *a, double v);
int html_svg__heat_level(uint64_t n, uint64_t max);
/* Page parts (html_page.c): the head (style sheet included) and the <h1>, both saying
 * "what: a" or, with b, "what: a vs b" (a and b escaped); the name of a series' kind. */
void html_page__open(FILE *f, const char *what, const char *a, const char *b);
const char *html__kind_name(uint16_t kind);
/* Write len bytes of buf to path, a new file (html.c). Returns an exit status: 0; 2 when the
 * name was taken meanwhile; 1 when it could not be written (one sentence on stderr, no file
 * left). */
int html__write(const char *path, const char *buf, size_t len);
/* html__write of the page made in buf (len bytes), or, when made is false (making it ran out
 * of memory), one sentence on stderr and 1; frees buf either way (html.c). */
int html__emit(const char *path, char *buf, size_t len, bool made);
/* Write the report of the replayed session s to s->o->html, a new file (with s->o->compare:
 * the comparison's, html_cmp__run). Returns an exit status: 0, 1 when the file could not be
 * written, 2 for a bad pair (one sentence on stderr). */
int html__run(struct session *s, volatile sig_atomic_t *stop);

#endif /* LAT_HTML_H */
