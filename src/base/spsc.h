/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * spsc.h - bounded lock-free single-producer/single-consumer queue of fixed-size records.
 *
 * The producer (collector thread) never waits: spsc__push on a full queue returns false and
 * counts a drop. The consumer (UI thread) drains in batches. Capacity is a power of two.
 */
#ifndef LAT_SPSC_H
#define LAT_SPSC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct spsc;

/* Create a queue of cap (rounded up to a power of two) records of elem_size bytes; NULL+errno. */
struct spsc *spsc__new(size_t cap, size_t elem_size);
/* Free a queue (NULL is a no-op). Neither thread may use it any more. */
void spsc__free(struct spsc *q);
/* Producer thread: copy one record in; false (and drops++) when full. Never blocks. */
bool spsc__push(struct spsc *q, const void *rec);
/* Consumer thread: copy up to max records out into buf; returns how many. */
size_t spsc__pop_batch(struct spsc *q, void *buf, size_t max);
/* Any thread: records dropped because the queue was full (relaxed read of a monotonic count). */
uint64_t spsc__drops(const struct spsc *q);
/* Any thread: records pushed successfully so far. */
uint64_t spsc__pushed(const struct spsc *q);
/* Capacity in records. */
size_t spsc__cap(const struct spsc *q);

#endif /* LAT_SPSC_H */
