// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_rows.c - ordering the rows the views show (model/rows.c): a column's order, reversed,
 * ties by program ID; in helpers mode every program row followed by its own helper rows, for
 * more programs than the 4096 a fixed array once held (the rest were silently dropped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/rows.h"
#include "ui/columns.h"
#include "test.h"

/* Programs by count: descending, reversed ascending, equal counts by ID. */
static void test_sort_by_column(void)
{
	struct model *m = model__new(0);
	static const uint64_t counts[] = { 5, 9, 5, 1 };
	struct row rows[4];
	struct row_order ord;

	if (!ASSERT_NONNULL(m, "model"))
		return;
	for (int i = 0; i < 4; i++) {
		struct series *se = model__series(m, LAT_EV_PROG, (uint32_t)(10 - i), 0, 0);

		if (!ASSERT_NONNULL(se, "series"))
			goto out;
		model__row(m, se, false, &rows[i]);
		rows[i].count = counts[i];
		rows[i].has_rate = true;
	}
	columns__order(MODE_PROGRAMS, -1, false, &ord);
	rows__sort(rows, 4, &ord);
	ASSERT_EQ(rows[0].count, 9, "largest count first");
	ASSERT_EQ(rows[1].s->id, 8, "equal counts: lower ID first");
	ASSERT_EQ(rows[2].s->id, 10, "then the higher ID");
	ASSERT_EQ(rows[3].count, 1, "smallest last");
	columns__order(MODE_PROGRAMS, -1, true, &ord);
	rows__sort(rows, 4, &ord);
	ASSERT_EQ(rows[0].count, 1, "reversed: smallest first");
	ASSERT_EQ(rows[3].count, 9, "reversed: largest last");
out:
	model__free(m);
}

/* Helpers mode with 5000 programs of one helper each: 10000 rows, each program followed by
 * its helper. */
static void test_helpers_of_many_programs(void)
{
	enum { NPROG = 5000 };
	struct model *m = model__new(0);
	struct row *rows = calloc(2 * NPROG, sizeof(*rows));
	struct row_order ord;
	size_t n, bad = 0;

	if (!ASSERT_NONNULL(m, "model") || !ASSERT_NONNULL(rows, "rows"))
		goto out;
	for (uint32_t id = 1; id <= NPROG; id++)
		if (!model__series(m, LAT_EV_PROG, id, 0, 0) ||
		    !model__series(m, LAT_EV_HELPER, id, 1, 0))
			goto out;
	n = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->s[i].kind == LAT_EV_PROG)
			model__row(m, &m->s[i], false, &rows[n++]);
	ASSERT_EQ(n, NPROG, "program rows");
	columns__order(MODE_HELPERS, -1, false, &ord);
	rows__sort(rows, n, &ord);
	n = rows__with_helpers(m, false, &ord, rows, n, 2 * NPROG);
	ASSERT_EQ(n, 2 * NPROG, "every program and every helper");
	for (size_t i = 0; i + 1 < n; i += 2)
		bad += rows[i].s->kind != LAT_EV_PROG || rows[i + 1].s->kind != LAT_EV_HELPER ||
		       rows[i + 1].s->id != rows[i].s->id;
	ASSERT_EQ(bad, 0, "each program row followed by its own helper");
	ASSERT_EQ(rows[n - 1].s->kind, LAT_EV_HELPER, "the last program keeps its helper");
out:
	free(rows);
	model__free(m);
}

/* Programs mode: a program split by CPU (model__split, events on CPUs 3 and 1) gets its CPU
 * rows under it, named "  cpu N" and counted apart from the events; a program not split, or
 * split but hidden, has none; the CPU rows' counts add up to the program's. */
