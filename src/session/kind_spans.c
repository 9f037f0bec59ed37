// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kind_spans.c - the spans (-u, --spans) as a kind of probe (kind.h): each span's samples
 * into its segments-mode series, aggregated in the kernel unless every event is needed or
 * the budget is spent (collect/spans.c), and its loss counters on its series.
 *
 * Thread use: UI/main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "collect/spans.h"
#include "session/kind.h"
#include "session/session.h"

/* What segments mode asks for when no segment source was given. */
static const char no_segments[] = "segments mode needs spans or a profile: give -u, --spans "
				  "or --profile";

/* The spans' aggregates, unless every event is needed (0: none, or no spans). */
static size_t spans_ask(const struct session *s)
{
	if (!s->o->nspans || kinds__needs_events(s->o))
		return 0;
	return spans__agg_bytes(s->o->spans, s->o->nspans);
}

/* Bytes the spans' aggregates take (0 on the ring). */
static size_t spans_mem(const struct kind *k) { return spans__agg_mem(k->st); }

/* Split span i's part series (on-CPU, runnable, sleeping), empty, named after the span and
 * typed by the part: their presence says the span is split. -ENOMEM. */
static int part_series(struct session *s, int i)
{
	const struct hist_delta none = {};

	for (unsigned p = LAT_PART_ONCPU; p < LAT_PART__COUNT; p++) {
		struct series *se = model__series(s->m, LAT_EV_SPAN_PART, (uint32_t)i, p, 0);

		if (!se || model__add_hist(s->m, se, NULL, NULL, 0, &none))
			return -ENOMEM;
		se->src |= SRC_FENTRY;
		snprintf(se->name, sizeof(se->name), "%s", s->o->spans[i].name);
		snprintf(se->type, sizeof(se->type), "%s", model__part_name(p));
	}
	return 0;
}

/* Load and attach the spans and give each its (empty) series: a span that never fires still
 * shows, with a count of 0. A missing symbol is the user's to fix (status 2). */
static int spans_open(struct session *s, struct kind *k, char *err, size_t errlen)
{
	if (!s->o->nspans)
		return EXIT_OK;
	k->st = spans__new(s->col, s->o->spans, s->o->nspans, k->agg_grant > 0, err, errlen);
	if (!k->st)
		return errno == ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	for (int i = 0; i < s->o->nspans; i++) {
		struct series *se = model__series(s->m, LAT_EV_SEG, i, 0, 0);
		const struct hist_delta none = {};

		if (!se || model__add_hist(s->m, se, NULL, NULL, 0, &none))
			goto oom;
		se->src |= SRC_FENTRY;
		snprintf(se->name, sizeof(se->name), "%s", s->o->spans[i].name);
		snprintf(se->type, sizeof(se->type), "%s", s->o->spans[i].kind);
		/* Groups are slots of the in-kernel aggregates: none when samples are events. */
		if (s->o->spans[i].by && k->agg_grant <= 0) {
			char name[4 * sizeof(s->o->spans[i].name)];

			text__esc(name, sizeof(name), s->o->spans[i].name);
			session__warn(s,
				      "span %s: no breakdown by key while its samples go "
				      "through the ring buffer (--raw, LATTOP_PATH=ring or "
				      "agg_over_budget)",
				      name);
		}
		if (spans__split(&s->o->spans[i]) && part_series(s, i))
			goto oom;
	}
	return EXIT_OK;
oom:
	snprintf(err, errlen, "out of memory");
	return EXIT_RUNTIME;
}

/* Detach and free the spans. */
static void spans_free(struct session *s, struct kind *k)
{
	(void)s;
	spans__free(k->st);
	k->st = NULL;
}

/* A span's group series (LAT_EV_SPAN_GRP, span, slot), named after its span, its label in
 * sub once the kernel has taken the slot ("other" for the last); NULL on allocation failure. */
