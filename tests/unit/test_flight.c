// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_flight.c - the flight recorder without BPF: --trigger expressions parse to what they
 * say and hold exactly on their side of the threshold; the ring keeps the last duration, never
 * passes its byte cap, and a dump is a recording that names every series (also those whose
 * only record was in an evicted interval, and one renamed since) and holds exactly the
 * intervals kept, with their counts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/trigger.h"
#include "rec/flight.h"
#include "rec/rec.h"
#include "rec/recorder.h"
#include "test.h"

#define S 1000000000ull

static void test_trigger_parse(void)
{
	struct trigger t;
	char err[256];

	ASSERT_OK(trigger__parse("demo_xdp_hash:p99>20us", &t, err, sizeof(err)), "p99");
	ASSERT_STREQ(t.series, "demo_xdp_hash", "series");
	ASSERT_EQ((int)t.metric, (int)TM_P99, "metric");
	ASSERT_EQ((int)t.op, (int)TO_GT, "op");
	ASSERT_EQ(t.threshold, 20000.0, "20us in ns");
	ASSERT_OK(trigger__parse("x:rate<=1500/s", &t, err, sizeof(err)), "rate");
	ASSERT_EQ((int)t.op, (int)TO_LE, "<=");
	ASSERT_EQ(t.threshold, 1500.0, "rate");
	ASSERT_OK(trigger__parse("drops>=1", &t, err, sizeof(err)), "session drops");
	ASSERT_STREQ(t.series, "", "no series");
	ASSERT_EQ((int)t.metric, (int)TM_DROPS, "drops");
	ASSERT_OK(trigger__parse("lost>0", &t, err, sizeof(err)), "session lost");
	ASSERT_EQ((int)t.metric, (int)TM_ALL_LOST, "all lost");
	ASSERT_OK(trigger__parse("s:max>1.5ms", &t, err, sizeof(err)), "ms");
	ASSERT_EQ(t.threshold, 1.5e6, "1.5ms");
	ASSERT_EQ(trigger__parse("s:p99>20", &t, err, sizeof(err)), -EINVAL, "no unit");
	ASSERT_TRUE(strstr(err, "'20' is not a duration") != NULL, "names the value");
	ASSERT_EQ(trigger__parse("p99>20us", &t, err, sizeof(err)), -EINVAL, "p99 needs a series");
	ASSERT_TRUE(strstr(err, "unknown session-wide metric 'p99'") != NULL, "names the metric");
	ASSERT_EQ(trigger__parse("s:drops>1", &t, err, sizeof(err)), -EINVAL, "drops of a series");
	ASSERT_EQ(trigger__parse("s:p99", &t, err, sizeof(err)), -EINVAL, "no op");
	ASSERT_EQ(trigger__parse("s:p99>-1us", &t, err, sizeof(err)), -EINVAL, "negative");
}

/* A model with programs 1 ("a") and 2 ("b"); one closed interval in which "a" ran n times
 * for d ns each and "b" once for 100 ns. */
static struct model *model_ab(void)
{
	struct prog_stat st[2] = {{.id = 1, .name = "a", .type_name = "xdp"},
				  {.id = 2, .name = "b", .type_name = "xdp"}};
	struct model *m = model__new(0);

	if (m)
		model__apply_stats(m, st, 2, 0);
	return m;
}

/* Add n runs of d ns to program id and close the interval at end. */
static void runs(struct model *m, uint32_t id, int n, uint64_t d, uint64_t end)
{
	for (int i = 0; i < n; i++) {
		struct lat_event e = {.kind = LAT_EV_PROG, .id = id, .dur_ns = d};

		model__add_event(m, &e, SRC_SELF);
	}
	if (end)
		model__close_interval(m, end);
}

static void test_trigger_eval(void)
{
	struct model *m = model_ab();
	struct trigger t;
	struct trigger_hit h;
	char err[256];

	if (!ASSERT_NONNULL(m, "model"))
		return;
	runs(m, 2, 1, 100, 0);
	runs(m, 1, 100, 30000, S);
	ASSERT_OK(trigger__parse("a:p99>20us", &t, err, sizeof(err)), "parse");
	ASSERT_TRUE(trigger__eval(&t, m, &h), "30us > 20us holds");
	ASSERT_STREQ(h.series, "a", "the series");
	ASSERT_GE(h.value, 29000.0, "its p99");
	ASSERT_OK(trigger__parse("a:p99>40us", &t, err, sizeof(err)), "parse");
	ASSERT_TRUE(!trigger__eval(&t, m, &h), "30us > 40us does not");
	ASSERT_OK(trigger__parse("a:count>=100", &t, err, sizeof(err)), "parse count");
	ASSERT_TRUE(trigger__eval(&t, m, &h), "count 100");
	ASSERT_OK(trigger__parse("a:count>100", &t, err, sizeof(err)), "parse count");
	ASSERT_TRUE(!trigger__eval(&t, m, &h), "not more than 100");
	ASSERT_OK(trigger__parse("b:p99>20us", &t, err, sizeof(err)), "parse b");
	ASSERT_TRUE(!trigger__eval(&t, m, &h), "b is fast");
	ASSERT_OK(trigger__parse("nosuch:p99>1ns", &t, err, sizeof(err)), "parse nosuch");
	ASSERT_TRUE(!trigger__eval(&t, m, &h), "no such series never holds");
	ASSERT_OK(trigger__parse("drops>0", &t, err, sizeof(err)), "parse drops");
	ASSERT_TRUE(!trigger__eval(&t, m, &h), "no drops");
	model__set_losses(m, &(struct model_losses){.rb_drops = 3});
	model__close_interval(m, 2 * S);
	ASSERT_TRUE(trigger__eval(&t, m, &h), "3 drops");
	ASSERT_EQ(h.value, 3.0, "their count");
	model__free(m);
}

