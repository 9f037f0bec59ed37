// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * watchplan.c - which programs the probes watch under the CPU budget (watchplan.h).
 *
 * Thread use: UI/main thread only.
 */
#include "session/watchplan.h"

/* Cost in % of the machine's CPU. */
double watchplan__cost_pct(double rate, double run_ns, int ncpu)
{
	if (rate <= 0 || run_ns <= 0 || ncpu <= 0)
		return 0;
	return rate * run_ns / (1e9 * ncpu) * 100.0;
}

/* Everything fits (or the budget is max, or 0): no turns. */
static int plan_all(struct watchplan *wp, struct wp_prog *p, size_t n, const double *cost,
		    bool none)
{
	int k = 0;

	wp->turn_end = 0;
	wp->plan_pct = 0;
	for (size_t i = 0; i < n; i++) {
		p[i].want = !none;
		p[i].over = false;
		p[i].turns = false;
		if (p[i].want) {
			k++;
			wp->plan_pct += cost[i];
		}
	}
	return k;
}

/* The first position whose id is at least the cursor (0 past the end). */
static size_t cursor_pos(const struct watchplan *wp, const struct wp_prog *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].id >= wp->cursor)
			return i;
	return 0;
}

/* A new turn: from the cursor, in ID order, as many as fit. Returns the switches it makes. */
static int new_turn(struct watchplan *wp, struct wp_prog *p, size_t n, const double *cost)
{
	size_t start = cursor_pos(wp, p, n), last = start;
	double sum = 0;
	int switches = 0;
	bool took = false;

	for (size_t i = 0; i < n; i++)
		p[i].want = false;
	for (size_t k = 0; k < n; k++) {
		size_t i = (start + k) % n;

		if (p[i].over)
			continue;
		if (took && sum + cost[i] > wp->budget_pct)
			break;
		sum += cost[i];
		p[i].want = true;
		took = true;
		last = i;
		if (k && i == 0)
			wp->rounds++; /* wrapped past the highest ID */
	}
	wp->plan_pct = sum;
	wp->turns++;
	if (took) {
		wp->cursor = last + 1 < n ? p[last + 1].id : 0;
		if (last + 1 >= n)
			wp->rounds++;
	}
	for (size_t i = 0; i < n; i++)
		switches += p[i].want != p[i].attached;
	return switches;
}

/* How long a turn with this many switches lasts: an interval at least, and long enough that
 * the switching stays within its share of the budget. */
static uint64_t turn_len(const struct watchplan *wp, int switches, int ncpu,
			 uint64_t interval_ns)
{
	double share = wp->switch_share > 0 ? wp->switch_share : WATCHPLAN_SWITCH_SHARE;
	double allowed = share * wp->budget_pct / 100.0 * (ncpu > 0 ? ncpu : 1);
	double need = allowed > 0 ? switches * wp->switch_ns / allowed : 0;

	return need > (double)interval_ns ? (uint64_t)need : interval_ns;
}

double watchplan__run_ns(const struct wp_prog *p, double run_ns)
{
	return (p->run_ns > run_ns ? p->run_ns : run_ns) + p->extra_ns;
}

int watchplan__plan(struct watchplan *wp, struct wp_prog *p, size_t n, double run_ns, int ncpu,
		    uint64_t now, uint64_t interval_ns)
{
	double cost[n ? n : 1], cur = 0;
	int k = 0, switches;

	wp->want_pct = 0;
	wp->nover = 0;
	for (size_t i = 0; i < n; i++) {
		cost[i] = watchplan__cost_pct(p[i].rate, watchplan__run_ns(&p[i], run_ns),
					      ncpu);
		wp->want_pct += cost[i];
	}
	wp->nwant = (int)n;
	for (size_t i = 0; i < n; i++)
		if (p[i].attached)
			cur += cost[i];
	/* A turn runs to its end, also when everything would fit now (the rates of programs in
	 * a closed loop fall while they are watched): switching back and forth costs more than it
	 * saves. It ends early only when what it watches no longer fits. */
	if (wp->budget_pct > 0 && wp->turn_end && now < wp->turn_end && cur <= wp->budget_pct) {
		for (size_t i = 0; i < n; i++) {
			p[i].over = cost[i] > wp->budget_pct;
			p[i].turns = true;
			p[i].want = p[i].attached && !p[i].over;
			wp->nover += p[i].over;
			k += p[i].want;
		}
		wp->plan_pct = cur;
		wp->nwatch = k;
		return k;
	}
	cur = 0;
	if (wp->budget_pct < 0 || wp->want_pct <= wp->budget_pct || wp->budget_pct == 0) {
		k = plan_all(wp, p, n, cost, wp->budget_pct == 0);
		wp->nwatch = k;
		return k;
	}
	for (size_t i = 0; i < n; i++) {
		p[i].over = cost[i] > wp->budget_pct;
		p[i].turns = true;
		wp->nover += p[i].over;
		if (p[i].attached && !p[i].over)
			cur += cost[i];
	}
	switches = new_turn(wp, p, n, cost);
	/* Closes come every interval: end the turn half an interval early, at the close. */
	wp->turn_ns = turn_len(wp, switches, ncpu, interval_ns);
	wp->turn_end = now + wp->turn_ns - interval_ns / 2;
	for (size_t i = 0; i < n; i++)
		k += p[i].want;
	wp->nwatch = k;
	return k;
}
