// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_ehpair.c - EventHeader activity pairing (collect/ehpair.c): starts and stops paired by
 * activity id, nested and interleaved; a stop read before its start (another CPU's ring) held
 * until the next pass; stops without starts, orphan starts past the maximum age, malformed and
 * foreign events each counted exactly; one series per activity name, or "id N"; a named
 * activity takes only its own starts and pairs the others silently.
 */
#include <string.h>

#include "base/evhdr.h"
#include "collect/ehpair.h"
#include "test.h"

#define MAXS 64

static struct ehpair_sample got[MAXS];
static int ngot;

static void on_sample(void *arg, const struct ehpair_sample *s)
{
	(void)arg;
	if (ngot < MAXS)
		got[ngot] = *s;
	ngot++;
}

/* An event with opcode op, level 4, activity id k (none when k < 0) and, when name is given,
 * metadata naming it. Returns its length. */
static size_t ev(uint8_t *b, uint8_t op, int k, const char *name)
{
	size_t n = 0, nl = name ? strlen(name) + 1 : 0;

	b[n++] = EVHDR_F_LE | EVHDR_F_PTR64 | (k >= 0 || name ? EVHDR_F_EXT : 0);
	b[n++] = 0;
	b[n++] = 7, b[n++] = 0; /* id 7 */
	b[n++] = 0, b[n++] = 0;
	b[n++] = op;
	b[n++] = 4;
	if (k >= 0) {
		b[n++] = 16, b[n++] = 0;
		b[n++] = EVHDR_EXT_ACTIVITY, b[n++] = name ? 0x80 : 0;
		memset(b + n, 0, 16);
		b[n] = (uint8_t)k, b[n + 1] = (uint8_t)(k >> 8);
		n += 16;
	}
	if (name) {
		b[n++] = (uint8_t)nl, b[n++] = 0;
		b[n++] = EVHDR_EXT_METADATA, b[n++] = 0;
		memcpy(b + n, name, nl);
		n += nl;
	}
	return n;
}

static void put(struct ehpair *p, uint8_t op, int k, const char *name, uint64_t ts)
{
	uint8_t b[128];

	ehpair__event(p, 0, b, ev(b, op, k, name), ts, 1);
}

static void test_pairs(void)
{
	struct ehpair *p = ehpair__new(1000000000ull, on_sample, NULL);
	struct ehpair_loss l;

	ngot = 0;
	ASSERT_EQ(ehpair__add(p, "Prov_L4K1", NULL, NULL), 0, "tracepoint 0");
	put(p, EVHDR_OP_START, 1, "Outer", 100);
	put(p, EVHDR_OP_START, 2, "Inner", 110);
	put(p, EVHDR_OP_STOP, 2, "InnerStop", 150);
	put(p, EVHDR_OP_START, 3, "Inner", 160);
	put(p, EVHDR_OP_STOP, 1, NULL, 300); /* outer stops before the second inner */
	put(p, EVHDR_OP_STOP, 3, NULL, 400);
	put(p, EVHDR_OP_START, 4, NULL, 500); /* no metadata: "id 7" */
	put(p, EVHDR_OP_STOP, 4, NULL, 520);
	ASSERT_EQ(ngot, 4, "four pairs");
	ASSERT_EQ(ehpair__nseries(p), 3, "three names");
	ASSERT_STREQ(ehpair__series_name(p, 0), "Outer", "series 0");
	ASSERT_STREQ(ehpair__series_name(p, 1), "Inner", "series 1");
	ASSERT_STREQ(ehpair__series_name(p, 2), "id 7", "series 2");
	ASSERT_EQ(got[0].series, 1, "inner first");
	ASSERT_EQ(got[0].dur_ns, 40, "inner 40");
	ASSERT_EQ(got[1].dur_ns, 200, "outer 200");
	ASSERT_EQ(got[2].dur_ns, 240, "second inner 240");
	ASSERT_EQ(got[3].series, 2, "id series");
	ASSERT_EQ(got[3].dur_ns, 20, "id 20");
	ASSERT_EQ(ehpair__pending(p), 0, "nothing pending");
	ehpair__loss(p, &l);
	ASSERT_EQ(l.orphan + l.unmatched + l.malformed + l.foreign + l.lost, 0, "no loss");
	ehpair__free(p);
}

static void test_held_and_losses(void)
{
	struct ehpair *p = ehpair__new(1000, on_sample, NULL);
	struct ehpair_loss l;
	uint8_t b[128];
	size_t n;

	ngot = 0;
	ehpair__add(p, "Prov_L4K1", NULL, NULL);
	/* A stop read before its start (another CPU's ring), then the start: paired at the pass
	 * end. A stop with no start: held one pass, then unmatched. */
	put(p, EVHDR_OP_STOP, 9, NULL, 250);
	put(p, EVHDR_OP_STOP, 10, NULL, 260);
	put(p, EVHDR_OP_START, 9, "Late", 200);
	ASSERT_EQ(ngot, 0, "nothing paired yet");
	ehpair__pass_end(p, 300);
	ASSERT_EQ(ngot, 1, "paired at the pass end");
	ASSERT_EQ(got[0].dur_ns, 50, "late pair 50");
	ehpair__loss(p, &l);
	ASSERT_EQ(l.unmatched, 0, "held one pass");
	ehpair__pass_end(p, 310);
	ehpair__loss(p, &l);
	ASSERT_EQ(l.unmatched, 1, "then unmatched");
	/* An orphan: a start older than 1000 ns at the next sweep (a second later). */
	put(p, EVHDR_OP_START, 11, "Late", 400);
	ehpair__pass_end(p, 1000000400ull);
	ehpair__loss(p, &l);
	ASSERT_EQ(l.orphan, 1, "orphan");
	ASSERT_EQ(ehpair__pending(p), 0, "swept");
	/* Malformed: a start without an activity id; a cut extension. Foreign: level 5, and an
	 * undefined flag bit. */
	put(p, EVHDR_OP_START, -1, "NoId", 500);
	n = ev(b, EVHDR_OP_START, 12, "Cut");
	ehpair__event(p, 0, b, n - 2, 510, 1);
	n = ev(b, EVHDR_OP_START, 13, "Lvl");
	b[7] = 5;
	ehpair__event(p, 0, b, n, 520, 1);
	b[7] = 4;
	b[0] |= 0x40;
	ehpair__event(p, 0, b, n, 530, 1);
	ehpair__event(p, 0, "abc", 3, 540, 1);
	ehpair__add_lost(p, 3);
	ehpair__loss(p, &l);
	ASSERT_EQ(l.malformed, 3, "malformed");
	ASSERT_EQ(l.foreign, 2, "foreign");
	ASSERT_EQ(l.lost, 3, "lost");
	ASSERT_EQ(l.unmatched, 1, "unmatched unchanged");
	ehpair__free(p);
}

static void test_named(void)
{
	struct ehpair *p = ehpair__new(1000000000ull, on_sample, NULL);
	struct ehpair_loss l;

	ngot = 0;
	ASSERT_EQ(ehpair__add(p, "Prov_L4K1", "Req", "requests"), 0, "named");
	ASSERT_EQ(ehpair__add(p, "Prov_L4K1", "Job", NULL), 0, "same tracepoint");
	ASSERT_EQ(ehpair__add(p, "Prov_L4", NULL, NULL), -22, "bad name");
	ASSERT_EQ(ehpair__nseries(p), 2, "series exist before any event");
	ASSERT_STREQ(ehpair__series_name(p, 0), "requests", "series name given");
	put(p, EVHDR_OP_START, 1, "Other", 10);
	put(p, EVHDR_OP_START, 2, "Req", 20);
	put(p, EVHDR_OP_STOP, 1, NULL, 30);
	put(p, EVHDR_OP_STOP, 2, NULL, 50);
	ASSERT_EQ(ngot, 1, "only Req");
	ASSERT_EQ(got[0].series, 0, "into requests");
	ASSERT_EQ(got[0].dur_ns, 30, "30");
	ehpair__pass_end(p, 100);
	ehpair__pass_end(p, 200);
	ehpair__loss(p, &l);
	ASSERT_EQ(l.unmatched, 0, "the other activity's stop paired silently");
	ASSERT_EQ(ehpair__nseries(p), 2, "no series for Other");
	ehpair__free(p);
}

static void test_many(void)
{
	struct ehpair *p = ehpair__new(1000000000ull, on_sample, NULL);
	uint8_t b[128];

	ngot = 0;
	ehpair__add(p, "Prov_L4K1", NULL, NULL);
	/* 4000 concurrent starts, stopped in reverse order: the table's deletions keep every
	 * search whole. */
	for (int k = 0; k < 4000; k++) {
		size_t n = ev(b, EVHDR_OP_START, k, "Many");

		ehpair__event(p, 0, b, n, 1000 + (uint64_t)k, 1);
	}
	for (int k = 3999; k >= 0; k--) {
		size_t n = ev(b, EVHDR_OP_STOP, k, NULL);

		ehpair__event(p, 0, b, n, 100000, 1);
	}
	ASSERT_EQ(ngot, 4000, "4000 pairs");
	ASSERT_EQ(ehpair__pending(p), 0, "none pending");
	ehpair__free(p);
}

int main(void)
{
	test__suite = "ehpair";
	RUN_TEST(test_pairs);
	RUN_TEST(test_held_and_losses);
	RUN_TEST(test_named);
	RUN_TEST(test_many);
	return TEST_EXIT();
}
