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
/* Where assertion messages go (stdout unless a test of these macros captures them). */
static FILE *test__out;

#define ASSERT_TRUE(cond, name)                                                                    \
	({                                                                                         \
		bool ___ok = (cond);                                                               \
		if (!___ok) {                                                                      \
			fprintf(test__out ? test__out : stdout, "  %s:%d: %s: expected true\n",    \
				__FILE__, __LINE__, name);                                         \
			test__failed_asserts++;                                                    \
		}                                                                                  \
		___ok;                                                                             \
	})

/*
 * Numbers keep their own types: each operand becomes a test__num (signed, unsigned or floating,
 * chosen by _Generic from its type), and the comparison is exact across signedness, so
 * UINT64_MAX never equals -1 and a 64-bit count never goes through a double. Pointers are not
 * numbers here (a compile error): use ASSERT_NONNULL or ASSERT_TRUE(p == q).
 */
struct test__num {
	enum { TEST__I, TEST__U, TEST__F } kind;
	intmax_t i;
	uintmax_t u;
	long double f;
};

static inline struct test__num test__num_i(intmax_t v)
{
	return (struct test__num){ .kind = TEST__I, .i = v };
}

static inline struct test__num test__num_u(uintmax_t v)
{
	return (struct test__num){ .kind = TEST__U, .u = v };
}

static inline struct test__num test__num_f(long double v)
{
	return (struct test__num){ .kind = TEST__F, .f = v };
}

/* plain char is signed or not depending on the ABI */
static inline struct test__num test__num_c(char v)
{
	return (char)-1 < 0 ? test__num_i(v) : test__num_u((unsigned char)v);
}

/* clang-format off */
#define TEST__NUM(x)                                                                               \
	_Generic((x),                                                                              \
		_Bool: test__num_u,                                                                \
		char: test__num_c,                                                                 \
		signed char: test__num_i,                                                          \
		short: test__num_i,                                                                \
		int: test__num_i,                                                                  \
		long: test__num_i,                                                                 \
		long long: test__num_i,                                                            \
		unsigned char: test__num_u,                                                        \
		unsigned short: test__num_u,                                                       \
		unsigned int: test__num_u,                                                         \
		unsigned long: test__num_u,                                                        \
		unsigned long long: test__num_u,                                                   \
		float: test__num_f,                                                                \
		double: test__num_f,                                                               \
		long double: test__num_f)(x)
/* clang-format on */

/* -1, 0 or 1 as a is below, equal to or above b, exactly (no conversion loses a bit). */
static inline int test__cmp(struct test__num a, struct test__num b)
{
	if (a.kind == TEST__F || b.kind == TEST__F) {
		long double x = a.kind == TEST__F   ? a.f
				: a.kind == TEST__I ? (long double)a.i
						    : (long double)a.u;
		long double y = b.kind == TEST__F   ? b.f
				: b.kind == TEST__I ? (long double)b.i
						    : (long double)b.u;

		return x < y ? -1 : x > y ? 1 : 0;
	}
	if (a.kind == TEST__I && b.kind == TEST__I)
		return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
	if (a.kind == TEST__I && a.i < 0)
		return -1; /* b is unsigned */
	if (b.kind == TEST__I && b.i < 0)
		return 1; /* a is unsigned */
	{
		uintmax_t x = a.kind == TEST__I ? (uintmax_t)a.i : a.u;
		uintmax_t y = b.kind == TEST__I ? (uintmax_t)b.i : b.u;

		return x < y ? -1 : x > y ? 1 : 0;
	}
}

/* A number as the test output shows it, in its own type's notation. */
static inline const char *test__fmt(struct test__num v, char *buf, size_t len)
{
	if (v.kind == TEST__I)
		snprintf(buf, len, "%jd", v.i);
	else if (v.kind == TEST__U)
		snprintf(buf, len, "%ju", v.u);
	else
		snprintf(buf, len, "%.17Lg", v.f);
	return buf;
}

/* Report a failed comparison "actual OP expected" with both values. */
static inline void test__report(const char *file, int line, const char *name, struct test__num a,
				const char *op, struct test__num e)
{
	char x[48], y[48];

	fprintf(test__out ? test__out : stdout, "  %s:%d: %s: actual %s %s %s\n", file, line, name,
		test__fmt(a, x, sizeof(x)), op, test__fmt(e, y, sizeof(y)));
	test__failed_asserts++;
}

