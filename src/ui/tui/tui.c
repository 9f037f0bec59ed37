// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tui.c - the ncurses front end: header, counters line, the table, the detail pane, a footer
 * of keys, the key table, themes, and the loop (the footer's prompts and the filter and
 * search keys are tui_prompt.c's).
 *
 * Only this thread calls ncurses. The screen is redrawn after each interval and after keys;
 * lines are overwritten in place (no erase), so curses' own diffing sends only what changed.
 */
#include <curses.h>
#include <inttypes.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/text.h"
#include "rec/recorder.h"
#include "rec/replay.h"
#include "session/filter.h"
#include "output/flight_ses.h"
#include "output/record.h"
#include "ui/cmpview.h"
#include "ui/counters.h"
#include "ui/tui/keys.h"
#include "ui/tui/tui.h"
#include "ui/tui/tui_int.h"

/* Show msg in the footer for ms milliseconds. */
void tui__say(struct tui *t, const char *msg, unsigned ms)
{
	/* Messages may name programs, files and themes: ncurses would act on CR, LF and BS. */
	text__esc(t->flash, sizeof(t->flash), msg);
	t->flash_until_ns = now_ns() + ms * 1000000ull;
}

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
	/* A replay's cumulative figures restart at the recorded time shown. */
	model__reset(t->s->m, session__now_ns(t->s));
	tui__say(t, "cumulative statistics reset", 2000);
	return KH_REDRAW;
}

static int k_sort_prev(struct tui *t)
{
	int n;

	columns__for_mode(t->s->m->mode, &n);
	t->sortcol = (t->sortcol + n - 1) % n;
	return KH_REDRAW;
}

static int k_sort_next(struct tui *t)
{
	int n;

	columns__for_mode(t->s->m->mode, &n);
	t->sortcol = (t->sortcol + 1) % n;
	return KH_REDRAW;
}

static int k_reverse(struct tui *t)
{
	t->reverse = !t->reverse;
	return KH_REDRAW;
}

/* Select row idx (clamped); the selection then follows that program across re-sorts. */
int tui__select(struct tui *t, int idx)
{
	int n = (int)t->nrows;

	if (idx >= n)
		idx = n - 1;
	if (idx < 0)
		idx = 0;
	t->sel = idx;
	t->sel_id = n && !t->cmp ? t->rows[idx].s->id : 0;
	t->sel_kind = t->sel_id ? t->rows[idx].s->kind : 0;
	t->sel_aux = t->sel_id ? t->rows[idx].s->aux : 0;
	return KH_REDRAW;
}

/* Rows a page moves: the table's height. */
static int page_rows(void)
{
	return LINES > 8 ? LINES - 6 : 1;
}

static int k_up(struct tui *t)
{
	return tui__select(t, t->sel - 1);
}

static int k_down(struct tui *t)
{
	return tui__select(t, t->sel + 1);
}

static int k_pgup(struct tui *t)
{
	return tui__select(t, t->sel - page_rows());
}

static int k_pgdn(struct tui *t)
{
	return tui__select(t, t->sel + page_rows());
}

static int k_home(struct tui *t)
{
	return tui__select(t, 0);
}

static int k_end(struct tui *t)
{
	return tui__select(t, (int)t->nrows - 1);
}

/* Toggle the detail pane (histogram and sparkline) of the selected row. */
static int k_pane(struct tui *t)
{
	if (!t->nrows) {
		tui__say(t, "no row selected: the histogram pane shows the selected program", 2000);
		return KH_REDRAW;
	}
	t->pane = !t->pane;
	return KH_REDRAW;
}

/* Whether the model holds CPU series of program id. */
static bool has_cpu_rows(const struct model *m, uint32_t id)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->s[i].kind == LAT_EV_PROG_CPU && m->s[i].id == id)
			return true;
	return false;
}

/* C: split the selected program by CPU (its CPU rows under it, from now on), or hide and show
 * them again; on a CPU row, hide its program's. */
