/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * watchplan.h - which programs the probes watch under the CPU budget (--budget): all of them
 * when their measured cost fits, else in turns.
 *
 * The cost of watching a program is its runs a second times what the probes add to each run on
 * this machine (progtrace__run_cost_ns, measured at start-up), as a share of the machine's CPU
 * time (every online CPU). When the programs wanted cost more than the budget together, they
 * are watched in turns, fairly: in program ID order from where the last turn stopped, as many
 * as fit, so that every program whose own cost fits is watched for a whole turn within one
 * round of at most as many turns as there are programs (a round is usually the total cost over
 * the budget, plus one). Busiest-first was not chosen: the busiest programs would take every
 * turn and the others would never be measured. A program whose cost alone is over the budget
 * is never watched (its row says so). A turn lasts at least one interval, and longer when
 * switching costs: the attach and detach time measured on this machine, over the switches of a
 * turn, may take at most WATCHPLAN_SWITCH_SHARE of the budget.
 *
 * Pure logic (no BPF): the session feeds it rates and costs (session/kind_progs.c), the unit
 * tests feed it numbers.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_WATCHPLAN_H
#define LAT_WATCHPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --budget max: watch everything whatever it costs. */
#define WATCHPLAN_MAX (-1.0)
/* The share of the budget that attaching and detaching for turns may take. */
#define WATCHPLAN_SWITCH_SHARE 0.10

/* One program the plan may watch. */
struct wp_prog {
	uint32_t id;
	double rate;   /* runs a second (the last interval), < 0 when unknown */
	double run_ns; /* what watching one run costs, when more than the plan's run_ns (0) */
	double extra_ns; /* added to a run's cost whatever the above (helpers mode's probes) */
	bool attached; /* probes on it now */
	/* Set by watchplan__plan: */
	bool want;     /* watch it from now on */
	bool over;     /* its cost alone is over the budget: never watched */
	bool turns;    /* watched in turns (the plan does not cover everything) */
};

/* The plan's state between intervals. */
struct watchplan {
	double budget_pct;   /* share of the machine's CPU, in %, or WATCHPLAN_MAX */
	uint32_t cursor;     /* the next turn starts at the first ID >= cursor (wrapping) */
	uint64_t turn_end;   /* ns: the current turn may end from then on (0: none running) */
	uint64_t turn_ns;    /* the current turn's length */
	uint64_t turns;      /* turns begun */
	uint64_t rounds;     /* times the turns wrapped around the ID order */
	double switch_ns;    /* measured CPU time of one attach or detach (0: not yet) */
	double switch_share; /* the share of the budget switching may take (0: the default,
			      * WATCHPLAN_SWITCH_SHARE; LATTOP_SWITCH_SHARE for tests) */
	/* The last plan's figures: */
	double want_pct;     /* cost of everything wanted, % of the machine */
	double plan_pct;     /* cost of what the plan watches */
	int nwant, nwatch, nover;
};

/* Cost in % of the machine's CPU of a program running rate times a second, each run costing
 * run_ns more with probes, on ncpu CPUs. */
double watchplan__cost_pct(double rate, double run_ns, int ncpu);

/* What one run of p costs watched, when the plan's figure for a run is run_ns. */
double watchplan__run_ns(const struct wp_prog *p, double run_ns);

/* Decide which of p[0..n) to watch from now (ns): sets want/over/turns. p must be sorted by
 * id. interval_ns is the session's interval. Returns the number wanted. */
int watchplan__plan(struct watchplan *wp, struct wp_prog *p, size_t n, double run_ns, int ncpu,
		    uint64_t now, uint64_t interval_ns);

#endif /* LAT_WATCHPLAN_H */
