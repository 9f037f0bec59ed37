// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kinds.c - the list of the kinds of probe (kind.h), the budget they share, and the loops the
 * session runs over them.
 *
 * Thread use: UI/main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/kind.h"
#include "session/session.h"

/* The kinds a live session runs, in order. The order is the open order (spans and the vhost
 * chain load first; the EventHeader reader, which loads no BPF, opens after them and sets its
 * counters after the chain's; bpf_stats is on before the program probes measure their floor,
 * helper probes sit on the program probes' stacks), and the order of priority of the budget.
 * A new kind is its file and one line here. */
static const struct kind_ops *const kind_list[] = {
    &kind_spans, &kind_vhost, &kind_eh, &kind_stats, &kind_progs, &kind_helpers,
};
#define NKINDS (sizeof(kind_list) / sizeof(kind_list[0]))

/* True when something consumes every run's event, so the program probes and the spans send
 * one per run through the ring buffer instead of aggregating in the kernel: a --raw recording
 * (its events are read back one by one: --events, -o trace), or LATTOP_PATH=ring (a knob for
 * benchmarks and tests comparing the two paths). Nothing else reads span events one by one:
 * the model, recordings without --raw, the reports and --listen take the aggregated series. */
bool kinds__needs_events(const struct opts *o)
{
	const char *v = getenv("LATTOP_PATH");

	return o->raw || (v && !strcmp(v, "ring"));
}

/* Harvest sink: what a watched program's (a span's, a vhost segment's) in-kernel aggregates
 * gained goes into its series' open interval, as its events would have. */
void kinds__on_agg(void *arg, uint16_t kind, uint32_t id, uint32_t aux, uint32_t aux2,
		   const struct progagg_delta *d)
{
	struct session *s = arg;
	struct series *se;

	if (kind == LAT_EV_PROG_CPU) {
		if (model__add_cpu_share(s->m, id, aux, d->idx, d->cnt, d->n, &d->d, SRC_FENTRY))
			session__error(s, "out of memory: a harvest of program %u's runs on CPU %u "
					  "is missing", id, aux);
		return;
	}
	se = model__series(s->m, kind, id, aux, aux2);
	if (!se || model__add_agg(s->m, se, d->idx, d->cnt, d->n, &d->d, SRC_FENTRY))
		session__error(s, "out of memory: a harvest of %s %u's runs is missing",
			       kind != LAT_EV_SEG  ? "program"
			       : id < LAT_SPAN_MAX ? "span"
						   : "vhost segment",
			       kind == LAT_EV_SEG && id >= LAT_SPAN_MAX ? id - LAT_SPAN_MAX : id);
}

/* Harvest split: whether program id's harvests are split by CPU (model__split). */
bool kinds__split(void *arg, uint32_t id)
{
	const struct session *s = arg;

	return model__is_split(s->m, id);
}

/* The in-kernel aggregates' budget (progagg__budget(): LAT_AGG_BUDGET unless
 * LATTOP_AGG_BUDGET says) is shared out here alone, before each kind opens, in the list's
 * order of priority: the spans, then the vhost chain, each all or nothing (what does not fit
 * sends events through the ring buffer and counts 1 in agg_over_budget); then the program
 * probes take what is left (KIND_AGG_REST), one watched program at a time, and lend it to the
 * helper probes. left: the budget less what the kinds before took once open. */
size_t kinds__grant(size_t ask, size_t left, uint64_t *over)
{
	if (ask == KIND_AGG_REST)
		return left;
	if (ask && ask <= left)
		return ask;
	if (ask)
		*over = 1;
	return 0;
}

/* Open every kind in the list's order, each after its share of the budget. */
int kinds__open(struct session *s, char *err, size_t errlen)
{
	size_t left = progagg__budget();

	s->kind = calloc(NKINDS, sizeof(*s->kind));
	if (!s->kind) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i < NKINDS; i++) {
		struct kind *k = &s->kind[s->nkind++];
		int e;

		k->ops = kind_list[i];
		k->agg_grant = kinds__grant(k->ops->agg_ask ? k->ops->agg_ask(s) : 0, left,
					    &k->over_budget);
		e = k->ops->open ? k->ops->open(s, k, err, errlen) : EXIT_OK;
		if (e != EXIT_OK)
			return e;
		if (k->ops->agg_mem)
			left -= k->ops->agg_mem(k);
	}
	return EXIT_OK;
}

/* Free every kind, last first: a kind may lean on the ones before it. */
void kinds__free(struct session *s)
{
	for (size_t i = s->nkind; i-- > 0;)
		if (s->kind[i].ops->free)
			s->kind[i].ops->free(s, &s->kind[i]);
	free(s->kind);
	s->kind = NULL;
	s->nkind = 0;
}

/* The instance of kind ops in the session's list. */
struct kind *kinds__find(const struct session *s, const struct kind_ops *ops)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops == ops)
			return &s->kind[i];
	return NULL;
}

