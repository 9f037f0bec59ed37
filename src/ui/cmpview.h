/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cmpview.h - `lattop -r A --compare B`: the comparison as the front ends hold it (both
 * replays, both sides, the rows of model/compare.h) and the labels and figures they all print;
 * the text/CSV/JSON reports are ui/report/cmp_report.h, the TUI's screen ui/tui/tui.h, the
 * page ui/html/html_cmp.h.
 *
 * Thread use: main/UI thread only.
 */
#ifndef LAT_UI_CMPVIEW_H
#define LAT_UI_CMPVIEW_H

#include "model/compare.h"
#include "session/session.h"

/* A comparison: A's session (opened by main), B's (opened here), their sides and rows. */
struct cmp_view {
	struct session *a;
	struct session b;
	struct opts ob;
	struct cmp_side *sa, *sb;
	struct compare c;
};

/* Open B (a->o->compare) next to A, check the pair and compare them. Returns NULL with an
 * exit status in *status and one sentence in err (EXIT_USAGE for a bad pair). */
struct cmp_view *cmp_view__open(struct session *a, int *status, char *err, size_t errlen);
/* Close B and free everything but A (NULL is a no-op). */
void cmp_view__free(struct cmp_view *v);
/* A figure's value for humans (rate per second or ns; "-" when the side lacks it). */
void cmp_view__fmt(enum cmp_stat st, bool has, double v, char *buf, size_t len);
/* A change for humans: "+100.0%", with '*' when significant ("-" when undefined). */
void cmp_view__fmt_change(const struct cmp_fig *f, char *buf, size_t len);
/* A row's two labels: its name (a helper's as "program: helper") and what tells it apart (a
 * program's type, a helper's "map NAME"), in visible form. */
void cmp_view__labels(const struct cmp_row *r, char *name, size_t nlen, char *what,
		      size_t wlen);
/* Runs per log2 row (model__heat_row) of a side's whole-recording histogram, into
 * per[MODEL_HEAT_ROWS] (cs NULL or without a histogram: zeros). */
void cmp_view__log2(const struct cmp_series *cs, uint64_t *per);

#endif /* LAT_UI_CMPVIEW_H */
