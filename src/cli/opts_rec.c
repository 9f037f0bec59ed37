// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * opts_rec.c - which recording and replay options go together.
 */
#include <errno.h>
#include <stdio.h>

#include "cli/opts.h"

/* Check the recording/replay options go together. */
int opts__check_record(struct opts *o, char *err, size_t errlen)
{
	const char *bad = NULL;

	if (o->replay && o->record)
		bad = "-r replays a recording and -w records a live session: use one of them";
	else if (o->replay && o->demo)
		bad = "--demo loads programs for a live session; a replay (-r) shows what was "
		      "recorded: drop --demo";
	else if (o->replay && o->raw)
		bad = "--raw applies to recording (-w), not to replay (-r)";
	else if (o->replay && o->duration_ns)
		bad = "-D applies to live sessions; with -r use -n to limit intervals";
	else if (o->raw && !o->record)
		bad = "--raw records every event and needs -w FILE";
	else if (o->events && !o->replay)
		bad = "--events exports a --raw recording: add -r FILE";
	else if (o->events && (o->out == OUT_JSON || o->cumulative || o->iterations))
		bad = "--events takes -o csv or -o trace only";
	else if (o->html && !o->replay)
		bad = "--html writes a report of a recording: add -r FILE";
	else if (o->html && (o->batch || o->iterations || o->out != OUT_TEXT || o->cumulative ||
			     o->hist))
		bad = "--html writes the whole recording to a file: drop -b, -n, -o, -c, --hist "
		      "and --events";
	else if (o->compare && !o->replay)
		bad = "--compare compares two recordings: give the first with -r, e.g. "
		      "lattop -r before.lrec --compare after.lrec";
	else if (o->compare && (o->events || o->iterations || o->cumulative || o->hist))
		bad = "--events, -n, -c and --hist do not apply to --compare: a comparison covers "
		      "both whole recordings";
	else if (o->compare && (o->nfilter || o->mode_set))
		bad = "-p and -m do not apply to --compare: every recorded series is matched by "
		      "name";
	else if (o->replay && o->no_stats)
		bad = "--no-stats applies to live sessions; a replay (-r) shows what was recorded: "
		      "drop --no-stats";
	else if (o->out == OUT_TRACE && !o->events)
		bad = "-o trace exports events: use it with -r FILE --events";
	if (bad) {
		snprintf(err, errlen, "%s", bad);
		return -EINVAL;
	}
	if (o->events && o->out == OUT_TEXT)
		o->out = OUT_CSV;
	return 0;
}
