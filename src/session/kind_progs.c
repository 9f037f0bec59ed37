// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kind_progs.c - the program probes as a kind (kind.h): fentry/fexit on every watched program
 * (collect/progtrace.c), each run aggregated in the kernel within what the budget left, or an
 * event through the ring buffer; where this kernel cannot trace BPF programs, why, and the
 * demo's programs timing themselves instead.
 *
 * Thread use: UI/main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/demo.h"
#include "collect/progtrace.h"
#include "session/filter.h"
#include "session/kind.h"
#include "session/kind_progs.h"
#include "session/session.h"

/* The kind's state. */
struct progs_kind {
	struct progtrace *pt; /* NULL when this kernel cannot trace BPF programs */
	bool probes_used;     /* a probe was attached: prog_stale/helper_stale are shown */
	char why[160];        /* why there is no tracer, or "" */
};

/* The session's program tracer. */
struct progtrace *kind_progs__tracer(const struct session *s)
{
	const struct progs_kind *pk = kinds__state(s, &kind_progs);

	return pk ? pk->pt : NULL;
}

/* The program probes take what the kinds before them left of the budget. */
static size_t progs_ask(const struct session *s)
{
	(void)s;
	return KIND_AGG_REST;
}

/* The tracer, where this kernel can trace BPF programs (tried on a program of our own), its
 * aggregates in what the kinds before it left of the budget. Returns 0, or a negative errno
 * with why (and the tracer freed). */
static int progs_probe(struct session *s, struct kind *k, struct progs_kind *pk)
{
	size_t taken = progagg__budget() - k->agg_grant;
	int e;

	pk->pt = progtrace__new(s->col);
	if (!pk->pt) {
		e = -errno;
		snprintf(pk->why, sizeof(pk->why), "cannot create the nesting map (%s)",
			 strerror(-e));
		return e;
	}
	progtrace__set_agg(pk->pt, !kinds__needs_events(s->o));
	progtrace__set_sink(pk->pt, kinds__on_agg, s);
	if (taken)
		progtrace__agg_reserve(pk->pt, taken);
	e = progtrace__probe(pk->pt, pk->why, sizeof(pk->why));
	if (e) {
		if (!pk->why[0])
			snprintf(pk->why, sizeof(pk->why), "%s", strerror(-e));
		progtrace__free(pk->pt);
		pk->pt = NULL;
	}
	return e;
}

/* The probes, or the notice of their absence. With --no-stats and no probes nothing is left
 * to measure unless segments are (spans, the vhost chain). */
static int progs_open(struct session *s, struct kind *k, char *err, size_t errlen)
{
	struct progs_kind *pk = calloc(1, sizeof(*pk));

	if (!pk) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	k->st = pk;
	if (progs_probe(s, k, pk) && s->o->no_stats) {
		if (!s->o->nspans && !s->o->profile_path && !s->o->discover) {
			snprintf(err, errlen,
				 "--no-stats needs per-invocation probes and there are none here "
				 "(%s): drop --no-stats for bpf_stats counts and averages",
				 pk->why);
			return EXIT_USAGE;
		}
		snprintf(s->notice, sizeof(s->notice),
			 "no per-invocation latency for programs: %s; with --no-stats (bpf_stats "
			 "off) programs show no figures",
			 pk->why);
	} else if (!pk->pt) {
		snprintf(s->notice, sizeof(s->notice),
			 "no per-invocation latency: %s; showing bpf_stats counts and averages%s",
			 pk->why, s->o->demo ? " (demo programs time themselves)" : "");
	}
	return EXIT_OK;
}

/* Detach every probe and free the tracer. */
static void progs_free(struct session *s, struct kind *k)
{
	struct progs_kind *pk = k->st;

	(void)s;
	if (pk)
		progtrace__free(pk->pt);
	free(pk);
	k->st = NULL;
}

/* Why there are no program probes, or NULL. */
static const char *progs_why(const struct session *s, const struct kind *k)
{
	const struct progs_kind *pk = k->st;

	(void)s;
	return pk && !pk->pt ? pk->why : NULL;
}

