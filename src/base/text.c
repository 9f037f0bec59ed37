// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * text.c - the visible form of untrusted strings, CSV fields and JSON text (see text.h).
 */
#include <stdint.h>
#include <string.h>

#include "base/text.h"

/* Length of the valid UTF-8 sequence at p (1..4) with its code point in *cp, or 0 when p does
 * not start one (a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF or
 * cut short by the end of the string). */
static int utf8_seq(const unsigned char *p, uint32_t *cp)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	int n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* The second byte's range excludes overlong forms, surrogates and > U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	*cp = c & (0x7f >> n);
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (p[i] & 0x3f);
	}
	return n;
}

/* True for a valid code point that is still written as \uHHHH: a C1 control or one that
 * reorders text (bidirectional controls can make a line read differently than it is). */
static bool cp_hidden(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x61c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The visible form of the unit (a character, or one invalid byte) at p into out (at most 7
 * bytes and a NUL); returns the bytes of p it covers (0 at the end of the string). */
static int unit(const unsigned char *p, char out[8])
{
	uint32_t cp;
	int n;

	if (!*p) {
		out[0] = '\0';
		return 0;
	}
	n = utf8_seq(p, &cp);
	if (!n || cp < 0x20 || cp == 0x7f) {
		snprintf(out, 8, "\\x%02x", p[0]);
		return 1;
	}
	if (cp == '\\') {
		memcpy(out, "\\\\", 3);
		return 1;
	}
	if (cp_hidden(cp)) {
		snprintf(out, 8, "\\u%04x", (unsigned)(cp & 0xffff));
		return n;
	}
	memcpy(out, p, (size_t)n);
	out[n] = '\0';
	return n;
}

/* The visible form of s into buf. */
size_t text__esc(char *buf, size_t len, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t at = 0;
	char u[8];
	int n;

	if (!len)
		return 0;
	while ((n = unit(p, u)) > 0) {
		size_t l = strlen(u);

		if (at + l >= len)
			break;
		memcpy(buf + at, u, l);
		at += l;
		p += n;
	}
	buf[at] = '\0';
	return at;
}

/* Write the visible form of s to f. */
void text__fputs(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char u[8];
	int n;

	while ((n = unit(p, u)) > 0) {
		fputs(u, f);
		p += n;
	}
}

/* Write the visible form of s to f as HTML text: the visible form's characters, with the five
 * that HTML gives a meaning to written as character references. */
void text__html(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char u[8];
	int n;

	while ((n = unit(p, u)) > 0) {
		p += n;
		if (u[1]) {
			fputs(u, f); /* an escape or a multi-byte character: no markup in it */
			continue;
		}
		switch (u[0]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(u[0], f);
		}
	}
}

/* Write a message line: prefix, the visible form of s, a newline. */
void text__line(FILE *f, const char *prefix, const char *s)
{
	fputs(prefix, f);
	text__fputs(f, s);
	fputc('\n', f);
}

/* Bytes of the visible-form unit at v: a whole escape (\\, \xHH, \uHHHH) or a character. */
static size_t vis_unit(const char *v)
{
	uint32_t cp;
	int n;

	if (v[0] == '\\')
		return v[1] == 'x' ? 4 : v[1] == 'u' ? 6 : 2;
	n = utf8_seq((const unsigned char *)v, &cp);
	return n ? (size_t)n : 1;
}

/* Columns of a visible-form string. */
int text__cols(const char *vis)
{
	int cols = 0;

	for (size_t at = 0, l = strlen(vis); at < l;) {
		size_t n = vis_unit(vis + at);

		n = n > l - at ? l - at : n;
		cols += vis[at] == '\\' ? (int)n : 1;
		at += n;
	}
	return cols;
}

/* Cut and pad a visible-form string to width columns. */
size_t text__fit(char *buf, size_t len, const char *vis, int width, bool left)
{
	size_t at = 0, l = strlen(vis), take = 0;
	int cols = 0, pad;

	if (!len)
		return 0;
	while (take < l) {
		size_t n = vis_unit(vis + take);
		int c = vis[take] == '\\' ? (int)n : 1;

		n = n > l - take ? l - take : n;
		if (cols + c > width || take + n >= len)
			break;
		cols += c;
		take += n;
	}
	pad = width - cols;
	for (; !left && pad > 0 && at + 1 < len; pad--)
		buf[at++] = ' ';
	if (at + take >= len)
		take = 0;
	memcpy(buf + at, vis, take);
	at += take;
	for (; left && pad > 0 && at + 1 < len; pad--)
		buf[at++] = ' ';
	buf[at] = '\0';
	return at;
}

/* Write s as one RFC 4180 CSV field, in its visible form. */
void text__csv_field(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool quote = false;
	char u[8];
	int n;

	/* The visible form holds no CR or LF (they become \x0d, \x0a); the check on the raw
	 * string keeps the rule whole should that ever change. */
	for (const char *c = s; *c && !quote; c++)
		quote = *c == ',' || *c == '"' || *c == '\r' || *c == '\n';
	if (quote)
		fputc('"', f);
	while ((n = unit(p, u)) > 0) {
		if (u[0] == '"')
			fputc('"', f);
		fputs(u, f);
		p += n;
	}
	if (quote)
		fputc('"', f);
}

/* Write the JSON form of the unit at p (a character or an invalid byte); in_str: p is raw
 * string content (quote, backslash and C0 controls are escaped too), else JSON text, where
 * they already are. Returns the bytes of p written. */
static int json_unit(FILE *f, const unsigned char *p, bool in_str)
{
	uint32_t cp;
	int n = utf8_seq(p, &cp);

	if (!n)
		fprintf(f, "\\\\x%02x", *p); /* the visible form, as a JSON string's text */
	else if (in_str && (cp == '"' || cp == '\\'))
		fprintf(f, "\\%c", *p);
	else if (in_str && cp >= '\b' && cp <= '\r' && cp != '\v')
		fprintf(f, "\\%c", "btnvfr"[cp - '\b']); /* the short escapes, as cJSON writes */
	else if ((in_str && cp < 0x20) || cp == 0x7f || cp_hidden(cp))
		fprintf(f, "\\u%04x", (unsigned)cp);
	else
		fwrite(p, 1, (size_t)n, f);
	return n ? n : 1;
}

/* Write JSON text with DEL, C1/bidirectional controls and invalid UTF-8 escaped. */
void text__json_fputs(FILE *f, const char *json)
{
	for (const unsigned char *p = (const unsigned char *)json; *p;)
		p += json_unit(f, p, false);
}

/* Write s as a JSON string. */
void text__json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;)
		p += json_unit(f, p, true);
	fputc('"', f);
}
