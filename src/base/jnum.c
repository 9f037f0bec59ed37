// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * jnum.c - range-checked numbers from JSON (see jnum.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "base/jnum.h"

/* "is <value>" for a member that is there: its number, or what it is instead. */
static void describe(const cJSON *v, char *buf, size_t len)
{
	if (!cJSON_IsNumber(v))
		snprintf(buf, len, "is not a number");
	else if (isnan(v->valuedouble))
		snprintf(buf, len, "is not a number (NaN)");
	else
		snprintf(buf, len, "is %.15g", v->valuedouble);
}

/* What a member holds, for a sentence. */
void jnum__show(const cJSON *obj, const char *key, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v)
		snprintf(buf, len, "missing");
	else if (!cJSON_IsNumber(v) || isnan(v->valuedouble))
		snprintf(buf, len, "not a number");
	else
		snprintf(buf, len, "%.15g", v->valuedouble);
}

/* Read a whole number in [min, max]. */
int jnum__int(const cJSON *obj, const char *key, int64_t min, int64_t max, int64_t *out, char *why,
	      size_t whylen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char is[64];
	double d;

	if (!v)
		return -ENOENT;
	d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	/* Checked as doubles before any conversion: 2^63 itself does not fit an int64_t. */
	if (isfinite(d) && d == trunc(d) && d >= -0x1p63 && d < 0x1p63 && (int64_t)d >= min &&
	    (int64_t)d <= max) {
		*out = (int64_t)d;
		return 0;
	}
	describe(v, is, sizeof(is));
	snprintf(why, whylen, "\"%s\" %s: give a whole number from %" PRId64 " to %" PRId64, key,
		 is, min, max);
	return -EINVAL;
}

/* Read a finite number in [min, max]. */
int jnum__num(const cJSON *obj, const char *key, double min, double max, double *out, char *why,
	      size_t whylen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char is[64];

	if (!v)
		return -ENOENT;
	if (cJSON_IsNumber(v) && v->valuedouble >= min && v->valuedouble <= max) {
		*out = v->valuedouble;
		return 0;
	}
	describe(v, is, sizeof(is));
	snprintf(why, whylen, "\"%s\" %s: give a number from %g to %g", key, is, min, max);
	return -EINVAL;
}
