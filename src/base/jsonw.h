/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * jsonw.h - a typed JSON writer: objects, arrays, keys and values go straight to a FILE, each
 * number in its own type. A uint64_t or int64_t is written with all its digits (a cJSON number
 * is a double, which rounds integers above 2^53: wall-clock ns, run_time_ns); a double is
 * written as cJSON writes it, so output that used to go through cJSON keeps its bytes. Strings
 * (values and keys) go through text__json_str: escaped as cJSON escapes them, then DEL, C1 and
 * bidirectional controls as \uHHHH and invalid UTF-8 as the visible "\\xHH".
 *
 * The output is compact (no spaces), or with jsonw__pretty laid out as cJSON_Print lays it out
 * (a member per line indented by tabs, "key":<TAB>value, arrays on one line with ", "
 * between elements). Commas and the colon after a key come by themselves:
 *
 *	struct jsonw w;
 *	jsonw__init(&w, f);
 *	jsonw__begin_object(&w);
 *	jsonw__u64_field(&w, "ts_ns", ts);      // {"ts_ns":1795457014054683123
 *	jsonw__key(&w, "rows");
 *	jsonw__begin_array(&w);                 // ,"rows":[
 *	...
 *	jsonw__end_array(&w);
 *	jsonw__end_object(&w);                  // ]}
 *
 * Misuse (a value where a key is due, unbalanced ends, nesting deeper than JSONW_MAX_DEPTH) is
 * a programming error: it is counted in w->misuse (0 for well-formed use) and never writes out
 * of bounds.
 *
 * Thread use: one writer per thread (no shared state).
 */
#ifndef LAT_JSONW_H
#define LAT_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Deepest nesting of objects and arrays. */
#define JSONW_MAX_DEPTH 16

/* A writer; its fields are the writer's own (read misuse only). */
struct jsonw {
	FILE *f;
	int depth;			/* open objects and arrays */
	bool in_obj[JSONW_MAX_DEPTH];	/* per level: an object (keys due) or an array */
	bool has_item[JSONW_MAX_DEPTH]; /* per level: something written (a comma is due) */
	bool keyed;			/* a key was written; its value is due */
	bool pretty;			/* cJSON_Print's layout (else compact) */
	unsigned misuse;		/* calls that broke the grammar (0 when used right) */
};

/* Start writing JSON to f (compact). */
void jsonw__init(struct jsonw *w, FILE *f);
/* Lay out what follows as cJSON_Print does (call before the first value). */
void jsonw__pretty(struct jsonw *w);

/* Open or close an object or an array (as a value: after a key inside an object). */
void jsonw__begin_object(struct jsonw *w);
void jsonw__end_object(struct jsonw *w);
void jsonw__begin_array(struct jsonw *w);
void jsonw__end_array(struct jsonw *w);

/* The key of the next member of the current object. */
void jsonw__key(struct jsonw *w, const char *key);

/* Values. */
void jsonw__u64(struct jsonw *w, uint64_t v);
void jsonw__s64(struct jsonw *w, int64_t v);
/* A double as cJSON 1.7.15 prints it: "%1.15g" when that reads back as the same number within
 * the larger's rounding (cJSON's test), else "%1.17g"; NaN and infinities as null; always
 * with a '.' as the decimal point whatever the locale. For ratios and rates, never counts. */
void jsonw__double(struct jsonw *w, double v);
/* v / 10^digits written with exactly digits decimals, from integers (no rounding): 1234567
 * with 3 digits is 1234.567. digits is at most 19. */
void jsonw__decimal(struct jsonw *w, uint64_t v, unsigned digits);
void jsonw__string(struct jsonw *w, const char *s);
void jsonw__bool(struct jsonw *w, bool v);
void jsonw__null(struct jsonw *w);

/* A key and its value in one call. */
void jsonw__u64_field(struct jsonw *w, const char *key, uint64_t v);
void jsonw__s64_field(struct jsonw *w, const char *key, int64_t v);
void jsonw__double_field(struct jsonw *w, const char *key, double v);
void jsonw__string_field(struct jsonw *w, const char *key, const char *s);
void jsonw__bool_field(struct jsonw *w, const char *key, bool v);
void jsonw__null_field(struct jsonw *w, const char *key);

/* A writer into memory: jsonw__mem_open starts one (0 or -ENOMEM), jsonw__mem_close ends it
 * and returns the text (malloc'd; the caller frees it), or NULL when out of memory or when the
 * writer was misused. */
struct jsonw_mem {
	struct jsonw w;
	char *txt;
	size_t len;
};
int jsonw__mem_open(struct jsonw_mem *m);
char *jsonw__mem_close(struct jsonw_mem *m);

/* The double form of jsonw__double into buf (at least 32 bytes). */
void jsonw__fmt_double(char *buf, size_t len, double v);

#endif /* LAT_JSONW_H */
