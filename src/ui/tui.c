// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tui.c - the ncurses front end: header, counters line, the table, a footer of keys.
 *
 * Only this thread calls ncurses. The screen is redrawn after each interval and after keys;
 * curses' own diffing sends only what changed.
 */
#include <curses.h>
#include <inttypes.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ui/columns.h"
#include "ui/ui.h"

#define TUI_MAX_ROWS 4096
#define MIN_COLS 40
#define MIN_LINES 10

enum color_pair {
	CP_HEADER = 1,
	CP_TITLE,
	CP_SELECT,
	CP_WARN,
	CP_DIM,
	CP_NOTE,
};

/* Key handler results (bit set). */
enum {
	KH_HANDLED = 1,
	KH_REDRAW = 2,
	KH_QUIT = 4,
};

struct tui {
	struct session *s;
	struct row rows[TUI_MAX_ROWS];
	size_t nrows;
	int sel, top;     /* selected row, first row shown */
	int sortcol;
	bool reverse, cumulative, paused, help, color;
	char flash[320];  /* a message in the footer for a moment */
	bool editing;     /* the filter editor owns the keyboard */
	char edit[1024];  /* the filter being edited */
	size_t edit_len;
	uint64_t flash_until_ns;
	char host[72], kernel[72];
};

static void say(struct tui *t, const char *msg, unsigned ms);

/* Key handlers. */
static int k_quit(struct tui *t)
{
	(void)t;
	return KH_QUIT;
}

static int k_help(struct tui *t)
{
	t->help = !t->help;
	return KH_REDRAW;
}

static int k_pause(struct tui *t)
{
	t->paused = !t->paused;
	return KH_REDRAW;
}

static int k_cumulative(struct tui *t)
{
	t->cumulative = !t->cumulative;
	return KH_REDRAW;
}

static int k_reset(struct tui *t)
{
	model__reset(t->s->m, now_ns());
	say(t, "cumulative statistics reset", 2000);
	return KH_REDRAW;
}

static int k_sort_prev(struct tui *t)
{
	t->sortcol = (t->sortcol + prog_ncolumns - 1) % prog_ncolumns;
	return KH_REDRAW;
}

static int k_sort_next(struct tui *t)
{
	t->sortcol = (t->sortcol + 1) % prog_ncolumns;
	return KH_REDRAW;
}

static int k_reverse(struct tui *t)
{
	t->reverse = !t->reverse;
	return KH_REDRAW;
}

/* Move the selection by delta rows (clamped). */
static int move_sel(struct tui *t, int delta)
{
	int n = (int)t->nrows;

	t->sel += delta;
	if (t->sel >= n)
		t->sel = n - 1;
	if (t->sel < 0)
		t->sel = 0;
	return KH_REDRAW;
}

static int k_up(struct tui *t)
{
	return move_sel(t, -1);
}

static int k_down(struct tui *t)
{
	return move_sel(t, 1);
}

static int k_pgup(struct tui *t)
{
	return move_sel(t, -(LINES - 6));
}

static int k_pgdn(struct tui *t)
{
	return move_sel(t, LINES - 6);
}

static int k_home(struct tui *t)
{
	return move_sel(t, -(int)t->nrows);
}

static int k_end(struct tui *t)
{
	return move_sel(t, (int)t->nrows);
}

/* Show msg in the footer for ms milliseconds. */
static void say(struct tui *t, const char *msg, unsigned ms)
{
	snprintf(t->flash, sizeof(t->flash), "%s", msg);
	t->flash_until_ns = now_ns() + ms * 1000000ull;
}

/* Open the filter editor on the current list. */
static int k_filter(struct tui *t)
{
	session__filter_str(t->s, t->edit, sizeof(t->edit));
	t->edit_len = strlen(t->edit);
	t->editing = true;
	curs_set(1);
	return KH_REDRAW;
}

/* Apply a new filter list, or say why not. */
static void apply_filter(struct tui *t, const char *list)
{
	char err[320];

	if (session__set_filter(t->s, list, err, sizeof(err)))
		say(t, err, 4000);
	else
		say(t, *list ? "filter applied" : "filter cleared: showing all programs", 2000);
}

/* Add the selected program to the filter. */
static int k_filter_add(struct tui *t)
{
	char list[1100];
	size_t l;

	if (!t->nrows) {
		say(t, "no row selected", 1500);
		return KH_REDRAW;
	}
	session__filter_str(t->s, list, sizeof(list));
	l = strlen(list);
	snprintf(list + l, sizeof(list) - l, "%s%u", l ? "," : "", t->rows[t->sel].s->id);
	apply_filter(t, list);
	return KH_REDRAW;
}

