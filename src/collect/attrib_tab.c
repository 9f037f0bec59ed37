// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrib_tab.c - the table's own operations that every part of attrib uses (the entry of an
 * id, adding an attach point): a file of its own so the parts call down into it and never
 * round in a circle.
 */
#include <stdio.h>

#include "collect/attrib_int.h"

/* The index of the entry of id (the table is sorted by id), or -1. */
long attrib__index(const struct attrib *a, uint32_t id)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->e[mid].id == id)
			return (long)mid;
		if (a->e[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The entry of id, or NULL. */
struct prog_attr *attrib__entry(struct attrib *a, uint32_t id)
{
	long i = attrib__index(a, id);

	return i < 0 ? NULL : &a->e[i];
}

/* Add one attach point to id's entry. */
void attrib__add_point(struct attrib *a, uint32_t id, const char *kind, const char *where,
		       uint32_t link_id)
{
	struct prog_attr *e = attrib__entry(a, id);
	struct attr_point *pt;

	if (!e)
		return;
	e->points_total++;
	if (e->npoints >= ATTR_POINTS)
		return;
	pt = &e->points[e->npoints++];
	snprintf(pt->kind, sizeof(pt->kind), "%s", kind);
	snprintf(pt->where, sizeof(pt->where), "%s", where);
	pt->link_id = link_id;
}

/* The type of program prog_id as the scan saw it (0: not seen). */
uint32_t attrib__prog_type(const struct attrib *a, uint32_t prog_id)
{
	long i = attrib__index(a, prog_id);

	return i < 0 ? 0 : a->type[i];
}
