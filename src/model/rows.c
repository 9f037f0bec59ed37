// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rows.c - sort rows and group helper rows under their programs (see rows.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/rows.h"

/* qsort_r comparison: by the order's comparison, ties by program ID. */
static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct row_order *ord = arg;
	const struct row *a = pa, *b = pb;
	int c = ord->cmp(ord->arg, a, b);

	if (ord->reverse)
		c = -c;
	if (!c)
		c = (a->s->id > b->s->id) - (a->s->id < b->s->id);
	if (!c) /* rows under one program: its helpers, its CPUs */
		c = (a->s->aux > b->s->aux) - (a->s->aux < b->s->aux);
	return c;
}

/* Sort rows by ord. */
void rows__sort(struct row *rows, size_t n, const struct row_order *ord)
{
	qsort_r(rows, n, sizeof(*rows), row_cmp, (void *)ord);
}

/* qsort: child series (helpers, CPUs) by program ID, then by position in the model. */
static int helper_cmp(const void *pa, const void *pb)
{
	const struct series *a = *(const struct series *const *)pa;
	const struct series *b = *(const struct series *const *)pb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return (a > b) - (a < b);
}

/* The first of the children h[0..n) (sorted by helper_cmp) of program id, or n. */
static size_t helpers_of(const struct series *const *h, size_t n, uint32_t id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether program row r gets its child rows: all of its helpers; its CPUs when shown. */
static bool has_children(const struct model *m, uint16_t kind, const struct row *r)
{
	if (kind == LAT_EV_SPAN_GRP)
		return r->s->kind == LAT_EV_SEG && !r->s->grp_hidden;
	if (kind != LAT_EV_PROG_CPU)
		return true;
	return r->s->kind == LAT_EV_PROG && (m->cpu_rows_all || r->s->cpu_rows);
}

/* Interleave: program row, then its children. Works from a copy of the program rows; the
 * children are grouped by program once (n log n, not programs x series per frame). */
static size_t with_children(const struct model *m, uint16_t kind, bool cumulative,
			    const struct row_order *ord, struct row *rows, size_t n, size_t max)
{
	const struct series **h = malloc((m->n ? m->n : 1) * sizeof(*h));
	struct row *progs = malloc((n ? n : 1) * sizeof(*progs));
	size_t out = 0, nh = 0;

	if (!h || !progs) {
		free(h);
		free(progs);
		return n; /* the program rows alone */
	}
	for (size_t i = 0; i < m->n; i++)
		if (m->s[i].kind == kind)
			h[nh++] = &m->s[i];
	qsort(h, nh, sizeof(*h), helper_cmp);
	memcpy(progs, rows, n * sizeof(*rows));
	for (size_t p = 0; p < n && out < max; p++) {
		size_t first, i = helpers_of(h, nh, progs[p].s->id);

		rows[out++] = progs[p];
		first = out;
		if (!has_children(m, kind, &progs[p]))
			continue;
		for (; i < nh && h[i]->id == progs[p].s->id && out < max; i++) {
			model__row(m, h[i], cumulative, &rows[out]);
			rows[out++].prog_name = progs[p].s->name;
		}
		rows__sort(rows + first, out - first, ord);
	}
	free(h);
	free(progs);
	return out;
}

/* Helpers mode: each program row, then its helpers. */
size_t rows__with_helpers(const struct model *m, bool cumulative, const struct row_order *ord,
			  struct row *rows, size_t n, size_t max)
{
	return with_children(m, LAT_EV_HELPER, cumulative, ord, rows, n, max);
}

/* with_children, when the model has any series of kind child (else the rows stand as they are,
 * with no walk of the children). */
static size_t with_any_children(const struct model *m, uint16_t child, bool cumulative,
				const struct row_order *ord, struct row *rows, size_t n, size_t max)
{
	bool any = false;

	for (size_t i = 0; i < m->n && !any; i++)
		any = m->s[i].kind == child;
	return any ? with_children(m, child, cumulative, ord, rows, n, max) : n;
}

/* Programs mode: each program row, then its CPUs where they are shown. */
size_t rows__with_cpus(const struct model *m, bool cumulative, const struct row_order *ord,
		       struct row *rows, size_t n, size_t max)
{
	return with_any_children(m, LAT_EV_PROG_CPU, cumulative, ord, rows, n, max);
}

bool rows__is_activity(const struct series *s)
{
	return s->kind == LAT_EV_SEG &&
	       (!strcmp(s->type, "activity") || !strcmp(s->type, "self") ||
		!strcmp(s->type, "event") || !strcmp(s->type, "value"));
}

/* The index of row i's parent among rows[0..n), or -1. */
static long parent_of(const struct row *rows, size_t n, size_t i)
{
	const struct series *s = rows[i].s;

	if (!rows__is_activity(s) || !s->sub[0])
		return -1;
	for (size_t k = 0; k < n; k++)
		if (k != i && rows__is_activity(rows[k].s) && !strcmp(rows[k].s->name, s->sub))
			return (long)k;
	return -1;
}

/* Append row i of in and, depth first, its children (in sorted order) to out. */
static void put_subtree(const struct row *in, const long *par, size_t n, size_t i, int depth,
			struct row *out, size_t *nout, bool *done)
{
	out[*nout] = in[i];
	out[*nout].depth = (uint8_t)depth;
	(*nout)++;
	done[i] = true;
	if (depth == ROWS_TREE_DEPTH)
		return;
	for (size_t k = 0; k < n; k++)
		if (!done[k] && par[k] == (long)i)
			put_subtree(in, par, n, k, depth + 1, out, nout, done);
}

/* Reorder rows as a tree of activities. */
void rows__tree(struct row *rows, size_t n)
{
	struct row *in = malloc(n * sizeof(*in));
	long *par = malloc(n * sizeof(*par));
	bool *done = calloc(n, sizeof(*done));
	size_t nout = 0;
	bool any = false;

	if (!in || !par || !done)
		goto out; /* memory short: the sorted order stands */
	memcpy(in, rows, n * sizeof(*in));
	for (size_t i = 0; i < n; i++)
		any |= (par[i] = parent_of(in, n, i)) >= 0;
	if (!any)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (!done[i] && par[i] < 0)
			put_subtree(in, par, n, i, 0, rows, &nout, done);
	for (size_t i = 0; i < n; i++) /* cycles and rows past the depth */
		if (!done[i]) {
			rows[nout] = in[i];
			rows[nout++].depth = 0;
			done[i] = true;
		}
out:
	free(in);
	free(par);
	free(done);
}

/* Segments mode: each span row, then its breakdown's groups unless hidden. */
size_t rows__with_groups(const struct model *m, bool cumulative, const struct row_order *ord,
			 struct row *rows, size_t n, size_t max)
{
	return with_any_children(m, LAT_EV_SPAN_GRP, cumulative, ord, rows, n, max);
}
