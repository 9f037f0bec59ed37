/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * replay_ui.h - `lattop -r FILE`: the replay's batch front ends, and the replay keys the TUI
 * hands over while a recording plays (the TUI itself is tui__run, as for a live session).
 *
 * Thread use: main/UI thread only.
 */
#ifndef LAT_REPLAY_UI_H
#define LAT_REPLAY_UI_H

#include <signal.h>
#include <stddef.h>

#include "session/opts.h"
#include "session/session.h"

/* Report the replayed session s (session__open_replay) as per-interval batch reports (-b -n N,
 * until *stop), as totals (-b) or as events (--events). Returns an exit status. */
int replay_ui__report(struct session *s, volatile sig_atomic_t *stop);
/* A key while replaying: 1 when it was a replay key (msg may then hold one sentence for the
 * footer), 0 to let the TUI's own table handle it. */
int replay_ui__key(struct session *s, int ch, char *msg, size_t len);
/* One line listing the replay keys (for the help screen). */
void replay_ui__keys_line(char *buf, size_t len);

#endif /* LAT_REPLAY_UI_H */
