// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * trigger.c - `--trigger` expressions: parsing (one sentence naming the bad part) and their
 * evaluation on the interval just closed (see trigger.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/trigger.h"

static const char *const metric_names[TM__COUNT] = {
    [TM_P50] = "p50",
    [TM_P95] = "p95",
    [TM_P99] = "p99",
    [TM_P999] = "p999",
    [TM_MAX] = "max",
    [TM_AVG] = "avg",
    [TM_RATE] = "rate",
    [TM_COUNT] = "count",
    [TM_LOST] = "lost",
    [TM_DROPS] = "drops",
    [TM_RB_DROPS] = "rb_drops",
    [TM_QUEUE_DROPS] = "queue_drops",
    [TM_RECURSION] = "recursion",
    [TM_NEST] = "nest",
    [TM_ALL_LOST] = "lost",
};

/* The metric's name as written. */
const char *trigger__metric_name(enum trig_metric mt)
{
	return mt < TM__COUNT ? metric_names[mt] : "?";
}

/* True when the metric's values are durations in ns. */
bool trigger__is_duration(enum trig_metric mt) { return mt <= TM_AVG; }

/* The metric named name[0..len): series ones when series, else session-wide; -1 if none. */
static int metric_of(const char *name, size_t len, bool series)
{
	int lo = series ? TM_P50 : TM_DROPS, hi = series ? TM_LOST : TM_ALL_LOST;

	for (int i = lo; i <= hi; i++)
		if (strlen(metric_names[i]) == len && !strncmp(name, metric_names[i], len))
			return i;
	return -1;
}

/* Parse a duration with its unit ("20us") into ns; false when malformed. */
static bool parse_duration(const char *v, double *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	char *end;
	double x = strtod(v, &end);

	if (end == v || !isfinite(x) || x < 0)
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*ns = x * units[i].ns;
			return true;
		}
	return false;
}

/* Parse a rate or a count ("1000", rates also "1000/s"); false when malformed. */
static bool parse_number(const char *v, bool rate, double *out)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || !isfinite(x) || x < 0)
		return false;
	if (rate && !strcmp(end, "/s"))
		end += 2;
	if (*end)
		return false;
	*out = x;
	return true;
}

/* Parse the value after the operator for t's metric; 0 or -EINVAL with err set. */
static int parse_value(struct trigger *t, const char *v, char *err, size_t errlen)
{
	const char *mn = metric_names[t->metric];
	bool ok = trigger__is_duration(t->metric)
		      ? parse_duration(v, &t->threshold)
		      : parse_number(v, t->metric == TM_RATE, &t->threshold);

	if (ok)
		return 0;
	if (trigger__is_duration(t->metric))
		snprintf(
		    err, errlen,
		    "--trigger '%s': the value '%s' is not a duration: %s takes a number and a "
		    "unit, ns, us, ms or s (e.g. 20us)",
		    t->text, v, mn);
	else
		snprintf(
		    err, errlen,
		    "--trigger '%s': the value '%s' is not a number: %s takes a plain number%s",
		    t->text, v, mn, t->metric == TM_RATE ? " of runs per second (e.g. 1000)" : "");
	return -EINVAL;
}

/* Parse the metric name before the operator; 0 or -EINVAL with err set. */
static int parse_metric(struct trigger *t, const char *name, size_t len, char *err, size_t errlen)
{
	int mt = metric_of(name, len, t->series[0] != '\0');

	if (mt >= 0) {
		t->metric = (enum trig_metric)mt;
		return 0;
	}
	if (t->series[0])
		snprintf(err, errlen,
			 "--trigger '%s': unknown metric '%.*s' of series %s: use p50, p95, p99, "
			 "p999, max, avg, rate, count or lost",
			 t->text, (int)len, name, t->series);
	else
		snprintf(
		    err, errlen,
		    "--trigger '%s': unknown session-wide metric '%.*s': use drops, rb_drops, "
		    "queue_drops, recursion, nest or lost, or SERIES:METRIC for a series (e.g. "
		    "demo_xdp_hash:p99>20us)",
		    t->text, (int)len, name);
	return -EINVAL;
}

