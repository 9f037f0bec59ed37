// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * record.c - the session's side of a recording (-w, the w and W keys): what the recorder is
 * told at its start and at each interval close, and what its errors become (record.h); an output of the session (output.h).
 */
#include <errno.h>
#include <stdio.h>

#include "base/text.h"
#include "rec/rec.h"
#include "rec/recorder.h"
#include "session/filter.h"
#include "session/output.h"
#include "output/record.h"

_Static_assert(REC_FILTER_MAX >= FILTER_STR_MAX, "a filter record must hold the longest -p list");

/* The -p list as text: UI thread only, too big for the stack. */
static char filter_buf[FILTER_STR_MAX];

/* Start recording session s to path (NULL: the first free default name). */
static int record_start(struct session *s, const char *path, bool raw, char *err,
			size_t errlen)
{
	struct rec_meta meta = {
		.m = s->m,
		.mode_name = opts__mode_name(s->m->mode),
		.filter = filter_buf,
		.interval_ns = s->o->interval_ns,
		.raw = raw,
	};

	session__filter_str(s, filter_buf, sizeof(filter_buf));
	s->rec = recorder__new(path, &meta, err, errlen);
	return s->rec ? 0 : -errno;
}

/* Start recording session s to path, a file that must not exist yet. */
int session__record_start(struct session *s, const char *path, bool raw, char *err,
			  size_t errlen)
{
	return record_start(s, path, raw, err, errlen);
}

/* Encode and queue the interval s->m just closed; a writer that failed stops the recording. */
void session__record_interval(struct session *s)
{
	if (!s->rec)
		return;
	session__filter_str(s, filter_buf, sizeof(filter_buf));
	if (recorder__interval(s->rec, s->m, filter_buf))
		session__record_stop(s); /* says why, once */
}

/* Stop recording: a failed write becomes a session error; frames lost because the disk fell
 * behind are said on stderr in batch mode (the TUI's header showed them). */
void session__record_stop(struct session *s)
{
	struct recorder *r = s->rec;
	char err[320];

	if (!r)
		return;
	if (recorder__lost(r) && s->o->batch) {
		char msg[4096 + 160];

		snprintf(msg, sizeof(msg),
			 "recording %s: %llu frames (%llu --raw events) lost because the disk fell "
			 "behind",
			 recorder__path(r), (unsigned long long)recorder__lost(r),
			 (unsigned long long)recorder__lost_events(r));
		text__line(stderr, "lattop: ", msg);
	}
	s->rec = NULL;
	if (recorder__free(r, err, sizeof(err)))
		session__error(s, "%s", err);
}

/* Toggle recording for the `w` and `W` keys. */
void session__record_toggle(struct session *s, const char *path, char *msg, size_t len)
{
	char err[320];

	if (s->rec) {
		snprintf(err, sizeof(err), "%.300s", recorder__path(s->rec));
		session__record_stop(s);
		snprintf(msg, len, "recording stopped: %s", err);
		return;
	}
	if (record_start(s, path, s->o->raw, err, sizeof(err)))
		snprintf(msg, len, "%s", err);
	else
		snprintf(msg, len, "recording to %.280s (w stops)", recorder__path(s->rec));
}

/* As an output of the session (session/output.h): started by -w or the w key, not at open. */
const struct output_ops output_record = {
	.name = "record",
	.interval = session__record_interval,
	.stop = session__record_stop,
};