static int k_split(struct tui *t)
{
	struct model *m = t->s->m;
	struct series *p;
	char msg[320], name[4 * sizeof(p->name)];

	if (m->mode != MODE_PROGRAMS) {
		tui__say(t, "C splits a program by CPU: in programs mode (p)", 2500);
		return KH_REDRAW;
	}
	if (!t->nrows) {
		tui__say(t, "no row selected: C splits the selected program by CPU", 2000);
		return KH_REDRAW;
	}
	p = model__find(m, LAT_EV_PROG, t->rows[t->sel].s->id, 0, 0);
	if (!p)
		return KH_REDRAW;
	text__esc(name, sizeof(name), p->name);
	if (session__replay(t->s)) {
		if (m->cpu_rows_all)
			tui__say(t, "--per-cpu shows every program's CPU rows", 2500);
		else if (!has_cpu_rows(m, p->id)) {
			snprintf(msg, sizeof(msg),
				 "the recording holds no per-CPU figures of %.200s (record with "
				 "--per-cpu, or C while recording)", name);
			tui__say(t, msg, 3000);
		} else
			p->cpu_rows = !p->cpu_rows;
	} else if (!p->split_ns) {
		model__split(p, session__now_ns(t->s));
		p->cpu_rows = true;
		snprintf(msg, sizeof(msg), "%.200s split by CPU from now on%s", name,
			 (p->src & SRC_PROBING) ? ""
						: " (not measured per invocation now: no CPU rows yet)");
		tui__say(t, msg, 3000);
	} else
		p->cpu_rows = !p->cpu_rows;
	if (!p->cpu_rows && t->rows[t->sel].s->kind == LAT_EV_PROG_CPU) {
		t->sel_kind = LAT_EV_PROG; /* the selection goes back to the program */
		t->sel_aux = 0;
	}
	return KH_REDRAW;
}

/* K: hide or show the breakdown groups of the selected span (or of a group's span). */
static int k_groups(struct tui *t)
{
	struct model *m = t->s->m;
	struct series *sp;
	bool any = false;

	if (m->mode != MODE_SEGMENTS || !t->nrows) {
		tui__say(t, "K shows or hides a span's breakdown (--by): select a span in segments "
			    "mode",
			 2500);
		return KH_REDRAW;
	}
	sp = model__find(m, LAT_EV_SEG, t->rows[t->sel].s->id, 0, 0);
	for (size_t i = 0; sp && i < m->n && !any; i++)
		any = m->s[i].kind == LAT_EV_SPAN_GRP && m->s[i].id == sp->id;
	if (!any) {
		tui__say(t, "this span has no breakdown groups (-u ... --by KEY, or \"breakdown\")",
			 2500);
		return KH_REDRAW;
	}
	sp->grp_hidden = !sp->grp_hidden;
	if (sp->grp_hidden && t->rows[t->sel].s->kind == LAT_EV_SPAN_GRP) {
		t->sel_kind = LAT_EV_SEG; /* the selection goes back to the span */
		t->sel_aux = 0;
	}
	return KH_REDRAW;
}

/* Toggle the detail pane between the histogram and the heatmap (opening it on the heatmap). */
static int k_heat(struct tui *t)
{
	if (!t->nrows) {
		tui__say(t, "no row selected: the heatmap shows the selected program", 2000);
		return KH_REDRAW;
	}
	t->heat = t->pane ? !t->heat : true;
	t->pane = true;
	return KH_REDRAW;
}

/* o: the pane of a span shows its wall time, then its on-CPU, runnable and sleeping time. */
static int k_part(struct tui *t)
{
	static const char *const said[LAT_PART__COUNT] = {
		"pane: wall time (start to end)", "pane: on-CPU time (the task ran)",
		"pane: runnable time (waiting for a CPU)", "pane: sleeping time (blocked)" };

	t->part = (t->part + 1) % LAT_PART__COUNT;
	t->pane = true;
	tui__say(t, said[t->part], 2000);
	return KH_REDRAW;
}

/* The view is now in mode m: its own default sort, the selection back at the top. */
static void mode_entered(struct tui *t, enum lat_mode m)
{
	char msg[64];

	snprintf(msg, sizeof(msg), "%s mode", opts__mode_name(m));
	t->sortcol = columns__default_sort(m); /* each mode has its own columns */
	t->sel = 0;
	t->sel_id = 0;
	t->top = 0;
	tui__say(t, msg, 3000);
}

/* Switch the view to mode m, or say why not (the mode stays). */
static int set_mode(struct tui *t, enum lat_mode m)
{
	char msg[320];

	if (m == t->s->m->mode)
		snprintf(msg, sizeof(msg), "already in %s mode", opts__mode_name(m));
	else if (session__set_mode(t->s, m, msg, sizeof(msg)) == 0) {
		mode_entered(t, m);
		return KH_REDRAW;
	}
	tui__say(t, msg, 3000);
	return KH_REDRAW;
}

static int k_mode_programs(struct tui *t)
{
	return set_mode(t, MODE_PROGRAMS);
}

static int k_mode_helpers(struct tui *t)
{
	return set_mode(t, MODE_HELPERS);
}

static int k_mode_segments(struct tui *t)
{
	return set_mode(t, MODE_SEGMENTS);
}

/* Tab: the next mode that can be shown after the current one (programs, helpers, segments,
 * programs...), skipping those that cannot; when none can, why the next one cannot. */
static int k_mode_next(struct tui *t)
{
	enum lat_mode cur = t->s->m->mode;
	char msg[320], first[320] = "";

	for (int i = 1; i < MODE__COUNT; i++) {
		enum lat_mode m = (enum lat_mode)((cur + i) % MODE__COUNT);

		if (session__set_mode(t->s, m, msg, sizeof(msg)) == 0) {
			mode_entered(t, m);
			return KH_REDRAW;
		}
		if (!first[0])
			snprintf(first, sizeof(first), "%s", msg);
	}
	tui__say(t, first, 3000);
	return KH_REDRAW;
}

