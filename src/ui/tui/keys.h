/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * keys.h - the TUI's one key table (tui.c): the dispatcher, the `?` screen, the footer and the
 * replay keys line all read it, and the tests check it against the man page, so none of them
 * can disagree about what a key does in a live session or in a replay.
 *
 * Thread use: UI thread only.
 */
#ifndef LAT_KEYS_H
#define LAT_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* Which sessions a key is for (a bit set). */
enum key_scope {
	KEY_LIVE = 1,   /* a live session */
	KEY_REPLAY = 2, /* a replay (-r) */
	KEY_BOTH = KEY_LIVE | KEY_REPLAY,
	KEY_COMPARE = 4, /* a comparison (-r A --compare B): its own entries, none shared */
};

/* What a replay key does to the replay clock (tui__replay_act, tui_replay.c). */
enum replay_act {
	RA_NONE = 0,
	RA_PAUSE,  /* pause or resume the replay */
	RA_FASTER, /* double the speed, to x64 */
	RA_SLOWER, /* halve the speed, to x0.25 */
	RA_NEXT,   /* one interval forward (pauses) */
	RA_PREV,   /* one interval back (pauses) */
	RA_JUMP,   /* prompt for a time and jump there */
	RA_FIRST,  /* the first interval */
	RA_LAST,   /* the last interval */
};

struct tui;

/* One key of the table. */
struct tui_key {
	int key, alt;          /* curses key codes ('\n' for Enter); alt 0 for none */
	enum key_scope scope;  /* the sessions it is for */
	int (*fn)(struct tui *t); /* the TUI's handler (a KH_* bit set), or NULL for ... */
	enum replay_act act;   /* ... a replay clock action */
	const char *label;     /* the key names as help shows them, key first, then alt */
	const char *help;      /* what it does, as help and the footer show it */
	bool footer;           /* the footer shows it (the first word of label) */
};

/* The key table and its length (*n). */
const struct tui_key *tui__keys(size_t *n);

#endif /* LAT_KEYS_H */
