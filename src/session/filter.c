// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * filter.c - the -p filter of a session, live or replayed: what it selects, checking it
 * against the programs and segments there are, replacing it, and the rows it leaves.
 *
 * Thread use: UI/main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/filter.h"
#include "session/kind.h"
#include "session/session.h"

/* True when the series passes the -p filter. */
bool session__wanted(const struct session *s, const struct series *se)
{
	const struct opts *o = s->o;

	if (!o->nfilter)
		return true;
	for (int i = 0; i < o->nfilter; i++) {
		if (o->filter[i].id ? o->filter[i].id == se->id
				    : strcmp(o->filter[i].name, se->name) == 0)
			return true;
	}
	return false;
}

/* True when span series se passes the filter: entries naming segments (a span, or with
 * --profile one of the vhost chain's S0, S1, S2, total: kinds__named) select those; a filter
 * naming none (only programs) leaves every segment shown. */
static bool span_wanted(const struct session *s, const struct series *se)
{
	bool any = false;

	for (int i = 0; i < s->o->nfilter; i++) {
		const struct filter_ent *f = &s->o->filter[i];

		if (f->id || !kinds__named(s, f->name))
			continue;
		if (!strcmp(f->name, se->name))
			return true;
		any = true;
	}
	return !any;
}

/* Check every -p entry against the loaded programs: unknown IDs and names are errors; a name
 * matching several programs is worth a warning. */
int session__check_filter(struct session *s, const struct filter_ent *fl, int n, char *err,
			  size_t errlen)
{
	for (int i = 0; i < n; i++) {
		const struct filter_ent *f = &fl[i];
		int matches = 0;

		for (size_t k = 0; k < s->nst; k++)
			if (f->id ? s->st[k].id == f->id : !strcmp(s->st[k].name, f->name))
				matches++;
		if (!matches && !f->id && kinds__named(s, f->name))
			continue; /* a span's name: filters segments mode */
		if (!matches && s->rp) {
			/* A replay's filter is a view of the recorded programs. */
			if (f->id)
				snprintf(err, errlen, "no recorded program has ID %u", f->id);
			else
				snprintf(err, errlen, "no recorded program is named '%s'", f->name);
			return -ENOENT;
		}
		if (!matches) {
			if (f->id)
				snprintf(
				    err, errlen,
				    "no loaded BPF program has ID %u (see `bpftool prog list`)",
				    f->id);
			else if (s->o->nspans || s->o->profile_path)
				snprintf(
				    err, errlen,
				    "no loaded BPF program or segment is named '%s' (see `bpftool "
				    "prog list`)",
				    f->name);
			else
				snprintf(err, errlen,
					 "no loaded BPF program is named '%s' (see `bpftool prog "
					 "list`)",
					 f->name);
			return -ENOENT;
		}
		if (!f->id && matches > 1)
			session__warn(s, "name '%s' matches %d programs", f->name, matches);
	}
	return 0;
}

/* Format the current filter as a -p list. */
int session__filter_str(const struct session *s, char *buf, size_t len)
{
	return opts__filter_str(s->o, buf, len);
}

/* Replace the filter with a new list (validated against loaded programs first). */
int session__set_filter(struct session *s, const char *list, char *err, size_t errlen)
{
	/* The new list is parsed into a copy of the options (too big for the stack) and
	 * checked before it replaces the old one. */
	struct opts *trial = malloc(sizeof(*trial));
	int e = 0;

	if (!trial) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*trial = *s->o;
	trial->nfilter = 0;
	/* The new filter's warnings replace the old filter's; the session's stay. */
	s->warn[s->warn_keep] = '\0';
	if (*list)
		e = opts__parse_filter(trial, list, err, errlen);
	if (!e)
		e = session__check_filter(s, trial->filter, trial->nfilter, err, errlen);
	if (!e) {
		memcpy(s->o->filter, trial->filter, sizeof(trial->filter));
		s->o->nfilter = trial->nfilter;
		source_of(s)->filter_changed(s);
	}
	free(trial);
	return e;
}

/* Fill rows for the current mode, filtered and sorted. In helpers mode each watched program's
 * row comes first, as context, followed by its helper rows (both sorted by the column). */
size_t session__rows(const struct session *s, bool cumulative, const struct row_order *ord,
		     struct row *rows, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->m->n && n < max; i++) {
		const struct series *se = &s->m->s[i];

		if (s->m->mode == MODE_SEGMENTS) {
			if (se->kind == LAT_EV_SEG && span_wanted(s, se))
				model__row(s->m, se, cumulative, &rows[n++]);
			continue;
		}
		if (se->kind != LAT_EV_PROG || !session__wanted(s, se))
			continue;
		if (s->m->mode == MODE_HELPERS && !source_of(s)->helpers_shown(s, se))
			continue;
		model__row(s->m, se, cumulative, &rows[n++]);
	}
	rows__sort(rows, n, ord);
	if (s->m->mode != MODE_HELPERS)
		return n;
	return rows__with_helpers(s->m, cumulative, ord, rows, n, max);
}
