/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * replay_src.h - a recording as the session's source (-r FILE): open it, and move its clock.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_REPLAY_SRC_H
#define LAT_SESSION_REPLAY_SRC_H

#include <stddef.h>

#include "session/session.h"

/* Replay (replay_src.c). Open o->replay as the source of s (s is zeroed first): -p and -m are
 * checked against what was recorded. Returns an exit status with one sentence in err. */
int session__open_replay(struct session *s, struct opts *o, char *err, size_t errlen);
/* Show intervals [0, k) of the recording, all of it (reports), one interval more or less
 * (pausing), or the interval holding a time (replay__jump's forms). 0 or a negative errno
 * (-ENOTSUP on a live session; jump: -EINVAL with one sentence in err). */
int session__seek(struct session *s, size_t k);
int session__seek_all(struct session *s);
int session__step(struct session *s, int dir);
int session__jump(struct session *s, const char *when, char *err, size_t errlen);

#endif /* LAT_SESSION_REPLAY_SRC_H */
