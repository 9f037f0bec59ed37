/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * record.h - the session's side of a recording (-w, the w and W keys), an output of the live
 * session (session/output.h).
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_RECORD_H
#define LAT_SESSION_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "session/session.h"

/* Recording (record.c). Start recording s to path, a file that must not exist (raw: every
 * event too); the header is written at once. Returns 0, or -errno with one sentence in err. */
int session__record_start(struct session *s, const char *path, bool raw, char *err,
			  size_t errlen);
/* Encode and queue the interval s->m just closed (a failed writer stops the recording). */
void session__record_interval(struct session *s);
/* Flush and stop recording (no-op when not recording); a failed write is a session error. */
void session__record_stop(struct session *s);
/* Toggle recording for the `w` and `W` keys: stop, or start to path (NULL: the default name
 * with the first free suffix); msg says what happened, one sentence. */
void session__record_toggle(struct session *s, const char *path, char *msg, size_t len);

#endif /* LAT_SESSION_RECORD_H */