static struct series *group_series(struct session *s, const struct spans *sps, uint32_t span,
				   uint32_t g)
{
	const struct span_spec *sp = &s->o->spans[span];
	struct series *se = model__series(s->m, LAT_EV_SPAN_GRP, span, g, 0);
	uint64_t v[2];

	if (!se || se->sub[0])
		return se;
	snprintf(se->name, sizeof(se->name), "%s", sp->name);
	snprintf(se->type, sizeof(se->type), "%s", sp->kind);
	if (g == sp->groups)
		snprintf(se->sub, sizeof(se->sub), "other");
	else if (!spans__group_value(sps, (int)span, g, v))
		spans__group_label(sp->by, sp->by_field, v, se->sub, sizeof(se->sub));
	return se;
}

/* What the harvest sink needs: the session and the spans (the groups' values). */
struct harvest_arg {
	struct session *s;
	const struct spans *sps;
};

/* Harvest sink: a span's own aggregates as every kind's; a group's into its group series,
 * not counted as events again (its span's delta counts them). */
static void spans_on_agg(void *arg, uint16_t kind, uint32_t id, uint32_t aux, uint32_t aux2,
			 const struct progagg_delta *d)
{
	const struct harvest_arg *a = arg;
	struct session *s = a->s;
	struct series *se;

	if (kind != LAT_EV_SPAN_GRP) {
		kinds__on_agg(s, kind, id, aux, aux2, d);
		return;
	}
	se = id < (uint32_t)s->o->nspans ? group_series(s, a->sps, id, aux) : NULL;
	if (!se || model__add_hist(s->m, se, d->idx, d->cnt, d->n, &d->d)) {
		session__error(s, "out of memory: a harvest of span %u's group %u is missing", id,
			       aux);
		return;
	}
	se->src |= SRC_FENTRY;
	se->meas_open = true;
}

/* What the spans' aggregates gained. */
static void spans_harvest(struct session *s, struct kind *k, bool force)
{
	struct harvest_arg a = { s, k->st };

	spans__harvest(k->st, force, spans_on_agg, &a);
}

/* Hand the spans' loss counters to their series (growth per interval). */
static void spans_losses(struct session *s, struct kind *k, struct model_losses *l)
{
	(void)l;
	for (int i = 0; k->st && i < s->o->nspans; i++) {
		struct series *se = model__find(s->m, LAT_EV_SEG, i, 0, 0);
		struct lat_span_loss sl;

		if (!se)
			continue;
		spans__loss(k->st, i, &sl);
		model__set_series_counter(s->m, se, "unmatched", true, sl.unmatched);
		model__set_series_counter(s->m, se, "evicted", true, sl.evicted);
		model__set_series_counter(s->m, se, "collided", true, sl.collided);
		model__set_series_counter(s->m, se, "overflow", true, sl.overflow);
		if (s->o->spans[i].nfilt)
			model__set_series_counter(s->m, se, "filtered", false, sl.filtered);
		if (s->o->spans[i].by)
			model__set_series_counter(s->m, se, "folded", false, sl.folded);
	}
}

/* Segments mode shows the spans when there are some. */
static int spans_enter(struct session *s, struct kind *k, enum lat_mode mode, char *err,
		       size_t errlen)
{
	(void)s;
	(void)mode;
	if (k->st)
		return 0;
	snprintf(err, errlen, "%s", no_segments);
	return -ENOENT;
}

/* True when name is one of the spans' names. */
static bool spans_named(const struct session *s, const char *name)
{
	for (int i = 0; i < s->o->nspans; i++)
		if (!strcmp(s->o->spans[i].name, name))
			return true;
	return false;
}

const struct kind_ops kind_spans = {
	.name = "spans",
	.open = spans_open,
	.free = spans_free,
	.agg_ask = spans_ask,
	.agg_mem = spans_mem,
	.harvest = spans_harvest,
	.losses = spans_losses,
	.modes = 1u << MODE_SEGMENTS,
	.enter = spans_enter,
	.named = spans_named,
};