static void test_cpu_rows(void)
{
	struct model *m = model__new(1);
	struct row rows[16];
	struct row_order ord;
	struct series *a, *b;
	size_t n = 0, k;

	if (!ASSERT_NONNULL(m, "model"))
		return;
	a = model__series(m, LAT_EV_PROG, 5, 0, 0);
	if (!ASSERT_NONNULL(a, "series"))
		goto out;
	snprintf(a->name, sizeof(a->name), "xdp_fw");
	model__split(a, 1);
	a->cpu_rows = true;
	b = model__series(m, LAT_EV_PROG, 6, 0, 0);
	if (!ASSERT_NONNULL(b, "series"))
		goto out;
	for (int i = 0; i < 10; i++) {
		struct lat_event e = { .kind = LAT_EV_PROG, .id = 5, .cpu = i < 7 ? 3 : 1,
				       .dur_ns = 1000 };
		struct lat_event f = { .kind = LAT_EV_PROG, .id = 6, .cpu = 0, .dur_ns = 10 };

		ASSERT_OK(model__add_event(m, &e, SRC_FENTRY), "event");
		ASSERT_OK(model__add_event(m, &f, SRC_FENTRY), "event");
	}
	ASSERT_EQ(m->c_open.events, 20, "a split program's events counted once");
	model__close_interval(m, 1000000001);
	for (size_t i = 0; i < m->n; i++)
		if (m->s[i].kind == LAT_EV_PROG)
			model__row(m, &m->s[i], false, &rows[n++]);
	columns__order(MODE_PROGRAMS, -1, false, &ord);
	rows__sort(rows, n, &ord);
	n = rows__with_cpus(m, false, &ord, rows, n, 16);
	ASSERT_EQ(n, 4, "two programs and two CPU rows");
	for (k = 0; k < n && rows[k].s->id != 5; k++)
		;
	if (!ASSERT_LT(k + 2, n + 1, "program 5's rows"))
		goto out;
	ASSERT_EQ(rows[k].s->kind, LAT_EV_PROG, "the program first");
	ASSERT_EQ(rows[k].count, 10, "its count");
	ASSERT_EQ(rows[k + 1].s->kind, LAT_EV_PROG_CPU, "then a CPU row");
	ASSERT_EQ(rows[k + 1].s->aux, 3, "the busiest CPU first (by count)");
	ASSERT_EQ(rows[k + 1].count, 7, "CPU 3's runs");
	ASSERT_STREQ(rows[k + 1].label, "  cpu 3", "its label");
	ASSERT_STREQ(rows[k + 1].s->name, "xdp_fw", "named after its program");
	ASSERT_EQ(rows[k + 2].s->aux, 1, "then CPU 1");
	ASSERT_EQ(rows[k + 1].count + rows[k + 2].count, rows[k].count, "they add up");
	ASSERT_EQ(model__find(m, LAT_EV_PROG_CPU, 6, 0, 0) == NULL, 1, "no split, no CPU series");
	/* Hidden: the program alone. */
	model__find(m, LAT_EV_PROG, 5, 0, 0)->cpu_rows = false;
	n = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->s[i].kind == LAT_EV_PROG)
			model__row(m, &m->s[i], false, &rows[n++]);
	ASSERT_EQ(rows__with_cpus(m, false, &ord, rows, n, 16), 2, "hidden: programs only");
out:
	model__free(m);
}

/* EventHeader activity rows as a tree: children after their parent (siblings in sorted
 * order), depth set; rows of other kinds, and a cycle of parents, left at depth 0; the name
 * cell indented in text views only. */
static void test_activity_tree(void)
{
	static const struct {
		const char *name, *type, *parent;
	} def[] = {
	    {"Inner", "activity", "Request"}, /* sorted order as given */
	    {"vhost", "vhost", "kick"},	      /* not an activity: its second label is no parent */
	    {"Request", "activity", ""},
	    {"Deep", "activity", "Inner"},
	    {"Request self", "self", "Request"},
	    {"A", "activity", "B"}, /* a cycle */
	    {"B", "activity", "A"},
	    {"Tick", "event", ""},
	};
	const char *want[] = {"vhost", "Request", "Inner", "Deep", "Request self", "Tick", "A", "B"};
	const int depth[] = {0, 0, 1, 2, 1, 0, 0, 0};
	struct series se[8];
	struct row rows[8];
	struct cell c;
	char v[64];

	memset(se, 0, sizeof(se));
	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 8; i++) {
		se[i].kind = LAT_EV_SEG;
		snprintf(se[i].name, sizeof(se[i].name), "%s", def[i].name);
		snprintf(se[i].type, sizeof(se[i].type), "%s", def[i].type);
		snprintf(se[i].sub, sizeof(se[i].sub), "%s", def[i].parent);
		rows[i].s = &se[i];
	}
	rows__tree(rows, 8);
	for (int i = 0; i < 8; i++) {
		ASSERT_STREQ(rows[i].s->name, want[i], "tree order");
		ASSERT_EQ(rows[i].depth, depth[i], want[i]);
	}
	for (int k = 0; k < seg_ncolumns; k++)
		if (!strcmp(seg_columns[k].key, "span")) {
			seg_columns[k].get(&rows[3], &c);
			cell__text(&c, v, sizeof(v));
			ASSERT_STREQ(v, "    Deep", "indented two steps in text");
			ASSERT_STREQ(c.s, "Deep", "the name itself (CSV, JSON) not indented");
		} else if (!strcmp(seg_columns[k].key, "parent")) {
			seg_columns[k].get(&rows[3], &c);
			ASSERT_STREQ(c.s, "Inner", "parent column");
			seg_columns[k].get(&rows[0], &c);
			ASSERT_STREQ(c.s, "", "a vhost row has no parent");
		}
}

int main(void)
{
	test__suite = "rows";
	RUN_TEST(test_sort_by_column);
	RUN_TEST(test_helpers_of_many_programs);
	RUN_TEST(test_cpu_rows);
	RUN_TEST(test_activity_tree);
	printf("rows: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
