/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tui_int.h - the TUI's state, shared by tui.c (keys, the loop), tui_prompt.c (the footer's
 * prompts, the filter and search keys), tui_head.c (header), tui_draw.c (table, detail pane,
 * help), tui_heat.c (the heatmap), tui_cmp.c (the comparison screen) and tui_replay.c (the
 * replay keys' actions). Not for other modules.
 *
 * Thread use: UI thread only (the only thread that calls ncurses).
 */
#ifndef LAT_TUI_INT_H
#define LAT_TUI_INT_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "session/session.h"
#include "ui/columns.h"
#include "ui/tui/keys.h"
#include "ui/tui/theme.h"

struct cmp_view;

#define TUI_MAX_ROWS 4096
#define TUI_MAX_THEMES 32
#define TUI_MAX_COLUMNS 32 /* the widest column table of any mode */
#define MIN_COLS 40
#define MIN_LINES 10

/* Key handler results (bit set). */
enum {
	KH_HANDLED = 1,
	KH_REDRAW = 2,
	KH_QUIT = 4,
};

/* What the one-line prompt in the footer is editing. */
enum prompt_kind {
	PROMPT_NONE = 0,
	PROMPT_FILTER,   /* f: the -p list */
	PROMPT_INTERVAL, /* d: seconds */
	PROMPT_SEARCH,   /* /: a name substring */
	PROMPT_RECORD,   /* W: a recording's file name */
};

struct tui {
	struct session *s;
	struct row rows[TUI_MAX_ROWS];
	size_t nrows;
	int sel, top;     /* selected row, first row shown */
	uint32_t sel_id;  /* program ID of the selection: it follows the program across sorts */
	uint16_t sel_kind; /* ... and the selected row's kind and aux: a helper or CPU row under */
	uint32_t sel_aux;  /* its program stays selected */
	int sortcol;
	bool reverse, cumulative, paused, help, pane;
	bool heat;        /* the pane shows the heatmap (m), not the histogram */
	unsigned part;    /* a span's pane shows this part of its time (o; enum lat_span_part) */
	bool heat_pairs;  /* the heatmap's colour pairs are set up (tui_heat.c) */
	bool color;       /* the terminal shows colours and neither NO_COLOR nor --no-color */
	char flash[320];  /* a message in the footer for a moment */
	uint64_t flash_until_ns;
	enum prompt_kind prompt; /* PROMPT_NONE, or the prompt that owns the keyboard */
	char edit[FILTER_STR_MAX]; /* the text being edited (the longest -p list fits) */
	size_t edit_len;
	char search[64];  /* the last / search ("" = none) */
	struct theme theme;
	attr_t attr[TH__COUNT]; /* curses attributes of each theme slot */
	char themes[TUI_MAX_THEMES][64]; /* names `t` cycles through */
	int nthemes, theme_idx;
	char host[72], kernel[72]; /* visible forms (base/text.h) */
	struct cmp_view *cmp; /* a comparison (--compare) instead of a session's rows, or NULL */
};

/* Curses attributes of a theme slot. */
static inline attr_t tui_attr(const struct tui *t, enum theme_slot s)
{
	return t->attr[s];
}

/* Show msg in the footer for ms milliseconds. */
void tui__say(struct tui *t, const char *msg, unsigned ms);
/* Select row idx (clamped); the selection then follows that program across re-sorts.
 * Returns KH_REDRAW (tui.c). */
int tui__select(struct tui *t, int idx);
/* The prompts (tui_prompt.c): open prompt k on text init; take a key while one is open; the
 * handlers the key table binds to f, d, /, n, + and -. Each returns KH_* bits. */
int tui__open_prompt(struct tui *t, enum prompt_kind k, const char *init);
int tui__edit_key(struct tui *t, int ch);
int tui__key_filter(struct tui *t);
int tui__key_interval(struct tui *t);
int tui__key_search(struct tui *t);
int tui__key_search_next(struct tui *t);
int tui__key_filter_add(struct tui *t);
int tui__key_filter_remove(struct tui *t);
/* The header in line y, fitted to the width: the least important fields give way first,
 * none is cut (tui_head.c). */
void tui__draw_header(struct tui *t, int y);
/* text from line y in attribute a, wrapped at spaces over at most max_lines lines, ending
 * with an ellipsis when cut; returns the lines used (0 for ""). */
int tui__draw_wrapped(int y, const char *text, int max_lines, attr_t a);
/* text in the note colour on line y, cut at COLS, the rest of the line cleared (tui_draw.c). */
void tui__draw_note(const struct tui *t, int y, const char *text);
/* Scroll t->top so the selection is within height table rows, leaving no empty space below
 * (tui_draw.c; the comparison's table uses it too). */
void tui__scroll(struct tui *t, int height);
/* The table (heading + rows, scrolled to the selection) in lines y0 .. y0 + height - 1. */
void tui__draw_table(struct tui *t, int y0, int height);
/* Lines the detail pane wants for the selected row (0 when closed or nothing selected). */
int tui__pane_height(const struct tui *t, int avail);
/* The detail pane of the selected row in lines y0 .. y0 + height - 1. */
void tui__draw_pane(struct tui *t, int y0, int height);
/* Lines the heatmap of series s wants under the pane's title (tui_heat.c). */
int tui__heat_height(const struct tui *t, const struct series *s);
/* The heatmap of series s in lines y .. y + lines - 1, fitted to COLS; returns the lines
 * drawn (tui_heat.c). */
int tui__draw_heat(struct tui *t, const struct series *s, int y, int lines);
/* Heat rows top .. top - rows + 1 of slots[0..n) from line y, shaded against max; returns
 * whether the shades are colours (tui_heat.c). */
bool tui__heat_rows(struct tui *t, const struct heat_slot *slots, size_t n, int top, int rows,
		    uint32_t max, int y);
/* The comparison's screen but the footer: header, table, pane (tui_cmp.c). */
void tui__draw_compare(struct tui *t);
/* Do replay action a (a replay key of the key table, tui_replay.c): 0, or a negative errno
 * with one sentence for the footer in msg (msg may hold one on success too, "" otherwise). */
int tui__replay_act(struct session *s, enum replay_act a, char *msg, size_t len);

#endif /* LAT_TUI_INT_H */
