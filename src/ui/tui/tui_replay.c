// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tui_replay.c - the replay clock's actions that the TUI's replay keys name (keys.h's enum
 * replay_act): pause, speed, step, jump.
 */
#include <curses.h>
#include <errno.h>
#include <stdio.h>

#include "rec/replay.h"
#include "session/replay_src.h"
#include "ui/tui/tui_int.h"

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
int tui__replay_act(struct session *s, enum replay_act a, char *msg, size_t len)
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
