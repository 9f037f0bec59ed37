// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kind_helpers.c - the helper probes as a kind (kind.h): helpers mode's rows of every probed
 * program and the probes of the kernel functions behind them (collect/helpertrace.c), on the
 * program probes' stacks, budget and sink (kind_progs.h). They exist while helpers mode is on;
 * their loss counters keep their totals across leaving and re-entering it.
 *
 * Thread use: UI/main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/helpertrace.h"
#include "collect/progtrace.h"
#include "session/kind.h"
#include "session/kind_progs.h"
#include "session/session.h"

/* The kind's state. */
struct helpers_kind {
	struct helpertrace *ht;   /* helpers mode's probes (NULL outside helpers mode) */
	uint64_t key;             /* which programs the probes were set up for */
	uint64_t busy_retired;    /* helper_busy of probe sets already freed */
	uint64_t foreign_retired; /* helper_foreign of probe sets already freed */
	/* The helper probes' bpf_stats run time already shared out (they start at 0 with hk->ht:
	 * what they take from their first call on is counted). */
	uint64_t cost_t;
};

/* One probed program's helper sites (helpers_sync). */
struct prog_sites {
	uint32_t prog_id;
	struct helper_site *sites;
	size_t n;
};

/* Analyse every probed program into ps (at most max; a failure is a warning), and plan their
 * sites for the aggregates. Returns how many programs were analysed. */
static size_t helper_sites(struct session *s, struct helpertrace *ht, struct prog_sites *ps,
			   size_t max)
{
	const struct progtrace *pt = kind_progs__tracer(s);
	char err[256];
	size_t np = 0;

	for (size_t i = 0; i < s->m->n && np < max; i++) {
		const struct series *p = &s->m->s[i];
		struct prog_sites *x = &ps[np];

		if (p->kind != LAT_EV_PROG || p->gone || !progtrace__attached(pt, p->id))
			continue;
		x->prog_id = p->id;
		if (helpertrace__analyze(ht, p->id, &x->sites, &x->n, err, sizeof(err))) {
			session__warn(s, "%s", err);
			continue;
		}
		if (helpertrace__plan(ht, x->sites, x->n))
			session__warn(s, "helpers: out of memory: some calls are sent as events");
		np++;
	}
	return np;
}

/* Attach the probes of one program's sites and give each site its row (with the reason where
 * it cannot be measured). */
static void helper_attach(struct session *s, struct helpertrace *ht, const struct prog_sites *x)
{
	for (size_t k = 0; k < x->n; k++) {
		struct series *h;

		helpertrace__attach(ht, &x->sites[k]);
		/* Loading a probe takes a while: keep the queues from filling meanwhile. */
		session__drain(s);
		h = model__series(s->m, LAT_EV_HELPER, x->prog_id, x->sites[k].helper_id,
				  x->sites[k].map_id);
		if (!h)
			break;
		snprintf(h->name, sizeof(h->name), "%s", x->sites[k].helper);
		snprintf(h->type, sizeof(h->type), "%s", x->sites[k].map_type);
		snprintf(h->sub, sizeof(h->sub), "%s", x->sites[k].map_name);
		snprintf(h->note, sizeof(h->note), "%s", x->sites[k].why);
	}
}

/* Helpers mode: analyse every probed program, create its helper rows (with the reason where a
 * helper cannot be measured) and attach the implementing functions' probes. Probes are per
 * kernel function and shared, so a resync detaches all and attaches what is needed now: every
 * program is analysed first, so that each function's probe is loaded knowing every (program,
 * map) pair it aggregates. */
static void helpers_sync(struct session *s, struct kind *k)
{
	const struct progtrace *pt = kind_progs__tracer(s);
	struct helpers_kind *hk = k->st;
	uint64_t key = 1469598103934665603ull;
	struct prog_sites *ps;
	size_t np;

	if (!hk->ht)
		return;
	/* Resync only when the set of probed programs changed (FNV-1a over their IDs). */
	for (size_t i = 0; i < s->m->n; i++) {
		const struct series *p = &s->m->s[i];

		if (p->kind == LAT_EV_PROG && !p->gone && progtrace__attached(pt, p->id))
			key = (key ^ p->id) * 1099511628211ull;
	}
	if (key == hk->key)
		return;
	hk->key = key;
	helpertrace__detach_all(hk->ht);
	ps = calloc(s->m->n ? s->m->n : 1, sizeof(*ps));
	if (!ps) {
		session__warn(s, "helpers: out of memory");
		return;
	}
	np = helper_sites(s, hk->ht, ps, s->m->n);
	for (size_t i = 0; i < np; i++)
		helper_attach(s, hk->ht, &ps[i]);
	for (size_t i = 0; i < np; i++)
		free(ps[i].sites);
	free(ps);
}