/* Map a theme colour to this terminal: bright colours fall back to normal ones on 8-colour
 * terminals, 256-colour numbers to the terminal's default. */
static short term_color(short c)
{
	if (c < 0 || c < COLORS)
		return c;
	return c < 16 ? (short)(c - 8) : -1;
}

/* Curses attributes of theme attribute bits. */
static attr_t curses_attrs(unsigned bits)
{
	return ((bits & THEME_BOLD) ? A_BOLD : 0) | ((bits & THEME_REVERSE) ? A_REVERSE : 0) |
	       ((bits & THEME_UNDERLINE) ? A_UNDERLINE : 0) | ((bits & THEME_DIM) ? A_DIM : 0);
}

/* Turn t->theme into colour pairs and attributes (the mono theme without colours). */
static void apply_theme(struct tui *t)
{
	struct theme mono;
	const struct theme *th = &t->theme;

	if (!t->color) {
		theme__mono(&mono);
		th = &mono;
	}
	for (int i = 0; i < TH__COUNT; i++) {
		const struct theme_color *c = &th->c[i];
		short fg = term_color(c->fg), bg = term_color(c->bg);

		t->attr[i] = curses_attrs(c->attrs);
		/* A slot in the terminal's own colours uses no pair: no colour escapes at all. */
		if (t->color && (fg >= 0 || bg >= 0)) {
			init_pair((short)(i + 1), fg, bg);
			t->attr[i] |= COLOR_PAIR(i + 1);
		}
	}
}

/* Load theme name ("default" is compiled in) into t; errors go to the footer (false). */
static bool load_theme(struct tui *t, const char *name)
{
	char path[4096], msg[512] = "";

	if (!strcmp(name, "default") && theme__find(name, path, sizeof(path))) {
		theme__default(&t->theme);
	} else if (theme__find(name, path, sizeof(path))) {
		theme__default(&t->theme);
		snprintf(msg, sizeof(msg), "theme '%s' not found; using the default theme", name);
	} else {
		theme__load(&t->theme, path, msg, sizeof(msg));
	}
	apply_theme(t);
	if (msg[0])
		tui__say(t, msg, 10000);
	return !msg[0];
}

/* Next theme from the list of theme files. */
static int k_theme(struct tui *t)
{
	char msg[128];

	if (!t->color) {
		tui__say(t,
			 "no colours (NO_COLOR, --no-color or the terminal): themes do not apply",
			 2500);
		return KH_REDRAW;
	}
	t->theme_idx = (t->theme_idx + 1) % t->nthemes;
	if (load_theme(t, t->themes[t->theme_idx])) {
		snprintf(msg, sizeof(msg), "theme %s", t->theme.name);
		tui__say(t, msg, 2000);
	}
	return KH_REDRAW;
}

/* Start or stop recording to a default file name (w; live sessions only). */
static int k_record(struct tui *t)
{
	char msg[320];

	if (!session__can_record(t->s)) {
		tui__say(t, "this is a replay: recording applies to live sessions", 2000);
		return KH_REDRAW;
	}
	session__record_toggle(t->s, NULL, msg, sizeof(msg));
	tui__say(t, msg, 3000);
	return KH_REDRAW;
}

/* Prompt for a recording's file name, the default one filled in (W); stops one that runs. */
static int k_record_as(struct tui *t)
{
	char def[64];

	if (!session__can_record(t->s) || t->s->rec)
		return k_record(t);
	recorder__default_name(def, sizeof(def));
	return tui__open_prompt(t, PROMPT_RECORD, def);
}

/* Dump the flight recorder's history so far (D; live sessions with --flight; the footer shows
 * it only then). */
static int k_flight_dump(struct tui *t)
{
	struct flight_stats st;
	char msg[160];

	if (!t->s->fl) {
		tui__say(t, "the flight recorder is off: start lattop with --flight DURATION", 3000);
		return KH_REDRAW;
	}
	flight__stats(t->s->fl, &st);
	session__flight_dump(t->s, FT_KEY, 0);
	snprintf(msg, sizeof(msg), "flight recorder: dumping %llu intervals",
		 (unsigned long long)st.intervals);
	tui__say(t, msg, 3000);
	return KH_REDRAW;
}

/* The key table: the dispatcher, `?`, the footer and the replay keys line all read it. A key
 * has one meaning per kind of session: in a replay, space, + - and Home End drive the replay
 * clock (tui_replay.c) instead of pausing the display, editing the filter and selecting rows. */
