/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * report.h - the batch front end of a recording (-r FILE -b): per-interval reports, totals
 * and --events.
 *
 * Thread use: main thread only.
 */
#ifndef LAT_REPORT_H
#define LAT_REPORT_H

#include <signal.h>
#include <stdio.h>

#include "session/session.h"

/* Totals over the whole recording per series in s->o->out format: count, avg, p50, p95,
 * p99, p99.9, max; programs first, then helpers, then segments. Returns an exit status. */
int report__totals(struct session *s, FILE *f);
/* Every recorded event as CSV or Chrome/Perfetto trace JSON ("X" events, µs). Returns an
 * exit status (EXIT_RUNTIME when the recording holds no events). */
int report__events(struct session *s, FILE *f);

/* Report the replayed session s (session__open_replay) as per-interval batch reports (-b -n N,
 * until *stop), as totals (-b) or as events (--events). Returns an exit status. */
int report__run(struct session *s, volatile sig_atomic_t *stop);

#endif /* LAT_REPORT_H */