/* Where the helper probes cannot read the CPU's interrupt context, say once (in the notice)
 * that calls from programs interrupting a watched one are counted for it. */
static void note_ctx(struct session *s, struct helpertrace *ht)
{
	static const char msg[] = "helpers: interrupt context not readable on this kernel; "
				  "calls from interrupting programs may be counted";
	size_t len = strlen(s->notice);

	if (helpertrace__ctx_readable(ht) || strstr(s->notice, msg))
		return;
	snprintf(s->notice + len, sizeof(s->notice) - len, "%s%s", len ? "; " : "", msg);
	snprintf(s->m->notice, sizeof(s->m->notice), "%s", s->notice);
}

/* The kind's state (the probes themselves wait for helpers mode). */
static int helpers_open(struct session *s, struct kind *k, char *err, size_t errlen)
{
	(void)s;
	k->st = calloc(1, sizeof(struct helpers_kind));
	if (!k->st) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Detach the probes and free. */
static void helpers_free(struct session *s, struct kind *k)
{
	struct helpers_kind *hk = k->st;

	(void)s;
	if (hk)
		helpertrace__free(hk->ht);
	free(hk);
	k->st = NULL;
}

/* Helper probes need the program probes' fentry/fexit. */
static const char *helpers_why(const struct session *s, const struct kind *k)
{
	(void)k;
	return kind_progs__tracer(s) ? NULL
				     : "helpers mode needs fentry/fexit, which this kernel "
				       "refuses: staying in programs mode";
}

/* What the probes' aggregates gained (never forced: detaching them takes the last harvest,
 * from every CPU). */
static void helpers_harvest(struct session *s, struct kind *k, bool force)
{
	const struct helpers_kind *hk = k->st;

	(void)s;
	(void)force;
	if (hk->ht)
		helpertrace__harvest(hk->ht, false);
}

/* The program's runs in the open interval: timed ones where it is measured, else bpf_stats. */
static uint64_t prog_runs(const struct series *p)
{
	return p->meas_open && p->has_hist ? p->h_open.count : p->st_open.cnt;
}

/* A helper row's weight in sharing out the helper probes' time: its calls in the open interval,
 * or 1 each when no row had any (calls of unwatched programs alone); 0 for a program no longer
 * watched. */
static uint64_t row_weight(const struct session *s, const struct series *h, bool by_calls)
{
	if (h->kind != LAT_EV_HELPER || !progtrace__attached(kind_progs__tracer(s), h->id))
		return 0;
	if (!by_calls)
		return 1;
	return h->has_hist ? h->h_open.count : 0;
}

/* What the helper probes took since the last close (their own bpf_stats run time: the calls of
 * unwatched programs that reach the probed functions included, since watching causes it too),
 * shared among the watched programs by their measured helper calls in the open interval, or by
 * their helper rows when none was measured: each one's share goes to its open interval (the cost
 * it adds, model.c) and, per run, to its helper_ns (the budget's plan). Needs bpf_stats. */
static void helpers_closing(struct session *s, struct kind *k)
{
	struct helpers_kind *hk = k->st;
	struct model *m = s->m;
	uint64_t t, calls, dt, all = 0;
	bool by_calls = true;

	if (!hk->ht || s->o->no_stats)
		return;
	helpertrace__probe_stats(hk->ht, &t, &calls);
	dt = t > hk->cost_t ? t - hk->cost_t : 0;
	for (size_t i = 0; i < m->n; i++)
		all += row_weight(s, &m->s[i], true);
	if (!all) {
		by_calls = false;
		for (size_t i = 0; i < m->n; i++)
			all += row_weight(s, &m->s[i], false);
	}
	if (!dt || !all)
		return; /* no helper row yet: the time waits for the first */
	hk->cost_t = t;
	for (size_t i = 0; i < m->n; i++) {
		const struct series *h = &m->s[i];
		uint64_t w = row_weight(s, h, by_calls);
		struct series *p;

		if (w && (p = model__find(m, LAT_EV_PROG, h->id, 0, 0)))
			model__add_helper_cost(m, p, (uint64_t)((double)dt * w / all));
	}
	for (size_t i = 0; i < m->n; i++) {
		struct series *p = &m->s[i];
		uint64_t runs;

		if (p->kind == LAT_EV_PROG && p->st_open.helper_ns && (runs = prog_runs(p)))
			p->helper_ns = p->st_open.helper_ns / runs;
	}
}

/* Recursion misses of the probes; helper calls lost to a traced call already in flight
 * (helper_busy), and calls from a program that interrupted a watched one (hardirq, softirq,
 * NMI: helper_foreign), not attributed to it: named loss counters from the first time helpers
 * mode ran (they keep their totals across leaving and re-entering it). */
static void helpers_losses(struct session *s, struct kind *k, struct model_losses *l)
{
	const struct helpers_kind *hk = k->st;

	if (hk->ht)
		l->recursion += helpertrace__recursion_misses(hk->ht);
	if (hk->ht || hk->busy_retired)
		model__set_counter(s->m, "helper_busy",
				   hk->busy_retired + (hk->ht ? helpertrace__busy(hk->ht) : 0));
	if (hk->ht || hk->foreign_retired)
		model__set_counter(s->m, "helper_foreign",
				   hk->foreign_retired + (hk->ht ? helpertrace__foreign(hk->ht) : 0));
}

/* Helpers mode: the probes' state, on the program probes'. */
static int helpers_enter(struct session *s, struct kind *k, enum lat_mode mode, char *err,
			 size_t errlen)
{
	struct progtrace *pt = kind_progs__tracer(s);
	struct helpers_kind *hk = k->st;

	(void)mode;
	if (!pt)
		return -ENOTSUP;
	if (!hk->ht) {
		hk->ht = helpertrace__new(s->col, progtrace__nest_fd(pt), progtrace__hnest_fd(pt));
		if (hk->ht)
			helpertrace__set_agg(hk->ht, pt);
	}
	if (!hk->ht) {
		snprintf(err, errlen, "cannot create the helper probes' state: %s",
			 strerror(errno));
		return -errno;
	}
	return 0;
}

/* Entering helpers mode attaches the probes of every watched program; leaving it, nothing of
 * them stays attached. */
static void helpers_mode_changed(struct session *s, struct kind *k)
{
	struct helpers_kind *hk = k->st;

	if (s->m->mode == MODE_HELPERS) {
		note_ctx(s, hk->ht);
		helpers_sync(s, k);
		return;
	}
	if (hk->ht) {
		hk->busy_retired += helpertrace__busy(hk->ht);
		hk->foreign_retired += helpertrace__foreign(hk->ht);
	}
	helpertrace__free(hk->ht);
	hk->ht = NULL;
	hk->key = 0;
	hk->cost_t = 0;
	/* No helper probe is left: watching a program costs only its own probes again. */
	for (size_t i = 0; i < s->m->n; i++)
		s->m->s[i].helper_ns = 0;
}

/* Helpers mode shows program se when its helper probes are attached. */
static bool helpers_shows(const struct session *s, const struct kind *k,
			  const struct series *se)
{
	const struct helpers_kind *hk = k->st;

	return hk->ht && progtrace__attached(kind_progs__tracer(s), se->id);
}

const struct kind_ops kind_helpers = {
	.name = "helpers",
	.open = helpers_open,
	.free = helpers_free,
	.why = helpers_why,
	.harvest = helpers_harvest,
	.losses = helpers_losses,
	.closing = helpers_closing,
	.sync = helpers_sync,
	.modes = 1u << MODE_HELPERS,
	.enter = helpers_enter,
	.mode_changed = helpers_mode_changed,
	.shows = helpers_shows,
};
