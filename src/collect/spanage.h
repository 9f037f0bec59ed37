/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * spanage.h - pending-table aging: starts whose end never came are dropped after their
 * span's timeout and counted, so a key that will not recur (an exited thread, a request whose
 * completion was missed) does not hold a pending-table entry for ever.
 *
 * A thread of its own sweeps the table (bpf/span.bpf.h's `pending`) every period: an entry
 * whose newest start is older than its span's timeout is deleted, and its stored starts are
 * counted for that span. The BPF side never waits for it and it never blocks the collector.
 * Entries are taken out and compared in one step, so a start pushed while the sweeper looks is
 * kept or counted, never dropped silently (spanage.c says how, and the one window left). An
 * end racing with the removal of its (stale) entry is counted unmatched by the BPF side.
 *
 * Thread use: spanage__start/stop from the UI/main thread; spanage__dropped from any thread.
 */
#ifndef LAT_SPANAGE_H
#define LAT_SPANAGE_H

#include <stdint.h>

#include "lattop.h"

struct spanage;

/* A test's hook, called with the key about to be taken out of the pending table. */
typedef void (*spanage_hook_fn)(void *arg, const struct lat_span_key *key);

/* Start sweeping the pending map pending_fd for spans 0..n-1 with timeout_ns[i] each (copied).
 * NULL + errno. */
struct spanage *spanage__start(int pending_fd, const uint64_t *timeout_ns, int n);
/* Stop the thread and free (NULL is a no-op). */
void spanage__stop(struct spanage *a);
/* Starts of span i dropped by the timeout since start. */
uint64_t spanage__dropped(const struct spanage *a, int i);
/* One sweep at time now_ns (CLOCK_MONOTONIC, the clock of bpf_ktime_get_ns); returns the
 * number of entries deleted, or a negative errno. Called by the thread; exposed for tests. */
int spanage__sweep(struct spanage *a, uint64_t now_ns);
/* Tests only: call fn just before each stale entry is taken out, on the sweeping thread. Set
 * it before the sweeps it should see. */
void spanage__set_hook(struct spanage *a, spanage_hook_fn fn, void *arg);

#endif /* LAT_SPANAGE_H */
