// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flight_meta.c - the reading side of a flight dump's "dump" metadata object (flight.h): why
 * it was written and which interval holds the instant it fired, for replay and the reports.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "rec/flight.h"
#include "rec/rec.h"

/* Copy string field key of o into buf ("" when absent or not a string). */
static void str_field(const cJSON *o, const char *key, char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	snprintf(buf, len, "%s", cJSON_IsString(v) && v->valuestring ? v->valuestring : "");
}

/* Number field key of o, 0 when absent; a non-negative integer below 2^63 when whole. */
static double num_field(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) && v->valuedouble == v->valuedouble ? v->valuedouble : 0;
}

/* Clamp a JSON number to an instant (a file is not trusted: no out-of-range conversion). */
static uint64_t ns_of(double v) { return v > 0 && v < 9.2e18 ? (uint64_t)v : 0; }

/* True when f is a flight dump, with what it says in d. */
bool rec__dump(const struct rec_file *f, struct rec_dump *d)
{
	const cJSON *o =
	    f->meta ? cJSON_GetObjectItemCaseSensitive((const cJSON *)f->meta, "dump") : NULL;

	memset(d, 0, sizeof(*d));
	if (!cJSON_IsObject(o))
		return false;
	str_field(o, "trigger", d->trigger, sizeof(d->trigger));
	str_field(o, "expr", d->expr, sizeof(d->expr));
	str_field(o, "series", d->series, sizeof(d->series));
	str_field(o, "metric", d->metric, sizeof(d->metric));
	d->value = num_field(o, "value");
	d->threshold = num_field(o, "threshold");
	d->duration = d->metric[0] == 'p' || !strcmp(d->metric, "max") || !strcmp(d->metric, "avg");
	d->fired_ns = ns_of(num_field(o, "fired_monotonic_ns"));
	d->after_ns = ns_of(num_field(o, "after_ns"));
	for (d->ival = 0; d->ival < f->nivals && rec__ival_end(f, d->ival) < d->fired_ns; d->ival++)
		;
	return true;
}

/* A figure of the dump's metric: "26.8 us" for durations, the number otherwise. */
static void fmt_value(const struct rec_dump *d, double v, char *buf, size_t len)
{
	if (d->duration)
		snprintf(buf, len, "%.3g us", v / 1000.0);
	else
		snprintf(buf, len, "%.6g", v);
}

/* One sentence saying why the dump was written. */
void rec__dump_sentence(const struct rec_dump *d, uint64_t fired_wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(fired_wall_ns / 1000000000ull);
	char when[32] = "?", v[32], th[32];
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (!d->expr[0]) {
		snprintf(buf, len, "flight recorder dump (%s) asked for at %s", d->trigger, when);
		return;
	}
	fmt_value(d, d->value, v, sizeof(v));
	fmt_value(d, d->threshold, th, sizeof(th));
	snprintf(buf, len,
		 "flight recorder dump: trigger %s fired at %s (%s%s%s %s, threshold %s), %.3g s "
		 "recorded after it",
		 d->expr, when, d->series, d->series[0] ? " " : "", d->metric, v, th,
		 (double)d->after_ns / 1e9);
}