static const struct tui_key keys[] = {
	{ 'q', KEY_F(10), KEY_BOTH, k_quit, 0, "q F10", "quit", true },
	{ '?', KEY_F(1), KEY_BOTH, k_help, 0, "? F1", "help", true },
	{ 'D', 0, KEY_LIVE, k_flight_dump, 0, "D", "dump the flight recorder (--flight)", true },
	{ ' ', 'Z', KEY_LIVE, k_pause, 0, "space Z", "pause the display", true },
	{ ' ', 0, KEY_REPLAY, NULL, RA_PAUSE, "space", "pause / resume the replay", true },
	{ 'Z', 0, KEY_REPLAY, k_pause, 0, "Z", "pause the display", false },
	{ 'c', 0, KEY_BOTH, k_cumulative, 0, "c", "cumulative / per-interval figures", true },
	{ 'z', 0, KEY_BOTH, k_reset, 0, "z", "reset cumulative statistics", false },
	{ '<', 0, KEY_BOTH, k_sort_prev, 0, "<", "sort by the previous column", true },
	{ '>', KEY_F(6), KEY_BOTH, k_sort_next, 0, "> F6", "sort by the next column", true },
	{ 'r', 0, KEY_BOTH, k_reverse, 0, "r", "reverse the sort order", false },
	{ '\n', 'H', KEY_BOTH, k_pane, 0, "Enter H", "histogram pane of the selected row", true },
	{ 'C', 0, KEY_BOTH, k_split, 0, "C", "split the selected program by CPU (again: hide, show)",
	  false },
	{ 'K', 0, KEY_BOTH, k_groups, 0, "K", "hide / show the selected span's breakdown groups",
	  false },
	{ 'm', 0, KEY_BOTH, k_heat, 0, "m", "the pane: histogram / heatmap over time",
	  true },
	{ 'o', 0, KEY_BOTH, k_part, 0, "o", "a span's pane: wall / on-CPU / runnable / sleeping time",
	  false },
	{ 'f', 0, KEY_BOTH, tui__key_filter, 0, "f", "edit the filter (IDs, names or selectors like comm:NAME)",
	  true },
	{ '+', 0, KEY_LIVE, tui__key_filter_add, 0, "+", "add the selected program to the filter", false },
	{ '-', 0, KEY_LIVE, tui__key_filter_remove, 0, "-", "remove the selected program from the filter",
	  false },
	{ '+', '=', KEY_REPLAY, NULL, RA_FASTER, "+ =", "replay faster, up to x64", false },
	{ '-', 0, KEY_REPLAY, NULL, RA_SLOWER, "-", "replay slower, down to x0.25", false },
	{ '.', 0, KEY_REPLAY, NULL, RA_NEXT, ".", "step to the next interval", false },
	{ ',', 0, KEY_REPLAY, NULL, RA_PREV, ",", "step to the previous interval", false },
	{ 'g', 'b', KEY_REPLAY, NULL, RA_JUMP, "g b", "jump to a time", false },
	{ 'd', 0, KEY_BOTH, tui__key_interval, 0, "d", "set the interval (seconds)", true },
	{ 'w', 0, KEY_LIVE, k_record, 0, "w", "start / stop recording to lattop-DATE-TIME.lrec",
	  false },
	{ 'W', 0, KEY_LIVE, k_record_as, 0, "W", "start recording to a file name you type (or stop)",
	  false },
	{ '/', 0, KEY_BOTH, tui__key_search, 0, "/", "search by name", true },
	{ 'n', 0, KEY_BOTH, tui__key_search_next, 0, "n", "next match of the search", false },
	{ 't', 0, KEY_BOTH, k_theme, 0, "t", "next colour theme", true },
	{ 'p', 0, KEY_BOTH, k_mode_programs, 0, "p", "programs mode", false },
	{ 'h', 0, KEY_BOTH, k_mode_helpers, 0, "h", "helpers mode (map helper latency; needs fentry)",
	  false },
	{ 's', 0, KEY_BOTH, k_mode_segments, 0, "s",
	  "segments mode (-u, --spans, --profile's vhost chain)", false },
	{ '\t', 0, KEY_BOTH, k_mode_next, 0, "Tab", "next mode", false },
	{ KEY_UP, 'k', KEY_BOTH, k_up, 0, "Up k", "select the previous row", false },
	{ KEY_DOWN, 'j', KEY_BOTH, k_down, 0, "Down j", "select the next row", false },
	{ KEY_PPAGE, 0, KEY_BOTH, k_pgup, 0, "PgUp", "one page up", false },
	{ KEY_NPAGE, 0, KEY_BOTH, k_pgdn, 0, "PgDn", "one page down", false },
	{ KEY_HOME, 0, KEY_LIVE, k_home, 0, "Home", "first row", false },
	{ KEY_END, 0, KEY_LIVE, k_end, 0, "End", "last row", false },
	{ KEY_HOME, 0, KEY_REPLAY, NULL, RA_FIRST, "Home", "first interval", false },
	{ KEY_END, 0, KEY_REPLAY, NULL, RA_LAST, "End", "last interval", false },
	/* A comparison (tui_cmp.c): a table of series and a pane of both sides, nothing to play. */
	{ 'q', KEY_F(10), KEY_COMPARE, k_quit, 0, "q F10", "quit", true },
	{ '?', KEY_F(1), KEY_COMPARE, k_help, 0, "? F1", "help", true },
	{ '\n', 'H', KEY_COMPARE, k_pane, 0, "Enter H", "pane: A and B of the series", true },
	{ 'm', 0, KEY_COMPARE, k_heat, 0, "m", "pane: histograms / heatmaps", true },
	{ 't', 0, KEY_COMPARE, k_theme, 0, "t", "next colour theme", true },
	{ KEY_UP, 'k', KEY_COMPARE, k_up, 0, "Up k", "select the previous series", false },
	{ KEY_DOWN, 'j', KEY_COMPARE, k_down, 0, "Down j", "select the next series", false },
	{ KEY_PPAGE, 0, KEY_COMPARE, k_pgup, 0, "PgUp", "one page up", false },
	{ KEY_NPAGE, 0, KEY_COMPARE, k_pgdn, 0, "PgDn", "one page down", false },
	{ KEY_HOME, 0, KEY_COMPARE, k_home, 0, "Home", "first series", false },
	{ KEY_END, 0, KEY_COMPARE, k_end, 0, "End", "last series", false },
};
#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

