/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ui.h - the two front ends over a session: batch reports and the ncurses TUI.
 */
#ifndef LAT_UI_H
#define LAT_UI_H

#include <signal.h>
#include <stdio.h>

#include "session.h"

/* Set by the signal handler (SIGINT, SIGTERM, SIGHUP); the loops poll it. */
extern volatile sig_atomic_t ui_stop;

/* Print the report of the last closed interval (or cumulative figures with -c) in o->out
 * format to f. first says whether this is the first report (CSV header). */
void batch__report(struct session *s, FILE *f, bool first);
/* Run batch mode until -n/-D or a signal. Returns an exit status. */
int batch__run(struct session *s);
/* Run the TUI until q or a signal. Returns an exit status. */
int tui__run(struct session *s);

#endif /* LAT_UI_H */
