/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ehemit.h - lattop's own figures as EventHeader events (--eventheader): an output of the live
 * session, handed each closed interval beside the recorder and --listen (session.c), not a
 * kind of probe (it measures nothing).
 *
 * Thread use: UI thread only.
 */
#ifndef LAT_SESSION_EHEMIT_H
#define LAT_SESSION_EHEMIT_H

#include <stddef.h>
#include <stdint.h>

#include "session/session.h"

struct ehemit;

/* Register tracepoint lattop_L4K1 and write the session's activity start; NULL + errno
 * (ENOENT: no user_events) with one sentence in err. */
struct ehemit *ehemit__open(uint64_t interval_ns, char *err, size_t errlen);
/* Write the interval just closed (Series events of the mode's series, then Losses); NULL is a
 * no-op. */
void ehemit__interval(struct ehemit *x, const struct session *s);
/* Write the session's activity stop and close (NULL is a no-op). */
void ehemit__close(struct ehemit *x);

#endif /* LAT_SESSION_EHEMIT_H */
