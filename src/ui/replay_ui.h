/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * replay_ui.h - `lattop -r FILE`: the replay front ends, and the replay clock actions of the
 * TUI's replay keys.
 *
 * Thread use: main/UI thread only.
 */
#ifndef LAT_REPLAY_UI_H
#define LAT_REPLAY_UI_H

#include <stddef.h>

#include "opts.h"
#include "session.h"
#include "ui/keys.h"

/* Replay o->replay in the TUI, as per-interval batch reports (-b -n N), as totals (-b) or as
 * events (--events). Returns an exit status. */
int replay_ui__run(struct opts *o);
/* Do replay action a (a replay key of the TUI's key table): 0, or a negative errno with one
 * sentence for the footer in msg (msg may hold one on success too, "" otherwise). */
int replay_ui__act(struct session *s, enum replay_act a, char *msg, size_t len);
/* One line naming the replay clock keys (under the header of a replay). */
void replay_ui__keys_line(char *buf, size_t len);

#endif /* LAT_REPLAY_UI_H */