/* Remove the selected program (its ID or its name entry) from the filter. */
static int k_filter_remove(struct tui *t)
{
	const struct series *se;
	struct opts *o = t->s->o;
	char list[1100];
	size_t l = 0;
	bool found = false;

	if (!t->nrows || !o->nfilter) {
		say(t, o->nfilter ? "no row selected" : "no filter: every program is shown",
		      2000);
		return KH_REDRAW;
	}
	se = t->rows[t->sel].s;
	list[0] = '\0';
	for (int i = 0; i < o->nfilter; i++) {
		const struct filter_ent *f = &o->filter[i];

		if (f->id ? f->id == se->id : !strcmp(f->name, se->name)) {
			found = true;
			continue;
		}
		if (f->id)
			l += snprintf(list + l, sizeof(list) - l, "%s%u", l ? "," : "", f->id);
		else
			l += snprintf(list + l, sizeof(list) - l, "%s%s", l ? "," : "", f->name);
	}
	if (!found) {
		say(t, "the selected program is not in the filter", 2000);
		return KH_REDRAW;
	}
	apply_filter(t, list);
	t->sel = 0;
	return KH_REDRAW;
}

struct key {
	int key, alt;
	int (*fn)(struct tui *t);
	const char *label; /* as shown in help and footer */
	const char *help;
	bool footer;
};

/* The key table: `?` help and the dispatcher both read it. */
static const struct key keys[] = {
	{ 'q', KEY_F(10), k_quit, "q", "quit", true },
	{ '?', 'h', k_help, "?", "help", true },
	{ ' ', 'Z', k_pause, "space", "pause the display", true },
	{ 'c', 0, k_cumulative, "c", "cumulative / per-interval figures", true },
	{ 'z', 0, k_reset, "z", "reset cumulative statistics", false },
	{ '<', 0, k_sort_prev, "<", "sort by the previous column", true },
	{ '>', KEY_F(6), k_sort_next, "> F6", "sort by the next column", true },
	{ 'r', 0, k_reverse, "r", "reverse the sort order", false },
	{ 'f', 0, k_filter, "f", "edit the filter (IDs or names, comma-separated)", true },
	{ '+', 0, k_filter_add, "+", "add the selected program to the filter", false },
	{ '-', 0, k_filter_remove, "-", "remove the selected program from the filter", false },
	{ KEY_UP, 'k', k_up, "Up", "select the previous row", false },
	{ KEY_DOWN, 'j', k_down, "Down", "select the next row", false },
	{ KEY_PPAGE, 0, k_pgup, "PgUp", "one page up", false },
	{ KEY_NPAGE, 0, k_pgdn, "PgDn", "one page down", false },
	{ KEY_HOME, 0, k_home, "Home", "first row", false },
	{ KEY_END, 0, k_end, "End", "last row", false },
};
#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

/* Set up colours (unless NO_COLOR/--no-color or the terminal has none). */
static void init_colors(struct tui *t)
{
	t->color = !t->s->o->no_color && has_colors();
	if (!t->color)
		return;
	start_color();
	use_default_colors();
	init_pair(CP_HEADER, COLOR_CYAN, -1);
	init_pair(CP_TITLE, COLOR_BLACK, COLOR_GREEN);
	init_pair(CP_SELECT, COLOR_BLACK, COLOR_CYAN);
	init_pair(CP_WARN, COLOR_RED, -1);
	init_pair(CP_DIM, COLOR_BLUE, -1);
	init_pair(CP_NOTE, COLOR_YELLOW, -1);
}

/* Attribute for a colour pair, or a mono fallback. */
static attr_t attr_of(const struct tui *t, enum color_pair cp)
{
	if (t->color)
		return COLOR_PAIR(cp) | (cp == CP_WARN ? A_BOLD : 0);
	switch (cp) {
	case CP_TITLE:
	case CP_SELECT:
		return A_REVERSE;
	case CP_WARN:
		return A_BOLD;
	default:
		return A_NORMAL;
	}
}

/* Header: host, kernel, mode, source, interval, state, filter. */
static void draw_header(struct tui *t, int y)
{
	const struct session *s = t->s;
	char filt[64] = "all";

	if (s->o->nfilter) {
		session__filter_str(s, filt, sizeof(filt));
		if (strlen(filt) > 30)
			snprintf(filt + 26, sizeof(filt) - 26, "...(%d)", s->o->nfilter);
	}
	attron(attr_of(t, CP_HEADER) | A_BOLD);
	mvprintw(y, 0, "lattop %s", LATTOP_VERSION);
	attroff(attr_of(t, CP_HEADER) | A_BOLD);
	printw("  %s  %s  mode %s  source %s  interval %.2fs  %s%s  filter %s", t->host, t->kernel,
	       opts__mode_name(s->m->mode), s->m->source, s->o->interval_ns / 1e9,
	       t->paused ? "PAUSED" : "LIVE", t->cumulative ? " cumulative" : "", filt);
	clrtoeol();
}