/* Parse text into t. */
int trigger__parse(const char *text, struct trigger *t, char *err, size_t errlen)
{
	const char *op = strpbrk(text, "<>"), *colon = strchr(text, ':'), *name = text;

	memset(t, 0, sizeof(*t));
	snprintf(t->text, sizeof(t->text), "%s", text);
	if (strlen(text) >= sizeof(t->text)) {
		snprintf(err, errlen, "--trigger '%.40s...': longer than %zu characters", text,
			 sizeof(t->text) - 1);
		return -EINVAL;
	}
	if (!op) {
		snprintf(err, errlen,
			 "--trigger '%s': no comparison: write [SERIES:]METRIC>VALUE, e.g. "
			 "demo_xdp_hash:p99>20us",
			 text);
		return -EINVAL;
	}
	if (colon && colon < op) {
		if (colon == text || (size_t)(colon - text) >= sizeof(t->series)) {
			snprintf(
			    err, errlen,
			    "--trigger '%s': the series name before ':' is empty or longer than "
			    "63 characters",
			    text);
			return -EINVAL;
		}
		memcpy(t->series, text, (size_t)(colon - text));
		name = colon + 1;
	}
	if (parse_metric(t, name, (size_t)(op - name), err, errlen))
		return -EINVAL;
	t->op = op[0] == '>' ? TO_GT : TO_LT;
	if (op[1] == '=') {
		t->op = op[0] == '>' ? TO_GE : TO_LE;
		op++;
	}
	return parse_value(t, op + 1, err, errlen);
}

/* True when value satisfies t's comparison. */
static bool holds(const struct trigger *t, double v)
{
	switch (t->op) {
	case TO_GT:
		return v > t->threshold;
	case TO_GE:
		return v >= t->threshold;
	case TO_LT:
		return v < t->threshold;
	default:
		return v <= t->threshold;
	}
}

/* The growth of the loss counters of se (NULL: every counter of the session, series' too)
 * in the last interval. */
static double lost_of(const struct model *m, const struct series *se)
{
	uint64_t sum = 0;

	if (!se) {
		for (size_t i = 0; i < m->nctr; i++)
			sum += m->ctr[i].loss ? m->ctr[i].last : 0;
		return (double)sum;
	}
	for (const struct model_counter *c = model__counter_next(m, se, NULL); c;
	     c = model__counter_next(m, se, c))
		sum += c->loss ? c->last : 0;
	return (double)sum;
}

/* Series se's figure for metric mt in the last interval; false when it has none. */
static bool series_value(const struct model *m, const struct series *se, enum trig_metric mt,
			 double *v)
{
	struct row r;

	if (mt == TM_LOST) {
		*v = lost_of(m, se);
		return true;
	}
	model__row(m, se, false, &r);
	if (mt == TM_RATE || mt == TM_COUNT) {
		*v = mt == TM_RATE ? r.rate : (double)r.count;
		return r.has_rate;
	}
	if (mt == TM_AVG) {
		*v = r.avg_ns;
		return r.has_rate && r.count;
	}
	*v = (double)(mt == TM_P50    ? r.p50
		      : mt == TM_P95  ? r.p95
		      : mt == TM_P99  ? r.p99
		      : mt == TM_P999 ? r.p999
				      : r.max);
	return r.has_dist;
}

/* The session-wide figure of metric mt in the last interval. */
static double session_value(const struct model *m, enum trig_metric mt)
{
	const struct model_counters *c = &m->c_last;

	switch (mt) {
	case TM_DROPS:
		return (double)(c->rb_drops + c->queue_drops);
	case TM_RB_DROPS:
		return (double)c->rb_drops;
	case TM_QUEUE_DROPS:
		return (double)c->queue_drops;
	case TM_RECURSION:
		return (double)c->recursion;
	case TM_NEST:
		return (double)c->nest;
	default:
		return (double)(c->rb_drops + c->queue_drops + c->recursion + c->nest) +
		       lost_of(m, NULL);
	}
}

/* True when t holds for the interval m just closed. */
bool trigger__eval(const struct trigger *t, const struct model *m, struct trigger_hit *hit)
{
	double v;

	memset(hit, 0, sizeof(*hit));
	if (!t->series[0]) {
		hit->value = session_value(m, t->metric);
		return holds(t, hit->value);
	}
	for (size_t i = 0; i < m->n; i++) {
		const struct series *se = &m->s[i];

		if (se->gone || se->kind == LAT_EV_PROG_CPU || se->kind == LAT_EV_SPAN_GRP ||
		    se->kind == LAT_EV_SPAN_PART || strcmp(se->name, t->series) ||
		    !series_value(m, se, t->metric, &v))
			/* a CPU row bears its program's name, a group or a part its span's */
			continue;
		if (holds(t, v)) {
			snprintf(hit->series, sizeof(hit->series), "%s", se->name);
			hit->value = v;
			return true;
		}
	}
	return false;
}
