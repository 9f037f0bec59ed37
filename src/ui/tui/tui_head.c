// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tui_head.c - the header line and the notice lines, fitted to the terminal's width.
 *
 * The header never cuts a field: when the line is too wide, the least important fields are
 * shortened or dropped first (kernel, host, the version, the replay file name, labels...),
 * and the filter list, which must stay, loses whole entries behind an ellipsis. Notices wrap
 * at spaces and end with an ellipsis when they need more lines than they get.
 *
 * Thread use: UI thread only.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "rec/recorder.h"
#include "rec/replay.h"
#include "session/filter.h"
#include "output/flight_ses.h"
#include "ui/tui/tui_int.h"

/* The header's fields, in the order shown. */
enum hfield {
	HF_TITLE,
	HF_HOST,
	HF_KERNEL,
	HF_MODE,
	HF_SOURCE,
	HF_INTERVAL,
	HF_STATE,
	HF_FLIGHT,
	HF_FILTER,
	HF__COUNT,
};

/* Forms per field, from the full one to the shortest ("" = dropped). */
#define HF_FORMS 5
#define HF_LEN 320

struct header {
	char form[HF__COUNT][HF_FORMS][HF_LEN];
	int nforms[HF__COUNT];
	int cur[HF__COUNT];
};

/* Which field gives way next while the line is too wide: each entry moves that field to its
 * next shorter form. Mode, state and filter never go; the filter is elided last. */
static const enum hfield give_way[] = {
	HF_KERNEL,   /* dropped */
	HF_HOST,     /* dropped */
	HF_FLIGHT,   /* "flight 3.2 MiB" */
	HF_TITLE,    /* "lattop" without the version */
	HF_STATE,    /* a replay: without the file name */
	HF_SOURCE,   /* "stats+self" without "source" */
	HF_STATE,    /* a replay: without the recorded clock time */
	HF_MODE,     /* "programs" without "mode" */
	HF_INTERVAL, /* dropped */
	HF_FLIGHT,   /* dropped */
	HF_SOURCE,   /* dropped */
	HF_STATE,    /* a replay: without the position */
	HF_TITLE,    /* dropped */
};

/* The ellipsis and its width in columns: "…" in a UTF-8 locale, "..." otherwise. */
static const char *ellipsis(int *cols)
{
	bool utf8 = MB_CUR_MAX > 1;

	*cols = utf8 ? 1 : 3;
	return utf8 ? "\u2026" : "...";
}

/* Columns a header form takes (ASCII, or one ellipsis). */
static int form_cols(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80; /* count UTF-8 lead bytes only */
	return w;
}

/* Add a form to field f. */
static void add_form(struct header *h, enum hfield f, const char *text)
{
	if (h->nforms[f] < HF_FORMS)
		snprintf(h->form[f][h->nforms[f]++], HF_LEN, "%s", text);
}

/* Width of the line with each field in its current form (two spaces between fields). */
static int line_cols(const struct header *h)
{
	int w = 0, n = 0;

	for (int f = 0; f < HF__COUNT; f++) {
		const char *s = h->form[f][h->cur[f]];

		if (s[0]) {
			w += form_cols(s) + (n ? 2 : 0);
			n++;
		}
	}
	return w;
}

/* The replay state's forms: "REPLAY name clock (at/all) x1 END" without, in turn, the file
 * name, the clock time and the position (whole words, so nothing is cut). */
