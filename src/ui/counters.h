/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * counters.h - the session-wide named counters (the vhost chain's) as one line, in the forms
 * the batch reports and the TUI print.
 *
 * Thread use: main/UI thread only.
 */
#ifndef LAT_UI_COUNTERS_H
#define LAT_UI_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* CSV form: "name=value;..." (raw numbers). */
void counters__named_str(const struct model *m, bool cumulative, char *buf, size_t len);
/* One-line form: "name value  name value" (numbers for humans). */
void counters__named_line(const struct model *m, bool cumulative, char *buf, size_t len);

/* The budget's part of the probes' line: "; X% of the machine, budget B%" (or "budget max"),
 * "; N of M watched in turns" while the budget does not cover all, "; K not watchable" when
 * some cannot be probed; "" when the session had no budget (a replay of an older file). */
void counters__budget_tail(const struct model *m, bool cumulative, char *buf, size_t len);

#endif /* LAT_UI_COUNTERS_H */
