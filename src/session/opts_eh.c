// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * opts_eh.c - the EventHeader activity options: --activities TRACEPOINT[:NAME].
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/evhdr.h"
#include "session/opts.h"

/* Parse one --activities argument: an EventHeader tracepoint (every activity on it, one series
 * per activity name) or TRACEPOINT:NAME (the activity whose start event is named NAME). */
int opts__activity(struct opts *o, const char *v, char *err, size_t errlen)
{
	struct ehtrace_spec *sp = &o->eh[o->neh];
	const char *colon = strchr(v, ':');
	size_t tplen = colon ? (size_t)(colon - v) : strlen(v);
	char prov[EVHDR_NAME_MAX];
	uint64_t kw;
	uint8_t level;

	if (o->neh == EH_SPEC_MAX) {
		snprintf(err, errlen, "too many --activities: at most %d", EH_SPEC_MAX);
		return -EINVAL;
	}
	memset(sp, 0, sizeof(*sp));
	if (tplen >= sizeof(sp->tp) ||
	    (memcpy(sp->tp, v, tplen),
	     evhdr__parse_tpname(sp->tp, prov, sizeof(prov), &level, &kw))) {
		snprintf(err, errlen,
			 "--activities %s: not an EventHeader tracepoint name: give "
			 "Provider_L<level>K<keyword> in hex, e.g. MyProvider_L4K1, optionally "
			 "followed by :ActivityName",
			 v);
		return -EINVAL;
	}
	if (colon) {
		size_t n = strlen(colon + 1);

		if (!n || n >= sizeof(sp->activity) || strchr(colon + 1, ';')) {
			snprintf(err, errlen,
				 "--activities %s: the activity name after ':' must be 1 to %zu "
				 "characters without ';'",
				 v, sizeof(sp->activity) - 1);
			return -EINVAL;
		}
		memcpy(sp->activity, colon + 1, n + 1);
	}
	o->neh++;
	return 0;
}
