// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * source.c - the session's verbs for the front ends (tick, set_mode, close, clocks, origin),
 * each handed to the source the session runs over (struct source_ops: session.c's live one, or
 * replay_src.c's recording), so that no front end asks which one it has.
 *
 * Thread use: UI/main thread only.
 */
#include "session/output.h"
#include "session/session.h"

/* The source of s (a session never opened is a live one). */
const struct source_ops *source_of(const struct session *s)
{
	return s->src ? s->src : &session__live;
}

/* Close the interval when it is due (live), or advance the replay clock. */
bool session__tick(struct session *s, uint64_t now)
{
	outputs__tick(s);
	return source_of(s)->tick(s, now);
}

/* Switch the view to mode. */
int session__set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen)
{
	return source_of(s)->set_mode(s, mode, err, errlen);
}

/* Close the source and free everything (safe on a half-opened session). */
void session__close(struct session *s)
{
	source_of(s)->close(s);
}

/* Wall-clock ns of an instant on the session's clock. */
uint64_t session__wall_ns(const struct session *s, uint64_t mono_ns)
{
	return source_of(s)->wall_ns(s, mono_ns);
}

/* The session's clock now (a replay's: the end of the interval shown). */
uint64_t session__now_ns(const struct session *s)
{
	return source_of(s)->now_ns(s);
}

/* The host and kernel the figures come from. */
void session__origin(const struct session *s, const char **host, const char **kernel)
{
	source_of(s)->origin(s, host, kernel);
}

/* True when this session can be recorded (a live one). */
bool session__can_record(const struct session *s)
{
	return source_of(s)->can_record;
}

/* The recording a replay plays, or NULL. */
struct replay *session__replay(const struct session *s)
{
	return s->rp;
}
