// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_opts_rec.c - recording and replay options: what goes together, what is refused.
 */
#include <errno.h>

#include "cli/opts.h"
#include "test.h"

/* Parse a NULL-terminated argument list (argv[0] added); returns opts__parse's result. */
static int parse(struct opts *o, char *err, const char *const *args)
{
	char *argv[16] = { "lattop" };
	int argc = 1;

	while (*args && argc < 15)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return opts__parse(o, argc, argv, err, 512);
}

static void test_accepted(void)
{
	static struct opts o;
	char err[512];

	ASSERT_EQ(parse(&o, err, (const char *[]){ "-b", "-w", "f.lrec", "--raw", NULL }), 0,
		  "-b -w --raw");
	ASSERT_STREQ(o.record, "f.lrec", "record path");
	ASSERT_TRUE(o.raw, "raw");
	ASSERT_EQ(parse(&o, err, (const char *[]){ "-r", "f.lrec", "-b", "-n", "3", "-o", "json",
						   NULL }),
		  0, "-r -b -n -o json");
	ASSERT_STREQ(o.replay, "f.lrec", "replay path");
	ASSERT_EQ(parse(&o, err, (const char *[]){ "--read", "f", "--events", NULL }), 0,
		  "--events alone");
	ASSERT_EQ(o.out, OUT_CSV, "--events defaults to csv");
	ASSERT_TRUE(o.batch, "--events prints, no TUI");
	ASSERT_EQ(parse(&o, err, (const char *[]){ "-r", "f", "--events", "-o", "trace", NULL }),
		  0, "--events -o trace");
	ASSERT_EQ(o.out, OUT_TRACE, "trace");
}

static void test_refused(void)
{
	static const char *b0[] = { "-r", "a", "-w", "b", NULL };
	static const char *b1[] = { "-r", "a", "--demo", NULL };
	static const char *b2[] = { "-r", "a", "--raw", NULL };
	static const char *b3[] = { "-r", "a", "-D", "3", NULL };
	static const char *b4[] = { "--raw", NULL };
	static const char *b5[] = { "--events", NULL };
	static const char *b6[] = { "-r", "a", "--events", "-o", "json", NULL };
	static const char *b7[] = { "-r", "a", "-b", "-o", "trace", NULL };
	static const char *b8[] = { "-w", NULL };
	static const char *const *bad[] = { b0, b1, b2, b3, b4, b5, b6, b7, b8 };
	static struct opts o;
	char err[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ(parse(&o, err, bad[i]), -EINVAL, bad[i][0]);
		ASSERT_TRUE(err[0] && !strchr(err, '\n'), "one sentence");
	}
}

/* --no-stats: a live session's; a replay or a comparison shows what was recorded. */
static void test_no_stats(void)
{
	static const char *ok0[] = { "-b", "-n", "1", "--no-stats", "-p", "12", NULL };
	static const char *b0[] = { "-r", "a", "--no-stats", NULL };
	static const char *b1[] = { "-r", "a", "--compare", "b", "--no-stats", NULL };
	static const char *b2[] = { "-r", "a", "--html", "o.html", "--no-stats", NULL };
	static const char *const *bad[] = { b0, b1, b2 };
	static struct opts o;
	char err[512];

	ASSERT_EQ(parse(&o, err, ok0), 0, "--no-stats live");
	ASSERT_TRUE(o.no_stats, "no_stats set");
	ASSERT_EQ(parse(&o, err, (const char *[]){ "-b", NULL }), 0, "default");
	ASSERT_TRUE(!o.no_stats, "stats by default");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ(parse(&o, err, bad[i]), -EINVAL, "--no-stats with -r");
		ASSERT_STREQ(err,
			     "--no-stats applies to live sessions; a replay (-r) shows what was "
			     "recorded: drop --no-stats",
			     "says drop it");
	}
}

