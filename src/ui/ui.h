/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ui.h - the two front ends over a session: batch reports and the ncurses TUI.
 */
#ifndef LAT_UI_H
#define LAT_UI_H

#include <signal.h>
#include <stdio.h>

#include "session/session.h"

struct jsonw;

/* Print the report of the last closed interval (or cumulative figures with -c) in o->out
 * format to f. first says whether this is the first report (CSV header). */
void batch__report(struct session *s, FILE *f, bool first);
/* The loss counters ("drops" object) and "events" of mc as members of the object w is in. */
void batch__json_counters(struct jsonw *w, const struct model_counters *mc);
/* The session-wide named counters (the vhost chain's): as a "counters" member of the object w
 * is in, as a text "counters:" line, as a CSV "name=value;..." field. */
void batch__json_named(struct jsonw *w, const struct model *m, bool cumulative);
void batch__text_counters(FILE *f, const struct model *m, bool cumulative);
void batch__named_str(const struct model *m, bool cumulative, char *buf, size_t len);
void batch__named_line(const struct model *m, bool cumulative, char *buf, size_t len);
/* Run batch mode until -n/-D or *stop (set by main's signal handler). Returns an exit status. */
int batch__run(struct session *s, volatile sig_atomic_t *stop);
/* Run the TUI until q, -n/-D or *stop (set by main's signal handler). Returns an exit status. */
int tui__run(struct session *s, volatile sig_atomic_t *stop);

struct tui;
/* The TUI's state over s, drawing on the current curses screen (the caller started curses:
 * tui__run, or a benchmark with newterm); NULL + errno on failure. */
struct tui *tui__new(struct session *s);
/* Recompute the rows from the model and redraw the screen. */
void tui__draw(struct tui *t);
/* Free the TUI state (NULL is a no-op). */
void tui__free(struct tui *t);

#endif /* LAT_UI_H */
