/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom_dump.h - `--flight-http`: the endpoint's POST /dump (optionally ?last=DURATION) asks
 * the flight recorder for a dump. Off unless asked for (anyone who reaches the port could make
 * lattop write files): without --flight-http, /dump is not found (404) as any other path.
 *
 * Thread use: prom_dump__handle on libmicrohttpd's thread; it only stores a request the UI
 * thread takes at its next tick (flight__request).
 */
#ifndef LAT_PROM_DUMP_H
#define LAT_PROM_DUMP_H

#include <microhttpd.h>

struct flight;

/* Answer a request for /dump: 202 when a dump was asked for, 405 for a method other than
 * POST, 400 for a bad ?last=. */
enum MHD_Result prom_dump__handle(struct MHD_Connection *c, const char *method, struct flight *fl);

#endif /* LAT_PROM_DUMP_H */
