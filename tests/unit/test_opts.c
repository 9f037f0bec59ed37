// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_opts.c - option parsing: values, defaults and the error sentences.
 */
#include <errno.h>
#include <stdlib.h>

#include "opts.h"
#include "test.h"

static struct opts o;
static char err[512];

/* Parse a NULL-terminated argument list. */
static int parse(const char **args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "lattop";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return opts__parse(&o, argc, argv, err, sizeof(err));
}

static void test_defaults(void)
{
	const char *a[] = { NULL };

	unsetenv("NO_COLOR");
	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.mode, MODE_PROGRAMS, "mode");
	ASSERT_EQ(o.interval_ns, 1000000000ull, "interval");
	ASSERT_EQ(o.batch, 0, "batch");
	ASSERT_EQ(o.nfilter, 0, "filter");
	ASSERT_EQ(o.no_color, 0, "color");
}

static void test_values(void)
{
	const char *a[] = { "-b", "-d", "0.25", "-n", "7", "-D", "1.5", "-o", "csv",
			    "-p", "12,xdp_fw,57", "--demo", "-c", NULL };

	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.interval_ns, 250000000ull, "interval");
	ASSERT_EQ(o.iterations, 7, "iterations");
	ASSERT_EQ(o.duration_ns, 1500000000ull, "duration");
	ASSERT_EQ(o.out, OUT_CSV, "csv");
	ASSERT_EQ(o.nfilter, 3, "nfilter");
	ASSERT_EQ(o.filter[0].id, 12, "id0");
	ASSERT_STREQ(o.filter[1].name, "xdp_fw", "name1");
	ASSERT_EQ(o.filter[1].id, 0, "name has no id");
	ASSERT_EQ(o.filter[2].id, 57, "id2");
	ASSERT_EQ(o.demo, 1, "demo");
	ASSERT_EQ(o.cumulative, 1, "cumulative");
}

static void test_long_options(void)
{
	const char *a[] = { "--batch", "--interval=2", "--output", "json", "--programs=9",
			    "--mode", "programs", "--no-color", NULL };

	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.interval_ns, 2000000000ull, "interval");
	ASSERT_EQ(o.out, OUT_JSON, "json");
	ASSERT_EQ(o.filter[0].id, 9, "id");
	ASSERT_EQ(o.no_color, 1, "no-color");
}

static void test_no_color_env(void)
{
	const char *a[] = { NULL };

	setenv("NO_COLOR", "1", 1);
	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.no_color, 1, "NO_COLOR=1");
	setenv("NO_COLOR", "", 1);
	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.no_color, 0, "NO_COLOR empty means colour");
	unsetenv("NO_COLOR");
}

/* Each bad input: -EINVAL and the expected sentence. */
static void expect_error(const char **a, const char *needle)
{
	int r = parse(a);

	ASSERT_EQ(r, -EINVAL, needle);
	ASSERT_TRUE(strstr(err, needle) != NULL, err);
}

static void test_errors(void)
{
	const char *a1[] = { "-d", "x", NULL }, *a2[] = { "-d", "0.001", NULL },
		   *a3[] = { "-n", "-3", NULL }, *a4[] = { "-o", "yaml", "-b", NULL },
		   *a5[] = { "-p", ",", NULL }, *a6[] = { "-p", "0", NULL },
		   *a7[] = { "--nope", NULL }, *a8[] = { "-m", "segments", NULL },
		   *a9[] = { "-c", NULL }, *a10[] = { "-d", "inf", NULL },
		   *a11[] = { "-D", "1e309", NULL }, *a12[] = { "-p", "x y", NULL };

	expect_error(a1, "bad interval 'x'");
	expect_error(a2, "bad interval '0.001'");
	expect_error(a3, "bad count '-3'");
	expect_error(a4, "unknown output format 'yaml'");
	expect_error(a5, "bad entry ''");
	expect_error(a6, "bad program ID '0'");
	expect_error(a7, "unknown option '--nope'");
	expect_error(a8, "mode 'segments' is not available");
	expect_error(a9, "add -b");
	expect_error(a10, "bad interval 'inf'");
	expect_error(a11, "bad duration '1e309'");
	expect_error(a12, "bad entry 'x y'");
}

static void test_filter_capacity(void)
{
	char list[FILTER_MAX * 8 + 16], *p = list;
	const char *a[] = { "-p", list, NULL };

	for (int i = 1; i <= FILTER_MAX; i++)
		p += sprintf(p, "%s%d", i > 1 ? "," : "", i);
	ASSERT_EQ(parse(a), OPTS_RUN, "256 entries accepted");
	ASSERT_EQ(o.nfilter, FILTER_MAX, "nfilter");
	sprintf(p, ",%d", FILTER_MAX + 1);
	expect_error(a, "too many entries in -p");
}

static void test_theme(void)
{
	const char *by_name[] = { "--theme", "light", NULL };
	const char *by_path[] = { "--theme", "themes/mono.json", NULL };
	const char *missing[] = { "--theme", "no-such-theme", NULL };
	const char *empty[] = { "--theme", "", NULL };

	ASSERT_EQ(parse(by_name), OPTS_RUN, "theme by name");
	ASSERT_STREQ(o.theme, "light", "theme kept");
	ASSERT_EQ(parse(by_path), OPTS_RUN, "theme by path");
	ASSERT_EQ(parse(missing), -EINVAL, "missing theme is a usage error");
	ASSERT_TRUE(strstr(err, "no theme 'no-such-theme'") != NULL, "names the theme");
	ASSERT_EQ(parse(empty), -EINVAL, "empty theme");
}

static void test_help_version(void)
{
	const char *h[] = { "-h", NULL }, *v[] = { "--version", NULL };

	ASSERT_EQ(parse(h), OPTS_HELP, "help");
	ASSERT_EQ(parse(v), OPTS_VERSION, "version");
}

int main(void)
{
	test__suite = "opts";
	RUN_TEST(test_defaults);
	RUN_TEST(test_values);
	RUN_TEST(test_long_options);
	RUN_TEST(test_no_color_env);
	RUN_TEST(test_errors);
	RUN_TEST(test_filter_capacity);
	RUN_TEST(test_theme);
	RUN_TEST(test_help_version);
	printf("opts: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
