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

/* The width the optional columns take (SRC, TIMED, WHY and a space each): they go before NAME
 * gives anything. */
static int optional_width(const int *need)
{
	int w = 0;

	for (int c = 0; c < prog_ncolumns; c++)
		if (prog_columns[c].drop >= COLUMN_OPTIONAL)
			w += need[c] + 1;
	return w;
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
	w = columns__fit(prog_columns, prog_ncolumns, need, NULL, 300, width);
	for (int c = 0; c < prog_ncolumns; c++)
		ASSERT_EQ(width[c], need[c], "natural width");
	ASSERT_LE(w, 300, "fits");
}

static void test_name_shrinks_first(void)
{
	int need[prog_ncolumns], width[prog_ncolumns], full;

	natural(need, 30);
	full = columns__fit(prog_columns, prog_ncolumns, need, NULL, 1000, width);
	/* The optional columns go before NAME gives anything. */
	columns__fit(prog_columns, prog_ncolumns, need, NULL, full - 1, width);
	ASSERT_EQ(width[col("CONTAINER")], 0, "the highest drop number first: CONTAINER");
	ASSERT_EQ(width[col("SRC")], need[col("SRC")], "SRC, the lowest, kept");
	ASSERT_EQ(width[col("NAME")], 30, "NAME whole");
	columns__fit(prog_columns, prog_ncolumns, need, NULL, full - optional_width(need) + 1,
		     width);
	ASSERT_EQ(width[col("SRC")] + width[col("TIMED")] + width[col("OWNER")], 0,
		  "then every optional column: OWNER, TIMED and SRC too");
	ASSERT_EQ(width[col("NAME")], 30, "NAME whole");
	full -= optional_width(need);
	columns__fit(prog_columns, prog_ncolumns, need, NULL, full - 10, width);
	ASSERT_EQ(width[col("NAME")], 20, "NAME gave 10");
	ASSERT_EQ(width[col("RUNS")], 14, "RUNS still shown");
	columns__fit(prog_columns, prog_ncolumns, need, NULL, full - 18, width);
	ASSERT_EQ(width[col("NAME")], 12, "NAME at its minimum");
	ASSERT_EQ(width[col("RUNS")], 14, "RUNS still shown");
}

/* A name that would be cut takes the padding of numbers (RUNS is 14 wide for 10-digit counts):
 * at 130 columns "demo_xdp_ar~" used to sit beside a RUNS column holding 6 digits. */
static void test_name_takes_padding(void)
{
	int need[prog_ncolumns], least[prog_ncolumns], width[prog_ncolumns], full, w;

	natural(need, 30);
	for (int c = 0; c < prog_ncolumns; c++)
		least[c] = need[c];
	least[col("RUNS")] = 6; /* "RUNS" over values of at most 6 columns */
	full = columns__fit(prog_columns, prog_ncolumns, need, least, 1000, width);
	full -= optional_width(need); /* the optional columns go first, as before */
	w = columns__fit(prog_columns, prog_ncolumns, need, least, full - 8, width);
	ASSERT_EQ(width[col("SRC")], 0, "SRC dropped first");
	ASSERT_EQ(width[col("NAME")], 30, "NAME whole");
	ASSERT_EQ(width[col("RUNS")], 6, "RUNS down to its values");
	ASSERT_EQ(w, full - 8, "uses the whole line");
	w = columns__fit(prog_columns, prog_ncolumns, need, least, full - 10, width);
	ASSERT_EQ(width[col("NAME")], 28, "NAME cut only by what padding could not give");
	ASSERT_EQ(width[col("RUNS")], 6, "RUNS still shown whole");
	ASSERT_EQ(w, full - 10, "uses the whole line");
	/* Without least (no values known), NAME pays and RUNS keeps its width. */
	columns__fit(prog_columns, prog_ncolumns, need, NULL, full - 8, width);
	ASSERT_EQ(width[col("NAME")], 22, "no least: NAME cut");
	ASSERT_EQ(width[col("RUNS")], 14, "no least: padding kept");
	/* NAME's own padding (wider than its longest name) goes first: no number gives anything. */
	need[col("NAME")] = 32;
	columns__fit(prog_columns, prog_ncolumns, need, least, full, width);
	ASSERT_EQ(width[col("NAME")], 30, "NAME shrank to its longest name");
	ASSERT_EQ(width[col("RUNS")], 14, "RUNS untouched while no name is cut");
}

static void test_drop_order(void)
{
	int need[prog_ncolumns], width[prog_ncolumns], w, full;

	natural(need, 30);
	full = columns__fit(prog_columns, prog_ncolumns, need, NULL, 1000, width) - optional_width(need);
	/* One column more than NAME can give: RUNS goes, NAME gets back what it can. */
	w = columns__fit(prog_columns, prog_ncolumns, need, NULL, full - 19, width);
	ASSERT_EQ(width[col("RUNS")], 0, "RUNS dropped first");
	ASSERT_EQ(width[col("CPU%")], 6, "CPU% stays");
	ASSERT_EQ(width[col("NAME")], 26, "NAME regrows into RUNS' room");
	ASSERT_EQ(w, full - 19, "uses the whole line");
	/* 40 columns: only ID, NAME (12), COUNT and P99 remain. */
	w = columns__fit(prog_columns, prog_ncolumns, need, NULL, 40, width);
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
	columns__fit(prog_columns, prog_ncolumns, need, NULL, 60, width);
	ASSERT_EQ(width[col("COUNT")], 15, "COUNT as wide as its widest value");
	ASSERT_LE(width[col("ID")] + width[col("NAME")] + width[col("COUNT")] + 3, 60, "fits");
}

