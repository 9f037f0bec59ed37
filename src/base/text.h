/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * text.h - strings that came from the kernel or a file (names, types, notes, host, kernel,
 * counter names, notices, paths), made safe for a terminal, for CSV and for JSON.
 *
 * The visible form of a string keeps valid UTF-8 and writes as an escape everything a terminal
 * acts on or a reader could be fooled by: C0 control bytes and DEL as \xHH (ESC is \x1b, LF
 * \x0a), a byte that is not part of valid UTF-8 as \xHH, C1 controls (U+0080..U+009F) and the
 * bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) as \uHHHH,
 * and the backslash itself as \\, so the form is unambiguous. Every human and CSV writer
 * prints such strings only through these functions; JSON writers pass their text through
 * text__json_fputs.
 *
 * Thread use: any (no shared state).
 */
#ifndef LAT_TEXT_H
#define LAT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The visible form of s into buf (NUL-terminated; an escape or a character that does not fit
 * whole is left out with everything after it). Returns its length in bytes. */
size_t text__esc(char *buf, size_t len, const char *s);
/* Write the visible form of s to f. */
void text__fputs(FILE *f, const char *s);
/* Write prefix (lattop's own text), the visible form of s and a newline to f: one line of a
 * message to the user whose s may name things from the kernel, a file or the command line. */
void text__line(FILE *f, const char *prefix, const char *s);
/* Write the visible form of s to f as HTML text, safe in an element and in a quoted attribute
 * value: & < > " ' as character references (so the output is valid UTF-8 holding no markup). */
void text__html(FILE *f, const char *s);
/* Columns a visible-form string takes (one per character; an escape counts its characters). */
int text__cols(const char *vis);
/* Copy the visible-form string vis into buf cut to at most width columns (never inside a
 * character or an escape) and padded with spaces to width: on the right when left, else on the
 * left. Returns the length in bytes. */
size_t text__fit(char *buf, size_t len, const char *vis, int width, bool left);
/* Write s as one CSV field (RFC 4180) in its visible form: quoted, with quotes doubled, when it
 * holds a comma, a quote, CR or LF. */
void text__csv_field(FILE *f, const char *s);
/* Write JSON text (cJSON's output, or any JSON whose strings escape C0 controls) to f with
 * what cJSON leaves raw in strings escaped: DEL, C1 and bidirectional controls as \uHHHH, and
 * each byte that is not valid UTF-8 as the visible "\\xHH" (JSON cannot hold such bytes). */
void text__json_fputs(FILE *f, const char *json);
/* Write s as a JSON string (quoted; the quote and the backslash escaped, BS, FF, LF, CR and
 * TAB as \b \f \n \r \t, the other C0 controls as \u00HH, then as text__json_fputs): byte
 * for byte what text__json_fputs makes of cJSON's form of the same string. */
void text__json_str(FILE *f, const char *s);

#endif /* LAT_TEXT_H */
