// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom_dump.c - POST /dump on the Prometheus endpoint (--flight-http; see prom_dump.h).
 */
#include <stdio.h>
#include <string.h>

#include "rec/flight.h"
#include "session/opts.h"
#include "ui/prom_dump.h"

/* Queue a plain-text reply (copied) with status code. */
static enum MHD_Result say(struct MHD_Connection *c, unsigned int code, const char *text)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, "Allow", "POST");
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/* Answer a request for /dump. */
enum MHD_Result prom_dump__handle(struct MHD_Connection *c, const char *method, struct flight *fl)
{
	const char *last = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "last");
	uint64_t last_ns = 0;
	char msg[160];

	if (strcmp(method, "POST"))
		return say(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			   "method not allowed: POST /dump asks for a flight recorder dump\n");
	if (last && (opts__parse_duration(last, &last_ns) || !last_ns)) {
		snprintf(msg, sizeof(msg), "bad last=%.40s: give a duration such as 5m or 90s\n",
			 last);
		return say(c, MHD_HTTP_BAD_REQUEST, msg);
	}
	flight__request(fl, FT_HTTP, last_ns);
	return say(c, MHD_HTTP_ACCEPTED,
		   "dump requested: lattop writes it to its flight directory at its next tick\n");
}
