/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * discover.h - --discover: watch the vhost chain, then write its profile.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_DISCOVER_H
#define LAT_SESSION_DISCOVER_H

#include <signal.h>

#include "session/session.h"

/* --discover (discover.c): watch the vhost chain for -D seconds or until *stop, then write the
 * profile. Returns an exit status. */
int session__discover(struct session *s, volatile sig_atomic_t *stop);
/* --discover, once the watch is over (kind_vhost.c): the chain writes the profile. Returns an
 * exit status. */
int session__discover_profile(struct session *s);

#endif /* LAT_SESSION_DISCOVER_H */
