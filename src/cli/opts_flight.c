// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * opts_flight.c - the flight recorder's options: --flight, --flight-max, --flight-dir,
 * --flight-files, --flight-http, --trigger, --trigger-after, --trigger-cooldown.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"

/* Parse a duration: a number with h, m, s or ms, or plain seconds. */
int opts__parse_duration(const char *v, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"", 1e9}, {"s", 1e9}, {"ms", 1e6}, {"m", 60e9}, {"h", 3600e9}};
	char *end;
	double x = strtod(v, &end);

	if (end == v || !isfinite(x) || x < 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && x * units[i].ns < 1e18) {
			*ns = (uint64_t)(x * units[i].ns);
			return 0;
		}
	return -EINVAL;
}

/* Parse a byte size: a number with K, M or G (binary; KiB, MiB, GiB too) or plain bytes. */
static int parse_size(const char *v, uint64_t *bytes)
{
	static const struct {
		const char *unit;
		double mul;
	} units[] = {{"", 1},	       {"K", 1024},	    {"KiB", 1024},	  {"M", 1048576},
		     {"MiB", 1048576}, {"G", 1073741824.0}, {"GiB", 1073741824.0}};
	char *end;
	double x = strtod(v, &end);

	if (end == v || !isfinite(x) || x < 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && x * units[i].mul < 1e15) {
			*bytes = (uint64_t)(x * units[i].mul);
			return 0;
		}
	return -EINVAL;
}

/* --flight DURATION. */
int opts__o_flight(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (opts__parse_duration(v, &o->flight_ns) || o->flight_ns < 1000000000ull) {
		snprintf(err, errlen,
			 "bad duration '%s' for --flight: give 1s or more with a unit, e.g. 15m",
			 v);
		return -EINVAL;
	}
	return 0;
}

/* --flight-max SIZE. */
int opts__o_flight_max(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (parse_size(v, &o->flight_max) || o->flight_max < OPTS_FLIGHT_MIN) {
		snprintf(err, errlen,
			 "bad size '%s' for --flight-max: give 64K or more, e.g. 64M (K, M, G are "
			 "binary)",
			 v);
		return -EINVAL;
	}
	return 0;
}

/* --flight-files N. */
int opts__o_flight_files(struct opts *o, const char *v, char *err, size_t errlen)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (end == v || *end || n < 0 || n > 100000) {
		snprintf(err, errlen,
			 "bad count '%s' for --flight-files: give 0 (keep all) to 100000", v);
		return -EINVAL;
	}
	o->flight_files = n;
	return 0;
}

/* --trigger EXPR (repeatable). */
int opts__o_trigger(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (o->ntriggers == TRIGGER_MAX) {
		snprintf(err, errlen, "more than %d --trigger options: combine or drop some",
			 TRIGGER_MAX);
		return -EINVAL;
	}
	if (trigger__parse(v, &o->triggers[o->ntriggers], err, errlen))
		return -EINVAL;
	o->ntriggers++;
	return 0;
}

/* --trigger-after DURATION. */
int opts__o_trigger_after(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (opts__parse_duration(v, &o->trigger_after_ns) || !o->trigger_after_ns) {
		snprintf(err, errlen,
			 "bad duration '%s' for --trigger-after: give more than 0, e.g. 30s", v);
		return -EINVAL;
	}
	return 0;
}

/* --trigger-cooldown DURATION. */
int opts__o_trigger_cooldown(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (opts__parse_duration(v, &o->trigger_cooldown_ns) || !o->trigger_cooldown_ns) {
		snprintf(err, errlen,
			 "bad duration '%s' for --trigger-cooldown: give more than 0, e.g. 5m", v);
		return -EINVAL;
	}
	return 0;
}

/* The first flight option given that needs --flight, or NULL. */
static const char *needs_flight(const struct opts *o)
{
	if (o->flight_max)
		return "--flight-max";
	if (o->flight_dir)
		return "--flight-dir";
	if (o->flight_files != OPTS_FLIGHT_FILES)
		return "--flight-files";
	if (o->flight_http)
		return "--flight-http";
	if (o->ntriggers)
		return "--trigger";
	if (o->trigger_after_ns)
		return "--trigger-after";
	if (o->trigger_cooldown_ns)
		return "--trigger-cooldown";
	return NULL;
}

/* Say in err why the flight options do not go together; false when they do. */
static bool conflict(const struct opts *o, char *err, size_t errlen)
{
	const char *opt = needs_flight(o);

	if (!o->flight_ns && opt)
		snprintf(err, errlen,
			 "%s applies to the flight recorder: give --flight DURATION too (e.g. "
			 "--flight 15m)",
			 opt);
	else if (o->flight_ns && (o->replay || o->discover))
		snprintf(err, errlen,
			 "--flight keeps the last minutes of a live session: it does not apply to "
			 "%s",
			 o->replay ? "-r" : "--discover");
	else if (o->flight_http && !o->listen)
		snprintf(
		    err, errlen,
		    "--flight-http adds POST /dump to the --listen endpoint: give --listen too");
	else if ((o->trigger_after_ns || o->trigger_cooldown_ns) && !o->ntriggers)
		snprintf(err, errlen,
			 "--trigger-after and --trigger-cooldown apply to --trigger: give one");
	else if (o->flight_ns && o->trigger_after_ns && o->trigger_after_ns >= o->flight_ns)
		snprintf(
		    err, errlen,
		    "--trigger-after must be shorter than --flight (the dump would hold nothing "
		    "from before the trigger): shorten it or lengthen --flight");
	else
		return false;
	return true;
}

/* Check the flight options go together and fill in the defaults. */
int opts__check_flight(struct opts *o, char *err, size_t errlen)
{
	if (conflict(o, err, errlen))
		return -EINVAL;
	if (!o->flight_max)
		o->flight_max = OPTS_FLIGHT_MAX;
	if (!o->trigger_after_ns)
		o->trigger_after_ns = OPTS_TRIGGER_AFTER_NS < o->flight_ns / 2
					  ? OPTS_TRIGGER_AFTER_NS
					  : o->flight_ns / 2;
	if (!o->trigger_cooldown_ns)
		o->trigger_cooldown_ns = OPTS_TRIGGER_COOLDOWN_NS;
	return 0;
}
