/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * theme.h - named colours for the TUI, from a compiled-in default or a themes/NAME.json file.
 *
 * A theme file is a JSON object: {"name": "light", "colors": {"header": {"fg": "blue",
 * "bg": "default", "attrs": ["bold"]}, ...}}. Colours are "default", black, red, green,
 * yellow, blue, magenta, cyan, white, "bright-" + one of those, or a number 0..255; attrs are
 * bold, reverse, underline, dim. A file may override only the known keys: unknown keys are
 * reported once in a warning and ignored, missing keys keep the compiled-in default, and any
 * error (bad JSON, a bad value) leaves the whole default theme in place with one sentence
 * naming the file and the key.
 *
 * No curses here: the TUI maps these to colour pairs. Thread use: UI thread only.
 */
#ifndef LAT_THEME_H
#define LAT_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "base/themefind.h"

/* The things the TUI colours; the JSON key of each is theme__slot_name(). */
enum theme_slot {
	TH_HEADER = 0, /* "header": the first line */
	TH_TITLE,      /* "title": the table heading and the detail pane's title */
	TH_SELECT,     /* "selection": the selected row */
	TH_BAR,        /* "bar": histogram bars */
	TH_SPARK,      /* "sparkline": the p99 sparkline */
	TH_WARN,       /* "warning": losses, errors */
	TH_NOTE,       /* "note": notices and footer messages */
	TH_DIM,        /* "dim": rows of unloaded (gone) programs */
	TH_TABLE,      /* "table": the table's rows (the terminal's colours by default) */
	TH__COUNT,
};

/* Attribute bits (mapped to curses A_* by the TUI). */
enum {
	THEME_BOLD = 1u << 0,
	THEME_REVERSE = 1u << 1,
	THEME_UNDERLINE = 1u << 2,
	THEME_DIM = 1u << 3,
};

#define THEME_DEFAULT_COLOR (-1) /* the terminal's own foreground/background */

struct theme_color {
	short fg, bg;   /* THEME_DEFAULT_COLOR or 0..255 */
	unsigned attrs; /* THEME_* bits */
};

struct theme {
	char name[64];
	struct theme_color c[TH__COUNT];
};

/* JSON key of a slot ("header", ...). */
const char *theme__slot_name(enum theme_slot s);
/* Fill t with the compiled-in default (dark) theme: every slot named. */
void theme__default(struct theme *t);
/* Fill t with the compiled-in mono theme (attributes only, no colour). */
void theme__mono(struct theme *t);
/* True when no slot of t uses a colour (fg and bg are the terminal's own). */
bool theme__is_mono(const struct theme *t);
/* Parse JSON text into t on top of the default theme; file names the source in messages.
 * Returns 0 (msg is "" or a warning about ignored keys) or -EINVAL (t is the default theme and
 * msg one sentence naming the file and the key). */
int theme__parse(struct theme *t, const char *json, const char *file, char *msg, size_t len);
/* Read and parse a theme file; like theme__parse, plus -ENOENT/-EIO when it cannot be read. */
int theme__load(struct theme *t, const char *path, char *msg, size_t len);
/* The names of the themes that can be cycled: "default" first, then every *.json in the
 * directories theme__find searches (sorted, without duplicates). Returns the number filled. */
int theme__list(char (*names)[64], int max);

#endif /* LAT_THEME_H */
