// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ehsession.c - EventHeader activities in the live session (see ehsession.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "collect/ehtrace.h"
#include "model/model.h"
#include "session/ehsession.h"
#include "session/opts.h"

/* True when the session measures something besides the activities. */
static bool other_asked(const struct opts *o)
{
	return o->nspans || o->profile_path || o->nfilter || o->demo;
}

/* Open the activities. */
int ehsession__open(struct session *s, char *err, size_t errlen)
{
	uint64_t age = s->o->span_timeout_ns ? s->o->span_timeout_ns : SPAN_TIMEOUT_NS;
	char why[320];

	if (s->o->eh_emit) {
		s->ehx = ehemit__open(s->o->interval_ns, err, errlen);
		if (!s->ehx)
			return errno == ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
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
	s->eh = ehtrace__new(s->o->eh, s->o->neh, age, err, errlen);
	if (!s->eh)
		return errno == ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	ehsession__drain(s); /* the named activities' series, before any sample */
	return EXIT_OK;
}

/* Give the activity series the model lacks their (empty) series. */
static void new_series(struct session *s)
{
	uint32_t n = ehtrace__nseries(s->eh);

	for (; s->eh_series < n; s->eh_series++) {
		struct series *se = model__series(s->m, LAT_EV_SEG, EH_SEG_ID + s->eh_series, 0, 0);
		const struct hist_delta none = {};

		if (!se || model__add_hist(s->m, se, NULL, NULL, 0, &none)) {
			session__error(s, "out of memory: activity %s has no series",
				       ehtrace__series_name(s->eh, s->eh_series));
			continue;
		}
		se->src |= SRC_FENTRY;
		snprintf(se->name, sizeof(se->name), "%s",
			 ehtrace__series_name(s->eh, s->eh_series));
		snprintf(se->type, sizeof(se->type), "activity");
	}
}

static void new_series(struct session *s);

/* One paired activity into its series. */
static void on_sample(void *arg, const struct ehpair_sample *p)
{
	struct session *s = arg;

	if (p->series >= s->eh_series)
		new_series(s); /* named after the count was read: published before the sample */
	struct lat_event e = {
	    .kind = LAT_EV_SEG,
	    .id = EH_SEG_ID + p->series,
	    .tid = p->tid,
	    .start_ns = p->start_ns,
	    .dur_ns = p->dur_ns,
	};

	model__add_event(s->m, &e, SRC_FENTRY);
}

/* Move the paired samples into the model. */
void ehsession__drain(struct session *s)
{
	if (!s->eh)
		return;
	new_series(s);
	ehtrace__drain(s->eh, on_sample, s);
}

/* Set the loss counters. */
void ehsession__interval(struct session *s)
{
	struct ehpair_loss l;

	if (!s->eh)
		return;
	ehtrace__loss(s->eh, &l);
	model__set_counter(s->m, "eh_orphan", l.orphan);
	model__set_counter(s->m, "eh_unmatched", l.unmatched);
	model__set_counter(s->m, "eh_malformed", l.malformed);
	model__set_counter(s->m, "eh_foreign", l.foreign);
	model__set_counter(s->m, "eh_lost", l.lost);
}

/* Stop reading and take the last samples. */
void ehsession__flush(struct session *s)
{
	ehtrace__stop(s->eh);
	ehsession__drain(s);
}

/* lattop's figures of the interval just closed. */
void ehsession__closed(struct session *s) { ehemit__interval(s->ehx, s); }

/* Stop and free. */
void ehsession__free(struct session *s)
{
	ehtrace__free(s->eh);
	s->eh = NULL;
	ehemit__close(s->ehx);
	s->ehx = NULL;
}