/* The key table and its length. */
const struct tui_key *tui__keys(size_t *n)
{
	*n = (size_t)NKEYS;
	return keys;
}

/* The replay clock keys as one line (under the header), from the key table, so the line and
 * the keys cannot disagree; `?` says what each does. */
static void replay_keys_line(char *buf, size_t len)
{
	size_t l = (size_t)snprintf(buf, len, "replay keys:");

	for (int i = 0; i < NKEYS && l < len; i++)
		if (keys[i].scope == KEY_REPLAY && keys[i].act)
			l += (size_t)snprintf(buf + l, len - l, "  %s", keys[i].label);
	if (l < len)
		snprintf(buf + l, len - l, "  (? says what each does)");
}

/* The scope of t's session: KEY_COMPARE, KEY_REPLAY or KEY_LIVE. */
static enum key_scope scope_of(const struct tui *t)
{
	if (t->cmp)
		return KEY_COMPARE;
	return session__replay(t->s) ? KEY_REPLAY : KEY_LIVE;
}

/* The entry of key ch for a session of scope sc, NULL for none. */
static const struct tui_key *key_find(int ch, enum key_scope sc)
{
	for (int i = 0; i < NKEYS; i++)
		if ((keys[i].scope & sc) && (keys[i].key == ch || (keys[i].alt && keys[i].alt == ch)))
			return &keys[i];
	return NULL;
}

/* Counters line: warning colour when anything was lost in the last interval. */
static void draw_counters(struct tui *t, int y)
{
	const struct model *m = t->s->m;
	const struct model_counters *c = t->cumulative ? &m->c_cum : &m->c_last;
	bool lost = m->c_last.rb_drops || m->c_last.queue_drops || m->c_last.recursion ||
		    m->c_last.nest;
	char line[256], rows[32], tail[160], probes[320] = "";
	int x;

	fmt_drops(c, line, sizeof(line));
	fmt_count(t->nrows, rows, sizeof(rows));
	attron(lost ? tui_attr(t, TH_WARN) : A_NORMAL);
	mvprintw(y, 0, "%s   programs %s", line, rows);
	attroff(lost ? tui_attr(t, TH_WARN) : A_NORMAL);
	counters__budget_tail(m, t->cumulative, tail, sizeof(tail));
	if (m->floor_ns && m->run_cost_ns)
		snprintf(probes, sizeof(probes),
			 "   probes on %d (floor %" PRIu64 "ns, %" PRIu64 " ns a run, %.2f%% CPU%s)",
			 m->probed, m->floor_ns, m->run_cost_ns,
			 model__probe_cost_pct(m, t->cumulative), tail);
	else if (m->floor_ns)
		snprintf(probes, sizeof(probes), "   probes on %d (floor %" PRIu64 "ns, ~%.2f%% CPU%s)",
			 m->probed, m->floor_ns, model__probe_cost_pct(m, t->cumulative), tail);
	/* Cut at the screen's edge: the budget's part makes the line long, and a wrap would
	 * write over the line below. */
	x = getcurx(stdscr);
	if (probes[0] && x < COLS)
		addnstr(probes, COLS - x);
	clrtoeol();
}

/* Session-wide named counters (the vhost chain's; helper_busy, helper_foreign, prog_stale,
 * helper_stale), in segments and helpers modes, and in programs mode once a loss counter
 * counted something: one more line, in the warning colour when a loss counter grew in the last
 * interval. */