/* Counters line: warning colour when anything was lost in the last interval. */
static void draw_counters(struct tui *t, int y)
{
	const struct model *m = t->s->m;
	const struct model_counters *c = t->cumulative ? &m->c_cum : &m->c_last;
	bool lost = m->c_last.rb_drops || m->c_last.queue_drops || m->c_last.recursion ||
		    m->c_last.nest;
	char ev[32];

	fmt_count(c->events, ev, sizeof(ev));
	attron(lost ? attr_of(t, CP_WARN) : A_NORMAL);
	mvprintw(y, 0,
		 "drops: ringbuf %" PRIu64 "  queue %" PRIu64 "  recursion %" PRIu64
		 "  nest %" PRIu64 "   events %s   programs %zu",
		 c->rb_drops, c->queue_drops, c->recursion, c->nest, ev, t->nrows);
	attroff(lost ? attr_of(t, CP_WARN) : A_NORMAL);
	if (m->floor_ns)
		printw("   probes on %d (floor %" PRIu64 "ns, ~%.2f%% CPU)", m->probed, m->floor_ns,
		       model__probe_cost_pct(m, t->cumulative));
	clrtoeol();
}

/* One table line (heading when r is NULL), cut to the screen width. */
static void draw_table_line(struct tui *t, int y, const struct row *r)
{
	char line[512] = "";
	size_t l = 0;

	for (int c = 0; c < prog_ncolumns && l < sizeof(line) - 1; c++) {
		const struct column *col = &prog_columns[c];
		char v[64];

		if (r) {
			struct cell cell;

			col->get(r, &cell);
			cell__text(&cell, v, sizeof(v));
		} else {
			snprintf(v, sizeof(v), "%s%s", col->title,
				 c == t->sortcol ? (t->reverse ? "^" : "v") : "");
		}
		l += snprintf(line + l, sizeof(line) - l, c ? " %*.*s" : "%*.*s",
			      col->left ? -col->width : col->width, col->width, v);
	}
	if (r && r->s->gone && l < sizeof(line) - 8)
		l += snprintf(line + l, sizeof(line) - l, " (gone)");
	if (r && r->s->note[0] && l < sizeof(line) - 8)
		snprintf(line + l, sizeof(line) - l, " [%s]", r->s->note);
	mvaddnstr(y, 0, line, COLS);
	clrtoeol();
}

/* The table, scrolled so the selection is visible. */
static void draw_table(struct tui *t, int y0, int height)
{
	attron(attr_of(t, CP_TITLE));
	draw_table_line(t, y0, NULL);
	mvchgat(y0, 0, -1, attr_of(t, CP_TITLE), t->color ? CP_TITLE : 0, NULL);
	attroff(attr_of(t, CP_TITLE));
	height--;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + height)
		t->top = t->sel - height + 1;
	if (t->top < 0)
		t->top = 0;
	for (int i = 0; i < height; i++) {
		int idx = t->top + i;

		if (idx >= (int)t->nrows) {
			move(y0 + 1 + i, 0);
			clrtoeol();
			continue;
		}
		if (t->rows[idx].s->gone)
			attron(attr_of(t, CP_DIM));
		draw_table_line(t, y0 + 1 + i, &t->rows[idx]);
		if (t->rows[idx].s->gone)
			attroff(attr_of(t, CP_DIM));
		if (idx == t->sel)
			mvchgat(y0 + 1 + i, 0, -1, attr_of(t, CP_SELECT),
				t->color ? CP_SELECT : 0, NULL);
	}
}

/* Footer: the filter editor, a flash message, or the footer keys. */
static void draw_footer(struct tui *t, int y)
{
	static const char prompt[] = "filter (IDs or names; Enter apply, Esc cancel): ";

	move(y, 0);
	clrtoeol();
	if (t->editing) {
		int room = COLS - (int)sizeof(prompt);
		const char *shown = t->edit;

		if (room > 0 && (int)t->edit_len > room)
			shown += t->edit_len - room; /* keep the cursor end visible */
		attron(A_BOLD);
		addnstr(prompt, COLS);
		attroff(A_BOLD);
		addnstr(shown, room > 0 ? room : 0);
		return;
	}
	if (t->flash[0] && now_ns() < t->flash_until_ns) {
		attron(attr_of(t, CP_NOTE));
		addnstr(t->flash, COLS);
		attroff(attr_of(t, CP_NOTE));
		return;
	}
	for (int i = 0; i < NKEYS; i++) {
		if (!keys[i].footer)
			continue;
		attron(A_BOLD);
		printw("%s", keys[i].label);
		attroff(A_BOLD);
		printw(" %s  ", keys[i].help);
	}
}

