// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_watchplan.c - the CPU budget's plan (session/watchplan.c) and --budget's parsing, without
 * BPF: which programs are watched when all fit, in turns when they do not, how long a turn
 * lasts when switching costs, and every program that fits watched within one round.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/opts.h"
#include "session/watchplan.h"
#include "test.h"

#define SEC 1000000000ull

/* n programs with IDs 10, 20, ... and the given rates. */
static void progs(struct wp_prog *p, size_t n, const double *rate)
{
	memset(p, 0, n * sizeof(*p));
	for (size_t i = 0; i < n; i++) {
		p[i].id = (uint32_t)(10 * (i + 1));
		p[i].rate = rate[i];
	}
}

/* n programs of 0.4% of 2 CPUs each at 100 ns a run: two fit a 1% budget at a time. */
static void two_a_turn(struct wp_prog *p, size_t n)
{
	double rate[16];

	for (size_t i = 0; i < n && i < 16; i++)
		rate[i] = 0.004 * 1e9 * 2 / 100;
	progs(p, n, rate);
}

/* Apply a plan as the session does: attached follows want. */
static void apply(struct wp_prog *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i].attached = p[i].want;
}

static void test_cost(void)
{
	/* 1,000,000 runs a second at 50 ns on 2 CPUs: 5% of the machine. */
	ASSERT_TRUE(fabs(watchplan__cost_pct(1e6, 50, 2) - 2.5) < 1e-9, "1M/s x 50 ns / 2 CPUs");
	ASSERT_TRUE(watchplan__cost_pct(-1, 50, 2) == 0, "unknown rate costs nothing yet");
	ASSERT_TRUE(watchplan__cost_pct(100, 50, 0) == 0, "no CPUs known: 0");
}

static void test_all_fit(void)
{
	struct watchplan wp = { .budget_pct = 1.0 };
	double rate[3] = { 1000, 2000, -1 };
	struct wp_prog p[3];

	progs(p, 3, rate);
	ASSERT_EQ(watchplan__plan(&wp, p, 3, 60, 2, SEC, SEC), 3, "all three fit");
	for (int i = 0; i < 3; i++) {
		ASSERT_TRUE(p[i].want && !p[i].turns && !p[i].over, "watched whole");
	}
	ASSERT_EQ(wp.turn_end, 0, "no turn");

	wp.budget_pct = 0;
	ASSERT_EQ(watchplan__plan(&wp, p, 3, 60, 2, SEC, SEC), 0, "--budget 0: none");
	rate[0] = 1e12;
	progs(p, 3, rate);
	wp.budget_pct = WATCHPLAN_MAX;
	ASSERT_EQ(watchplan__plan(&wp, p, 3, 60, 2, SEC, SEC), 3, "--budget max: all, whatever");
	ASSERT_TRUE(!p[0].over, "max: none over");
}

/* Ten programs of 0.3% each under a 1% budget: three a turn, in ID order, each watched within
 * one round of four turns; a program of 2% is never watched and says so. */
static void test_turns(void)
{
	struct watchplan wp = { .budget_pct = 1.0 };
	double rate[11];
	struct wp_prog p[11];
	int seen[11] = { 0 };
	uint64_t now = SEC;

	for (int i = 0; i < 11; i++)
		rate[i] = 0.003 * 1e9 * 2 / 100; /* 0.3% of 2 CPUs at 100 ns a run */
	rate[5] = 0.02 * 1e9 * 2 / 100;           /* 2% */
	progs(p, 11, rate);
	for (int turn = 0; turn < 4; turn++, now += SEC) {
		int k = watchplan__plan(&wp, p, 11, 100, 2, now, SEC);

		ASSERT_TRUE(k >= 1 && k <= 3, "at most three fit in a turn");
		ASSERT_TRUE(wp.plan_pct <= wp.budget_pct + 1e-9, "a turn stays in the budget");
		for (int i = 0; i < 11; i++) {
			seen[i] += p[i].want;
			ASSERT_TRUE(p[i].turns, "in turns");
		}
		apply(p, 11);
	}
	for (int i = 0; i < 11; i++)
		if (i == 5) {
			ASSERT_TRUE(p[i].over && !seen[i], "over the budget alone: never watched");
		} else {
			ASSERT_TRUE(seen[i] >= 1, "watched within one round of 4 turns");
		}
	ASSERT_EQ(wp.nover, 1, "one over");
	ASSERT_TRUE(wp.rounds >= 1, "the turns wrapped");
}

/* Helpers mode's probes add to a run's cost whatever its base: two programs of 0.4% each fit
 * a 1% budget, but not with 40 ns of helper probes on each 100 ns run (0.56% each). */
