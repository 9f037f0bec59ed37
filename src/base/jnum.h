/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * jnum.h - numbers read from JSON files (recording metadata, profiles, spans files), checked
 * against a range before they become integers: a JSON number is a double, and converting one
 * outside the target type's range is undefined behaviour in C (a tid of 4294967297 would
 * silently become 1).
 *
 * Thread use: any (no shared state).
 */
#ifndef LAT_JNUM_H
#define LAT_JNUM_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* Read member key of obj as a whole number from min to max into *out. Returns 0, -ENOENT when
 * obj has no such member (*out and why untouched), or -EINVAL with one sentence in why naming
 * the key, the value and the range ("\"tid\" is 4294967297: give a whole number from 1 to
 * 4194304"): not a number, fractional, infinite or out of range. */
int jnum__int(const cJSON *obj, const char *key, int64_t min, int64_t max, int64_t *out, char *why,
	      size_t whylen);
/* Read member key of obj as a finite number from min to max (fractions allowed); returns and
 * words errors as jnum__int. */
int jnum__num(const cJSON *obj, const char *key, double min, double max, double *out, char *why,
	      size_t whylen);

/* What member key of obj holds, for a sentence: its number ("-1", "1e+300", "inf"), "not a
 * number" or "missing". */
void jnum__show(const cJSON *obj, const char *key, char *buf, size_t len);

#endif /* LAT_JNUM_H */
