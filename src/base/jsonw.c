// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * jsonw.c - a typed JSON writer (see jsonw.h).
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/text.h"

/* Start writing JSON to f. */
void jsonw__init(struct jsonw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

/* Start a writer into memory. */
int jsonw__mem_open(struct jsonw_mem *m)
{
	FILE *f;

	m->txt = NULL;
	m->len = 0;
	f = open_memstream(&m->txt, &m->len);
	if (!f)
		return -ENOMEM;
	jsonw__init(&m->w, f);
	return 0;
}

/* End a writer into memory: its text, or NULL. */
char *jsonw__mem_close(struct jsonw_mem *m)
{
	if (fclose(m->w.f) || m->w.misuse) {
		free(m->txt);
		m->txt = NULL;
	}
	m->w.f = NULL;
	return m->txt;
}

/* Lay out as cJSON_Print does. */
void jsonw__pretty(struct jsonw *w)
{
	w->pretty = true;
}

/* n tabs (pretty layout). */
static void tabs(struct jsonw *w, int n)
{
	for (int i = 0; i < n; i++)
		fputc('\t', w->f);
}

/* The slot of the innermost open level (levels past JSONW_MAX_DEPTH share the last). */
static int top(const struct jsonw *w)
{
	return w->depth > JSONW_MAX_DEPTH ? JSONW_MAX_DEPTH - 1 : w->depth - 1;
}

/* Before any value: the comma in an array, the key's use in an object. */
static void value_start(struct jsonw *w)
{
	int t = top(w);

	if (w->depth == 0)
		return;
	if (w->in_obj[t]) {
		if (!w->keyed)
			w->misuse++; /* an object's member needs its key first */
		w->keyed = false;
		return;
	}
	if (w->has_item[t])
		fputs(w->pretty ? ", " : ",", w->f);
	w->has_item[t] = true;
}

/* Open a level. */
static void begin(struct jsonw *w, bool obj)
{
	int t;

	value_start(w);
	fputc(obj ? '{' : '[', w->f);
	if (obj && w->pretty)
		fputc('\n', w->f);
	if (++w->depth > JSONW_MAX_DEPTH)
		w->misuse++;
	t = top(w);
	w->in_obj[t] = obj;
	w->has_item[t] = false;
}

/* Close a level. */
static void end(struct jsonw *w, bool obj)
{
	if (w->depth == 0 || w->in_obj[top(w)] != obj || w->keyed) {
		w->misuse++;
		w->keyed = false;
	}
	if (obj && w->pretty && w->depth > 0) {
		if (w->has_item[top(w)])
			fputc('\n', w->f);
		tabs(w, w->depth - 1);
	}
	fputc(obj ? '}' : ']', w->f);
	if (w->depth > 0)
		w->depth--;
}

/* Open an object. */
void jsonw__begin_object(struct jsonw *w)
{
	begin(w, true);
}

/* Close an object. */
void jsonw__end_object(struct jsonw *w)
{
	end(w, true);
}

/* Open an array. */
void jsonw__begin_array(struct jsonw *w)
{
	begin(w, false);
}

/* Close an array. */
void jsonw__end_array(struct jsonw *w)
{
	end(w, false);
}

/* The key of the next member. */
void jsonw__key(struct jsonw *w, const char *key)
{
	int t = top(w);

	if (w->depth == 0 || !w->in_obj[t] || w->keyed) {
		w->misuse++;
	} else {
		if (w->has_item[t])
			fputs(w->pretty ? ",\n" : ",", w->f);
		w->has_item[t] = true;
	}
	if (w->pretty)
		tabs(w, w->depth);
	text__json_str(w->f, key);
	fputs(w->pretty ? ":\t" : ":", w->f);
	w->keyed = true;
}

/* An unsigned integer, every digit. */
void jsonw__u64(struct jsonw *w, uint64_t v)
{
	value_start(w);
	fprintf(w->f, "%" PRIu64, v);
}

/* A signed integer, every digit. */
void jsonw__s64(struct jsonw *w, int64_t v)
{
	value_start(w);
	fprintf(w->f, "%" PRId64, v);
}

/* True when a and b differ by at most the rounding of the larger (cJSON's read-back test). */
static bool close_enough(double a, double b)
{
	double big = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

	return fabs(a - b) <= big * DBL_EPSILON;
}

/* The double form cJSON prints. */
void jsonw__fmt_double(char *buf, size_t len, double v)
{
	const char *dp = localeconv()->decimal_point;
	double back;

	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return;
	}
	/* 15 significant digits hide noise from binary fractions (0.1 stays 0.1); 17 when 15
	 * would not read back (close enough, as cJSON judges it: 2^53 + 1 passes as
	 * 9.00719925474099e+15, which is why integers never come here). */
	snprintf(buf, len, "%1.15g", v);
	if (sscanf(buf, "%lg", &back) != 1 || !close_enough(back, v))
		snprintf(buf, len, "%1.17g", v);
	if (dp && dp[0] && dp[0] != '.')
		for (char *c = buf; *c; c++)
			if (*c == dp[0])
				*c = '.';
}

/* A double as cJSON prints it. */
void jsonw__double(struct jsonw *w, double v)
{
	char buf[64];

	jsonw__fmt_double(buf, sizeof(buf), v);
	value_start(w);
	fputs(buf, w->f);
}

/* v / 10^digits with exactly digits decimals. */
void jsonw__decimal(struct jsonw *w, uint64_t v, unsigned digits)
{
	uint64_t scale = 1;

	if (digits > 19) {
		w->misuse++;
		digits = 19;
	}
	for (unsigned i = 0; i < digits; i++)
		scale *= 10;
	value_start(w);
	if (digits)
		fprintf(w->f, "%" PRIu64 ".%0*" PRIu64, v / scale, (int)digits, v % scale);
	else
		fprintf(w->f, "%" PRIu64, v);
}

/* A string, escaped. */
void jsonw__string(struct jsonw *w, const char *s)
{
	value_start(w);
	text__json_str(w->f, s);
}

/* true or false. */
void jsonw__bool(struct jsonw *w, bool v)
{
	value_start(w);
	fputs(v ? "true" : "false", w->f);
}

/* null. */
void jsonw__null(struct jsonw *w)
{
	value_start(w);
	fputs("null", w->f);
}

/* key: an unsigned integer. */
void jsonw__u64_field(struct jsonw *w, const char *key, uint64_t v)
{
	jsonw__key(w, key);
	jsonw__u64(w, v);
}

/* key: a signed integer. */
void jsonw__s64_field(struct jsonw *w, const char *key, int64_t v)
{
	jsonw__key(w, key);
	jsonw__s64(w, v);
}

/* key: a double. */
void jsonw__double_field(struct jsonw *w, const char *key, double v)
{
	jsonw__key(w, key);
	jsonw__double(w, v);
}

/* key: a string. */
void jsonw__string_field(struct jsonw *w, const char *key, const char *s)
{
	jsonw__key(w, key);
	jsonw__string(w, s);
}

/* key: true or false. */
void jsonw__bool_field(struct jsonw *w, const char *key, bool v)
{
	jsonw__key(w, key);
	jsonw__bool(w, v);
}

/* key: null. */
void jsonw__null_field(struct jsonw *w, const char *key)
{
	jsonw__key(w, key);
	jsonw__null(w);
}