/* Put text before the notice (what does not fit of the notice's end is cut). */
static void notice_first(struct session *s, const char *text)
{
	size_t t = strlen(text), n = strlen(s->notice);

	if (t >= sizeof(s->notice))
		t = sizeof(s->notice) - 1;
	if (t + n >= sizeof(s->notice))
		n = sizeof(s->notice) - 1 - t;
	memmove(s->notice + t, s->notice, n);
	memcpy(s->notice, text, t);
	s->notice[t + n] = '\0';
}

/* The notice of a session with program probes: which path their runs take and its cost. */
static void path_notice(struct session *s, const struct kind *k, const struct progtrace *pt)
{
	unsigned long long floor = progtrace__floor_ns(pt);
	struct progtrace_mem mem;

	progtrace__agg_mem(pt, &mem);
	if (!progtrace__agg(pt)) {
		snprintf(
		    s->notice, sizeof(s->notice),
		    "fentry/fexit, an event per run through the ring buffer%s: probe floor %llu "
		    "ns per invocation (the latency our probes report for an empty program)",
		    s->o->raw ? " (--raw)" : "", floor);
		return;
	}
	snprintf(s->notice, sizeof(s->notice),
		 "fentry/fexit, runs aggregated in the kernel (%zu KiB per program, cap %zu MiB: "
		 "%zu programs; more go through the ring buffer): probe floor %llu ns per "
		 "invocation (the latency our probes report for an empty program)",
		 mem.per_program >> 10, mem.budget >> 20,
		 progagg__max_programs(mem.ncpu, mem.budget - (progagg__budget() - k->agg_grant)),
		 floor);
}

/* Where program figures come from: the probes (and their path), or bpf_stats (and the demo's
 * self-timing), or nothing with --no-stats. */
static void progs_notice(struct session *s, struct kind *k)
{
	const struct progs_kind *pk = k->st;

	if (pk->pt) {
		snprintf(s->m->source, sizeof(s->m->source), "fentry");
		s->m->floor_ns = progtrace__floor_ns(pk->pt);
		s->m->run_cost_ns = progtrace__run_cost_ns(pk->pt);
		path_notice(s, k, pk->pt);
		if (s->o->no_stats)
			notice_first(s, "bpf_stats off (--no-stats): programs without probes show "
					"no figures; ");
	} else {
		snprintf(s->m->source, sizeof(s->m->source), "%s",
			 s->o->no_stats ? "none"
			 : s->o->demo   ? "stats+self"
					: "stats");
	}
}

/* What every aggregated program gained. */
static void progs_harvest(struct session *s, struct kind *k, bool force)
{
	const struct progs_kind *pk = k->st;

	(void)s;
	(void)force;
	if (pk->pt)
		progtrace__harvest(pk->pt);
}

/* Release programs their owners unloaded (our links alone keep them alive): note why, and
 * never re-attach them. */
static void progs_prune(struct session *s, struct kind *k)
{
	const struct progs_kind *pk = k->st;
	uint32_t ids[64];
	int n = pk->pt ? progtrace__reap(pk->pt, ids, 64) : 0;

	for (int i = 0; i < n; i++) {
		struct series *se = model__find(s->m, LAT_EV_PROG, ids[i], 0, 0);

		if (se)
			snprintf(se->note, sizeof(se->note),
				 "unloaded by its owner: probes released");
	}
}

/* Recursion misses of the probes, and nesting-stack losses: pushes on a full stack. (An exit
 * without its entry loses nothing: the call began before the entry probe was attached, or its
 * entry was a recursion miss, counted as such; stale entries have their own named counters.) */
static void progs_losses(struct session *s, struct kind *k, struct model_losses *l)
{
	const struct progs_kind *pk = k->st;
	struct progtrace_nest n;

	(void)s;
	if (!pk->pt)
		return;
	progtrace__nest(pk->pt, &n);
	l->recursion += progtrace__recursion_misses(pk->pt);
	l->nest = n.overflow;
}

/* Stale program entries and helper slots the probes reclaimed (their exit never came): named
 * loss counters, from the first time a program probe was attached (or anything went stale). */
