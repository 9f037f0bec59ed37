/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ehpair.h - EventHeader activities paired into latency samples: an activity-stop event with
 * the activity-start event of the same 128-bit activity id, whatever thread or CPU either came
 * from, nested and concurrent activities alike; the duration is the stop's time minus the
 * start's. Each sample goes to the series of its activity's name (the start event's metadata
 * name, or "id N" from its header when it has no metadata), or to the one series of a named
 * activity.
 *
 * Events from several CPUs' rings arrive out of time order (a stop read before its start), so
 * a stop whose start is not pending is held until the end of the next read pass
 * (ehpair__pass_end) before it counts as a stop without a start.
 *
 * Counted, never dropped silently (struct ehpair_loss): starts whose stop has not come after
 * the maximum age; stops without a start; malformed events (header, extensions, metadata, or
 * an activity event without an activity id); events that are not EventHeader (flag bits the
 * convention does not define, or a header level other than the tracepoint's); and what was
 * lost on the way (the kernel's ring, the sample queue, the pending table, the names past
 * EHPAIR_SERIES_MAX).
 *
 * Fields (ehpair__add_opts, struct ehpair_opts): a source can split its rows by a field's value
 * (the first `top` values seen get a row each, under the activity's row, the rest one "other"
 * row, counted as folded), filter on a field (an activity whose start and stop events lack the
 * field, or whose value fails the comparison, is dropped and counted as filtered; a field of
 * the stop event wins over the start's), and take a numeric field as the sample's value
 * instead of the duration (dur_ns then holds the field's value).
 *
 * Parents: an activity whose start carries a related activity id of an activity still open
 * gets the series (name, parent's series), a child row of its parent's; when a parent
 * activity stops after children of its own ran, its self time (its duration less its direct
 * children's) goes to its "NAME self" row (kind EHPAIR_SELF, a child row of the parent's).
 *
 * Plain events (opcodes other than activity start and stop) are one sample each (dur_ns 0, or
 * the value field's) in the row of their event name (kind EHPAIR_EVENT): counts and rates.
 *
 * Providers (ehpair__add_provider): every tracepoint of a provider within a level and keyword
 * mask is taken as ehpair__follow is told of it.
 *
 * Thread use: one thread calls everything but ehpair__nseries, ehpair__series_name and
 * ehpair__loss, which any thread may call (the counters and the series count are atomics).
 */
#ifndef LAT_COLLECT_EHPAIR_H
#define LAT_COLLECT_EHPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EHPAIR_SERIES_MAX 128 /* rows (series) in one session */
#define EHPAIR_TP_MAX 32     /* tracepoints */
#define EHPAIR_SRC_MAX 32    /* sources with options (ehpair__add_opts, ehpair__add_provider) */
#define EHPAIR_TOP 8	     /* split rows per activity row by default */
#define EHPAIR_TOP_MAX 32    /* split rows per activity row at most */
#define EHPAIR_NAME_MAX 64   /* a series name, NUL included */
#define EHPAIR_PENDING 65536 /* activities open at once (starts waiting for their stop) */
#define EHPAIR_HELD 4096     /* stops held for their start until the next pass ends */

/* Loss counters, totals since ehpair__new. */
struct ehpair_loss {
	uint64_t orphan;    /* starts whose stop did not come within the maximum age */
	uint64_t unmatched; /* stops without a start */
	uint64_t malformed; /* header, extension or metadata undecodable; no activity id */
	uint64_t foreign;   /* not EventHeader: undefined flag bits, or the wrong level */
	uint64_t lost;	    /* lost on the way: kernel ring, queue, table full, names past max */
	uint64_t filtered;  /* dropped by a filter, or without the value field */
	uint64_t folded;    /* split values past the top ones, counted in "other" rows */
};

/* Comparisons of a filter. */
enum ehpair_op { EHPAIR_OP_NONE, EHPAIR_OP_EQ, EHPAIR_OP_NE, EHPAIR_OP_LT, EHPAIR_OP_LE,
		 EHPAIR_OP_GT, EHPAIR_OP_GE };

/* What a source takes from each event's fields ("" for none of each). */
struct ehpair_opts {
	char by[EHPAIR_NAME_MAX];      /* split rows by this field */
	char value[EHPAIR_NAME_MAX];   /* this integer field is the sample instead of the time */
	char if_field[EHPAIR_NAME_MAX];	/* filter: only events whose field compares true */
	char if_text[EHPAIR_NAME_MAX];	/* its operand: an integer (base 0), else text (==, !=) */
	enum ehpair_op if_op;
	uint32_t top; /* split rows (0: EHPAIR_TOP) */
};

/* What a series is. */
enum ehpair_kind { EHPAIR_ACTIVITY, EHPAIR_SELF, EHPAIR_EVENT };
struct ehpair_info {
	const char *name;
	int parent;	      /* the series it shows under, or -1 */
	enum ehpair_kind kind;
	bool split;	      /* a row of one value of a by field */
	bool value;	      /* its samples are a field's values, not times */
};

/* One paired activity. */
struct ehpair_sample {
	uint32_t series; /* index, below ehpair__nseries */
	uint32_t tid;	 /* the thread that wrote the stop */
	uint64_t start_ns, dur_ns;
};

typedef void (*ehpair_emit)(void *arg, const struct ehpair_sample *s);

struct ehpair;

/* A pairing state whose pending starts live at most max_age_ns; samples go to emit(arg, ...).
 * NULL + errno. */
struct ehpair *ehpair__new(uint64_t max_age_ns, ehpair_emit emit, void *arg);
/* Free (NULL is a no-op). */
void ehpair__free(struct ehpair *p);
/* Add tracepoint tp (an EventHeader tracepoint name, checked) for the activity named activity
 * (NULL: every activity on it, one series per name), its series called series (NULL: the
 * activity's name). The same tracepoint given twice is one; a named activity gets its series
 * now (so that it shows before its first sample). Returns the tracepoint's index, or -EINVAL
 * (a bad name), -E2BIG (too many tracepoints or series). */
int ehpair__add(struct ehpair *p, const char *tp, const char *activity, const char *series);
/* ehpair__add with options o (NULL: none), kept for the source's events. */
int ehpair__add_opts(struct ehpair *p, const char *tp, const char *activity, const char *series,
		     const struct ehpair_opts *o);
/* Take every tracepoint of provider whose level is at most level (0: any) and whose keyword is
 * 0 or has a bit of kw_mask (0: any), each as tracepoints ehpair__follow names, with activity
 * and options as ehpair__add_opts. 0 or -E2BIG. */
int ehpair__add_provider(struct ehpair *p, const char *provider, uint8_t level,
			 uint64_t kw_mask, const char *activity, const struct ehpair_opts *o);
/* A tracepoint that exists now (name): added when a provider asks for it and it is not there
 * yet. Returns its index when it was added now, -1 when nothing asks for it or it is there,
 * -E2BIG when no more tracepoints fit (counted as lost once). */
int ehpair__follow(struct ehpair *p, const char *name);
/* Whether any provider was asked. */
bool ehpair__has_providers(const struct ehpair *p);
/* The number of tracepoints, and the name of tracepoint i. */
int ehpair__ntp(const struct ehpair *p);
const char *ehpair__tp_name(const struct ehpair *p, int i);
/* One event of len bytes (after the tracepoint's common fields) on tracepoint tp, at ts_ns
 * (CLOCK_MONOTONIC), written by thread tid. */
void ehpair__event(struct ehpair *p, int tp, const void *data, size_t len, uint64_t ts_ns,
		   uint32_t tid);
/* End of a read pass at now_ns: stops held since the previous pass that still have no start
 * count as unmatched; every second, starts older than the maximum age count as orphans. */
void ehpair__pass_end(struct ehpair *p, uint64_t now_ns);
/* Count n events lost before they reached the pairing (kernel ring, queue). */
void ehpair__add_lost(struct ehpair *p, uint64_t n);
/* Series published so far (acquire), and the name of series i below that. */
uint32_t ehpair__nseries(const struct ehpair *p);
const char *ehpair__series_name(const struct ehpair *p, uint32_t i);
/* What series i (below ehpair__nseries) is. */
void ehpair__series_info(const struct ehpair *p, uint32_t i, struct ehpair_info *out);
/* The loss counters (relaxed reads of monotonic counts). */
void ehpair__loss(const struct ehpair *p, struct ehpair_loss *out);
/* Starts pending now. */
uint32_t ehpair__pending(const struct ehpair *p);

#endif /* LAT_COLLECT_EHPAIR_H */
