// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kind_eh.c - EventHeader activities (--activities) as a kind of probe (kind.h): the reader
 * (collect/ehtrace.h) on a thread of its own, each activity name given its segments-mode series
 * as it is first seen, the paired samples moved into the model at every drain, and the eh_*
 * loss counters set at each interval close.
 *
 * Thread use: UI/main thread only (the reader thread is ehtrace's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "collect/ehtrace.h"
#include "rec/recorder.h"
#include "session/kind.h"
#include "session/kind_eh.h"
#include "session/session.h"

/* The kind's state: the reader, and how many of its series the model has so far. */
struct eh_state {
	struct session *s;
	struct ehtrace *eh;
	uint32_t nseries;
};

/* True when the session measures something besides the activities. */
static bool other_asked(const struct opts *o)
{
	return o->nspans || o->profile_path || o->nfilter || o->demo;
}

/* Give activity idx, described by in (its parent's name: parent, NULL for none), its (empty)
 * series in m: the KIND column says activity, self, event, or value (a field's values), and
 * the PARENT column (the series' second label) its parent row's name. */
int kind_eh__series(struct model *m, uint32_t idx, const struct ehpair_info *in,
		    const char *parent)
{
	struct series *se = model__series(m, LAT_EV_SEG, EH_SEG_ID + idx, 0, 0);
	const struct hist_delta none = {};

	if (!se || model__add_hist(m, se, NULL, NULL, 0, &none))
		return -ENOMEM;
	se->src |= SRC_FENTRY;
	snprintf(se->name, sizeof(se->name), "%s", in->name ? in->name : "");
	snprintf(se->type, sizeof(se->type), "%s",
		 in->value		   ? "value"
		 : in->kind == EHPAIR_SELF  ? "self"
		 : in->kind == EHPAIR_EVENT ? "event"
					    : "activity");
	if (parent)
		snprintf(se->sub, sizeof(se->sub), "%s", parent);
	return 0;
}

/* One paired activity as the event of its series. */
struct lat_event kind_eh__event(const struct ehpair_sample *p)
{
	struct lat_event e = {
	    .kind = LAT_EV_SEG,
	    .id = EH_SEG_ID + p->series,
	    .tid = p->tid,
	    .start_ns = p->start_ns,
	    .dur_ns = p->dur_ns,
	};

	return e;
}

/* The pairing's loss counters into m's session-wide counters. */
void kind_eh__counters(struct model *m, const struct ehpair_loss *l)
{
	model__set_counter(m, "eh_orphan", l->orphan);
	model__set_counter(m, "eh_unmatched", l->unmatched);
	model__set_counter(m, "eh_malformed", l->malformed);
	model__set_counter(m, "eh_foreign", l->foreign);
	model__set_counter(m, "eh_lost", l->lost);
	model__set_counter(m, "eh_filtered", l->filtered);
	model__set_counter(m, "eh_folded", l->folded);
}

/* Give the activity series the model lacks their (empty) series. */
static void new_series(struct eh_state *st)
{
	struct session *s = st->s;
	uint32_t n = ehtrace__nseries(st->eh);

	for (; st->nseries < n; st->nseries++) {
		struct ehpair_info in;

		ehtrace__series_info(st->eh, st->nseries, &in);
		if (kind_eh__series(s->m, st->nseries, &in,
				    in.parent >= 0 ? ehtrace__series_name(st->eh, (uint32_t)in.parent)
						   : NULL))
			session__error(s, "out of memory: activity %s has no series", in.name);
	}
}

/* One paired activity into its series. */
static void on_sample(void *arg, const struct ehpair_sample *p)
{
	struct eh_state *st = arg;

	if (p->series >= st->nseries)
		new_series(st); /* named after the count was read: published before the sample */
	struct lat_event e = kind_eh__event(p);

	model__add_event(st->s->m, &e, SRC_FENTRY);
	/* --raw records every sample, the activities' as the ring buffer's (a no-op otherwise). */
	if (st->s->rec)
		recorder__event(st->s->rec, &e);
}

/* Move the samples the reader paired so far into the model (new names get their series
 * first). */
static void eh_drain(struct session *s, struct kind *k)
{
	struct eh_state *st = k->st;

	(void)s;
	if (!st)
		return;
	new_series(st);
	ehtrace__drain(st->eh, on_sample, st);
}

/* Open the reader for the activities asked. A kernel without user_events: one sentence and
 * EXIT_USAGE when nothing else was asked, else a warning and nothing open. */
static int eh_open(struct session *s, struct kind *k, char *err, size_t errlen)
{
	uint64_t age = s->o->span_timeout_ns ? s->o->span_timeout_ns : SPAN_TIMEOUT_NS;
	struct eh_state *st;
	char why[320];

	if (!s->o->neh)
		return EXIT_OK;
	if (!ehtrace__user_events(why, sizeof(why))) {
		if (!other_asked(s->o)) {
			snprintf(err, errlen, "%s", why);
			return EXIT_USAGE;
		}
		session__warn(s, "--activities ignored: %s", why);
		return EXIT_OK;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	st->s = s;
	st->eh = ehtrace__new(s->o->eh, s->o->neh, age, err, errlen);
	if (!st->eh) {
		int e = errno == ENOENT ? EXIT_USAGE : EXIT_RUNTIME;

		free(st);
		return e;
	}
	k->st = st;
	eh_drain(s, k); /* the named activities' series, before any sample */
	return EXIT_OK;
}

/* Stop the reader (after a last pass) and free. */
static void eh_free(struct session *s, struct kind *k)
{
	struct eh_state *st = k->st;

	(void)s;
	if (st)
		ehtrace__free(st->eh);
	free(st);
	k->st = NULL;
}

/* At the end of a run (force): stop the reader after a last pass over its rings and take what
 * it paired. Within a run the drain op moves its samples; it aggregates nothing in the kernel. */
static void eh_harvest(struct session *s, struct kind *k, bool force)
{
	struct eh_state *st = k->st;

	if (!st || !force)
		return;
	ehtrace__stop(st->eh);
	eh_drain(s, k);
}

/* The session-wide loss counters, last before the interval closes (after the vhost chain's,
 * the kind before it in the list). */
static void eh_closing(struct session *s, struct kind *k)
{
	struct eh_state *st = k->st;
	struct ehpair_loss l;

	if (!st)
		return;
	ehtrace__loss(st->eh, &l);
	kind_eh__counters(s->m, &l);
}

/* Segments mode shows the activities when the reader is open (not open: the sentence segments
 * mode has always given; a kernel without user_events was warned of at open). */
static int eh_enter(struct session *s, struct kind *k, enum lat_mode mode, char *err, size_t errlen)
{
	(void)s;
	(void)mode;
	if (k->st)
		return 0;
	snprintf(err, errlen,
		 "segments mode needs spans or a profile: give -u, --spans or --profile");
	return -ENOENT;
}

const struct kind_ops kind_eh = {
    .name = "eventheader",
    .open = eh_open,
    .free = eh_free,
    .drain = eh_drain,
    .harvest = eh_harvest,
    .closing = eh_closing,
    .modes = 1u << MODE_SEGMENTS,
    .enter = eh_enter,
};
