// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_rows.c - ordering the rows the views show (model/rows.c): a column's order, reversed,
 * ties by program ID; in helpers mode every program row followed by its own helper rows, for
 * more programs than the 4096 a fixed array once held (the rest were silently dropped).
 */
#include <stdlib.h>

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

int main(void)
{
	test__suite = "rows";
	RUN_TEST(test_sort_by_column);
	RUN_TEST(test_helpers_of_many_programs);
	printf("rows: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
