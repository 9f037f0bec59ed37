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

/* An event with opcode op, activity id k (none when k < 0), related id rel (none when < 0),
 * metadata: name, then a u32 field "size" and an i32 field (format signed) "status" when
 * fields; the payload size, status. Returns its length. */
static size_t evf(uint8_t *b, uint8_t op, int k, int rel, const char *name, bool fields,
		  uint32_t size, int32_t status)
{
	size_t n = 0, nl = strlen(name) + 1, idlen = rel >= 0 ? 32 : 16, ml;
	uint8_t meta[128];

	memcpy(meta, name, nl);
	ml = nl;
	if (fields) {
		memcpy(meta + ml, "size\0\x04status\0\x84\x02", 15);
		ml += 15;
	}
	b[n++] = EVHDR_F_LE | EVHDR_F_PTR64 | EVHDR_F_EXT;
	b[n++] = 0, b[n++] = 0, b[n++] = 0, b[n++] = 0, b[n++] = 0;
	b[n++] = op;
	b[n++] = 4;
	if (k >= 0) {
		b[n++] = (uint8_t)idlen, b[n++] = 0;
		b[n++] = EVHDR_EXT_ACTIVITY, b[n++] = 0x80;
		memset(b + n, 0, idlen);
		b[n] = (uint8_t)k;
		if (rel >= 0)
			b[n + 16] = (uint8_t)rel;
		n += idlen;
	}
	b[n++] = (uint8_t)ml, b[n++] = 0;
	b[n++] = EVHDR_EXT_METADATA, b[n++] = 0;
	memcpy(b + n, meta, ml);
	n += ml;
	if (fields) {
		memcpy(b + n, &size, 4);
		memcpy(b + n + 4, &status, 4);
		n += 8;
	}
	return n;
}

/* Samples of series i so far, and the sum of their durations. */
static int count_of(uint32_t i, uint64_t *sum)
{
	int c = 0;

	*sum = 0;
	for (int k = 0; k < ngot && k < MAXS; k++)
		if (got[k].series == i) {
			c++;
			*sum += got[k].dur_ns;
		}
	return c;
}

/* The series named name, or -1. */
static int named(struct ehpair *p, const char *name)
{
	for (uint32_t i = 0; i < ehpair__nseries(p); i++)
		if (!strcmp(ehpair__series_name(p, i), name))
			return (int)i;
	return -1;
}

/* Children under their parent's row; the parent's self time is its time less its children's. */
static void test_parents(void)
{
	struct ehpair *p = ehpair__new(1000000000ull, on_sample, NULL);
	struct ehpair_info info;
	uint8_t b[256];
	uint64_t sum;
	int req, inner, self, other;

	ngot = 0;
	ehpair__add(p, "Prov_L4K1", NULL, NULL);
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_START, 1, -1, "Req", false, 0, 0), 100, 1);
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_START, 2, 1, "Inner", false, 0, 0), 110, 1);
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_STOP, 2, -1, "Stop", false, 0, 0), 130, 1);
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_START, 3, 1, "Inner", false, 0, 0), 140, 1);
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_STOP, 3, -1, "Stop", false, 0, 0), 150, 1);
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_STOP, 1, -1, "Stop", false, 0, 0), 200, 1);
	/* An Inner without a parent open: a top row of its own. */
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_START, 4, 9, "Inner", false, 0, 0), 300, 1);
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_STOP, 4, -1, "Stop", false, 0, 0), 305, 1);
	req = named(p, "Req"), self = named(p, "Req self");
	ASSERT_GE(req, 0, "Req row");
	ASSERT_GE(self, 0, "Req self row");
	inner = -1, other = -1;
	for (uint32_t i = 0; i < ehpair__nseries(p); i++) {
		ehpair__series_info(p, i, &info);
		if (!strcmp(info.name, "Inner"))
			*(info.parent == req ? &inner : &other) = (int)i;
	}
	ASSERT_GE(inner, 0, "Inner under Req");
	ASSERT_GE(other, 0, "Inner without a parent");
	ehpair__series_info(p, (uint32_t)other, &info);
	ASSERT_EQ(info.parent, -1, "its parent none");
	ASSERT_EQ(count_of((uint32_t)inner, &sum), 2, "two children");
	ASSERT_EQ(sum, 30, "children's time");
	ASSERT_EQ(count_of((uint32_t)req, &sum), 1, "one parent");
	ASSERT_EQ(sum, 100, "parent's time");
	ASSERT_EQ(count_of((uint32_t)self, &sum), 1, "one self sample");
	ASSERT_EQ(sum, 70, "self = 100 - 30");
	ehpair__series_info(p, (uint32_t)self, &info);
	ASSERT_EQ(info.kind, EHPAIR_SELF, "self kind");
	ASSERT_EQ(info.parent, req, "self under Req");
	ASSERT_EQ(count_of((uint32_t)other, &sum), 1, "the lone Inner");
	ehpair__free(p);
}

/* Split rows by a field (the first top values, then "other", folded counted), a filter on the
 * stop's field, a field as the value, plain events counted per name. */
