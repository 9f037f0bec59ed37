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
 * Thread use: one thread calls everything but ehpair__nseries, ehpair__series_name and
 * ehpair__loss, which any thread may call (the counters and the series count are atomics).
 */
#ifndef LAT_COLLECT_EHPAIR_H
#define LAT_COLLECT_EHPAIR_H

#include <stddef.h>
#include <stdint.h>

#define EHPAIR_SERIES_MAX 64 /* activity names (series) in one session */
#define EHPAIR_TP_MAX 16     /* tracepoints */
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
/* The loss counters (relaxed reads of monotonic counts). */
void ehpair__loss(const struct ehpair *p, struct ehpair_loss *out);
/* Starts pending now. */
uint32_t ehpair__pending(const struct ehpair *p);

#endif /* LAT_COLLECT_EHPAIR_H */
