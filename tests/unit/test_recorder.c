// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_recorder.c - the recording writer thread: intervals and --raw events queued from this
 * thread reach the file complete and in order (also run under TSan by tests/host/t_record.sh);
 * a write error stops the recording with one sentence and the session goes on.
 */
#include <stdlib.h>
#include <unistd.h>

#include "collect/recorder.h"
#include "model/rec.h"
#include "session.h"
#include "test.h"

#define S 1000000000ull

/* Read a whole file; NULL on failure. */
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

static void test_intervals_and_events(void)
{
	static struct opts o;
	struct session s = { 0 };
	char path[] = "/tmp/lattop-test-rec-XXXXXX", err[256];
	int fd = mkstemp(path);
	struct rec_file f;
	uint8_t *data = NULL;
	size_t len;
	uint64_t events = 0, lost = 0, lost_events = 0;

	o.interval_ns = S;
	s.o = &o;
	s.m = model__new(0);
	close(fd);
	if (!ASSERT_OK(recorder__start(&s, path, true, err, sizeof(err)), "start"))
		goto out;
	for (int k = 1; k <= 20; k++) {
		for (int i = 0; i < 3000; i++) {
			struct lat_event e = { .kind = LAT_EV_PROG, .id = 1 + i % 3,
					       .dur_ns = 100 + i, .start_ns = k * S + i };

			model__add_event(s.m, &e, SRC_SELF);
			recorder__event(s.rec, &e);
		}
		model__close_interval(s.m, k * S);
		recorder__interval(&s);
	}
	/* On a loaded machine the writer may fall behind: --raw batches are then dropped and
	 * counted, while interval frames keep reserved room in the queue. */
	lost = recorder__lost(s.rec);
	lost_events = recorder__lost_events(s.rec);
	recorder__stop(&s);
	ASSERT_TRUE(s.rec == NULL, "stopped");
	data = slurp(path, &len);
	if (!ASSERT_TRUE(data != NULL, "read back"))
		goto out;
	if (!ASSERT_OK(rec__scan(&f, data, len, err, sizeof(err)), "scan"))
		goto out;
	ASSERT_STREQ(f.damage, "", "whole file");
	ASSERT_EQ(f.nivals, 20, "every interval (never dropped for --raw batches)");
	ASSERT_EQ(f.nevents + lost_events, 60000, "every event written or counted lost");
	ASSERT_TRUE(lost_events || !lost, "only --raw batches lost");
	for (size_t i = 0; i < f.nrecs; i++) {
		uint32_t n;
		struct lat_event e;

		rec__event(&f, i, 0, NULL, &n);
		for (uint32_t j = 0; j < n; j++, events++) {
			rec__event(&f, i, j, &e, NULL);
			if (!lost && e.start_ns != (events / 3000 + 1) * S + events % 3000)
				break;
		}
	}
	ASSERT_EQ(events, f.nevents, "events in order");
	ASSERT_EQ(rec__ival_end(&f, 19), 20 * S, "last interval end");
	rec__fini(&f);
out:
	free(data);
	unlink(path);
	model__free(s.m);
}

static void test_write_error(void)
{
	static struct opts o;
	struct session s = { 0 };
	char err[256];

	o.interval_ns = S;
	o.batch = false;
	s.o = &o;
	s.m = model__new(0);
	/* /dev/full takes the open and fails every write: the header write reports it. */
	ASSERT_TRUE(recorder__start(&s, "/dev/full", false, err, sizeof(err)) < 0, "refused");
	ASSERT_TRUE(strstr(err, "cannot write the recording /dev/full: No space left") != NULL,
		    "one sentence naming the file");
	ASSERT_TRUE(s.rec == NULL, "not recording");
	model__free(s.m);
}

int main(void)
{
	test__suite = "recorder";
	RUN_TEST(test_intervals_and_events);
	RUN_TEST(test_write_error);
	printf("recorder: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