static void draw_named(struct tui *t, int y)
{
	const struct model *m = t->s->m;
	bool lost = model__counters_lost(m, NULL);
	char buf[512];

	counters__named_line(m, t->cumulative, buf, sizeof(buf));
	move(y, 0);
	attron(lost ? tui_attr(t, TH_WARN) : A_NORMAL);
	addstr("counters: ");
	addnstr(buf, COLS > 10 ? COLS - 10 : 0);
	attroff(lost ? tui_attr(t, TH_WARN) : A_NORMAL);
	clrtoeol();
}

/* True when the model has session-wide named counters (only loss counters that counted
 * something, when lost is set: programs mode shows the line only then, e.g. prog_stale,
 * collector_errors, a replay's lost_frames). */
static bool has_named(const struct model *m, bool lost)
{
	for (size_t i = 0; i < m->nctr; i++)
		if (m->ctr[i].series < 0 &&
		    (!lost || (m->ctr[i].loss && (m->ctr[i].cum || m->ctr[i].last))))
			return true;
	return false;
}

/* The prompt text of each prompt kind. */
static const char *const prompts[] = {
	[PROMPT_FILTER] = "filter (IDs, names, key:value; Enter apply, Esc cancel): ",
	[PROMPT_INTERVAL] = "interval in seconds (Enter apply, Esc cancel): ",
	[PROMPT_SEARCH] = "search name (Enter find, Esc cancel): ",
	[PROMPT_RECORD] = "record to file (Enter start, Esc cancel): ",
};

/* Footer: the open prompt, a flash message, or the footer keys. */
static void draw_footer(struct tui *t, int y)
{
	move(y, 0);
	clrtoeol();
	if (t->prompt) {
		const char *prompt = prompts[t->prompt], *shown = t->edit;
		int room = COLS - (int)strlen(prompt) - 1;

		if (room > 0 && (int)t->edit_len > room)
			shown += t->edit_len - room; /* keep the cursor end visible */
		attron(A_BOLD);
		addnstr(prompt, COLS);
		attroff(A_BOLD);
		addnstr(shown, room > 0 ? room : 0);
		return;
	}
	if (t->flash[0] && now_ns() < t->flash_until_ns) {
		attron(tui_attr(t, TH_NOTE));
		addnstr(t->flash, COLS);
		attroff(tui_attr(t, TH_NOTE));
		return;
	}
	for (int i = 0; i < NKEYS; i++) {
		int x = getcurx(stdscr), first = (int)strcspn(keys[i].label, " ");
		int need = first + (int)strlen(keys[i].help) + 3;

		if (!keys[i].footer || !(keys[i].scope & scope_of(t)) ||
		    (keys[i].fn == k_flight_dump && !t->s->fl))
			continue; /* D only when there is a flight recorder to dump */
		if (x + need > COLS)
			break; /* whole entries only */
		attron(A_BOLD);
		printw("%.*s", first, keys[i].label);
		attroff(A_BOLD);
		printw(" %s  ", keys[i].help);
	}
}

/* The help screen, generated from the key table: the keys of this kind of session (two
 * columns when they would not fit in one). */
static void draw_help(struct tui *t)
{
	const struct tui_key *shown[NKEYS];
	int n = 0, rows = LINES - 3 > 1 ? LINES - 3 : 1, ncols, colw;

	for (int i = 0; i < NKEYS; i++)
		if (keys[i].scope & scope_of(t))
			shown[n++] = &keys[i];
	ncols = (n + rows - 1) / rows;
	colw = COLS / ncols;
	if (colw < 30) /* too narrow for all: the columns that fit, and a line saying so */
		colw = COLS >= 60 ? 30 : COLS;

	erase();
	attron(tui_attr(t, TH_HEADER));
	mvprintw(0, 0, "lattop %s %skeys (any key closes this help)", LATTOP_VERSION,
		 t->cmp ? "comparison " : session__replay(t->s) ? "replay " : "");
	attroff(tui_attr(t, TH_HEADER));
	for (int i = 0; i < n; i++) {
		int col = i / rows, y = 2 + i % rows, room;

		if (col * colw + colw > COLS || y >= LINES - 1) {
			mvaddnstr(LINES - 1, 0, "(more keys: enlarge the terminal, or see lattop(8))",
				  COLS);
			break;
		}
		attron(A_BOLD);
		mvprintw(y, col * colw + 2, "%-8s", shown[i]->label);
		attroff(A_BOLD);
		addnstr(" ", 1);
		/* The text may run to the next column's start (to the edge in the last one). */
		room = (col == ncols - 1 ? COLS : (col + 1) * colw - 1) - getcurx(stdscr);
		addnstr(shown[i]->help, room > 0 ? room : 0);
	}
}

/* Keep the selection on the same row after the rows were recomputed: the same series, or
 * else its program (a CPU row hidden, a helper gone). */
