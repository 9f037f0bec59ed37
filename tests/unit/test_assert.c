// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_assert.c - the assertions of test.h themselves: comparisons that must fail do (a
 * macro that passed them would let every other unit test pass wrongly), and say both values.
 */
#include <stdint.h>
#include <stdlib.h>

#include "test.h"

static char *caught;

/* True when the assertion `expr` fails: exactly one failed assertion, with a message that
 * contains want. The failure is taken back, so this suite passes when the macros are right. */
#define FAILS(expr, want)                                                                          \
	({                                                                                         \
		int ___before = test__failed_asserts;                                              \
		size_t ___len = 0;                                                                 \
		bool ___r;                                                                         \
		free(caught);                                                                      \
		caught = NULL;                                                                     \
		test__out = open_memstream(&caught, &___len);                                      \
		___r = (expr);                                                                     \
		fclose(test__out);                                                                 \
		test__out = NULL;                                                                  \
		bool ___one = test__failed_asserts == ___before + 1;                               \
		test__failed_asserts = ___before;                                                  \
		ASSERT_TRUE(!___r && ___one, #expr " fails");                                      \
		ASSERT_TRUE(caught &&strstr(caught, want), #expr " says " want);                   \
	})

static void test_eq_keeps_signedness(void)
{
	int64_t minus1 = -1;
	uint32_t u32max = UINT32_MAX;

	FAILS(ASSERT_EQ(UINT64_MAX, -1, "u64max"), "actual 18446744073709551615 != expected -1");
	FAILS(ASSERT_EQ(minus1, UINT64_MAX, "-1"), "actual -1 != expected 18446744073709551615");
	FAILS(ASSERT_EQ(-1, u32max, "u32"), "actual -1 != expected 4294967295");
	ASSERT_EQ(UINT64_MAX, UINT64_MAX, "equal u64");
	ASSERT_EQ(3u, 3, "unsigned and int");
	ASSERT_EQ(INT64_MIN, INT64_MIN, "i64 min");
	ASSERT_EQ((char)'a', 97, "char");
	ASSERT_NE(UINT64_MAX, -1, "u64max is not -1");
}

static void test_le_is_exact(void)
{
	uint64_t big = (1ull << 62) + 1; /* a double cannot tell it from 2^62 */

	FAILS(ASSERT_LE(big, 1ull << 62, "2^62+1"), "actual 4611686018427387905 > bound");
	FAILS(ASSERT_LE(UINT64_MAX, -1, "u64max <= -1"), "> bound -1");
	FAILS(ASSERT_LT(5, 5, "lt"), ">= bound 5");
	FAILS(ASSERT_GE(-1, 0u, "ge"), "< bound 0");
	FAILS(ASSERT_LE(0.011, 0.01, "double"), "> bound 0.01");
	ASSERT_LE(-1, 0u, "negative below unsigned");
	ASSERT_LT(1ull << 62, big, "2^62 < 2^62+1");
	ASSERT_LE(0.5, 1, "double and int");
	ASSERT_GE(big, big, "ge equal");
}

static void test_nonnull(void)
{
	int x = 0;
	const char *none = NULL;

	FAILS(ASSERT_NONNULL(none, "nothing"), "nothing: NULL");
	ASSERT_NONNULL(&x, "something");
	FAILS(ASSERT_TRUE(false, "false"), "false: expected true");
	FAILS(ASSERT_STREQ("a", "b", "streq"), "\"a\" != \"b\"");
	FAILS(ASSERT_OK(-22, "ok"), "actual -22 != expected 0");
}

int main(void)
{
	test__suite = "assert";
	RUN_TEST(test_eq_keeps_signedness);
	RUN_TEST(test_le_is_exact);
	RUN_TEST(test_nonnull);
	free(caught);
	return TEST_EXIT();
}
