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

/* True when path is dir or under it ("/a" holds "/a" and "/a/b", not "/ab"). */
static bool path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(path, dir, n) && (path[n] == '\0' || path[n] == '/' || n == 1);
}

/* True when attach point where names device dev as its first word. */
static bool on_dev(const struct attr_point *p, const char *dev)
{
	size_t n = strlen(dev);

	return (!strcmp(p->kind, "xdp") || !strcmp(p->kind, "tc") || !strcmp(p->kind, "tcx") ||
		!strcmp(p->kind, "netkit")) &&
	       !strncmp(p->where, dev, n) && (p->where[n] == '\0' || p->where[n] == ' ');
}

/* True when a program whose attach points are a's sits on device dev: attached to it (XDP, tc,
 * tcx, netkit), or an extension of a program that is (libxdp's dispatcher on dev: its
 * components replace the dispatcher's functions, "freplace prog ID FUNC"; one level, as
 * libxdp nests). */
static bool attr_on_dev(const struct model *m, const struct prog_attr *a, const char *dev)
{
	for (uint32_t i = 0; i < a->npoints; i++) {
		const struct attr_point *p = &a->points[i];
		const struct series *t;
		unsigned id;

		if (on_dev(p, dev))
			return true;
		if (!m || strcmp(p->kind, "freplace") || sscanf(p->where, "prog %u", &id) != 1)
			continue;
		t = model__find((struct model *)m, LAT_EV_PROG, id, 0, 0);
		for (uint32_t k = 0; t && t->attr && k < t->attr->npoints; k++)
			if (on_dev(&t->attr->points[k], dev))
				return true;
	}
	return false;
}

/* True when the container string c ("docker:0123456789ab", "k8s:<pod>/<id>") has an id
 * starting with v, or is v whole. */
static bool container_is(const char *c, const char *v)
{
	const char *id = strrchr(c, '/');

	if (!id)
		id = strchr(c, ':');
	return !strcmp(c, v) || (id && !strncmp(id + 1, v, strlen(v)));
}

/* True when series se's program (of model m, NULL when there is none to look in) matches
 * selector f (an owner, its cgroup, container or unit, an attach point, its type). A program
 * whose attribution is not known matches only type:. */
static bool sel_match(const struct model *m, const struct filter_ent *f, const struct series *se)
{
	const char *v = opts__sel_value(f);
	const struct prog_attr *a = se->attr;

	if (f->sel == FSEL_TYPE)
		return !strcmp(se->type, v);
	if (!a)
		return false;
	switch (f->sel) {
	case FSEL_COMM:
		for (uint32_t i = 0; i < a->nowners; i++)
			if (!strcmp(a->owners[i].comm, v))
				return true;
		return false;
	case FSEL_UNIT:
		return !strcmp(a->unit, v);
	case FSEL_CONTAINER:
		return a->container[0] && container_is(a->container, v);
	case FSEL_CGROUP:
		if (a->cgroup[0] && path_under(a->cgroup, v))
			return true;
		for (uint32_t i = 0; i < a->npoints; i++) {
			/* "PATH ATTACH_TYPE": the path is all before the last space. */
			char path[sizeof(a->points[i].where)];
			char *sp;

			if (strcmp(a->points[i].kind, "cgroup"))
				continue;
			snprintf(path, sizeof(path), "%s", a->points[i].where);
			sp = strrchr(path, ' ');
			if (sp)
				*sp = '\0';
			if (path_under(path, v))
				return true;
		}
		return false;
	case FSEL_DEV:
		return attr_on_dev(m, a, v);
	case FSEL_ATTACH:
		for (uint32_t i = 0; i < a->npoints; i++)
			if (!strcmp(a->points[i].kind, v))
				return true;
		return false;
	default:
		return false;
	}
}

/* True when filter entry f selects series se of model m. */
static bool ent_match(const struct model *m, const struct filter_ent *f, const struct series *se)
{
	if (f->sel)
		return sel_match(m, f, se);
	return f->id ? f->id == se->id : strcmp(f->name, se->name) == 0;
}

/* True when the series passes the -p filter. */
bool session__wanted(const struct session *s, const struct series *se)
{
	const struct opts *o = s->o;

	if (!o->nfilter)
		return true;
	for (int i = 0; i < o->nfilter; i++)
		if (ent_match(s->m, &o->filter[i], se))
			return true;
	return false;
}

/* Programs of model m that selector f picks now. */
static int sel_count(const struct model *m, const struct filter_ent *f)
{
	int n = 0;

	for (size_t i = 0; i < m->n; i++)
		n += m->s[i].kind == LAT_EV_PROG && !m->s[i].gone && sel_match(m, f, &m->s[i]);
	return n;
}

/* True when span series se passes the filter: entries naming segments (a span, or with
 * --profile one of the vhost chain's S0, S1, S2, total: kinds__named) select those; a filter
 * naming none (only programs) leaves every segment shown. */
static bool span_wanted(const struct session *s, const struct series *se)
{
	bool any = false;

	for (int i = 0; i < s->o->nfilter; i++) {
		const struct filter_ent *f = &s->o->filter[i];

		if (f->id || f->sel || !kinds__named(s, f->name))
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

		if (f->sel) {
			/* Programs come and go and their owners with them: a selector that picks
			 * nothing yet is worth a warning, not a refusal. */
			if (!sel_count(s->m, f))
				session__warn(s, "selector '%s' matches no program now", f->name);
			continue;
		}
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
	if (s->m->mode == MODE_SEGMENTS) {
		rows__tree(rows, n); /* activities under their parents, then spans' groups */
		return rows__with_groups(s->m, cumulative, ord, rows, n, max);
	}
	if (s->m->mode == MODE_PROGRAMS)
		return rows__with_cpus(s->m, cumulative, ord, rows, n, max);
	if (s->m->mode != MODE_HELPERS)
		return n;
	return rows__with_helpers(s->m, cumulative, ord, rows, n, max);
}
