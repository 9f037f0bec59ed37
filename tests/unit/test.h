/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test.h - selftests-style assertions for lattop's C tests.
 *
 * Protocol shared by every suite (tests/run.sh counts it): one line per test,
 * "PASS <suite>/<name>" or "FAIL <suite>/<name>: <why>". ASSERT_* print both values on failure
 * and return false so a test can `goto cleanup`.
 */
#ifndef LAT_TEST_H
#define LAT_TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int test__failed_asserts;
static int test__passed, test__failed;
static const char *test__suite = "unit";

#define ASSERT_TRUE(cond, name)                                                                  \
	({                                                                                       \
		bool ___ok = (cond);                                                             \
		if (!___ok) {                                                                    \
			fprintf(stdout, "  %s:%d: %s: expected true\n", __FILE__, __LINE__, name); \
			test__failed_asserts++;                                                  \
		}                                                                                \
		___ok;                                                                           \
	})

#define ASSERT_EQ(actual, expected, name)                                                        \
	({                                                                                       \
		long long ___a = (long long)(actual), ___e = (long long)(expected);              \
		bool ___ok = ___a == ___e;                                                       \
		if (!___ok) {                                                                    \
			fprintf(stdout, "  %s:%d: %s: actual %lld != expected %lld\n", __FILE__, \
				__LINE__, name, ___a, ___e);                                     \
			test__failed_asserts++;                                                  \
		}                                                                                \
		___ok;                                                                           \
	})

#define ASSERT_LE(actual, bound, name)                                                           \
	({                                                                                       \
		double ___a = (double)(actual), ___b = (double)(bound);                          \
		bool ___ok = ___a <= ___b;                                                       \
		if (!___ok) {                                                                    \
			fprintf(stdout, "  %s:%d: %s: %g > %g\n", __FILE__, __LINE__, name, ___a, \
				___b);                                                           \
			test__failed_asserts++;                                                  \
		}                                                                                \
		___ok;                                                                           \
	})

#define ASSERT_STREQ(actual, expected, name)                                                     \
	({                                                                                       \
		const char *___a = (actual), *___e = (expected);                                 \
		bool ___ok = ___a && ___e && strcmp(___a, ___e) == 0;                            \
		if (!___ok) {                                                                    \
			fprintf(stdout, "  %s:%d: %s: \"%s\" != \"%s\"\n", __FILE__, __LINE__,   \
				name, ___a ? ___a : "(null)", ___e ? ___e : "(null)");           \
			test__failed_asserts++;                                                  \
		}                                                                                \
		___ok;                                                                           \
	})

#define ASSERT_OK(err, name) ASSERT_EQ((err), 0, name)

/* Run one test function and print its PASS/FAIL line. */
#define RUN_TEST(fn)                                                                             \
	do {                                                                                     \
		int ___before = test__failed_asserts;                                            \
		fn();                                                                            \
		if (test__failed_asserts == ___before) {                                         \
			printf("PASS %s/%s\n", test__suite, #fn);                                \
			test__passed++;                                                          \
		} else {                                                                         \
			printf("FAIL %s/%s: %d assertion(s)\n", test__suite, #fn,               \
			       test__failed_asserts - ___before);                                \
			test__failed++;                                                          \
		}                                                                                \
		fflush(stdout);                                                                  \
	} while (0)

/* Exit status of a suite's main(). */
#define TEST_EXIT() (test__failed ? 1 : 0)

#endif /* LAT_TEST_H */
