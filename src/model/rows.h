/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rows.h - ordering the rows every view shows: sort by a comparison the caller gives (a
 * column's, ui/columns.c), ties by program ID; in helpers mode, each program's row followed by
 * its helper rows, in programs mode by its CPU rows where they are shown.
 *
 * Thread use: the UI/main thread (no shared state: the order travels as an argument).
 */
#ifndef LAT_ROWS_H
#define LAT_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* How rows are ordered: cmp(arg, a, b) < 0 puts a first; reverse turns it around. */
struct row_order {
	int (*cmp)(const void *arg, const struct row *a, const struct row *b);
	const void *arg;
	bool reverse;
};

/* Sort rows[0..n) by ord, ties by program ID. */
void rows__sort(struct row *rows, size_t n, const struct row_order *ord);
/* Helpers mode: rows[0..n) are program rows, sorted; rewrite rows so each is followed by the
 * rows of its helper series in m (sorted by ord), at most max rows in all. Returns the number
 * of rows (n, the program rows alone, when memory is short). */
size_t rows__with_helpers(const struct model *m, bool cumulative, const struct row_order *ord,
			  struct row *rows, size_t n, size_t max);
/* Programs mode: the same with the rows of each program's CPU series (LAT_EV_PROG_CPU, sorted
 * by ord), for the programs whose CPU rows are shown (series cpu_rows, or the model's
 * cpu_rows_all). */
size_t rows__with_cpus(const struct model *m, bool cumulative, const struct row_order *ord,
		       struct row *rows, size_t n, size_t max);
/* Segments mode: the same with each span's breakdown groups (LAT_EV_SPAN_GRP, sorted by ord),
 * unless the span's groups are hidden (series grp_hidden). */
size_t rows__with_groups(const struct model *m, bool cumulative, const struct row_order *ord,
			 struct row *rows, size_t n, size_t max);

/* Segments mode: reorder rows[0..n) (sorted) as a tree: each EventHeader activity row whose
 * parent row (its series' second label names it) is among them follows its parent, siblings
 * in their sorted order, with depth set (at most ROWS_TREE_DEPTH; a row whose parents form a
 * cycle, or past the depth, keeps depth 0 at the end). The same n rows. */
#define ROWS_TREE_DEPTH 8
void rows__tree(struct row *rows, size_t n);
/* Whether s is an EventHeader activity's row (session/kind_eh.c names their kinds: activity,
 * self, event, value). */
bool rows__is_activity(const struct series *s);

#endif /* LAT_ROWS_H */
