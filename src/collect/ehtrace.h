/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ehtrace.h - EventHeader activities as latency samples, live: registers each EventHeader
 * tracepoint through user_events (so a session can wait for an application that has not
 * started: any registration of an EventHeader name is the same tracepoint), opens one perf
 * ring per tracepoint and CPU (PERF_TYPE_TRACEPOINT, raw samples timed on CLOCK_MONOTONIC),
 * and reads them on a thread of its own that pairs the events (collect/ehpair.h) and queues
 * each sample for the UI thread.
 *
 * Why perf and not a BPF program: the kernel's user_events writes to perf through
 * perf_trace_buf_submit, which never runs the BPF programs attached to the tracepoint (6.12:
 * kernel/trace/trace_events_user.c, user_event_perf); ftrace's ring would do, but perf gives
 * per-CPU rings with the writer's thread, its CPU, a chosen clock and a count of what it lost.
 *
 * A provider's tracepoints are followed, present and future: the reader looks for new ones in
 * tracefs's events/user_events once a second (EHTRACE_FOLLOW_NS) and opens their rings (events
 * written before that are not seen).
 *
 * Thread use: ehtrace__new, ehtrace__drain and ehtrace__free on the UI thread; the others on
 * any thread. The reader thread is ehtrace's own.
 */
#ifndef LAT_COLLECT_EHTRACE_H
#define LAT_COLLECT_EHTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/evhdr.h"
#include "collect/ehpair.h"

#define EHTRACE_FOLLOW_NS 1000000000ull /* a provider's new tracepoints looked for */

/* One activity source: a tracepoint (or a provider's tracepoints), and one named activity on
 * it or every activity, with what to take from the events' fields. */
struct ehtrace_spec {
	char tp[EVHDR_NAME_MAX];	/* Provider_L<level>K<keyword>[Options], or a provider */
	char activity[EHPAIR_NAME_MAX]; /* the start event's name; "" = every activity */
	char series[EHPAIR_NAME_MAX];	/* the series name ("" = the activity's name) */
	struct ehpair_opts o;		/* fields: split, filter, value */
	bool provider;			/* tp names a provider: every tracepoint of it */
	uint8_t level;			/* a provider's: levels up to it (0: any) */
	uint64_t kw;			/* a provider's: keywords with one of these bits (0: any) */
};

struct ehtrace;

/* Where the kernel's user_events registration file is, or NULL (with why, one sentence
 * naming what is missing) when this kernel has no user_events. */
const char *ehtrace__user_events(char *why, size_t len);
/* Register, open and start reading the n specs; pending starts older than max_age_ns count as
 * orphans. NULL + errno with one sentence in err; errno ENOENT means the user's to fix (no
 * user_events in this kernel, a bad tracepoint name). */
struct ehtrace *ehtrace__new(const struct ehtrace_spec *sp, int n, uint64_t max_age_ns, char *err,
			     size_t errlen);
/* Hand the samples queued since the last call to fn; returns how many. */
size_t ehtrace__drain(struct ehtrace *t, void (*fn)(void *arg, const struct ehpair_sample *s),
		      void *arg);
/* Series known so far and the name of series i (ehpair.h). */
uint32_t ehtrace__nseries(const struct ehtrace *t);
const char *ehtrace__series_name(const struct ehtrace *t, uint32_t i);
void ehtrace__series_info(const struct ehtrace *t, uint32_t i, struct ehpair_info *out);
/* Loss counters (the sample queue's drops are in lost). */
void ehtrace__loss(const struct ehtrace *t, struct ehpair_loss *out);
/* Read the perf records of a ring of size bytes (a power of two) at data from offset tail up
 * to head into p as tracepoint tp's: samples (TID, TIME, CPU, RAW: the tracepoint's common
 * fields, then the event) to ehpair__event, PERF_RECORD_LOST counts and samples too short for
 * their fields to ehpair__add_lost. Returns the new tail (where a record that cannot be whole
 * stopped the reading). The reader thread's step, public for its tests. */
uint64_t ehtrace__parse_ring(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
			     struct ehpair *p, int tp);
/* Stop the reader after a last pass over every ring (its samples wait for ehtrace__drain);
 * NULL or a second call is a no-op. */
void ehtrace__stop(struct ehtrace *t);
/* Stop the reader (after a last pass over every ring) and free (NULL is a no-op). */
void ehtrace__free(struct ehtrace *t);

#endif /* LAT_COLLECT_EHTRACE_H */
