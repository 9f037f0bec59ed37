/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * segsession.h - the vhost-net segments of a session: discover (find the flow's worker
 * threads and kick eventfds, write a profile) and measure (S0/S1/S2/total series from a
 * profile, the chain's counters, --details lines).
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SEGSESSION_H
#define LAT_SEGSESSION_H

#include <stdbool.h>
#include <signal.h>
#include <stddef.h>

#include "lattop.h"

struct session;

/* Load the chain for --discover or --profile. Returns an exit status with one sentence in err;
 * a kernel without kprobes or vhost-net is an error for discover, and for measure a notice
 * (segments mode then degrades like the other modes, saying why). */
int segsession__open(struct session *s, char *err, size_t errlen);
/* Detach and free (safe when never opened). */
void segsession__free(struct session *s);
/* True when the chain is attached (segments mode can show it). */
bool segsession__ready(const struct session *s);
/* Why the chain is not attached (one sentence), or "". */
const char *segsession__why(const struct session *s);
/* True when name is one of the chain's segment names (S0, S1, S2, total). */
bool segsession__named(const char *name);
/* Account an event of the chain (true) or leave it to the caller (false). */
bool segsession__event(struct session *s, const struct lat_event *e);
/* Read the chain's counters into the open interval and look for a stale profile; call just
 * before the model closes the interval. */
void segsession__interval(struct session *s);
/* --discover: watch for -D seconds, then write the profile. Returns an exit status. */
int segsession__discover(struct session *s, volatile sig_atomic_t *stop);

#endif /* LAT_SEGSESSION_H */
