// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * discover.c - `lattop --discover`: watch the vhost chain for -D seconds, draining the
 * session's queues, then let the chain write the profile (session__discover_profile).
 *
 * Thread use: UI/main thread only.
 */
#include <stdio.h>
#include <time.h>

#include "base/text.h"
#include "session/discover.h"
#include "session/session.h"

/* --discover until -D or *stop. The -D seconds count from here, once the chain is attached:
 * attaching it can take most of a short -D on a busy machine (seconds under emulation), and
 * the watch it promises would shrink to nothing. */
int session__discover(struct session *s, volatile sig_atomic_t *stop)
{
	uint64_t end_ns = now_ns() + s->o->duration_ns;

	if (s->warn[0])
		text__line(stderr, "lattop: warning: ", s->warn);
	fputs("lattop: discovering flow ", stderr);
	text__fputs(stderr, s->o->flow_spec);
	fputs(" on ", stderr);
	text__fputs(stderr, s->o->device);
	fprintf(stderr, " for %.1f s...\n", s->o->duration_ns / 1e9);
	while (!*stop && now_ns() < end_ns) {
		struct timespec nap = { 0, 20000000 };

		session__drain(s);
		nanosleep(&nap, NULL);
	}
	session__drain(s);
	return session__discover_profile(s);
}
