// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * replay_ui.c - `lattop -r FILE`: the batch front ends of a replay (per interval, totals,
 * events), and the replay clock actions the TUI's key table names.
 */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "rec/replay.h"
#include "ui/replay_ui.h"
#include "ui/report.h"
#include "ui/ui.h"

/* Replay keys; each returns 0 or a negative errno. */
static int r_pause(struct session *s, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	replay__toggle_pause(session__replay(s));
	return 0;
}

static int r_faster(struct session *s, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	replay__speed(session__replay(s), 1);
	return 0;
}

static int r_slower(struct session *s, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	replay__speed(session__replay(s), -1);
	return 0;
}

static int r_next(struct session *s, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	return session__step(s, 1);
}

static int r_prev(struct session *s, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	return session__step(s, -1);
}

static int r_home(struct session *s, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	return session__seek(s, 1);
}

static int r_end(struct session *s, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	return session__seek(s, replay__count(session__replay(s)));
}

/* Prompt for a time on the bottom line and jump there (blocks: the replay waits anyway). */
static int r_jump(struct session *s, char *msg, size_t len)
{
	static const char prompt[] = "jump to (seconds from start, or HH:MM:SS): ";
	char when[64] = "";
	int e;

	move(LINES - 1, 0);
	clrtoeol();
	attron(A_BOLD);
	addnstr(prompt, COLS);
	attroff(A_BOLD);
	echo();
	curs_set(1);
	timeout(-1);
	e = getnstr(when, sizeof(when) - 1);
	timeout(50);
	curs_set(0);
	noecho();
	if (e == ERR || !when[0])
		return 0;
	return session__jump(s, when, msg, len);
}

/* The replay clock's actions, by enum replay_act (the keys are in the TUI's key table). */
static int (*const acts[])(struct session *s, char *msg, size_t len) = {
	[RA_PAUSE] = r_pause, [RA_FASTER] = r_faster, [RA_SLOWER] = r_slower,
	[RA_NEXT] = r_next,   [RA_PREV] = r_prev,     [RA_JUMP] = r_jump,
	[RA_FIRST] = r_home,  [RA_LAST] = r_end,
};

/* Do replay action a. */
int replay_ui__act(struct session *s, enum replay_act a, char *msg, size_t len)
{
	msg[0] = '\0';
	if ((size_t)a >= sizeof(acts) / sizeof(acts[0]) || !acts[a]) {
		snprintf(msg, len, "no such replay key");
		return -EINVAL;
	}
	if (acts[a](s, msg, len) && !msg[0]) {
		snprintf(msg, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* Per-interval batch reports, as live batch prints them. */
static int run_intervals(struct session *s, volatile sig_atomic_t *stop)
{
	size_t n = replay__count(session__replay(s));

	if (s->o->iterations && (size_t)s->o->iterations < n)
		n = (size_t)s->o->iterations;
	for (size_t k = 1; k <= n && !*stop; k++) {
		if (session__seek(s, k))
			return EXIT_RUNTIME;
		batch__report(s, stdout, k == 1);
	}
	return EXIT_OK;
}

/* The replay's batch front ends. */
int replay_ui__report(struct session *s, volatile sig_atomic_t *stop)
{
	if (s->o->events)
		return session__seek_all(s) ? EXIT_RUNTIME : report__events(s, stdout);
	if (s->o->iterations)
		return run_intervals(s, stop);
	return session__seek_all(s) ? EXIT_RUNTIME : report__totals(s, stdout);
}