static void follow_selection(struct tui *t)
{
	int prog = -1;

	for (size_t i = 0; t->sel_id && i < t->nrows; i++) {
		const struct series *se = t->rows[i].s;

		if (se->id != t->sel_id)
			continue;
		if (se->kind == t->sel_kind && se->aux == t->sel_aux) {
			t->sel = (int)i;
			return;
		}
		if (prog < 0)
			prog = (int)i;
	}
	tui__select(t, prog >= 0 ? prog : t->sel);
}

/* Redraw the whole screen from the model. */
void tui__draw(struct tui *t)
{
	struct row_order ord;
	int y = 0, table_h, pane_h;
	char why[400];

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
	if (t->cmp) {
		tui__draw_compare(t);
		draw_footer(t, LINES - 1);
		refresh();
		return;
	}
	columns__order(t->s->m->mode, t->sortcol, t->reverse, &ord);
	t->nrows = session__rows(t->s, t->cumulative, &ord, t->rows, TUI_MAX_ROWS);
	follow_selection(t);
	tui__draw_header(t, y++);
	/* A notice wraps at spaces: two lines on a screen with room for them, else one. */
	y += tui__draw_wrapped(y, model__notice(t->s->m), LINES >= 20 ? 2 : 1,
			       tui_attr(t, TH_NOTE));
	y += tui__draw_wrapped(y, t->s->warn, LINES >= 20 ? 2 : 1, tui_attr(t, TH_NOTE));
	/* A flight dump says why it was written (the header marks the interval: FIRED). */
	if (session__replay(t->s) && replay__dump_line(session__replay(t->s), why, sizeof(why)))
		y += tui__draw_wrapped(y, why, 1, tui_attr(t, TH_NOTE));
	/* Errors the session went on after (a recording that failed ...): they stay. */
	y += tui__draw_wrapped(y, t->s->errors, LINES >= 20 ? 2 : 1, tui_attr(t, TH_WARN));
	draw_counters(t, y++);
	if (has_named(t->s->m, t->s->m->mode == MODE_PROGRAMS))
		draw_named(t, y++);
	table_h = LINES - 1 - y;
	pane_h = tui__pane_height(t, table_h);
	if (pane_h) {
		/* The pane sits right under the rows; what is left below it is cleared. */
		int rows_h = table_h - pane_h;

		if ((int)t->nrows + 1 < rows_h)
			rows_h = (int)t->nrows + 1;
		tui__draw_table(t, y, rows_h);
		tui__draw_pane(t, y + rows_h, pane_h);
		for (int i = y + rows_h + pane_h; i < LINES - 1; i++) {
			move(i, 0);
			clrtoeol();
		}
	} else {
		tui__draw_table(t, y, table_h);
	}
	draw_footer(t, LINES - 1);
	if (t->prompt)
		move(LINES - 1, (int)strlen(prompts[t->prompt]) +
					(t->edit_len < (size_t)COLS ? (int)t->edit_len : 0));
	refresh();
}

/* Put the footer keys back once a message's moment is over (also while paused). */
static void expire_flash(struct tui *t, uint64_t now)
{
	if (!t->flash[0] || now < t->flash_until_ns)
		return;
	t->flash[0] = '\0';
	if (t->help || t->prompt || COLS < MIN_COLS || LINES < MIN_LINES)
		return;
	draw_footer(t, LINES - 1);
	refresh();
}

/* Run key k's handler, or its replay action (the footer then says what it said). */
static int run_key(struct tui *t, const struct tui_key *k)
{
	char said[sizeof(t->flash)];

	if (k->fn)
		return k->fn(t) | KH_HANDLED;
	tui__replay_act(t->s, k->act, said, sizeof(said));
	text__esc(t->flash, sizeof(t->flash), said); /* may quote what was typed */
	t->flash_until_ns = t->flash[0] ? now_ns() + 3000000000ull : 0;
	return KH_HANDLED | KH_REDRAW;
}

/* Dispatch one key through the table: the entry for this kind of session, or a sentence
 * saying which kind the key is for. */
static int handle_key(struct tui *t, int ch)
{
	const struct tui_key *k;
	char said[sizeof(t->flash)];

	if (t->prompt)
		return tui__edit_key(t, ch);
	if (ch == KEY_RESIZE)
		return KH_REDRAW;
	if (t->help) {
		t->help = false;
		return ch == 'q' ? KH_QUIT : KH_REDRAW;
	}
	if (ch == '\r' || ch == KEY_ENTER)
		ch = '\n';
	k = key_find(ch, scope_of(t));
	if (k)
		return run_key(t, k);
	k = key_find(ch, KEY_BOTH & ~scope_of(t));
	if (k && t->cmp)
		snprintf(said, sizeof(said), "%.*s is for sessions and replays, not comparisons: %s",
			 (int)strcspn(k->label, " "), k->label, k->help);
	else if (k)
		snprintf(said, sizeof(said), "%.*s is for %s: %s", (int)strcspn(k->label, " "),
			 k->label,
			 session__replay(t->s) ? "live sessions, not replays" : "replays (lattop -r FILE)",
			 k->help);
	else
		snprintf(said, sizeof(said), "unknown key; press ? for the list of keys");
	tui__say(t, said, k ? 2500 : 1500);
	return KH_REDRAW;
}

