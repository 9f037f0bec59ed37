// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tui_heat.c - the detail pane's heatmap (the `m` key): the selected series' latency over the
 * last intervals the model remembers (model__heat_history), time left to right, newest at the
 * right, latency on log2 rows bottom to top. A cell's shade is its count against the busiest
 * cell shown: a 256-colour background ramp where the terminal has 256 colours and colour is on,
 * the characters " .:-=+*#%@" otherwise (mono theme, NO_COLOR, --no-color, 8 colours). Each
 * interval's p50 and p99 rows are marked: o, x (X both) on the colours, underline and reverse
 * on the characters, which stay readable as the shade.
 */
#include <string.h>

#include "ui/tui/tui_int.h"

#define HEAT_LABEL 9                /* "  65.5us " */
#define HEAT_PAIR0 (TH__COUNT + 1) /* pairs HEAT_PAIR0 + 1 .. + 9: the ramp (after the slots') */
#define HEAT_LEVELS 9              /* shades of a non-empty cell */

static const char heat_chars[HEAT_LEVELS + 2] = " .:-=+*#%@";
/* Background ramp (xterm 256-colour numbers): dark red through orange to yellow. */
static const short heat_bg[HEAT_LEVELS] = { 52, 88, 124, 160, 196, 202, 208, 214, 226 };

/* The intervals the pane has room for at this width, and their rows lo .. hi (hi < lo: no
 * runs in any of them); returns the number of intervals in slots. */
static size_t heat_span(const struct tui *t, const struct series *s, struct heat_slot *slots,
			int *lo, int *hi)
{
	int room = COLS - HEAT_LABEL - 1;
	size_t n = model__heat_history(t->s->m, s, slots, room > 0 ? (size_t)room : 0);

	*lo = MODEL_HEAT_ROWS;
	*hi = -1;
	for (size_t i = 0; i < n; i++) {
		if (!slots[i].n)
			continue;
		*lo = slots[i].lo < *lo ? slots[i].lo : *lo;
		*hi = slots[i].lo + slots[i].n - 1 > *hi ? slots[i].lo + slots[i].n - 1 : *hi;
	}
	return n;
}

/* Lines the heatmap wants under the pane's title: its rows (one for "no runs") and a legend. */
int tui__heat_height(const struct tui *t, const struct series *s)
{
	struct heat_slot slots[MODEL_P99_RING];
	int lo, hi;

	heat_span(t, s, slots, &lo, &hi);
	return 1 + (hi < lo ? 1 : hi - lo + 1);
}

/* True when the heatmap shades with colours: 256 of them, colour on, a theme with colours. */
static bool heat_colour(struct tui *t)
{
	if (!t->color || COLORS < 256 || COLOR_PAIRS <= HEAT_PAIR0 + HEAT_LEVELS ||
	    theme__is_mono(&t->theme))
		return false;
	if (!t->heat_pairs) {
		for (int l = 0; l < HEAT_LEVELS; l++)
			init_pair((short)(HEAT_PAIR0 + 1 + l), l < 6 ? 231 : 16, heat_bg[l]);
		t->heat_pairs = true;
	}
	return true;
}

/* Count of row r in slot sl (0 outside its span). */
static uint32_t heat_at(const struct heat_slot *sl, int r)
{
	return r >= sl->lo && r < sl->lo + sl->n ? sl->cnt[r - sl->lo] : 0;
}

/* The lowest of `lines` consecutive rows in lo .. hi holding the most runs. */
static int heat_window(const struct heat_slot *slots, size_t n, int lo, int hi, int lines)
{
	uint64_t per[MODEL_HEAT_ROWS] = { 0 }, sum = 0, best = 0;
	int start = lo;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < slots[i].n; k++)
			per[slots[i].lo + k] += slots[i].cnt[k];
	for (int r = lo; r <= hi; r++) {
		sum += per[r];
		if (r - lo >= lines)
			sum -= per[r - lines];
		if (r - lo >= lines - 1 && sum >= best) {
			best = sum;
			start = r - lines + 1;
		}
	}
	return start;
}

/* One heatmap row: its label, then a cell per interval. */
static void heat_row(int y, int r, const struct heat_slot *slots, size_t n, uint32_t max,
		     bool colour)
{
	char label[16];

	if (r)
		fmt_ns((double)(1ull << (r - 1)), label, sizeof(label));
	else
		snprintf(label, sizeof(label), "0");
	mvprintw(y, 0, "%*s ", HEAT_LABEL - 1, label);
	for (size_t i = 0; i < n; i++) {
		uint32_t c = heat_at(&slots[i], r);
		int level = c ? (int)(((uint64_t)c * HEAT_LEVELS + max - 1) / max) : 0;
		bool p50 = slots[i].n && slots[i].p50 == r, p99 = slots[i].n && slots[i].p99 == r;

		if (colour) {
			chtype ch = p50 && p99 ? 'X' : p99 ? 'x' : p50 ? 'o' : ' ';

			addch(ch | (level ? COLOR_PAIR(HEAT_PAIR0 + level) : A_NORMAL));
		} else {
			addch((chtype)heat_chars[level] | (p50 ? A_UNDERLINE : A_NORMAL) |
			      (p99 ? A_REVERSE : A_NORMAL));
		}
	}
	clrtoeol();
}

/* The heatmap of series s in lines y .. y + lines - 1 (under the pane's title); returns the
 * lines drawn. */
int tui__draw_heat(struct tui *t, const struct series *s, int y, int lines)
{
	struct heat_slot slots[MODEL_P99_RING];
	int lo, hi, top, rows;
	uint32_t max = 0;
	bool colour = heat_colour(t);
	char legend[200], maxs[32];
	size_t n;

	if (lines < 2 || COLS < HEAT_LABEL + 12) {
		mvaddnstr(y, 0, "  heatmap: too small (widen or heighten the terminal)", COLS);
		clrtoeol();
		return 1;
	}
	n = heat_span(t, s, slots, &lo, &hi);
	if (hi < lo) {
		mvprintw(y, 0, "  no runs in the last %zu intervals", n);
		clrtoeol();
		return 1;
	}
	rows = hi - lo + 1 < lines - 1 ? hi - lo + 1 : lines - 1;
	top = heat_window(slots, n, lo, hi, rows) + rows - 1;
	for (size_t i = 0; i < n; i++)
		for (int r = top - rows + 1; r <= top; r++)
			max = heat_at(&slots[i], r) > max ? heat_at(&slots[i], r) : max;
	for (int k = 0; k < rows; k++)
		heat_row(y + k, top - k, slots, n, max ? max : 1, colour);
	fmt_count(max, maxs, sizeof(maxs));
	snprintf(legend, sizeof(legend),
		 colour ? "  %zu intervals, newest right; shade: runs, dark red few .. yellow %s; "
			  "o p50, x p99, X both"
			: "  %zu intervals, newest right; shade \" .:-=+*#%%@\": runs up to %s; "
			  "p50 underlined, p99 reversed",
		 n, maxs);
	tui__draw_note(t, y + rows, legend);
	return rows + 1;
}

/* Heat rows top .. top - rows + 1 of slots[0..n) in lines y .. y + rows - 1, shaded against max
 * (the comparison's two sides share one scale); returns whether the shades are colours. */
bool tui__heat_rows(struct tui *t, const struct heat_slot *slots, size_t n, int top, int rows,
		    uint32_t max, int y)
{
	bool colour = heat_colour(t);

	for (int k = 0; k < rows; k++)
		heat_row(y + k, top - k, slots, n, max ? max : 1, colour);
	return colour;
}
