/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * replay_ui.h - `lattop -r FILE`: the replay's batch front ends, and the replay clock actions of
 * the TUI's replay keys (the TUI itself is tui__run, as for a live session).
 *
 * Thread use: main/UI thread only.
 */
#ifndef LAT_REPLAY_UI_H
#define LAT_REPLAY_UI_H

#include <signal.h>
#include <stddef.h>

#include "session/opts.h"
#include "session/session.h"
#include "ui/keys.h"

/* Report the replayed session s (session__open_replay) as per-interval batch reports (-b -n N,
 * until *stop), as totals (-b) or as events (--events). Returns an exit status. */
int replay_ui__report(struct session *s, volatile sig_atomic_t *stop);
/* Do replay action a (a replay key of the TUI's key table): 0, or a negative errno with one
 * sentence for the footer in msg (msg may hold one on success too, "" otherwise). */
int replay_ui__act(struct session *s, enum replay_act a, char *msg, size_t len);

#endif /* LAT_REPLAY_UI_H */
