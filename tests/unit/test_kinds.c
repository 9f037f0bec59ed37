// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_kinds.c - the kinds of probe's list (session/kinds.c) without BPF: the budget shared
 * out in the list's order of priority, and the series names -p may give (asked of the whole
 * list, so a replay, which opens no kind, answers the same).
 */
#include <stdio.h>
#include <string.h>

#include "session/kind.h"
#include "session/session.h"
#include "test.h"

/* Spans, then the vhost chain, then the program probes, as kinds__open asks: what each got
 * and what was left for the next, given what the ones before took once open. */
static void share(size_t budget, size_t spans, size_t vhost, size_t got[3], uint64_t over[3])
{
	size_t left = budget;

	memset(over, 0, 3 * sizeof(*over));
	got[0] = kinds__grant(spans, left, &over[0]);
	left -= got[0];
	got[1] = kinds__grant(vhost, left, &over[1]);
	left -= got[1];
	got[2] = kinds__grant(KIND_AGG_REST, left, &over[2]);
}

static void test_budget_order(void)
{
	size_t got[3];
	uint64_t over[3];

	share(64 << 20, 1 << 20, 2 << 20, got, over);
	ASSERT_EQ(got[0], (size_t)1 << 20, "spans fit: all they asked");
	ASSERT_EQ(got[1], (size_t)2 << 20, "vhost fits in what the spans left");
	ASSERT_EQ(got[2], (size_t)61 << 20, "programs: the rest");
	ASSERT_EQ(over[0] + over[1] + over[2], 0, "nothing over budget");

	share(3 << 20, 2 << 20, 2 << 20, got, over);
	ASSERT_EQ(got[0], (size_t)2 << 20, "spans first");
	ASSERT_EQ(got[1], 0, "vhost does not fit after them: none at all");
	ASSERT_EQ(over[1], 1, "counted once in agg_over_budget");
	ASSERT_EQ(got[2], (size_t)1 << 20, "programs: what the spans left");

	share(4096, 8192, 0, got, over);
	ASSERT_EQ(got[0], 0, "spans over a tiny budget");
	ASSERT_EQ(over[0], 1, "counted");
	ASSERT_EQ(got[1] + over[1], 0, "no vhost chain asked: nothing, not over budget");
	ASSERT_EQ(got[2], 4096, "programs: the whole budget");
	ASSERT_EQ(over[2], 0, "the rest is never over budget");
}

static void test_named(void)
{
	static struct session s;
	static struct opts o;

	memset(&o, 0, sizeof(o));
	s.o = &o;
	o.nspans = 1;
	snprintf(o.spans[0].name, sizeof(o.spans[0].name), "getpid");
	ASSERT_TRUE(kinds__named(&s, "getpid"), "a span's name");
	ASSERT_TRUE(!kinds__named(&s, "S1"), "no profile: S1 is a program's name");
	o.profile_path = "p.json";
	ASSERT_TRUE(kinds__named(&s, "S1"), "with --profile, the chain's S1");
	ASSERT_TRUE(kinds__named(&s, "total"), "and its total");
	ASSERT_TRUE(!kinds__named(&s, "xdp_fw"), "a program's name is no segment's");
}

int main(void)
{
	RUN_TEST(test_budget_order);
	RUN_TEST(test_named);
	printf("kinds: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
