// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kind_vhost.c - the vhost chain (--profile, --discover) as a kind of probe (kind.h): the
 * chain itself is segsession.c's; this is how the session sees it.
 *
 * Thread use: UI/main thread only.
 */
#include <errno.h>
#include <stdio.h>

#include "session/discover.h"
#include "session/kind.h"
#include "session/segsession.h"
#include "session/session.h"

/* True when the options ask for the chain. */
static bool vhost_asked(const struct opts *o) { return o->profile_path || o->discover; }

/* The segments' aggregates: unless every event is needed (kinds__needs_events, or --details,
 * whose per-packet lines pair each packet's four events by its sequence number). */
static size_t vhost_ask(const struct session *s)
{
	if (!vhost_asked(s->o) || kinds__needs_events(s->o) || s->o->details)
		return 0;
	return segsession__agg_bytes();
}

/* Bytes the segments' aggregates take (0 on the ring or without the chain). */
static size_t vhost_mem(const struct kind *k) { return segsession__agg_mem(k->st); }

/* Load the chain, with its own checks and sentences; its warnings are the session's. */
static int vhost_open(struct session *s, struct kind *k, char *err, size_t errlen)
{
	struct segsession *g = NULL;
	int e;

	if (!vhost_asked(s->o))
		return EXIT_OK;
	e = segsession__open(&g, s->o, s->col, s->m, k->agg_grant > 0, err, errlen);
	k->st = g;
	for (int i = 0; segsession__warning(g, i); i++)
		session__warn(s, "%s", segsession__warning(g, i));
	return e;
}

/* Detach and free the chain. */
static void vhost_free(struct session *s, struct kind *k)
{
	(void)s;
	segsession__free(k->st);
	k->st = NULL;
}

/* Why the chain is not attached, or NULL. */
static const char *vhost_why(const struct session *s, const struct kind *k)
{
	(void)s;
	return k->st && !segsession__ready(k->st) ? segsession__why(k->st) : NULL;
}

/* What the segments' aggregates gained. */
static void vhost_harvest(struct session *s, struct kind *k, bool force)
{
	segsession__harvest(k->st, force, kinds__on_agg, s);
}

/* The chain's counters, and a look for a stale profile. */
static void vhost_closing(struct session *s, struct kind *k)
{
	(void)s;
	segsession__interval(k->st);
}

/* Segments mode shows the chain once it is attached. */
static int vhost_enter(struct session *s, struct kind *k, enum lat_mode mode, char *err,
		       size_t errlen)
{
	(void)mode;
	if (!k->st) {
		snprintf(err, errlen,
			 "segments mode needs spans or a profile: give -u, --spans or "
			 "--profile");
		return -ENOENT;
	}
	return vhost_why(s, k) ? -ENOTSUP : 0;
}

/* The chain's events go to the chain. */
static bool vhost_event(struct session *s, struct kind *k, const struct lat_event *e)
{
	(void)s;
	return k->st && segsession__event(k->st, e);
}

/* True when name is one of the chain's segments (S0, S1, S2, total) and a profile is
 * measured. */
static bool vhost_named(const struct session *s, const char *name)
{
	return s->o->profile_path && segsession__named(name);
}

const struct kind_ops kind_vhost = {
	.name = "vhost",
	.open = vhost_open,
	.free = vhost_free,
	.why = vhost_why,
	.agg_ask = vhost_ask,
	.agg_mem = vhost_mem,
	.harvest = vhost_harvest,
	.closing = vhost_closing,
	.modes = 1u << MODE_SEGMENTS,
	.enter = vhost_enter,
	.event = vhost_event,
	.named = vhost_named,
};

/* --discover, once the watch is over: the chain writes the profile. */
int session__discover_profile(struct session *s)
{
	return segsession__profile(kinds__state(s, &kind_vhost));
}
