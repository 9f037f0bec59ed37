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
#include <time.h>
#include <unistd.h>

#include "collect/demo.h"
#include "collect/progstats.h"
#include "collect/progtrace.h"
#include "session/filter.h"
#include "session/kind.h"
#include "session/kind_progs.h"
#include "session/session.h"
#include "session/watchplan.h"

/* The kind's state. */
struct progs_kind {
	struct progtrace *pt; /* NULL when this kernel cannot trace BPF programs */
	bool probes_used;     /* a probe was attached: prog_stale/helper_stale are shown */
	char why[160];        /* why there is no tracer, or "" */
	struct watchplan wp;  /* the CPU budget's plan (watchplan.h) */
	struct wp_prog *cand; /* scratch: the programs the plan shares the budget among */
	size_t ncand, candcap;
	uint32_t *own;        /* programs this process holds (never watched by default) */
	int nown, owncap;
	uint32_t own_upto;    /* IDs up to this one were checked against our own */
	/* The audit against bpf_stats (unaccounted): one entry per attached program. */
	struct recon *rc;
	size_t nrc, rccap;
	uint64_t retired_u;   /* unaccounted runs of programs no longer attached */
	uint64_t lost0;       /* stale + overflow when the first audit began */
	bool audit;           /* an audit has begun: the counter is shown */
	uint64_t shown_u;     /* the counter's value (it only grows) */
};

/* One attached program's audit: the kernel's run_cnt (T) against the runs the probes
 * aggregated (P) and their recursion misses (M), from a baseline taken at the first interval
 * close after the attach (P read before the stats scan, T by the scan: a run that ends between
 * the two reads is in neither baseline's delta... see progs_audit). */
