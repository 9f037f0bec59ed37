/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * batch.h - the batch front end (-b): a report per interval in text, CSV or JSON, live or
 * replayed, and the counters' forms the recording's other reports share.
 *
 * Thread use: main thread only.
 */
#ifndef LAT_UI_REPORT_BATCH_H
#define LAT_UI_REPORT_BATCH_H

#include <signal.h>
#include <stdio.h>

#include "session/session.h"

struct jsonw;

/* Print the report of the last closed interval (or cumulative figures with -c) in o->out
 * format to f. first says whether this is the first report (CSV header). */
void batch__report(struct session *s, FILE *f, bool first);
/* The loss counters ("drops" object) and "events" of mc as members of the object w is in. */
void batch__json_counters(struct jsonw *w, const struct model_counters *mc);
/* Who holds a program and where it is attached, as an "attr" member (nothing when a is NULL). */
void batch__json_attr(struct jsonw *w, const struct prog_attr *a);
/* The session-wide named counters (the vhost chain's): as a "counters" member of the object w
 * is in, as a text "counters:" line. */
void batch__json_named(struct jsonw *w, const struct model *m, bool cumulative);
void batch__text_counters(FILE *f, const struct model *m, bool cumulative);
/* Run batch mode until -n/-D or *stop (set by main's signal handler). Returns an exit status. */
int batch__run(struct session *s, volatile sig_atomic_t *stop);

#endif /* LAT_UI_REPORT_BATCH_H */
