/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom_dump.h - `--flight-http`: the endpoint's POST /dump (optionally ?last=DURATION) asks
 * the flight recorder for a dump. Off unless asked for (anyone who reaches the port could make
 * lattop write files): without --flight-http there is no /dump route, so it is not found (404)
 * as any other path; prom.c's router answers another method with 405.
 *
 * Thread use: prom_dump__handle on libmicrohttpd's thread; it only stores a request the UI
 * thread takes at its next tick (flight__request).
 */
#ifndef LAT_PROM_DUMP_H
#define LAT_PROM_DUMP_H

#include <stddef.h>

struct flight;

/* Ask fl for a dump of the last `last` (a duration, NULL: everything held); one sentence into
 * text and the HTTP status: 202, or 400 for a bad duration. */
unsigned int prom_dump__handle(struct flight *fl, const char *last, char *text, size_t len);

#endif /* LAT_PROM_DUMP_H */
