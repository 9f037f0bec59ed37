// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * counters.c - the session-wide named counters (the vhost chain's) as one line of text, for
 * the batch reports' CSV field and text line and the TUI's counters line.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <stdio.h>

#include "base/text.h"
#include "ui/columns.h"
#include "ui/counters.h"

/* The session-wide named counters as "name value  name value" (sep " ", human: with
 * thousands separators and the names in their visible form) or "name=value;..." (plain: the
 * caller escapes the whole, as a CSV field) into buf ("" when there are none). */
static void named_fmt(const struct model *m, bool cumulative, const char *eq, const char *sep,
		      bool human, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < m->nctr && at < len; i++) {
		const struct model_counter *c = &m->ctr[i];
		uint64_t v = cumulative ? c->cum : c->last;
		char num[32], name[4 * MODEL_CTR_NAME];

		if (c->series >= 0)
			continue;
		if (human) {
			fmt_count(v, num, sizeof(num));
			text__esc(name, sizeof(name), c->name);
		} else {
			snprintf(num, sizeof(num), "%" PRIu64, v);
			snprintf(name, sizeof(name), "%s", c->name);
		}
		at += snprintf(buf + at, len - at, "%s%s%s%s", at ? sep : "", name, eq, num);
	}
}

/* CSV form of the session-wide named counters. */
void counters__named_str(const struct model *m, bool cumulative, char *buf, size_t len)
{
	named_fmt(m, cumulative, "=", ";", false, buf, len);
}

/* One-line form for the TUI: "name value  name value". */
void counters__named_line(const struct model *m, bool cumulative, char *buf, size_t len)
{
	named_fmt(m, cumulative, " ", "  ", true, buf, len);
}

/* Append printf text to buf (cut at len). */
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* The budget's part of the probes' line. */
void counters__budget_tail(const struct model *m, bool cumulative, char *buf, size_t len)
{
	double mach = model__probe_machine_pct(m, cumulative);

	if (!len)
		return;
	buf[0] = '\0';
	if (!m->has_budget)
		return;
	if (mach >= 0)
		append(buf, len, "; %.3f%% of the machine", mach);
	if (m->budget_pct < 0)
		append(buf, len, ", budget max");
	else
		append(buf, len, ", budget %g%%", m->budget_pct);
	if (m->turns && m->watch_want && m->turn_ns)
		append(buf, len, "; %d of %d watched in turns of %.1fs", m->probed, m->watch_want,
		       m->turn_ns / 1e9);
	else if (m->turns && m->watch_want)
		append(buf, len, "; %d of %d watched in turns", m->probed, m->watch_want);
	else if (m->turns)
		append(buf, len, "; watched in turns");
	if (m->unprobeable)
		append(buf, len, "; %d not watchable", m->unprobeable);
}