static void test_fields(void)
{
	struct ehpair *p = ehpair__new(1000000000ull, on_sample, NULL);
	struct ehpair_opts o = {.by = "size", .top = 2};
	struct ehpair_opts f = {.if_field = "status", .if_op = EHPAIR_OP_NE, .if_text = "0"};
	struct ehpair_opts v = {.value = "size"};
	struct ehpair_loss l;
	struct ehpair_info info;
	uint8_t b[256];
	uint64_t sum;
	const uint32_t sizes[] = {7, 9, 7, 11, 12, 9};

	ngot = 0;
	ASSERT_EQ(ehpair__add_opts(p, "Prov_L4K1", NULL, NULL, &o), 0, "by size");
	ASSERT_EQ(ehpair__add_opts(p, "Prov_L4K2", "Req", "errors", &f), 1, "errors only");
	ASSERT_EQ(ehpair__add_opts(p, "Prov_L4K4", NULL, NULL, &v), 2, "size as value");
	for (int i = 0; i < 6; i++) {
		ehpair__event(p, 0, b, evf(b, EVHDR_OP_START, i, -1, "Req", true, sizes[i], 0),
			      10, 1);
		ehpair__event(p, 0, b, evf(b, EVHDR_OP_STOP, i, -1, "Stop", false, 0, 0), 20, 1);
	}
	ASSERT_EQ(count_of((uint32_t)named(p, "Req"), &sum), 6, "all six in the row");
	ASSERT_EQ(count_of((uint32_t)named(p, "Req size=7"), &sum), 2, "size 7");
	ASSERT_EQ(count_of((uint32_t)named(p, "Req size=9"), &sum), 2, "size 9");
	ASSERT_EQ(count_of((uint32_t)named(p, "Req size=other"), &sum), 2, "11 and 12 folded");
	ASSERT_EQ(named(p, "Req size=11"), -1, "no row past the top 2");
	ehpair__series_info(p, (uint32_t)named(p, "Req size=7"), &info);
	ASSERT_TRUE(info.split && info.parent == named(p, "Req"), "split row under Req");
	/* status on the stop: 0, -5, and a stop without the field (the start's 0 stands). */
	const int32_t st[] = {0, -5, 3};
	for (int i = 0; i < 3; i++) {
		ehpair__event(p, 1, b, evf(b, EVHDR_OP_START, 50 + i, -1, "Req", true, 1, 0), 10,
			      1);
		ehpair__event(p, 1, b, evf(b, EVHDR_OP_STOP, 50 + i, -1, "Stop", i < 2, 0, st[i]),
			      15, 1);
	}
	ASSERT_EQ(count_of((uint32_t)named(p, "errors"), &sum), 1, "only status -5 passes");
	for (int i = 0; i < 3; i++)
		ehpair__event(p, 2, b, evf(b, EVHDR_OP_INFO, -1, -1, "Hit", i < 2, 100u << i, 0),
			      10, 1);
	ehpair__series_info(p, (uint32_t)named(p, "Hit"), &info);
	ASSERT_TRUE(info.kind == EHPAIR_EVENT && info.value, "Hit: plain event, a value row");
	ASSERT_EQ(count_of((uint32_t)named(p, "Hit"), &sum), 2, "two Hits with a size");
	ASSERT_EQ(sum, 300, "their sizes");
	ehpair__loss(p, &l);
	ASSERT_EQ(l.folded, 2, "folded");
	ASSERT_EQ(l.filtered, 3, "filtered: two errors-only, one Hit without size");
	ASSERT_EQ(l.malformed + l.lost, 0, "nothing else");
	ehpair__free(p);
}

/* A provider's tracepoints within the level and keyword mask are followed, once each. */
static void test_provider(void)
{
	struct ehpair *p = ehpair__new(1000000000ull, on_sample, NULL);
	uint8_t b[256];

	ngot = 0;
	ASSERT_OK(ehpair__add_provider(p, "Prov", 4, 0x3, NULL, NULL), "provider");
	ASSERT_TRUE(ehpair__has_providers(p), "has providers");
	ASSERT_EQ(ehpair__follow(p, "Prov_L4K1"), 0, "L4K1 followed");
	ASSERT_EQ(ehpair__follow(p, "Prov_L4K1"), -1, "once");
	ASSERT_EQ(ehpair__follow(p, "Prov_L5K1"), -1, "level 5 above 4");
	ASSERT_EQ(ehpair__follow(p, "Prov_L2K4"), -1, "keyword 4 outside 0x3");
	ASSERT_EQ(ehpair__follow(p, "Prov_L2K0"), 1, "keyword 0 always");
	ASSERT_EQ(ehpair__follow(p, "Prov_L3K6Gg"), 2, "keyword 6 has bit 2, options");
	ASSERT_EQ(ehpair__follow(p, "Other_L4K1"), -1, "another provider");
	ASSERT_EQ(ehpair__follow(p, "ProvX_L4K1"), -1, "a longer provider name");
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_START, 1, -1, "Req", false, 0, 0), 10, 1);
	ehpair__event(p, 0, b, evf(b, EVHDR_OP_STOP, 1, -1, "Stop", false, 0, 0), 20, 1);
	ASSERT_EQ(ngot, 1, "a followed tracepoint's activity paired");
	ASSERT_STREQ(ehpair__series_name(p, 0), "Req", "in the row of its name");
	ehpair__free(p);
}

int main(void)
{
	test__suite = "ehpair";
	RUN_TEST(test_pairs);
	RUN_TEST(test_held_and_losses);
	RUN_TEST(test_named);
	RUN_TEST(test_many);
	RUN_TEST(test_parents);
	RUN_TEST(test_fields);
	RUN_TEST(test_provider);
	return TEST_EXIT();
}