/* --html: a report of a recording, a file of its own; the sentences name the fix. */
static void test_html(void)
{
	static const char *b0[] = { "--html", "o.html", NULL };
	static const char *b1[] = { "-r", "a", "--html", "o.html", "-b", NULL };
	static const char *b2[] = { "-r", "a", "--html", "o.html", "-n", "2", NULL };
	static const char *b3[] = { "-r", "a", "--html", "o.html", "--events", NULL };
	static const char *b4[] = { "-r", "a", "--html", "o.html", "-o", "json", NULL };
	static const char *b5[] = { "-r", "a", "--html", "o.html", "-c", NULL };
	static struct opts o;
	char err[512];

	ASSERT_EQ(parse(&o, err, (const char *[]){ "-r", "a", "--html", "o.html", "-p", "x", NULL }),
		  0, "-r --html -p");
	ASSERT_STREQ(o.html, "o.html", "html path");
	ASSERT_TRUE(!o.batch, "no batch output");
	ASSERT_EQ(parse(&o, err, b0), -EINVAL, "--html without -r");
	ASSERT_STREQ(err, "--html writes a report of a recording: add -r FILE", "says -r");
	ASSERT_EQ(parse(&o, err, b1), -EINVAL, "--html -b");
	ASSERT_STREQ(err,
		     "--html writes the whole recording to a file: drop -b, -n, -o, -c, --hist and "
		     "--events",
		     "says what to drop");
	ASSERT_EQ(parse(&o, err, b2), -EINVAL, "--html -n");
	ASSERT_EQ(parse(&o, err, b3), -EINVAL, "--html --events");
	/* Not "add -b" (which --html then refuses): the same sentence. */
	ASSERT_EQ(parse(&o, err, b4), -EINVAL, "--html -o json");
	ASSERT_STREQ(err,
		     "--html writes the whole recording to a file: drop -b, -n, -o, -c, --hist and "
		     "--events",
		     "-o: says drop");
	ASSERT_EQ(parse(&o, err, b5), -EINVAL, "--html -c");
}

/* --compare: with -r, -b and -o, or --html; each file given once; nothing that slices a
 * recording. */
static void test_compare(void)
{
	static const char *ok0[] = { "-r", "a", "--compare", "b", NULL };
	static const char *ok1[] = { "-r", "a", "--compare", "b", "-b", "-o", "csv", "--theme",
				     "mono", NULL };
	static const char *b0[] = { "--compare", "b", NULL };
	static const char *b1[] = { "-r", "a", "--compare", "b", "--compare", "c", NULL };
	static const char *b2[] = { "-r", "a", "-r", "b", NULL };
	static const char *b3[] = { "-r", "a", "--compare", "b", "-b", "-n", "2", NULL };
	static const char *b4[] = { "-r", "a", "--compare", "b", "-b", "-c", NULL };
	static const char *b5[] = { "-r", "a", "--compare", "b", "-b", "--hist", NULL };
	static const char *b6[] = { "-r", "a", "--compare", "b", "--events", NULL };
	static const char *b7[] = { "-r", "a", "--compare", "b", "-p", "x", NULL };
	static const char *b8[] = { "-r", "a", "--compare", "b", "-m", "programs", NULL };
	static const char *b9[] = { "-r", "a", "--compare", "b", "-o", "json", NULL };
	static const char *b10[] = { "-r", "a", "--compare", "b", "--html", "o.html", "-b", NULL };
	static const char *b11[] = { "-r", "a", "--compare", "b", "--html", "o.html", "-p", "x",
				     NULL };
	static const char *const *bad[] = { b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11 };
	static const char *ok2[] = { "-r", "a", "--compare", "b", "--html", "o.html", NULL };
	static struct opts o;
	char err[512];

	ASSERT_EQ(parse(&o, err, ok0), 0, "-r --compare");
	ASSERT_STREQ(o.compare, "b", "compare path");
	ASSERT_STREQ(o.replay, "a", "replay path");
	ASSERT_EQ(parse(&o, err, ok1), 0, "-r --compare -b -o csv --theme");
	ASSERT_EQ(o.out, OUT_CSV, "csv");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ASSERT_EQ(parse(&o, err, bad[i]), -EINVAL, bad[i][0]);
		ASSERT_TRUE(err[0] && !strchr(err, '\n'), "one sentence");
	}
	parse(&o, err, b1);
	ASSERT_STREQ(err, "--compare given twice ('b' and 'c'): give it once", "twice");
	ASSERT_EQ(parse(&o, err, ok2), 0, "--html of a comparison");
	ASSERT_STREQ(o.html, "o.html", "its report");
	ASSERT_STREQ(o.compare, "b", "its B");
	parse(&o, err, b10);
	ASSERT_STREQ(err, "--html writes the whole recording to a file: drop -b, -n, -o, -c, "
			  "--hist and --events", "--html --compare -b");
	parse(&o, err, b11);
	ASSERT_STREQ(err, "-p and -m do not apply to --compare: every recorded series is matched "
			  "by name", "--html --compare -p");
}

int main(void)
{
	test__suite = "opts-rec";
	RUN_TEST(test_accepted);
	RUN_TEST(test_refused);
	RUN_TEST(test_html);
	RUN_TEST(test_compare);
	RUN_TEST(test_no_stats);
	printf("opts-rec: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