static void replay_forms(struct header *h, const char *state, const char *tail)
{
	const char *lp = strrchr(state, '('), *rp = lp ? strchr(lp, ')') : NULL;
	const char *head = state + strlen("REPLAY "), *clock;
	char buf[HF_LEN];
	int headlen;

	snprintf(buf, sizeof(buf), "%s%s", state, tail);
	add_form(h, HF_STATE, buf);
	if (strncmp(state, "REPLAY ", 7) || !rp || rp[1] != ' ' || lp < head)
		return; /* not the shape replay__status writes: only the full form */
	headlen = (int)(lp - head);
	while (headlen > 0 && head[headlen - 1] == ' ')
		headlen--;
	for (clock = head + headlen; clock > head && clock[-1] != ' '; clock--)
		;
	snprintf(buf, sizeof(buf), "REPLAY %.*s%s%s", (int)(head + headlen - clock), clock,
		 clock < head + headlen ? " " : "", lp);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s", tail);
	add_form(h, HF_STATE, buf);
	snprintf(buf, sizeof(buf), "REPLAY %s%s", lp, tail);
	add_form(h, HF_STATE, buf);
	snprintf(buf, sizeof(buf), "REPLAY %s%s", rp + 2, tail);
	add_form(h, HF_STATE, buf);
}

/* Fill the forms of every field from the session. */
static void header_forms(struct tui *t, struct header *h)
{
	const struct session *s = t->s;
	const char *mode = opts__mode_name(s->m->mode);
	const char *tail = t->cumulative ? " cumulative" : "";
	char buf[HF_LEN], srcbuf[64], src[128], state[HF_LEN - 16]; /* room for the tail */
	char raw[HF_LEN - 16];

	/* The source and the replay file name come from a file: their visible forms. */
	text__esc(src, sizeof(src), model__source(s->m, srcbuf, sizeof(srcbuf)));

	memset(h->nforms, 0, sizeof(h->nforms));
	memset(h->cur, 0, sizeof(h->cur));
	snprintf(buf, sizeof(buf), "lattop %s", LATTOP_VERSION);
	add_form(h, HF_TITLE, buf);
	add_form(h, HF_TITLE, "lattop");
	add_form(h, HF_TITLE, "");
	add_form(h, HF_HOST, t->host);
	add_form(h, HF_HOST, "");
	add_form(h, HF_KERNEL, t->kernel);
	add_form(h, HF_KERNEL, "");
	snprintf(buf, sizeof(buf), "mode %s", mode);
	add_form(h, HF_MODE, buf);
	add_form(h, HF_MODE, mode);
	snprintf(buf, sizeof(buf), "source %s", src);
	add_form(h, HF_SOURCE, buf);
	add_form(h, HF_SOURCE, src);
	add_form(h, HF_SOURCE, "");
	snprintf(buf, sizeof(buf), "interval %.2fs", s->o->interval_ns / 1e9);
	add_form(h, HF_INTERVAL, buf);
	add_form(h, HF_INTERVAL, "");
	if (session__replay(s)) {
		replay__status(session__replay(s), raw, sizeof(raw));
		text__esc(state, sizeof(state), raw);
		replay_forms(h, state, tail);
	} else {
		snprintf(buf, sizeof(buf), "%s%s%s", t->paused ? "PAUSED" : "LIVE",
			 !s->rec ? "" : recorder__lost(s->rec) ? "  REC (frames lost)" : "  REC",
			 tail);
		add_form(h, HF_STATE, buf);
	}
	/* The flight recorder's memory and dumps (--flight), then its memory alone. */
	session__flight_line(s, false, buf, sizeof(buf));
	add_form(h, HF_FLIGHT, buf);
	if (buf[0]) {
		session__flight_line(s, true, buf, sizeof(buf));
		add_form(h, HF_FLIGHT, buf);
		add_form(h, HF_FLIGHT, "");
	}
	add_form(h, HF_FILTER, "filter all"); /* replaced by fit_filter when there is one */
}

/* The filter field in at most room columns: "filter 12,xdp_fw", or as many whole entries as
 * fit followed by "…+N" (N entries not shown), at least "filter …+N". */
