/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collector.h - the collector thread: BPF ring buffer -> per-CPU SPSC queues.
 *
 * The collector owns the shared `events` ring buffer and `lat_drops` counter maps; every BPF
 * object that emits reuses them (collector__share before its load). One thread polls the ring
 * buffer and copies each record into the queue of the CPU it came from. It never waits for the
 * UI: a full queue is a counted drop. A failed poll is counted, and the thread goes on reading
 * the ring on a timer.
 */
#ifndef LAT_COLLECTOR_H
#define LAT_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "lattop.h"

struct collector;
struct bpf_object;

/* Create the shared maps and one queue of qcap records per possible CPU; NULL + errno (E2BIG:
 * more possible CPUs than LAT_CPUS_LIMIT). Thread: main, before start. */
struct collector *collector__new(size_t qcap);
/* Make obj use the collector's `events` and `lat_drops` maps (call between open and load).
 * Returns 0 or a negative errno. Thread: UI/main. */
int collector__share(struct collector *c, struct bpf_object *obj);
/* Start the collector thread. Returns 0 or a negative errno. Thread: main. */
int collector__start(struct collector *c);
/* Stop and join the thread (idempotent). Thread: main/UI. */
void collector__stop(struct collector *c);
/* Stop, join and free everything (NULL is a no-op). Thread: main. */
void collector__free(struct collector *c);

/* Drain every queue, calling fn for each record; returns the number drained.
 * Thread: UI (the single consumer). */
size_t collector__drain(struct collector *c, void (*fn)(const struct lat_event *e, void *arg),
			void *arg);
/* Ring buffer reserve failures counted by BPF, summed over CPUs. Thread: any. */
uint64_t collector__rb_drops(const struct collector *c);
/* Records dropped because a queue was full, summed over CPUs. Thread: any. */
uint64_t collector__queue_drops(const struct collector *c);
/* Records taken off the ring buffer so far. Thread: any. */
uint64_t collector__received(const struct collector *c);
/* Records of an unexpected size (a kernel/user mismatch), never silently ignored. */
uint64_t collector__bad_records(const struct collector *c);
/* Failed ring_buffer__poll calls: each one is followed by a timer-driven read of the ring, so
 * nothing is lost, but the failure must be shown (the UI makes it a counter and an error).
 * LATTOP_POLL_FAIL_MS=MS (a test knob) makes every poll fail from MS ms after the start.
 * Thread: any. */
uint64_t collector__poll_errors(const struct collector *c);
/* errno of the first failed poll, 0 when none failed. Thread: any. */
int collector__poll_errno(const struct collector *c);
/* Number of per-CPU queues. */
int collector__nqueues(const struct collector *c);
/* CPU time the collector thread has used, in ns (0 when not started). Thread: any. */
uint64_t collector__cpu_ns(const struct collector *c);
/* fd of the shared ring buffer map (for tests and benchmarks). */
int collector__ringbuf_fd(const struct collector *c);

#endif /* LAT_COLLECTOR_H */
