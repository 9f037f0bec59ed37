/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * html.h - `lattop -r FILE --html OUT.html`: one self-contained HTML file (inline SVG and CSS,
 * no script, nothing fetched) with the recording's metadata, its loss counters over time, and
 * per series its percentiles over time, its heatmap and its whole-recording histogram.
 *
 * The report is made in two steps so a second recording (--compare) can be added beside the
 * first later: html_data__collect reads one replayed session into a struct html_data (no model
 * pointer kept), and the writer renders from html_data alone.
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
/* Write the report of the replayed session s to s->o->html, a new file. Returns an exit
 * status: 0, 1 when the file could not be written (one sentence on stderr). */
int html__run(struct session *s, volatile sig_atomic_t *stop);

#endif /* LAT_HTML_H */
