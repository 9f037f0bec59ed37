/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * trigger.h - `--trigger EXPR`: a threshold on the figures of the interval just closed, the
 * flight recorder's automatic dump.
 *
 *   EXPR   := [SERIES ":"] METRIC OP VALUE
 *   OP     := ">" | ">=" | "<" | "<="
 *   series metrics (SERIES given): p50 p95 p99 p999 max avg (VALUE a duration: 20us, 1.5ms,
 *     300ns, 2s), rate (runs per second: 1000 or 1000/s), count (runs in the interval), lost
 *     (the series' loss counters' growth in the interval: a span's unmatched, evicted ...)
 *   session-wide metrics (no SERIES): drops (ring buffer + queue), rb_drops, queue_drops,
 *     recursion, nest, lost (every loss counter's growth in the interval)
 *
 * A series metric holds when any series named SERIES (a program, helper, span or segment
 * name) has figures for it in the interval and they satisfy it.
 *
 * Thread use: UI thread (a trigger is read-only once parsed).
 */
#ifndef LAT_TRIGGER_H
#define LAT_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* Most --trigger options a session takes. */
#define TRIGGER_MAX 16

enum trig_metric {
	TM_P50 = 0,
	TM_P95,
	TM_P99,
	TM_P999,
	TM_MAX,
	TM_AVG,
	TM_RATE,
	TM_COUNT,
	TM_LOST,
	TM_DROPS,
	TM_RB_DROPS,
	TM_QUEUE_DROPS,
	TM_RECURSION,
	TM_NEST,
	TM_ALL_LOST,
	TM__COUNT,
};

enum trig_op { TO_GT = 0, TO_GE, TO_LT, TO_LE };

struct trigger {
	char text[160];	 /* as given */
	char series[64]; /* "" for a session-wide metric */
	enum trig_metric metric;
	enum trig_op op;
	double threshold; /* ns for durations, per second for rate, a count otherwise */
};

/* What a trigger saw when it held. */
struct trigger_hit {
	char series[64]; /* the series that crossed it ("" for session-wide) */
	double value;
};

/* Parse text into t. Returns 0, or -EINVAL with one sentence in err naming the bad part. */
int trigger__parse(const char *text, struct trigger *t, char *err, size_t errlen);
/* True when t holds for the interval m just closed, with what it saw in hit. */
bool trigger__eval(const struct trigger *t, const struct model *m, struct trigger_hit *hit);
/* The metric's name as written ("p99", "drops", ...). */
const char *trigger__metric_name(enum trig_metric mt);
/* True when the metric's values are durations in ns. */
bool trigger__is_duration(enum trig_metric mt);

#endif /* LAT_TRIGGER_H */