struct recon {
	uint32_t id;
	bool primed;
	uint64_t t0, p0, m0;
	uint64_t p_pre; /* P just before this close's stats scan */
	uint64_t u;     /* the largest gap seen: runs the kernel counted and we did not */
	bool st_primed; /* the probes' own bpf_stats (probe_costs) read once */
	uint64_t st_t, st_n;
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
	progtrace__set_split(pk->pt, kinds__split);
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
	if (pk) {
		progtrace__free(pk->pt);
		free(pk->cand);
		free(pk->own);
		free(pk->rc);
	}
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
		s->m->has_budget = true;
		s->m->budget_pct = opts__budget(s->o);
		s->m->ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
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

/* The audit's entry of program id, or NULL. */
static struct recon *recon_of(struct progs_kind *pk, uint32_t id)
{
	for (size_t j = 0; j < pk->nrc; j++)
		if (pk->rc[j].id == id)
			return &pk->rc[j];
	return NULL;
}

/* The audit's entries follow the attached programs (a detached one keeps its gap in
 * retired_u), and each reads what its probes aggregated just before the stats scan. Only on
 * the aggregated path with bpf_stats on: elsewhere there is nothing exact to audit against. */
static void audit_pre(struct session *s, struct progs_kind *pk)
{
	size_t k = 0;

	if (!pk->pt || s->o->no_stats || !progtrace__agg(pk->pt))
		return;
	for (size_t i = 0; i < pk->nrc; i++) {
		uint64_t p, mi;

		if (progtrace__runs(pk->pt, pk->rc[i].id, &p, &mi)) {
			pk->retired_u += pk->rc[i].u;
			continue;
		}
		pk->rc[i].p_pre = p;
		pk->rc[k++] = pk->rc[i];
	}
	pk->nrc = k;
	for (size_t i = 0; i < s->m->n; i++) {
		const struct series *se = &s->m->s[i];
		uint64_t p, mi;

		if (se->kind != LAT_EV_PROG || progtrace__runs(pk->pt, se->id, &p, &mi) ||
		    recon_of(pk, se->id))
			continue;
		if (pk->nrc == pk->rccap) {
			size_t cap = pk->rccap ? pk->rccap * 2 : 64;
			struct recon *r = realloc(pk->rc, cap * sizeof(*r));

			if (!r)
				return;
			pk->rc = r;
			pk->rccap = cap;
		}
		pk->rc[pk->nrc++] = (struct recon){ .id = se->id, .p_pre = p };
	}
}

/* After the stats scan: each attached program's gap since its baseline, kernel runs less
 * probe runs less their recursion misses. P is read again now, after T: every run T counts
 * ended before T was read, so its exit probe ran before this read and P holds it; what P holds
 * beyond T (runs that ended after T was read) only lowers the gap. The baseline's P was read
 * before its T, so a run ending between the two reads lowers it too; only a run whose exit
 * probe ran before that P and whose count reached the kernel after that T, a task preempted in
 * between, could raise it. Losses the probes count but cannot name a program for (stale
 * entries, nesting overflow) come off the sum. Returns the session's unaccounted runs. */
static uint64_t progs_audit(struct session *s, struct progs_kind *pk, uint64_t lost)
{
	uint64_t sum = pk->retired_u;

	for (size_t i = 0; i < pk->nrc; i++) {
		struct recon *r = &pk->rc[i];
		const struct series *se = model__find(s->m, LAT_EV_PROG, r->id, 0, 0);
		uint64_t p, mi;

		if (!se || !se->stats_primed || progtrace__runs(pk->pt, r->id, &p, &mi))
			continue;
		if (!r->primed) {
			r->primed = true;
			r->t0 = se->run_cnt;
			r->p0 = r->p_pre;
			r->m0 = mi;
			if (!pk->audit)
				pk->lost0 = lost;
			pk->audit = true;
			continue;
		}
		if (se->run_cnt - r->t0 > (p - r->p0) + (mi - r->m0)) {
			uint64_t gap = (se->run_cnt - r->t0) - (p - r->p0) - (mi - r->m0);

			if (gap > r->u)
				r->u = gap;
		}
		sum += r->u;
	}
	return sum > lost - pk->lost0 ? sum - (lost - pk->lost0) : 0;
}

/* Release programs their owners unloaded (our links alone keep them alive): note why, and
 * never re-attach them. */
static void progs_prune(struct session *s, struct kind *k)
{
	struct progs_kind *pk = k->st;
	uint32_t ids[64];
	int n = pk->pt ? progtrace__reap(pk->pt, ids, 64) : 0;

	for (int i = 0; i < n; i++) {
		struct series *se = model__find(s->m, LAT_EV_PROG, ids[i], 0, 0);

		if (se)
			snprintf(se->note, sizeof(se->note),
				 "unloaded by its owner: probes released");
	}
	audit_pre(s, pk);
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
	if (!s->o->no_stats && progtrace__agg(pk->pt)) {
		uint64_t u = progs_audit(s, pk, n.stale + n.overflow);

		if (pk->audit)
			model__set_counter(s->m, "unaccounted", u > pk->shown_u ? u : pk->shown_u);
		if (u > pk->shown_u)
			pk->shown_u = u;
	}
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

/* True when id is one of the demo's programs. */
static bool demo_prog(const struct session *s, uint32_t id)
{
	uint32_t ids[DEMO_NPROGS];
	int n = s->demo ? demo__prog_ids(s->demo, ids, DEMO_NPROGS) : 0;

	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* True when id is a program of this process (checked once per ID: IDs only grow, and ours
 * are held from their load on). */
static bool own_prog(const struct session *s, struct progs_kind *pk, uint32_t id)
{
	if (id > pk->own_upto) {
		int n;

		/* Read into room to spare, growing until everything held fits. */
		while ((n = progstats__own_ids(pk->own, pk->owncap)) >= pk->owncap) {
			int cap = pk->owncap ? pk->owncap * 2 : 256;
			uint32_t *p = realloc(pk->own, cap * sizeof(*p));

			if (!p)
				return true; /* not known: not watched */
			pk->own = p;
			pk->owncap = cap;
		}
		pk->nown = n > 0 ? n : 0;
		for (size_t i = 0; i < s->m->n; i++)
			if (s->m->s[i].kind == LAT_EV_PROG && s->m->s[i].id > pk->own_upto)
				pk->own_upto = s->m->s[i].id;
	}
	for (int i = 0; i < pk->nown; i++)
		if (pk->own[i] == id)
			return true;
	return false;
}

/* True when program se is in the watch set: it passes the filter (-p), or with no filter every
 * program not of lattop's own; with --demo and no filter, the demo's programs. Whether its
 * probes are attached is the budget's plan (below). */
static bool watched(const struct session *s, struct progs_kind *pk, const struct series *se)
{
	if (se->gone)
		return false;
	if (s->o->nfilter)
		return session__wanted(s, se);
	if (s->demo)
		return demo_prog(s, se->id);
	return !own_prog(s, pk, se->id);
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

/* A note the budget's plan writes (cleared when the plan changes its mind). */
#define NOTE_BUDGET "over the budget"

/* True when a note says the probes cannot watch the program (not the budget's note). */
static bool refused(const struct series *se)
{
	return se->note[0] && strncmp(se->note, NOTE_BUDGET, strlen(NOTE_BUDGET));
}

/* This thread's CPU time in ns (attaching is the verifier's and the trampoline's work). */
static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Runs a second of se in the last interval: bpf_stats', or the probes' when stats are off and
 * it was measured; -1 when not known. */
static double last_rate(const struct session *s, const struct series *se)
{
	double span = (s->m->last_end_ns - s->m->last_start_ns) / 1e9;

	if (span <= 0)
		return -1;
	if (se->src & SRC_STATS)
		return se->st_last.cnt / span;
	if (se->meas_last && se->has_hist)
		return se->h_last.count / span;
	return -1;
}

static int cand_cmp(const void *a, const void *b)
{
	const struct wp_prog *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* What the probes' own programs took per run of each watched program since the last sync
 * (bpf_stats: their run time over the entry probe's runs), into the series' probe_ns; it
 * stays while the program is not watched, for the plan's next estimate. Needs bpf_stats. */
static void probe_costs(struct session *s, struct progs_kind *pk)
{
	if (s->o->no_stats)
		return;
	for (size_t i = 0; i < s->m->n; i++) {
		struct series *se = &s->m->s[i];
		struct recon *r;
		uint64_t t, n;

		if (se->kind != LAT_EV_PROG || progtrace__probe_stats(pk->pt, se->id, &t, &n) ||
		    !(r = recon_of(pk, se->id)))
			continue;
		/* Enough runs for a figure: twenty. */
		if (r->st_primed && n > r->st_n && n - r->st_n >= 20)
			se->probe_ns = (t - r->st_t) / (n - r->st_n);
		if (!r->st_primed || n - r->st_n >= 20) {
			r->st_t = t;
			r->st_n = n;
			r->st_primed = true;
		}
	}
}

/* LATTOP_TEST_COST_PCT (a test knob): every program's cost in the plan is this share of the
 * machine (%), instead of its rate times its measured run cost, so a test can set a budget that
 * fits exactly k programs whatever the emulated machine's timing does; 0 or unset: measured. */
static double test_cost_pct(void)
{
	const char *v = getenv("LATTOP_TEST_COST_PCT");
	double d = v ? strtod(v, NULL) : 0;

	return d > 0 && d <= 100 ? d : 0;
}

/* The programs the budget is shared among: in the watch set, not refused. */
static int gather(struct session *s, struct progs_kind *pk)
{
	double fixed = test_cost_pct();

	pk->ncand = 0;
	for (size_t i = 0; i < s->m->n; i++) {
		struct series *se = &s->m->s[i];

		if (se->kind != LAT_EV_PROG || !watched(s, pk, se) || refused(se))
			continue;
		if (pk->ncand == pk->candcap) {
			size_t cap = pk->candcap ? pk->candcap * 2 : 64;
			struct wp_prog *p = realloc(pk->cand, cap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			pk->cand = p;
			pk->candcap = cap;
		}
		pk->cand[pk->ncand++] = (struct wp_prog){
			.id = se->id,
			.rate = last_rate(s, se),
			.run_ns = (double)se->probe_ns,
			.extra_ns = (double)se->helper_ns,
			.attached = progtrace__attached(pk->pt, se->id),
		};
		if (fixed > 0) { /* one run a second that costs the share asked for */
			pk->cand[pk->ncand - 1].rate = 1;
			pk->cand[pk->ncand - 1].extra_ns = 0;
			pk->cand[pk->ncand - 1].run_ns =
				fixed / 100 * (s->m->ncpu > 0 ? s->m->ncpu : 1) * 1e9;
		}
	}
	qsort(pk->cand, pk->ncand, sizeof(*pk->cand), cand_cmp);
	return 0;
}

/* The plan's word on program id: NULL when it is not a candidate. */
static const struct wp_prog *plan_of(const struct progs_kind *pk, uint32_t id)
{
	struct wp_prog key = { .id = id };

	return pk->ncand ? bsearch(&key, pk->cand, pk->ncand, sizeof(key), cand_cmp) : NULL;
}

/* LATTOP_SWITCH_SHARE (a debug knob): the share of the budget switching may take, instead of
 * WATCHPLAN_SWITCH_SHARE; 0 or unset: the default. Where a switch costs seconds (TCG), the
 * tests shorten the turns with it. */
static double switch_share(void)
{
	const char *v = getenv("LATTOP_SWITCH_SHARE");
	double d = v ? strtod(v, NULL) : 0;

	return d > 0 && d <= 1e6 ? d : 0;
}

/* Attach or detach one program to match the plan, timing the switch. */
static void switch_one(struct progs_kind *pk, struct series *se, bool want)
{
	uint64_t t0 = thread_ns();
	char why[160];

	if (want) {
		if (progtrace__attach(pk->pt, se->id, why, sizeof(why)))
			snprintf(se->note, sizeof(se->note), "%s", why);
	} else {
		progtrace__detach(pk->pt, se->id);
	}
	/* What one switch costs: a moving average, the first one as it is. */
	double ns = (double)(thread_ns() - t0);

	pk->wp.switch_ns = pk->wp.switch_ns ? 0.8 * pk->wp.switch_ns + 0.2 * ns : ns;
}

/* Attach or detach probes so they match the watch set and the budget's plan (programs that
 * cannot be traced get the reason in their series note), and tell the model which programs are
 * measured per invocation and which in turns. */
static void progs_sync(struct session *s, struct kind *k)
{
	struct progs_kind *pk = k->st;
	struct progtrace *pt = pk->pt;
	uint64_t run_ns;
	int unprobeable = 0;

	if (!pt) {
		mark_self_timed(s);
		return;
	}
	run_ns = s->m->run_cost_ns ? s->m->run_cost_ns : s->m->floor_ns;
	pk->wp.budget_pct = opts__budget(s->o);
	pk->wp.switch_share = switch_share();
	probe_costs(s, pk);
	if (gather(s, pk))
		pk->ncand = 0;
	watchplan__plan(&pk->wp, pk->cand, pk->ncand, (double)run_ns, s->m->ncpu,
			session__now_ns(s), s->o->interval_ns);
	for (size_t i = 0; i < s->m->n; i++) {
		struct series *se = &s->m->s[i];
		const struct wp_prog *p;
		bool want, have, in_set;

		if (se->kind != LAT_EV_PROG)
			continue;
		in_set = watched(s, pk, se);
		p = in_set ? plan_of(pk, se->id) : NULL;
		want = p && p->want;
		have = progtrace__attached(pt, se->id);
		if (p && p->over)
			snprintf(se->note, sizeof(se->note),
				 NOTE_BUDGET ": needs %.3g%% of the machine's CPU, the budget is "
				 "%.3g%%",
				 watchplan__cost_pct(p->rate, watchplan__run_ns(p, (double)run_ns),
						     s->m->ncpu),
				 pk->wp.budget_pct);
		else if (p && !strncmp(se->note, NOTE_BUDGET, strlen(NOTE_BUDGET)))
			se->note[0] = '\0';
		if (want != have)
			switch_one(pk, se, want);
		if (!in_set && !se->gone && !strstr(se->note, "unloaded by its owner"))
			se->note[0] = '\0';
		if (in_set && refused(se))
			unprobeable++;
		model__set_probing(s->m, se, progtrace__attached(pt, se->id));
		if (se->in_turns != (p && p->turns))
			model__set_turns(s->m, se, p && p->turns);
		/* Loading a copy takes a while (the verifier): keep the queues from filling
		 * meanwhile. This may add series (moving the array): se is not used after it. */
		if (want != have)
			session__drain(s);
	}
	s->m->probed = progtrace__count(pt);
	s->m->budget_pct = pk->wp.budget_pct; /* -p edited in the TUI changes the default */
	s->m->unprobeable = unprobeable;
	s->m->watch_want = pk->wp.nwant;
	s->m->turns = pk->ncand && pk->cand[0].turns;
	s->m->switch_ns = (uint64_t)pk->wp.switch_ns;
	s->m->turn_ns = s->m->turns ? pk->wp.turn_ns : 0;
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
