// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * warn.c - what a session says about itself: its warnings (shown with the notice) and the
 * errors it went on after (shown, or on stderr where no screen shows them; exit status 1).
 *
 * Thread use: UI/main thread only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "session/session.h"

/* Append a formatted message to the list in buf (joined with "; "; an empty message or a
 * repeat is dropped). Returns the message when it was added, else NULL. */
static const char *join_msg(char *buf, size_t cap, char *msg, const char *fmt, va_list ap)
{
	size_t len = strlen(buf);

	vsnprintf(msg, cap, fmt, ap);
	if (!msg[0] || strstr(buf, msg))
		return NULL;
	snprintf(buf + len, cap - len, "%s%s", len ? "; " : "", msg);
	return msg;
}

/* Add a warning (joined to the others with "; "; a repeat is dropped). */
void session__warn(struct session *s, const char *fmt, ...)
{
	char msg[sizeof(s->warn)];
	va_list ap;

	va_start(ap, fmt);
	join_msg(s->warn, sizeof(s->warn), msg, fmt, ap);
	va_end(ap);
}

/* Record an error the session goes on after. */
void session__error(struct session *s, const char *fmt, ...)
{
	char msg[sizeof(s->errors)];
	const char *added;
	va_list ap;

	va_start(ap, fmt);
	added = join_msg(s->errors, sizeof(s->errors), msg, fmt, ap);
	va_end(ap);
	if (added && session__no_screen(s))
		text__line(stderr, "lattop: ", msg);
}

/* True when no screen shows the session's errors (batch, --discover, --listen alone): they go
 * to stderr as they come. */
bool session__no_screen(const struct session *s)
{
	return s->o->batch || s->o->discover || (s->o->listen && !s->o->tui);
}