/* The state of kind ops in the session. */
void *kinds__state(const struct session *s, const struct kind_ops *ops)
{
	struct kind *k = kinds__find(s, ops);

	return k ? k->st : NULL;
}

/* Where each kind's figures come from, into the notice. */
void kinds__notice(struct session *s)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->notice)
			s->kind[i].ops->notice(s, &s->kind[i]);
}

/* Move what the kinds' own reader threads queued into the model. */
void kinds__drain(struct session *s)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->drain)
			s->kind[i].ops->drain(s, &s->kind[i]);
}

/* Take the in-kernel aggregates into the open interval. */
void kinds__harvest(struct session *s, bool force)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->harvest)
			s->kind[i].ops->harvest(s, &s->kind[i], force);
}

/* Let go of what the owners unloaded. */
void kinds__prune(struct session *s)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->prune)
			s->kind[i].ops->prune(s, &s->kind[i]);
}

/* Read the program list. */
int kinds__scan(struct session *s, uint64_t now, char *err, size_t errlen)
{
	int ret = -ENOENT;

	snprintf(err, errlen, "nothing reads the program list");
	for (size_t i = 0; i < s->nkind; i++) {
		int e;

		if (!s->kind[i].ops->scan)
			continue;
		e = s->kind[i].ops->scan(s, &s->kind[i], now, err, errlen);
		if (!e || ret == -ENOENT)
			ret = e;
	}
	return ret;
}

/* The kinds' losses, into l and their named loss counters. */
void kinds__losses(struct session *s, struct model_losses *l)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->losses)
			s->kind[i].ops->losses(s, &s->kind[i], l);
}

/* The kinds' other named counters. */
void kinds__counters(struct session *s)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->counters)
			s->kind[i].ops->counters(s, &s->kind[i]);
}

/* The kinds' last word before the model closes the interval. */
void kinds__closing(struct session *s)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->closing)
			s->kind[i].ops->closing(s, &s->kind[i]);
}

/* Attach and detach to match the filter and the programs loaded. */
void kinds__sync(struct session *s)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->sync)
			s->kind[i].ops->sync(s, &s->kind[i]);
}

/* Watched programs (and the spans, as one, and the vhost segments, as one) put on the ring
 * buffer because the aggregates' budget was spent: a named count (not a loss: their runs
 * arrive as events), from the first one on. */
void kinds__budget_tally(struct session *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->nkind; i++) {
		const struct kind *k = &s->kind[i];

		n += k->over_budget + (k->ops->over_budget ? k->ops->over_budget(k) : 0);
	}
	if (n)
		model__set_tally(s->m, "agg_over_budget", n);
}

/* Ask every kind showing mode to get ready: 0 when one is, else the most telling failure (a
 * kernel's or a system's over an option not given). */
static int kinds_enter(struct session *s, enum lat_mode mode, char *err, size_t errlen)
{
	bool tried = false;
	int ret = -ENOTSUP;

	snprintf(err, errlen, "no probe of this session shows %s mode", model__mode_name(mode));
	if (mode == MODE_PROGRAMS)
		return 0;
	for (size_t i = 0; i < s->nkind; i++) {
		struct kind *k = &s->kind[i];
		char why[320];
		int e;

		if (!(k->ops->modes & (1u << mode)) || !k->ops->enter)
			continue;
		why[0] = '\0';
		e = k->ops->enter(s, k, mode, why, sizeof(why));
		if (!e)
			return 0;
		if (e == -ENOTSUP && k->ops->why && k->ops->why(s, k))
			snprintf(why, sizeof(why), "%s", k->ops->why(s, k));
		if (!tried || (ret == -ENOENT && e != -ENOENT)) {
			ret = e;
			snprintf(err, errlen, "%s", why);
		}
		tried = true;
	}
	return ret;
}

/* Switch to mode when a kind shows it. */
int kinds__set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen)
{
	int e = kinds_enter(s, mode, err, errlen);

	if (e)
		return e;
	s->m->mode = mode;
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->mode_changed)
			s->kind[i].ops->mode_changed(s, &s->kind[i]);
	return 0;
}

/* Helpers mode: true when a kind shows program row se. */
bool kinds__shows(const struct session *s, const struct series *se)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->shows && s->kind[i].ops->shows(s, &s->kind[i], se))
			return true;
	return false;
}

/* Offer an event to the kinds: true when one took it. */
bool kinds__event(struct session *s, const struct lat_event *e)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->event && s->kind[i].ops->event(s, &s->kind[i], e))
			return true;
	return false;
}

/* True when a kind of the list names a series name (asked of the list, not the session's
 * instances: a replay opens none). */
bool kinds__named(const struct session *s, const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kind_list[i]->named && kind_list[i]->named(s, name))
			return true;
	return false;
}

/* True when a kind measures programs per invocation. */
bool kinds__per_run(const struct session *s)
{
	for (size_t i = 0; i < s->nkind; i++)
		if (s->kind[i].ops->per_run && s->kind[i].ops->per_run(&s->kind[i]))
			return true;
	return false;
}
