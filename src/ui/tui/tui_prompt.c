// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tui_prompt.c - the TUI's one-line prompts in the footer (f the filter, d the interval, / a
 * search, W a recording's file name), their editing keys and what Enter does with the text,
 * and the keys that change the filter without a prompt (+ and -) or repeat the search (n).
 * The key table that binds them is tui.c's.
 *
 * Thread use: UI thread only (the only thread that calls ncurses).
 */
#include <curses.h>
#include <string.h>

#include "base/clock.h"
#include "cli/opts.h"
#include "session/filter.h"
#include "output/record.h"
#include "ui/tui/tui_int.h"

/* Open the footer prompt of kind k on text init. */
int tui__open_prompt(struct tui *t, enum prompt_kind k, const char *init)
{
	snprintf(t->edit, sizeof(t->edit), "%s", init);
	t->edit_len = strlen(t->edit);
	t->prompt = k;
	curs_set(1);
	return KH_REDRAW;
}

/* Open the filter editor on the current list (t->edit holds the longest list). */
int tui__key_filter(struct tui *t)
{
	session__filter_str(t->s, t->edit, sizeof(t->edit));
	t->edit_len = strlen(t->edit);
	t->prompt = PROMPT_FILTER;
	curs_set(1);
	return KH_REDRAW;
}

/* Open the interval prompt on the current interval. */
int tui__key_interval(struct tui *t)
{
	char cur[32];

	snprintf(cur, sizeof(cur), "%g", t->s->o->interval_ns / 1e9);
	return tui__open_prompt(t, PROMPT_INTERVAL, cur);
}

/* Open the search prompt (empty). */
int tui__key_search(struct tui *t)
{
	return tui__open_prompt(t, PROMPT_SEARCH, "");
}

/* Select the next row after row from (wrapping) whose name contains t->search. */
static void find_next(struct tui *t, int from)
{
	char msg[160];
	int n = (int)t->nrows;

	for (int i = 1; i <= n; i++) {
		int idx = (from + i + n) % n;

		if (strcasestr(t->rows[idx].s->name, t->search)) {
			tui__select(t, idx);
			snprintf(msg, sizeof(msg), "'%s': %s (n: next match)", t->search,
				 t->rows[idx].s->name);
			tui__say(t, msg, 2000);
			return;
		}
	}
	snprintf(msg, sizeof(msg), "no program name contains '%s'", t->search);
	tui__say(t, msg, 2500);
}

/* Jump to the next match of the last search. */
int tui__key_search_next(struct tui *t)
{
	if (!t->search[0])
		tui__say(t, "no search yet: press / and type part of a name", 2000);
	else
		find_next(t, t->sel);
	return KH_REDRAW;
}

/* Apply a new filter list, or say why not. */
static void apply_filter(struct tui *t, const char *list)
{
	char err[320];

	if (session__set_filter(t->s, list, err, sizeof(err)))
		tui__say(t, err, 4000);
	else
		tui__say(t, *list ? "filter applied" : "filter cleared: showing all programs",
			 2000);
}

/* Apply a new interval (same rule as -d), or say why not. */
static void apply_interval(struct tui *t, const char *text)
{
	uint64_t ns, now = now_ns();
	char msg[160];

	if (opts__parse_secs(text, &ns) || ns < 10000000ull) {
		snprintf(msg, sizeof(msg),
			 "bad interval '%.40s': give seconds >= 0.01, e.g. 0.5; interval unchanged",
			 text);
		tui__say(t, msg, 3000);
		return;
	}
	t->s->o->interval_ns = ns;
	if (t->s->next_close_ns > now + ns)
		t->s->next_close_ns = now + ns;
	snprintf(msg, sizeof(msg), "interval %.2fs", ns / 1e9);
	tui__say(t, msg, 2000);
}

/* Add the selected program to the filter. */
int tui__key_filter_add(struct tui *t)
{
	static char list[FILTER_STR_MAX + 16]; /* UI thread only; too big for the stack */
	size_t l;

	if (!t->nrows) {
		tui__say(t, "no row selected", 1500);
		return KH_REDRAW;
	}
	if (t->s->m->mode == MODE_SEGMENTS) {
		tui__say(t, "+ and - pick programs: name spans with f (the filter)", 2000);
		return KH_REDRAW;
	}
	session__filter_str(t->s, list, sizeof(list));
	l = strlen(list);
	/* A 257th entry still fits here: the parser then says "at most 256". */
	snprintf(list + l, sizeof(list) - l, "%s%u", l ? "," : "", t->rows[t->sel].s->id);
	apply_filter(t, list);
	return KH_REDRAW;
}

/* Remove the selected program (its ID or its name entry) from the filter. */
int tui__key_filter_remove(struct tui *t)
{
	static char list[FILTER_STR_MAX]; /* UI thread only; too big for the stack */
	static struct opts rest;
	const struct series *se;
	struct opts *o = t->s->o;

	if (t->s->m->mode == MODE_SEGMENTS) {
		tui__say(t, "+ and - pick programs: name spans with f (the filter)", 2000);
		return KH_REDRAW;
	}
	if (!t->nrows || !o->nfilter) {
		tui__say(t, o->nfilter ? "no row selected" : "no filter: every program is shown",
			 2000);
		return KH_REDRAW;
	}
	se = t->rows[t->sel].s;
	/* Every entry naming the program goes: its ID and its name may both be listed. */
	rest.nfilter = 0;
	for (int i = 0; i < o->nfilter; i++) {
		const struct filter_ent *f = &o->filter[i];

		if (!(f->id ? f->id == se->id : !strcmp(f->name, se->name)))
			rest.filter[rest.nfilter++] = *f;
	}
	if (rest.nfilter == o->nfilter) {
		tui__say(t, "the selected program is not in the filter", 2000);
		return KH_REDRAW;
	}
	opts__filter_str(&rest, list, sizeof(list));
	apply_filter(t, list);
	t->sel = 0;
	return KH_REDRAW;
}

/* Close the prompt and act on its text (Enter). */
static void prompt_done(struct tui *t, bool apply)
{
	enum prompt_kind k = t->prompt;

	t->prompt = PROMPT_NONE;
	curs_set(0);
	if (!apply) {
		tui__say(t, k == PROMPT_FILTER ? "filter unchanged" : "cancelled", 1500);
		return;
	}
	if (k == PROMPT_FILTER) {
		apply_filter(t, t->edit);
	} else if (k == PROMPT_INTERVAL) {
		apply_interval(t, t->edit);
	} else if (k == PROMPT_RECORD) {
		char msg[320];

		if (t->edit[0])
			session__record_toggle(t->s, t->edit, msg, sizeof(msg));
		else
			snprintf(msg, sizeof(msg), "no file name: not recording");
		tui__say(t, msg, 3000);
	} else if (!t->edit[0]) {
		tui__say(t, "empty search: nothing to find", 1500);
	} else {
		snprintf(t->search, sizeof(t->search), "%.63s", t->edit);
		find_next(t, t->sel - 1); /* the selected row itself may match */
	}
}

/* A key while a prompt is open. */
int tui__edit_key(struct tui *t, int ch)
{
	if (ch == 27) { /* Esc */
		prompt_done(t, false);
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		prompt_done(t, true);
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
