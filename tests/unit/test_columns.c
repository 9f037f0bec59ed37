// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_columns.c - fitting the programs table to the screen: NAME shrinks to 12 first, then
 * columns go in their drop order, numbers are never cut, freed room goes back to NAME.
 */
#include "ui/columns.h"
#include "test.h"

/* Index of the column titled title. */
static int col(const char *title)
{
	for (int c = 0; c < prog_ncolumns; c++)
		if (!strcmp(prog_columns[c].title, title))
			return c;
	return -1;
}

/* The natural widths, with NAME wanting want. */
static void natural(int *need, int want)
{
	for (int c = 0; c < prog_ncolumns; c++)
		need[c] = prog_columns[c].width;
	need[col("NAME")] = want;
}

static void test_wide_screen_keeps_all(void)
{
	int need[prog_ncolumns], width[prog_ncolumns], w;

	natural(need, 18);
	w = columns__fit(prog_columns, prog_ncolumns, need, 300, width);
	for (int c = 0; c < prog_ncolumns; c++)
		ASSERT_EQ(width[c], need[c], "natural width");
	ASSERT_LE(w, 300, "fits");
}

static void test_name_shrinks_first(void)
{
	int need[prog_ncolumns], width[prog_ncolumns], full;

	natural(need, 30);
	full = columns__fit(prog_columns, prog_ncolumns, need, 1000, width);
	columns__fit(prog_columns, prog_ncolumns, need, full - 10, width);
	ASSERT_EQ(width[col("NAME")], 20, "NAME gave 10");
	ASSERT_EQ(width[col("RUNS")], 14, "RUNS still shown");
	columns__fit(prog_columns, prog_ncolumns, need, full - 18, width);
	ASSERT_EQ(width[col("NAME")], 12, "NAME at its minimum");
	ASSERT_EQ(width[col("RUNS")], 14, "RUNS still shown");
}

static void test_drop_order(void)
{
	int need[prog_ncolumns], width[prog_ncolumns], w, full;

	natural(need, 30);
	full = columns__fit(prog_columns, prog_ncolumns, need, 1000, width);
	/* One column more than NAME can give: RUNS goes, NAME gets back what it can. */
	w = columns__fit(prog_columns, prog_ncolumns, need, full - 19, width);
	ASSERT_EQ(width[col("RUNS")], 0, "RUNS dropped first");
	ASSERT_EQ(width[col("CPU%")], 6, "CPU% stays");
	ASSERT_EQ(width[col("NAME")], 26, "NAME regrows into RUNS' room");
	ASSERT_EQ(w, full - 19, "uses the whole line");
	/* 40 columns: only ID, NAME (12), COUNT and P99 remain. */
	w = columns__fit(prog_columns, prog_ncolumns, need, 40, width);
	ASSERT_EQ(w, 40, "exactly 40");
	for (int c = 0; c < prog_ncolumns; c++)
		ASSERT_EQ(width[c] != 0, prog_columns[c].drop == 0, "only undroppable columns");
	ASSERT_EQ(width[col("NAME")], 12, "NAME 12");
	ASSERT_EQ(width[col("COUNT")], 11, "numbers keep their width");
}

static void test_wide_numbers_not_cut(void)
{
	int need[prog_ncolumns], width[prog_ncolumns];

	natural(need, 18);
	need[col("COUNT")] = 15; /* "123,456,789,012" */
	columns__fit(prog_columns, prog_ncolumns, need, 60, width);
	ASSERT_EQ(width[col("COUNT")], 15, "COUNT as wide as its widest value");
	ASSERT_LE(width[col("ID")] + width[col("NAME")] + width[col("COUNT")] + 3, 60, "fits");
}

int main(void)
{
	test__suite = "columns";
	RUN_TEST(test_wide_screen_keeps_all);
	RUN_TEST(test_name_shrinks_first);
	RUN_TEST(test_drop_order);
	RUN_TEST(test_wide_numbers_not_cut);
	printf("columns: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