static void test_extra(void)
{
	struct watchplan wp = { .budget_pct = 1.0 };
	struct wp_prog p[2];

	two_a_turn(p, 2);
	ASSERT_EQ(watchplan__plan(&wp, p, 2, 100, 2, SEC, SEC), 2, "both fit");
	ASSERT_TRUE(!p[0].turns, "no turns");
	ASSERT_TRUE(fabs(watchplan__run_ns(&p[0], 100) - 100) < 1e-9, "base only");
	p[0].run_ns = 150; /* more than the plan's figure: it counts instead, helpers on top */
	p[0].extra_ns = p[1].extra_ns = 40;
	ASSERT_TRUE(fabs(watchplan__run_ns(&p[0], 100) - 190) < 1e-9, "150 + 40");
	ASSERT_TRUE(fabs(watchplan__run_ns(&p[1], 100) - 140) < 1e-9, "100 + 40");
	p[0].run_ns = 0;
	wp = (struct watchplan){ .budget_pct = 1.0 };
	watchplan__plan(&wp, p, 2, 100, 2, SEC, SEC);
	ASSERT_TRUE(p[0].turns && p[1].turns, "in turns once the helper probes count");
	ASSERT_TRUE(fabs(wp.want_pct - 1.12) < 1e-9, "2 x 0.56%");
}

/* Switching costs: 10 ms a switch, budget 1% of 2 CPUs = 20 ms a second, a tenth of it for
 * switching = 2 ms a second: six switches need 30 s of turn. */
static void test_turn_length(void)
{
	struct watchplan wp = { .budget_pct = 1.0, .switch_ns = 10e6 };
	struct wp_prog p[6];

	two_a_turn(p, 6);
	watchplan__plan(&wp, p, 6, 100, 2, SEC, SEC);
	/* First turn: two attaches: 20 ms at 2 ms a second = 10 s. */
	ASSERT_EQ(wp.turn_end, SEC + 10 * SEC - SEC / 2, "turn of 10 s (less half an interval)");
	apply(p, 6);
	ASSERT_EQ(watchplan__plan(&wp, p, 6, 100, 2, 5 * SEC, SEC), 2, "turn runs on");
	ASSERT_TRUE(p[0].want && p[1].want && !p[2].want, "same two");
	watchplan__plan(&wp, p, 6, 100, 2, 11 * SEC, SEC);
	ASSERT_TRUE(!p[0].want && p[2].want && p[3].want, "next two after the turn");
	/* Four switches now: 40 ms = 20 s. */
	ASSERT_EQ(wp.turn_end, 11 * SEC + 20 * SEC - SEC / 2, "turn of 20 s");
	/* A watched program grows past what fits: the turn ends early. */
	apply(p, 6);
	p[2].rate *= 3;
	watchplan__plan(&wp, p, 6, 100, 2, 12 * SEC, SEC);
	ASSERT_TRUE(wp.plan_pct <= wp.budget_pct + 1e-9, "a new turn within the budget");
}

/* A turn runs to its end even when everything would fit meanwhile (watched programs in a
 * closed loop slow down): no switching back and forth. */
static void test_turn_holds(void)
{
	struct watchplan wp = { .budget_pct = 1.0, .switch_ns = 10e6 };
	struct wp_prog p[4];

	two_a_turn(p, 4);
	watchplan__plan(&wp, p, 4, 100, 2, SEC, SEC);
	apply(p, 4);
	for (int i = 0; i < 4; i++)
		p[i].rate /= 10; /* all would fit now */
	ASSERT_EQ(watchplan__plan(&wp, p, 4, 100, 2, 2 * SEC, SEC), 2, "the turn holds");
	ASSERT_TRUE(p[0].want && p[1].want && !p[2].want && !p[3].want, "the same two");
	ASSERT_EQ(watchplan__plan(&wp, p, 4, 100, 2, 20 * SEC, SEC), 4, "after it: all fit");
	ASSERT_EQ(wp.turn_end, 0, "no turn any more");
}

static void test_parse(void)
{
	double v = 7;

	ASSERT_EQ(opts__parse_budget("0.5", &v), 0, "0.5");
	ASSERT_TRUE(v == 0.5, "0.5 read");
	ASSERT_EQ(opts__parse_budget("2%", &v), 0, "2%");
	ASSERT_TRUE(v == 2, "2 read");
	ASSERT_EQ(opts__parse_budget("max", &v), 0, "max");
	ASSERT_TRUE(v == OPTS_BUDGET_MAX, "max read");
	ASSERT_EQ(opts__parse_budget("0", &v), 0, "0");
	ASSERT_TRUE(v == 0, "0 read");
	ASSERT_TRUE(opts__parse_budget("101", &v) != 0, "over 100");
	ASSERT_TRUE(opts__parse_budget("-1", &v) != 0, "negative");
	ASSERT_TRUE(opts__parse_budget("nan", &v) != 0, "nan");
	ASSERT_TRUE(opts__parse_budget("1x", &v) != 0, "trailing junk");
	ASSERT_TRUE(opts__parse_budget("", &v) != 0, "empty");
	ASSERT_TRUE(opts__parse_budget("1%%", &v) != 0, "two percent signs");
}

int main(void)
{
	RUN_TEST(test_cost);
	RUN_TEST(test_all_fit);
	RUN_TEST(test_turns);
	RUN_TEST(test_extra);
	RUN_TEST(test_turn_length);
	RUN_TEST(test_turn_holds);
	RUN_TEST(test_parse);
	printf("watchplan: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
