/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flight_ses.h - the flight recorder's session side (--flight): its triggers, dumps and header words,
 * an output of the live session (session/output.h).
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_FLIGHT_SES_H
#define LAT_SESSION_FLIGHT_SES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec/flight.h"
#include "session/session.h"

/* The flight recorder (flight_ses.c), all no-ops without --flight. Start it (after
 * session__open; SIGUSR2 dumps from then on): 0 or -ENOMEM with one sentence in err. */
int session__flight_start(struct session *s, char *err, size_t errlen);
/* Keep the interval s->m just closed, write the threshold dumps due, evaluate the triggers. */
void session__flight_interval(struct session *s);
/* Take SIGUSR2 and POST /dump requests and say what the dump thread did (every tick). */
void session__flight_tick(struct session *s);
/* Dump now for trigger t (the D key), of the last last_ns (0: everything held). */
void session__flight_dump(struct session *s, enum flight_trigger t, uint64_t last_ns);
/* The header's words about the flight recorder ("" when off); brief: its memory alone. */
void session__flight_line(const struct session *s, bool brief, char *buf, size_t len);
/* Write the threshold dumps still due, wait for the dump thread, free the flight recorder. */
void session__flight_stop(struct session *s);

#endif /* LAT_SESSION_FLIGHT_SES_H */
