/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tui.h - the ncurses front end: a live session or a replay (tui__run), and a comparison's
 * screen (tui__run_compare).
 *
 * Thread use: UI thread only (the only one that calls ncurses).
 */
#ifndef LAT_UI_TUI_H
#define LAT_UI_TUI_H

#include <signal.h>

#include "session/session.h"

struct cmp_view;
struct tui;

/* Run the TUI until q, -n/-D or *stop (set by main's signal handler). Returns an exit status. */
int tui__run(struct session *s, volatile sig_atomic_t *stop);
/* The comparison's TUI (tui_cmp.c) until q or *stop. Returns an exit status. */
int tui__run_compare(struct cmp_view *v, volatile sig_atomic_t *stop);
/* The TUI's state over s, drawing on the current curses screen (the caller started curses:
 * tui__run, or a benchmark with newterm); NULL + errno on failure. */
struct tui *tui__new(struct session *s);
/* Recompute the rows from the model and redraw the screen. */
void tui__draw(struct tui *t);
/* Free the TUI state (NULL is a no-op). */
void tui__free(struct tui *t);

#endif /* LAT_UI_TUI_H */