/* Compare actual with expected; ok_expr (over ___c, test__cmp's result) says when that passes. */
#define TEST__CMP(actual, expected, name, ok_expr, op)                                             \
	({                                                                                         \
		struct test__num ___a = TEST__NUM(actual), ___e = TEST__NUM(expected);             \
		int ___c = test__cmp(___a, ___e);                                                  \
		bool ___ok = (ok_expr);                                                            \
		if (!___ok)                                                                        \
			test__report(__FILE__, __LINE__, name, ___a, op, ___e);                    \
		___ok;                                                                             \
	})

/* actual == expected, exactly, whatever the two integer or floating types. */
#define ASSERT_EQ(actual, expected, name)                                                          \
	TEST__CMP(actual, expected, name, ___c == 0, "!= expected")
/* actual != other. */
#define ASSERT_NE(actual, other, name) TEST__CMP(actual, other, name, ___c != 0, "== unwanted")
/* actual <= bound. */
#define ASSERT_LE(actual, bound, name) TEST__CMP(actual, bound, name, ___c <= 0, "> bound")
/* actual < bound. */
#define ASSERT_LT(actual, bound, name) TEST__CMP(actual, bound, name, ___c < 0, ">= bound")
/* actual >= bound. */
#define ASSERT_GE(actual, bound, name) TEST__CMP(actual, bound, name, ___c >= 0, "< bound")

/* A pointer that must not be NULL (before a test dereferences it). */
#define ASSERT_NONNULL(ptr, name)                                                                  \
	({                                                                                         \
		bool ___ok = (ptr) != NULL;                                                        \
		if (!___ok) {                                                                      \
			fprintf(test__out ? test__out : stdout, "  %s:%d: %s: NULL\n", __FILE__,   \
				__LINE__, name);                                                   \
			test__failed_asserts++;                                                    \
		}                                                                                  \
		___ok;                                                                             \
	})

#define ASSERT_STREQ(actual, expected, name)                                                       \
	({                                                                                         \
		const char *___a = (actual), *___e = (expected);                                   \
		bool ___ok = ___a && ___e && strcmp(___a, ___e) == 0;                              \
		if (!___ok) {                                                                      \
			fprintf(test__out ? test__out : stdout, "  %s:%d: %s: \"%s\" != \"%s\"\n", \
				__FILE__, __LINE__, name, ___a ? ___a : "(null)",                  \
				___e ? ___e : "(null)");                                           \
			test__failed_asserts++;                                                    \
		}                                                                                  \
		___ok;                                                                             \
	})

#define ASSERT_OK(err, name) ASSERT_EQ((err), 0, name)

/* Run one test function and print its PASS/FAIL line. */
#define RUN_TEST(fn)                                                                               \
	do {                                                                                       \
		int ___before = test__failed_asserts;                                              \
		fn();                                                                              \
		if (test__failed_asserts == ___before) {                                           \
			printf("PASS %s/%s\n", test__suite, #fn);                                  \
			test__passed++;                                                            \
		} else {                                                                           \
			printf("FAIL %s/%s: %d assertion(s)\n", test__suite, #fn,                  \
			       test__failed_asserts - ___before);                                  \
			test__failed++;                                                            \
		}                                                                                  \
		fflush(stdout);                                                                    \
	} while (0)

/* Exit status of a suite's main(), after the end marker tests/run.sh checks: "END <suite> <n>",
 * n the PASS/FAIL lines printed (a suite that stops early never prints it). */
#define TEST_EXIT()                                                                                \
	({                                                                                         \
		printf("END %s %d\n", test__suite, test__passed + test__failed);                   \
		fflush(stdout);                                                                    \
		test__failed ? 1 : 0;                                                              \
	})

/* What call printed to the FILE *f it is given, as a NUL-terminated string in buf (a memory
 * stream; the caller frees buf). */
#define CAPTURE(buf, call)                                                                         \
	do {                                                                                       \
		size_t ___n;                                                                       \
		FILE *f = open_memstream(&(buf), &___n);                                           \
		call;                                                                              \
		fclose(f);                                                                         \
	} while (0)

#endif /* LAT_TEST_H */