static void fit_filter(const struct tui *t, char *out, size_t len, int room)
{
	static char list[FILTER_STR_MAX]; /* UI thread only */
	int n = t->s->o->nfilter, shown = 0, at, ecols;
	const char *ell = ellipsis(&ecols);

	session__filter_str(t->s, list, sizeof(list));
	at = snprintf(out, len, "filter ");
	if (at + (int)strlen(list) <= room && strlen(list) < len - at) {
		snprintf(out + at, len - at, "%s", list);
		return;
	}
	for (const char *p = list; *p && shown < n - 1; shown++) {
		int ent = (int)strcspn(p, ","), sep = shown ? 1 : 0;
		char more[16];
		int mcols = ecols + snprintf(more, sizeof(more), "+%d", n - shown - 1);

		if (at + sep + ent + mcols > room || (size_t)(at + sep + ent) + 24 > len)
			break;
		at += snprintf(out + at, len - at, "%s%.*s", sep ? "," : "", ent, p);
		p += ent + (p[ent] == ',');
	}
	snprintf(out + at, len - at, "%s+%d", ell, n - shown);
}

/* Draw the header in line y, fitted to COLS. */
void tui__draw_header(struct tui *t, int y)
{
	static struct header h; /* UI thread only; too big for the stack */
	size_t step = 0;
	int x = 0;

	header_forms(t, &h);
	/* The filter may claim up to half the line before the other fields give way. */
	if (t->s->o->nfilter)
		fit_filter(t, h.form[HF_FILTER][0], HF_LEN, COLS / 2);
	while (line_cols(&h) > COLS && step < sizeof(give_way) / sizeof(give_way[0])) {
		enum hfield f = give_way[step++];

		if (h.cur[f] + 1 < h.nforms[f])
			h.cur[f]++;
	}
	if (t->s->o->nfilter) {
		/* The filter takes what the other fields leave (its own label included). */
		int room = COLS - line_cols(&h) + form_cols(h.form[HF_FILTER][h.cur[HF_FILTER]]);

		fit_filter(t, h.form[HF_FILTER][0], HF_LEN, room);
		h.cur[HF_FILTER] = 0;
	}
	move(y, 0);
	for (int f = 0; f < HF__COUNT; f++) {
		const char *s = h.form[f][h.cur[f]];
		int w = form_cols(s);

		if (!s[0])
			continue;
		if (x + (x ? 2 : 0) + w > COLS)
			break; /* whole fields only, even on the narrowest screen */
		if (x) {
			addstr("  ");
			x += 2;
		}
		if (f == HF_TITLE)
			attron(tui_attr(t, TH_HEADER));
		addstr(s);
		if (f == HF_TITLE)
			attroff(tui_attr(t, TH_HEADER));
		x += w;
	}
	clrtoeol();
}

/* The first line of text in at most cols columns, breaking at a space: its length in bytes,
 * and *next the start of the rest. A word longer than the line is cut (nothing else fits). */
static size_t wrap_line(const char *text, int cols, const char **next)
{
	size_t len = strlen(text), cut;

	if ((int)len <= cols) {
		*next = text + len;
		return len;
	}
	for (cut = (size_t)cols; cut > 0 && text[cut] != ' '; cut--)
		;
	if (!cut)
		cut = (size_t)cols;
	*next = text + cut;
	while (**next == ' ')
		(*next)++;
	while (cut > 0 && text[cut - 1] == ' ')
		cut--;
	return cut;
}

/* Draw text from line y in attribute a, wrapped at spaces over at most max_lines lines; when
 * it needs more, the last line ends with an ellipsis after a whole word. Returns the lines
 * used. */
int tui__draw_wrapped(int y, const char *raw, int max_lines, attr_t a)
{
	static char vis[4 * 1024]; /* UI thread only */
	int ecols, used = 0;
	const char *ell = ellipsis(&ecols), *text = vis;

	/* Notices and warnings name things from the kernel and files: ncurses would act on CR,
	 * LF and BS in them. */
	text__esc(vis, sizeof(vis), raw);

	while (*text && used < max_lines) {
		const char *next;
		size_t n = wrap_line(text, COLS, &next);

		if (*next && used == max_lines - 1) /* the last line: room for the ellipsis */
			n = wrap_line(text, COLS - ecols, &next);
		attron(a);
		mvaddnstr(y + used, 0, text, (int)n);
		if (*next && used == max_lines - 1)
			addstr(ell);
		attroff(a);
		clrtoeol();
		text = next;
		used++;
	}
	return used;
}