static void progs_counters(struct session *s, struct kind *k)
{
	struct progs_kind *pk = k->st;
	struct progtrace_nest n;

	if (!pk->pt)
		return;
	progtrace__nest(pk->pt, &n);
	if (progtrace__count(pk->pt))
		pk->probes_used = true;
	if (!pk->probes_used && !n.stale && !n.helper_stale)
		return;
	model__set_counter(s->m, "prog_stale", n.stale);
	model__set_counter(s->m, "helper_stale", n.helper_stale);
}

/* Watched programs put on the ring buffer because the budget was spent. */
static uint64_t progs_over_budget(const struct kind *k)
{
	const struct progs_kind *pk = k->st;
	struct progtrace_mem mem = {};

	if (pk && pk->pt)
		progtrace__agg_mem(pk->pt, &mem);
	return mem.over_budget;
}

/* True when program id should carry per-invocation probes: it passes the filter (the demo's
 * programs are the default watch set of --demo; without -p or --demo nothing is probed). */
static bool watched(const struct session *s, const struct series *se)
{
	if (se->gone)
		return false;
	if (s->o->nfilter)
		return session__wanted(s, se);
	if (s->demo) {
		uint32_t ids[DEMO_NPROGS];
		int n = demo__prog_ids(s->demo, ids, DEMO_NPROGS);

		for (int i = 0; i < n; i++)
			if (ids[i] == se->id)
				return true;
	}
	return false;
}

/* Without program probes, the demo's programs time themselves: they are measured per
 * invocation for as long as they are loaded. */
static void mark_self_timed(struct session *s)
{
	uint32_t ids[DEMO_NPROGS];
	int n;

	if (!s->demo)
		return;
	n = demo__prog_ids(s->demo, ids, DEMO_NPROGS);
	for (size_t i = 0; i < s->m->n; i++) {
		struct series *se = &s->m->s[i];
		bool self = false;

		for (int j = 0; j < n && se->kind == LAT_EV_PROG && !self; j++)
			self = ids[j] == se->id;
		if (!(se->src & SRC_PROBING) != !(self && !se->gone))
			model__set_probing(s->m, se, self && !se->gone);
	}
}

/* Attach or detach probes so they match the watch set (programs that cannot be traced get the
 * reason in their series note), and tell the model which programs are measured per
 * invocation. */
static void progs_sync(struct session *s, struct kind *k)
{
	struct progtrace *pt = ((struct progs_kind *)k->st)->pt;
	char why[160];

	if (!pt) {
		mark_self_timed(s);
		return;
	}
	for (size_t i = 0; i < s->m->n; i++) {
		struct series *se = &s->m->s[i];
		bool want, have;

		if (se->kind != LAT_EV_PROG)
			continue;
		want = watched(s, se);
		have = progtrace__attached(pt, se->id);
		if (want && !have) {
			if (se->note[0])
				continue; /* tried and refused: the reason stays on the row */
			if (progtrace__attach(pt, se->id, why, sizeof(why)))
				snprintf(se->note, sizeof(se->note), "%s", why);
		} else if (!want && have) {
			progtrace__detach(pt, se->id);
		}
		if (!want && !se->gone && !strstr(se->note, "unloaded by its owner"))
			se->note[0] = '\0';
		model__set_probing(s->m, se, progtrace__attached(pt, se->id));
		/* Loading a copy takes a while (the verifier): keep the queues from filling
		 * meanwhile. This may add series (moving the array): se is not used after it. */
		if (want != have)
			session__drain(s);
	}
	s->m->probed = progtrace__count(pt);
}

/* True when the program probes run. */
static bool progs_per_run(const struct kind *k)
{
	return ((const struct progs_kind *)k->st)->pt != NULL;
}

const struct kind_ops kind_progs = {
	.name = "programs",
	.open = progs_open,
	.free = progs_free,
	.why = progs_why,
	.notice = progs_notice,
	.agg_ask = progs_ask,
	.over_budget = progs_over_budget,
	.harvest = progs_harvest,
	.prune = progs_prune,
	.losses = progs_losses,
	.counters = progs_counters,
	.sync = progs_sync,
	.per_run = progs_per_run,
};