/* Create the TUI state over session s (curses is started by the caller). */
struct tui *tui__new(struct session *s)
{
	struct tui *t = calloc(1, sizeof(*t));
	const char *host, *kernel;

	if (!t)
		return NULL;
	t->s = s;
	t->sortcol = columns__default_sort(s->m ? s->m->mode : MODE_PROGRAMS);
	session__origin(s, &host, &kernel);
	text__esc(t->host, sizeof(t->host), host);
	text__esc(t->kernel, sizeof(t->kernel), kernel);
	t->color = !s->o->no_color && has_colors();
	if (t->color) {
		start_color();
		use_default_colors();
	}
	t->nthemes = theme__list(t->themes, TUI_MAX_THEMES);
	load_theme(t, s->o->theme ? s->o->theme : "default");
	/* t continues from the theme in use (or from the start of the list for a path). */
	for (int i = 0; i < t->nthemes; i++)
		if (!strcmp(t->themes[i], t->theme.name))
			t->theme_idx = i;
	return t;
}

/* Free the TUI state (NULL is a no-op). */
void tui__free(struct tui *t)
{
	free(t);
}

/* Take the terminal's size again now that curses catches SIGWINCH: initscr reads the size
 * before it installs its handler, and a resize in between (tmux or a window manager resizing
 * the terminal while lattop starts) sends a SIGWINCH nobody catches, so the screen would stay
 * laid out for the old size until the next resize. LINES/COLUMNS in the environment override
 * the terminal's size in curses; then this leaves curses alone. */
static void catch_up_size(void)
{
	struct winsize ws;

	if (getenv("LINES") || getenv("COLUMNS"))
		return;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_row || !ws.ws_col)
		return;
	if (is_term_resized(ws.ws_row, ws.ws_col))
		resizeterm(ws.ws_row, ws.ws_col);
}

/* Start curses and the TUI state over s, and draw; NULL (curses ended) on failure. */
static struct tui *tui_start(struct session *s, struct cmp_view *cmp)
{
	struct tui *t;

	setlocale(LC_ALL, "");
	if (!initscr())
		return NULL;
	cbreak();
	noecho();
	nonl(); /* Enter arrives as '\r', told apart from Ctrl-J */
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	catch_up_size();
	timeout(50); /* getch waits at most 50 ms: the queues are drained at least 20x/s */
	t = tui__new(s);
	if (!t) {
		endwin();
		return NULL;
	}
	t->cmp = cmp;
	tui__draw(t);
	return t;
}

/* Take getch's ch (ERR: none came, so expire the footer's flash at now): handle the key and
 * redraw if it asks; true when it quits. */
static bool take_key(struct tui *t, int ch, uint64_t now)
{
	int r;

	if (ch == ERR) {
		expire_flash(t, now);
		return false;
	}
	r = handle_key(t, ch);
	if ((r & KH_REDRAW) && !(r & KH_QUIT))
		tui__draw(t);
	return r & KH_QUIT;
}

/* Run the comparison's screen until q or a signal: keys only, nothing ticks. */
int tui__run_compare(struct cmp_view *v, volatile sig_atomic_t *stop)
{
	struct tui *t = tui_start(v->a, v);

	if (!t)
		return EXIT_RUNTIME;
	while (!*stop) {
		int ch = getch();

		if (take_key(t, ch, ch == ERR ? now_ns() : 0))
			break;
	}
	tui__free(t);
	endwin();
	return EXIT_OK;
}

/* Run the TUI until q or a signal. */
int tui__run(struct session *s, volatile sig_atomic_t *stop)
{
	struct tui *t;
	long printed = 0;

	/* A replay shows its keys under the header until a warning takes the line (a filter
	 * edit must not drop it). */
	if (session__replay(s)) {
		if (!s->warn[0])
			replay_keys_line(s->warn, sizeof(s->warn));
		s->warn_keep = strlen(s->warn);
	}

	t = tui_start(s, NULL);
	if (!t)
		return EXIT_RUNTIME;
	while (!*stop) {
		uint64_t now = now_ns();
		int ch = getch();

		if (s->end_ns && now >= s->end_ns)
			break;
		if (session__tick(s, now)) {
			printed++;
			if (!t->paused)
				tui__draw(t);
			if (s->o->iterations && printed >= s->o->iterations)
				break;
		}
		if (take_key(t, ch, now))
			break;
	}
	tui__free(t);
	endwin();
	return EXIT_OK;
}