/* The help screen, generated from the key table. */
static void draw_help(struct tui *t)
{
	int y = 2;

	erase();
	attron(attr_of(t, CP_HEADER) | A_BOLD);
	mvprintw(0, 0, "lattop %s keys (any key closes this help)", LATTOP_VERSION);
	attroff(attr_of(t, CP_HEADER) | A_BOLD);
	for (int i = 0; i < NKEYS && y < LINES - 1; i++, y++) {
		attron(A_BOLD);
		mvprintw(y, 2, "%-8s", keys[i].label);
		attroff(A_BOLD);
		printw(" %s", keys[i].help);
	}
}

/* Redraw the whole screen from the model. */
static void draw(struct tui *t)
{
	int y = 0;

	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		erase();
		mvprintw(0, 0, "terminal too small");
		mvprintw(1, 0, "(%dx%d, need %dx%d)", COLS, LINES, MIN_COLS, MIN_LINES);
		refresh();
		return;
	}
	if (t->help) {
		draw_help(t);
		refresh();
		return;
	}
	t->nrows = session__rows(t->s, t->cumulative, t->sortcol, t->reverse, t->rows,
				 TUI_MAX_ROWS);
	if (t->sel >= (int)t->nrows)
		t->sel = t->nrows ? (int)t->nrows - 1 : 0;
	draw_header(t, y++);
	if (t->s->m->notice[0]) {
		attron(attr_of(t, CP_NOTE));
		mvaddnstr(y++, 0, t->s->m->notice, COLS);
		attroff(attr_of(t, CP_NOTE));
		clrtoeol();
	}
	if (t->s->warn[0]) {
		attron(attr_of(t, CP_NOTE));
		mvaddnstr(y++, 0, t->s->warn, COLS);
		attroff(attr_of(t, CP_NOTE));
		clrtoeol();
	}
	draw_counters(t, y++);
	draw_table(t, y, LINES - 1 - y);
	draw_footer(t, LINES - 1);
	refresh();
}

/* A key while the filter editor is open. */
static int edit_key(struct tui *t, int ch)
{
	if (ch == 27) { /* Esc */
		t->editing = false;
		curs_set(0);
		say(t, "filter unchanged", 1500);
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		t->editing = false;
		curs_set(0);
		apply_filter(t, t->edit);
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (t->edit_len)
			t->edit[--t->edit_len] = '\0';
	} else if (ch == 21) { /* Ctrl-U clears the line */
		t->edit_len = 0;
		t->edit[0] = '\0';
	} else if (ch >= 32 && ch < 127 && t->edit_len + 1 < sizeof(t->edit)) {
		t->edit[t->edit_len++] = (char)ch;
		t->edit[t->edit_len] = '\0';
	}
	return KH_REDRAW;
}

/* Dispatch one key through the table. */
static int handle_key(struct tui *t, int ch)
{
	if (t->editing)
		return edit_key(t, ch);
	if (t->help) {
		t->help = false;
		return ch == 'q' ? KH_QUIT : KH_REDRAW;
	}
	for (int i = 0; i < NKEYS; i++)
		if (keys[i].key == ch || (keys[i].alt && keys[i].alt == ch))
			return keys[i].fn(t) | KH_HANDLED;
	if (ch == KEY_RESIZE)
		return KH_REDRAW;
	say(t, "unknown key; press ? for the list of keys", 1500);
	return KH_REDRAW;
}

/* Run the TUI until q or a signal. */
int tui__run(struct session *s)
{
	static struct tui t;
	struct utsname u;
	long printed = 0;

	memset(&t, 0, sizeof(t));
	t.s = s;
	t.sortcol = columns__default_sort();
	if (uname(&u) == 0) {
		snprintf(t.host, sizeof(t.host), "%s", u.nodename);
		snprintf(t.kernel, sizeof(t.kernel), "%s", u.release);
	}
	setlocale(LC_ALL, "");
	if (!initscr())
		return EXIT_RUNTIME;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	timeout(50); /* getch waits at most 50 ms: the queues are drained at least 20x/s */
	init_colors(&t);
	draw(&t);
	while (!ui_stop) {
		uint64_t now = now_ns();
		int ch = getch();

		if (s->end_ns && now >= s->end_ns)
			break;
		if (session__tick(s, now)) {
			printed++;
			if (!t.paused)
				draw(&t);
			if (s->o->iterations && printed >= s->o->iterations)
				break;
		}
		if (ch == ERR)
			continue;
		int r = handle_key(&t, ch);

		if (r & KH_QUIT)
			break;
		if (r & KH_REDRAW)
			draw(&t);
	}
	endwin();
	return EXIT_OK;
}