/* Read a whole file into memory; NULL on failure. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	p = malloc(n > 0 ? (size_t)n : 1);
	*len = p ? fread(p, 1, (size_t)n, f) : 0;
	fclose(f);
	return p;
}

/* The one file in dir into path; false unless there is exactly one. */
static bool only_file(const char *dir, char *path, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && ++n == 1 &&
		    (size_t)snprintf(path, len, "%s/%.200s", dir, e->d_name) >= len)
			n = 2; /* too long to name: not the file made here */
	if (d)
		closedir(d);
	return n == 1;
}

/* Replay a dump into a fresh model: the intervals applied and the total runs of "a". */
static void replay(const uint8_t *data, size_t size, size_t *nivals, uint64_t *a_count,
		   char *b_name)
{
	struct rec_file f;
	struct model *m = model__new(0);
	char err[256];
	struct series *s;
	size_t len;

	*nivals = 0;
	*a_count = 0;
	if (!m || rec__scan(&f, data, size, err, sizeof(err))) {
		model__free(m);
		return;
	}
	for (size_t i = 0; i < f.nrecs; i++)
		rec__apply(&f, i, m, NULL, 0);
	*nivals = f.nivals;
	s = model__find(m, LAT_EV_PROG, 1, 0, 0);
	*a_count = s && s->has_hist ? s->h_cum.count : 0;
	s = model__find(m, LAT_EV_PROG, 2, 0, 0);
	len = s ? strnlen(s->name, 63) : 0;
	memcpy(b_name, s ? s->name : "", len);
	b_name[len] = '\0';
	rec__fini(&f);
	model__free(m);
}

static void test_ring_and_dump(void)
{
	char dir[] = "/tmp/lattop-test-flight-XXXXXX", path[256], err[256], b_name[64], msg[640];
	struct flight_cfg cfg = {.keep_ns = 5 * S, .max_bytes = 1 << 20};
	struct model *m = model_ab();
	struct flight *f = NULL;
	struct flight_stats st;
	struct rec_meta meta = {.mode_name = "programs", .filter = "", .interval_ns = S};
	struct flight_why why = {.trigger = FT_SIGNAL};
	struct prog_stat renamed[2] = {{.id = 1, .name = "a", .type_name = "xdp"},
				       {.id = 2, .name = "b2", .type_name = "xdp"}};
	uint8_t *data = NULL;
	size_t len = 0, nivals;
	uint64_t a_count;
	bool failed;

	if (!ASSERT_NONNULL(m, "model") || !ASSERT_TRUE(mkdtemp(dir) != NULL, "mkdtemp"))
		goto out;
	cfg.dir = dir;
	meta.m = m;
	f = flight__new(&cfg);
	if (!ASSERT_NONNULL(f, "new"))
		goto out;
	/* 20 intervals of 1 s: "a" runs k times in interval k; "b" is renamed in interval 12. */
	for (int k = 1; k <= 20; k++) {
		if (k == 12)
			model__apply_stats(m, renamed, 2, k * S);
		runs(m, 1, k, 1000, k * S);
		ASSERT_OK(flight__interval(f, m, ""), "interval");
	}
	flight__stats(f, &st);
	ASSERT_EQ(st.intervals, 5, "the last 5 s held");
	ASSERT_OK(flight__dump(f, &meta, &why, err, sizeof(err)), "dump");
	flight__drain(f);
	ASSERT_TRUE(flight__poll(f, msg, sizeof(msg), &failed) && !failed, "written");
	if (!ASSERT_TRUE(only_file(dir, path, sizeof(path)), "one file"))
		goto out;
	data = slurp(path, &len);
	replay(data, len, &nivals, &a_count, b_name);
	ASSERT_EQ(nivals, 5, "5 intervals in the dump");
	ASSERT_EQ(a_count, 16 + 17 + 18 + 19 + 20, "a's runs of intervals 16 to 20");
	ASSERT_STREQ(b_name, "b2", "b named by the base (its records were evicted)");
	unlink(path);

	/* A dump into a directory that is gone: one sentence, counted. */
	ASSERT_OK(rmdir(dir), "rmdir");
	ASSERT_OK(flight__dump(f, &meta, &why, err, sizeof(err)), "dump queued");
	flight__drain(f);
	ASSERT_TRUE(flight__poll(f, msg, sizeof(msg), &failed) && failed, "failed");
	ASSERT_TRUE(strstr(msg, "cannot open the dump directory") != NULL, "says why");
	flight__stats(f, &st);
	ASSERT_EQ(st.errors, 1, "counted");
	ASSERT_EQ(st.dumps[FT_SIGNAL], 1, "the first one only");
	ASSERT_TRUE(mkdir(dir, 0700) == 0, "mkdir again");

	/* The cap: 40 more intervals under a cap that holds a few; never over it. */
	flight__free(f);
	cfg.keep_ns = 3600 * S;
	cfg.max_bytes = 4096;
	f = flight__new(&cfg);
	for (int k = 21; k <= 60 && f; k++) {
		runs(m, 1, 50 + k, 1000 + 37 * k, k * S);
		flight__interval(f, m, "");
		flight__stats(f, &st);
		ASSERT_LE(st.bytes, 4096, "under the cap");
	}
	ASSERT_GE(st.intervals, 1, "something held");
	ASSERT_LT(st.intervals, 40, "oldest evicted");
out:
	free(data);
	flight__free(f);
	model__free(m);
	rmdir(dir);
}

int main(void)
{
	test__suite = "flight";
	RUN_TEST(test_trigger_parse);
	RUN_TEST(test_trigger_eval);
	RUN_TEST(test_ring_and_dump);
	printf("flight: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
