// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * helpers.c - a live session's helpers mode: the helper rows of every probed program and the
 * probes of the kernel functions behind them (collect/helpertrace.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/helpertrace.h"
#include "collect/progtrace.h"
#include "session/session.h"

/* One probed program's helper sites (session__sync_helpers). */
struct prog_sites {
	uint32_t prog_id;
	struct helper_site *sites;
	size_t n;
};

/* Analyse every probed program into ps (at most max; a failure is a warning), and plan their
 * sites for the aggregates. Returns how many programs were analysed. */
static size_t helper_sites(struct session *s, struct prog_sites *ps, size_t max)
{
	char err[256];
	size_t np = 0;

	for (size_t i = 0; i < s->m->n && np < max; i++) {
		const struct series *p = &s->m->s[i];
		struct prog_sites *x = &ps[np];

		if (p->kind != LAT_EV_PROG || p->gone || !progtrace__attached(s->pt, p->id))
			continue;
		x->prog_id = p->id;
		if (helpertrace__analyze(s->ht, p->id, &x->sites, &x->n, err, sizeof(err))) {
			session__warn(s, "%s", err);
			continue;
		}
		if (helpertrace__plan(s->ht, x->sites, x->n))
			session__warn(s, "helpers: out of memory: some calls are sent as events");
		np++;
	}
	return np;
}

/* Attach the probes of one program's sites and give each site its row (with the reason where
 * it cannot be measured). */
static void helper_attach(struct session *s, const struct prog_sites *x)
{
	for (size_t k = 0; k < x->n; k++) {
		struct series *h;

		helpertrace__attach(s->ht, &x->sites[k]);
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
void session__sync_helpers(struct session *s)
{
	uint64_t key = 1469598103934665603ull;
	struct prog_sites *ps;
	size_t np;

	if (!s->ht)
		return;
	/* Resync only when the set of probed programs changed (FNV-1a over their IDs). */
	for (size_t i = 0; i < s->m->n; i++) {
		const struct series *p = &s->m->s[i];

		if (p->kind == LAT_EV_PROG && !p->gone && progtrace__attached(s->pt, p->id))
			key = (key ^ p->id) * 1099511628211ull;
	}
	if (key == s->helpers_key)
		return;
	s->helpers_key = key;
	helpertrace__detach_all(s->ht);
	ps = calloc(s->m->n ? s->m->n : 1, sizeof(*ps));
	if (!ps) {
		session__warn(s, "helpers: out of memory");
		return;
	}
	np = helper_sites(s, ps, s->m->n);
	for (size_t i = 0; i < np; i++)
		helper_attach(s, &ps[i]);
	for (size_t i = 0; i < np; i++)
		free(ps[i].sites);
	free(ps);
}

/* Where the helper probes cannot read the CPU's interrupt context, say once (in the notice)
 * that calls from programs interrupting a watched one are counted for it. */
void session__note_ctx(struct session *s)
{
	static const char msg[] = "helpers: interrupt context not readable on this kernel; "
				  "calls from interrupting programs may be counted";
	size_t len = strlen(s->notice);

	if (helpertrace__ctx_readable(s->ht) || strstr(s->notice, msg))
		return;
	snprintf(s->notice + len, sizeof(s->notice) - len, "%s%s", len ? "; " : "", msg);
	snprintf(s->m->notice, sizeof(s->m->notice), "%s", s->notice);
}

