/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * columns.h - table columns as data: one table drives the TUI, text, CSV and JSON outputs.
 */
#ifndef LAT_COLUMNS_H
#define LAT_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/rows.h"

enum cell_type {
	CELL_NULL = 0, /* no value from this source (JSON null, "-" in text) */
	CELL_U64,
	CELL_DBL,
	CELL_STR,
	CELL_NS,  /* a duration in ns: adaptive units in text, raw ns elsewhere */
	CELL_PCT, /* a percentage */
};

struct cell {
	enum cell_type t;
	uint64_t u;
	double d;
	const char *s;
	/* CELL_STR: what the text views (text, TUI) show instead of s, NULL for s: a CPU row
	 * names its CPU under its program, while JSON and CSV keep the program's name. */
	const char *shown;
	bool plain; /* CELL_U64 without thousands separators (IDs are names, not amounts) */
	uint8_t indent; /* CELL_STR: the text views indent it by two spaces per step (a tree) */
};

struct column {
	const char *title; /* text/TUI heading */
	const char *key;   /* JSON key and CSV heading */
	int width;         /* text/TUI width */
	bool left;         /* left-aligned (names) */
	void (*get)(const struct row *r, struct cell *c);
	int drop;          /* TUI: 0 never dropped; on a narrow screen the highest goes first */
	bool data_only;    /* CSV and JSON only: the TUI and text reports say it otherwise (the
			    * row's note, "timed N%") */
};

/* A drop number from which a column is dropped before NAME shrinks (SRC: its figure is also
 * in the header's source and the row's note). */
#define COLUMN_OPTIONAL 10
/* NAME shrinks to this width before any other column is dropped. */
#define COLUMN_MIN_TEXT 12

/* The programs-mode columns and their count. */
extern const struct column prog_columns[];
extern const int prog_ncolumns;
/* The helpers-mode columns and their count. */
extern const struct column helper_columns[];
extern const int helper_ncolumns;
/* The segments-mode columns (spans) and their count. */
extern const struct column seg_columns[];
extern const int seg_ncolumns;
/* The columns of a mode (programs columns for modes without their own). */
const struct column *columns__for_mode(enum lat_mode mode, int *n);

/* Format a cell for humans (adaptive units, thousands separators; strings in their visible
 * form, base/text.h) into buf. */
void cell__text(const struct cell *c, char *buf, size_t len);
/* Format a duration in ns with adaptive units (ns/us/ms/s), at most 8 chars. */
void fmt_ns(double ns, char *buf, size_t len);
/* Format an integer with thousands separators. */
void fmt_count(uint64_t v, char *buf, size_t len);
/* Format a rate (per second): thousands separators below 10,000 ("9,999"), then k/M
 * suffixes ("12.3k", "4.5M"). */
void fmt_rate(double v, char *buf, size_t len);
/* The loss counters of mc as the human "drops: ringbuf N  queue N  recursion N  nest N
 * events N" line, with thousands separators (text reports and the TUI's counters line). */
void fmt_drops(const struct model_counters *mc, char *buf, size_t len);
/* One log2 histogram range for humans: "[      lo,       hi)         count", half-open so a
 * range's upper edge is the next range's lower edge (the TUI pane and batch --hist both print
 * it, then a bar). */
void fmt_log2_range(const struct hist_log2_row *r, char *buf, size_t len);
/* Length of the bar for count when the widest count gets room characters (a non-empty range
 * always gets at least one). */
int log2_bar(uint64_t count, uint64_t widest, int room);

/* Fit columns into cols screen columns (one space between columns). need[c] is the width
 * column c wants (its default width, or more to show every value); least[c] (NULL: need) the
 * narrowest that still shows its heading and every value whole. Fills width[c]: optional
 * columns go first, then text columns that are never dropped (NAME) shrink down to
 * COLUMN_MIN_TEXT, then columns are dropped (width 0) in their `drop` order, room left goes
 * back to the shrunk ones, and a name still cut (narrower than its least) takes what
 * right-aligned columns only pad (their width beyond least), rightmost first. Returns the line width used. */
int columns__fit(const struct column *cols, int n, const int *need, const int *least,
		 int screen_cols, int *width);

/* Index of the column used to sort by default (count), and the sort comparison of two rows by
 * column col (descending when !reverse); NULL cells sort last. */
int columns__default_sort(enum lat_mode mode);
int columns__cmp(const struct column *col, const struct row *a, const struct row *b);
/* The order of a mode's rows by its column sortcol (descending unless reverse; the default
 * sort column when sortcol is out of range), for session__rows. */
void columns__order(enum lat_mode mode, int sortcol, bool reverse, struct row_order *ord);

#endif /* LAT_COLUMNS_H */
