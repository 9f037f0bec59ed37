/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ehsession.h - the live session's part for EventHeader activities (--activities): open the
 * reader (collect/ehtrace.h), give each activity name its series in segments mode, move the
 * paired samples into the model, and set the loss counters each interval.
 *
 * Thread use: UI thread only.
 */
#ifndef LAT_SESSION_EHSESSION_H
#define LAT_SESSION_EHSESSION_H

#include <stddef.h>
#include <stdint.h>

#include "session/session.h"

/* Series ids of activities: LAT_EV_SEG, EH_SEG_ID + the activity's series index (after the
 * spans' ids and the vhost chain's). */
#define EH_SEG_ID 2000

struct ehemit;

/* Open the activities of s->o. Returns EXIT_OK; on a kernel without user_events, EXIT_USAGE
 * with one sentence in err when nothing else was asked (no spans, profile, program filter or
 * demo), else a warning and EXIT_OK; EXIT_USAGE for a tracepoint of the wrong format,
 * EXIT_RUNTIME for other failures. */
int ehsession__open(struct session *s, char *err, size_t errlen);
/* Move the samples paired so far into the model (new names get their series first). */
void ehsession__drain(struct session *s);
/* Set the session-wide loss counters (eh_orphan, eh_unmatched, eh_malformed, eh_foreign,
 * eh_lost) before the interval closes. */
void ehsession__interval(struct session *s);
/* After the interval closed: lattop's figures as EventHeader events (--eventheader). */
void ehsession__closed(struct session *s);
/* Stop reading after a last pass, and take what it paired. */
void ehsession__flush(struct session *s);
/* Stop and free (no-op without activities); --eventheader's session activity stops. */
void ehsession__free(struct session *s);

/* lattop's figures as EventHeader events (ehemit.c): register tracepoint lattop_L4K1 and
 * write the session's activity start; NULL + errno (ENOENT: no user_events) with err. */
struct ehemit *ehemit__open(uint64_t interval_ns, char *err, size_t errlen);
/* Write the interval just closed (Series events of the mode's series, then Losses). */
void ehemit__interval(struct ehemit *x, const struct session *s);
/* Write the session's activity stop and close (NULL is a no-op). */
void ehemit__close(struct ehemit *x);

#endif /* LAT_SESSION_EHSESSION_H */