/* Segments mode: its own table, COUNT where the default sort expects it, the loss counters
 * dropped before any latency column, and their cells read from the series. */
static void test_segments_columns(void)
{
	int n, need[32], width[32], w;
	const struct column *cols = columns__for_mode(MODE_SEGMENTS, &n);
	struct model *m = model__new(0);
	struct series *se = model__series(m, LAT_EV_SEG, 0, 0, 0);
	struct row r;
	struct cell c;

	/* Interval 1: 7 unmatched, 2 overflow; interval 2: 3 more unmatched. */
	model__set_series_counter(m, se, "unmatched", true, 7);
	model__set_series_counter(m, se, "overflow", true, 2);
	model__close_interval(m, 1000);
	ASSERT_TRUE(model__counters_lost(m, se), "a loss in interval 1");
	model__set_series_counter(m, se, "unmatched", true, 10);
	model__set_series_counter(m, se, "overflow", true, 2);
	model__close_interval(m, 2000);
	model__row(m, se, false, &r);

	ASSERT_TRUE(cols == seg_columns && n == seg_ncolumns, "segments columns");
	ASSERT_STREQ(cols[columns__default_sort(MODE_SEGMENTS)].title, "COUNT",
		     "default sort is COUNT");
	for (enum lat_mode md = MODE_PROGRAMS; md <= MODE_SEGMENTS; md++) {
		int nm;
		const struct column *cm = columns__for_mode(md, &nm);

		/* Helpers mode has FN before COUNT: the default must find COUNT, not index 3. */
		ASSERT_STREQ(cm[columns__default_sort(md)].key, "count", "each mode sorts by count");
	}
	for (int i = 0; i < n; i++)
		need[i] = cols[i].width;
	w = columns__fit(cols, n, need, NULL, 100, width);
	ASSERT_LE(w, 100, "fits 100");
	for (int i = 0; i < n; i++)
		if (!strcmp(cols[i].title, "P99.9") || !strcmp(cols[i].title, "UNMATCHED"))
			ASSERT_EQ(width[i], 0, "losses and P99.9 go on 100 columns");
		else if (!strcmp(cols[i].title, "P99") || !strcmp(cols[i].title, "SPAN"))
			ASSERT_TRUE(width[i] > 0, "SPAN and P99 stay");
	for (int i = 0; i < n; i++) {
		cols[i].get(&r, &c);
		if (!strcmp(cols[i].key, "unmatched"))
			ASSERT_EQ(c.u, 3, "unmatched in the last interval");
		if (!strcmp(cols[i].key, "overflow"))
			ASSERT_EQ(c.u, 0, "no overflow in the last interval");
	}
	model__row(m, se, true, &r);
	for (int i = 0; i < n; i++) {
		cols[i].get(&r, &c);
		if (!strcmp(cols[i].key, "unmatched"))
			ASSERT_EQ(c.u, 10, "unmatched since start");
		if (!strcmp(cols[i].key, "overflow"))
			ASSERT_EQ(c.u, 2, "overflow since start");
	}
	ASSERT_EQ(model__counter(m, NULL, "unmatched", true), 0, "series counters are not session-wide");
	model__free(m);
}

/* Human numbers: counts and rates below 10,000 both carry thousands separators; larger rates
 * use k/M; the loss line too. */
static void test_separators(void)
{
	struct model_counters mc = { .rb_drops = 1234, .events = 48820 };
	char buf[128];

	fmt_rate(999.4, buf, sizeof(buf));
	ASSERT_STREQ(buf, "999", "rate 999");
	fmt_rate(1234.4, buf, sizeof(buf));
	ASSERT_STREQ(buf, "1,234", "rate 1,234");
	fmt_rate(9999.4, buf, sizeof(buf));
	ASSERT_STREQ(buf, "9,999", "rate 9,999");
	fmt_rate(12345, buf, sizeof(buf));
	ASSERT_STREQ(buf, "12.3k", "rate 12.3k");
	fmt_rate(0, buf, sizeof(buf));
	ASSERT_STREQ(buf, "0", "rate 0");
	fmt_count(1234567, buf, sizeof(buf));
	ASSERT_STREQ(buf, "1,234,567", "count");
	fmt_drops(&mc, buf, sizeof(buf));
	ASSERT_STREQ(buf, "drops: ringbuf 1,234  queue 0  recursion 0  nest 0  events 48,820",
		     "drops line");
}

int main(void)
{
	test__suite = "columns";
	RUN_TEST(test_wide_screen_keeps_all);
	RUN_TEST(test_name_shrinks_first);
	RUN_TEST(test_name_takes_padding);
	RUN_TEST(test_drop_order);
	RUN_TEST(test_wide_numbers_not_cut);
	RUN_TEST(test_segments_columns);
	RUN_TEST(test_separators);
	printf("columns: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
