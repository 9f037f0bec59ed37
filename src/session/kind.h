/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kind.h - one interface for every kind of probe a live session runs: the program probes
 * (kind_progs.c), the helper probes (kind_helpers.c), bpf_stats and the program list
 * (kind_stats.c), spans (kind_spans.c), the vhost chain (kind_vhost.c) and EventHeader
 * activities (kind_eh.c). Each kind is one ops table over state of its own; the session holds
 * the list (kinds.c) and loops over it at open, drain, tick, interval close, mode change,
 * filter change and close, never naming a kind.
 *
 * Every op may be NULL (the kind has nothing to do there). The loops run in the list's order,
 * which is also the order of priority for the in-kernel aggregates' budget, except the free,
 * which runs in reverse. At an interval close the steps run in this order, each over the whole
 * list (session__close_interval): drain (after the collector's events), harvest, prune, scan,
 * losses (then the collector's losses), counters (then the budget's agg_over_budget), closing;
 * the model closes the interval; then, when a scan read the program list, sync.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_KIND_H
#define LAT_KIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/progagg.h"
#include "lattop.h"
#include "model/model.h"

struct session;
struct opts;
struct kind;

/* What a kind asks of the aggregates' budget for "whatever the kinds before it left". */
#define KIND_AGG_REST ((size_t)-1)

/* One kind of probe. */
struct kind_ops {
	const char *name;
	/* Open and attach for the session's options, mode and filter (s->col and s->m exist;
	 * k->agg_grant says whether its aggregates fit). Not asked for by the options: nothing
	 * to do, k->st stays NULL. Returns an exit status (EXIT_OK) with one sentence in err;
	 * k->st may be set even on failure (free frees it). */
	int (*open)(struct session *s, struct kind *k, char *err, size_t errlen);
	/* Detach and free what open made (k->st may be NULL or half-built). */
	void (*free)(struct session *s, struct kind *k);
	/* Why it cannot run on this kernel, one sentence naming what it needs, or NULL when it
	 * runs or is not asked for. */
	const char *(*why)(const struct session *s, const struct kind *k);
	/* After every kind opened and the program list was read: where its figures come from
	 * and what it costs (s->notice, s->m->source, s->m->floor_ns). */
	void (*notice)(struct session *s, struct kind *k);

	/* Budget (kinds__open): bytes of in-kernel aggregates it asks for before it opens (0:
	 * none, or every event is needed; KIND_AGG_REST: what is left), and the bytes its
	 * aggregates take once open. */
	size_t (*agg_ask)(const struct session *s);
	size_t (*agg_mem)(const struct kind *k);
	/* Runs it put on the ring buffer since open because the budget was spent (beyond the
	 * kinds whose whole ask did not fit: the list counts those). */
	uint64_t (*over_budget)(const struct kind *k);

	/* Move what a reader thread of its own (not the collector's ring buffer) queued into
	 * the model: at every session__drain (each tick, and first at an interval close), after
	 * the collector's events. */
	void (*drain)(struct session *s, struct kind *k);

	/* The interval close, in this order (see above). harvest: what its aggregates gained,
	 * into the open interval (also within a long interval, and force: from every CPU, at
	 * the end of a run). */
	void (*harvest)(struct session *s, struct kind *k, bool force);
	/* Before the program list is read: let go of what its owners unloaded. */
	void (*prune)(struct session *s, struct kind *k);
	/* Read the program list into s->st and the model: 0, or a negative errno with one
	 * sentence in err (at open, the session fails; at a close, nothing is read). */
	int (*scan)(struct session *s, struct kind *k, uint64_t now, char *err, size_t errlen);
	/* Its losses: added to the session-wide ones (l), and its named loss counters. */
	void (*losses)(struct session *s, struct kind *k, struct model_losses *l);
	/* Its other named counters, after the collector's. */
	void (*counters)(struct session *s, struct kind *k);
	/* Last word before the model closes the interval. */
	void (*closing)(struct session *s, struct kind *k);
	/* Attach and detach to match the filter and the programs loaded now (after a filter
	 * change, and after a close that read the program list). */
	void (*sync)(struct session *s, struct kind *k);

	/* Modes it shows (1u << MODE_x); enter: get ready to show mode, one of them: 0, or
	 * -ENOTSUP when this kernel cannot (its why says why), -ENOENT when the options did not
	 * ask for it, another negative errno else, these two with one sentence in err. */
	unsigned modes;
	int (*enter)(struct session *s, struct kind *k, enum lat_mode mode, char *err,
		     size_t errlen);
	/* The session's mode changed (s->m->mode): attach or detach what it shows there. */
	void (*mode_changed)(struct session *s, struct kind *k);
	/* Helpers mode: true when program row se is shown (its helper probes are attached). */
	bool (*shows)(const struct session *s, const struct kind *k, const struct series *se);

	/* An event from the ring buffer: true when the kind took it (not the model). */
	bool (*event)(struct session *s, struct kind *k, const struct lat_event *e);
	/* True when name names one of its series for -p (from the options alone: also asked of
	 * a replay, which opens no kind). */
	bool (*named)(const struct session *s, const char *name);
	/* True when it measures programs per invocation (the demo then need not time itself). */
	bool (*per_run)(const struct kind *k);
};

/* A kind in a session's list. */
struct kind {
	const struct kind_ops *ops;
	void *st;             /* the kind's own state (set by open; NULL: not asked for) */
	size_t agg_grant;     /* bytes of the budget granted at open (0: events only) */
	uint64_t over_budget; /* 1 when what it asked for did not fit */
};

/* The kinds (their files), in the list's order. */
extern const struct kind_ops kind_spans, kind_vhost, kind_eh, kind_stats, kind_progs,
    kind_helpers;

/* Open every kind in the list's order, sharing the budget out as they go. Returns an exit
 * status with one sentence in err (the kinds opened so far are freed by kinds__free). */
int kinds__open(struct session *s, char *err, size_t errlen);
/* The budget's share of one kind (kinds__open asks it in the list's order): ask (0: none)
 * when it fits in left, else 0 and *over set; KIND_AGG_REST: all that is left. */
size_t kinds__grant(size_t ask, size_t left, uint64_t *over);
/* Free every kind, last first (safe after a failed or no open). */
void kinds__free(struct session *s);
/* The state of the session's kind ops, or NULL (not in the list, or not asked for). */
void *kinds__state(const struct session *s, const struct kind_ops *ops);
/* The instance of kind ops in the session's list, or NULL. */
struct kind *kinds__find(const struct session *s, const struct kind_ops *ops);

/* The loops: each calls its op of every kind that has one, in the list's order. */
void kinds__notice(struct session *s);
void kinds__drain(struct session *s);
void kinds__harvest(struct session *s, bool force);
void kinds__prune(struct session *s);
/* 0 when some kind read the program list, else the first failure (err says why). */
int kinds__scan(struct session *s, uint64_t now, char *err, size_t errlen);
void kinds__losses(struct session *s, struct model_losses *l);
void kinds__counters(struct session *s);
void kinds__closing(struct session *s);
void kinds__sync(struct session *s);
/* Get every kind that shows mode ready (the first that can is enough), set it, and tell every
 * kind. 0, or a negative errno with one sentence in err (the mode stays as it was). */
int kinds__set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen);
bool kinds__shows(const struct session *s, const struct series *se);
bool kinds__event(struct session *s, const struct lat_event *e);
/* True when some kind (of the whole list, opened or not) names a series name. */
bool kinds__named(const struct session *s, const char *name);
bool kinds__per_run(const struct session *s);
/* The budget's named count: agg_over_budget, from the first run put on the ring on. */
void kinds__budget_tally(struct session *s);

/* Shared by the kinds: true when something consumes every run's event (--raw,
 * LATTOP_PATH=ring), so nothing aggregates in the kernel; and the harvest sink that puts
 * what aggregates gained into the model (arg: the session). */
bool kinds__needs_events(const struct opts *o);
void kinds__on_agg(void *arg, uint16_t kind, uint32_t id, uint32_t aux, uint32_t aux2,
		   const struct progagg_delta *d);
/* Harvest split (progtrace__set_split, arg the session): whether program id is split by CPU. */
bool kinds__split(void *arg, uint32_t id);

#endif /* LAT_KIND_H */
