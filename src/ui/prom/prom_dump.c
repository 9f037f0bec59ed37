// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom_dump.c - POST /dump on the Prometheus endpoint (--flight-http; see prom_dump.h).
 */
#include <stdio.h>

#include <microhttpd.h>

#include "rec/flight.h"
#include "cli/opts.h"
#include "ui/prom/prom_dump.h"

/* Ask fl for a dump of the last `last`. */
unsigned int prom_dump__handle(struct flight *fl, const char *last, char *text, size_t len)
{
	uint64_t last_ns = 0;

	if (last && (opts__parse_duration(last, &last_ns) || !last_ns)) {
		snprintf(text, len, "bad last=%.40s: give a duration such as 5m or 90s\n", last);
		return MHD_HTTP_BAD_REQUEST;
	}
	flight__request(fl, FT_HTTP, last_ns);
	snprintf(text, len,
		 "dump requested: lattop writes it to its flight directory at its next tick\n");
	return MHD_HTTP_ACCEPTED;
}
