// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spsc.c - bounded lock-free single-producer/single-consumer ring of fixed-size records.
 *
 * head and tail are free-running counters (they wrap modulo 2^N, never reset); slot i lives at
 * (i & mask). The ring holds head - tail records: empty when equal, full at cap. Only the
 * producer writes head, only the consumer writes tail, so each side needs the other's index
 * only to know how far it may go, and it may use a stale copy safely: a stale tail makes the
 * producer see less free space, a stale head makes the consumer see fewer records. Each side
 * keeps such a copy on its own cache line and re-reads the other's index only when the copy
 * says it must stop, so in steady state the two lines do not bounce between cores.
 *
 * Ordering, two release/acquire pairs:
 *   - producer writes slot, then store-release head; consumer load-acquire head, then reads
 *     the slot: the record's bytes are visible before the consumer can see the new head.
 *   - consumer reads slot, then store-release tail; producer load-acquire tail, then
 *     overwrites the slot: the consumer's copy is complete before the producer reuses it.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/spsc.h"

#define CACHE_LINE 64

struct spsc {
	/* Producer's line. */
	/* Next slot to fill. Written by the producer (store-release after the slot's bytes);
	 * read by the producer (relaxed, its own value) and the consumer (acquire). */
	alignas(CACHE_LINE) atomic_size_t head;
	/* Producer only: the last tail it loaded; everything below it is free to overwrite. */
	size_t tail_cache;
	/* Records pushed and dropped. Written by the producer only, as relaxed load + relaxed
	 * store (no read-modify-write needed with one writer); read relaxed by any thread. They
	 * are statistics that order nothing, so relaxed is enough. */
	atomic_uint_least64_t pushed;
	atomic_uint_least64_t drops;

	/* Consumer's line. */
	/* Next slot to read. Written by the consumer (store-release after copying out); read by
	 * the consumer (relaxed, its own value) and the producer (acquire). */
	alignas(CACHE_LINE) atomic_size_t tail;
	/* Consumer only: the last head it loaded; everything below it is ready to read. */
	size_t head_cache;

	/* Read-only after spsc__new; its own line so the index traffic never evicts it. */
	alignas(CACHE_LINE) size_t mask;
	size_t elem;
	unsigned char *ring;
};

/* Create a queue of cap (rounded up to a power of two) records of elem_size bytes; NULL+errno. */
struct spsc *spsc__new(size_t cap, size_t elem_size)
{
	struct spsc *q;
	size_t n = 1;

	if (!cap || !elem_size) {
		errno = EINVAL;
		return NULL;
	}
	while (n < cap) {
		if (n > SIZE_MAX / 2) {
			errno = EINVAL;
			return NULL;
		}
		n <<= 1;
	}
	if (elem_size > SIZE_MAX / n) {
		errno = ENOMEM;
		return NULL;
	}
	q = aligned_alloc(CACHE_LINE, sizeof(*q)); /* sizeof is a multiple of the alignment */
	if (!q) {
		errno = ENOMEM;
		return NULL;
	}
	memset(q, 0, sizeof(*q));
	q->ring = malloc(n * elem_size);
	if (!q->ring) {
		free(q);
		errno = ENOMEM;
		return NULL;
	}
	atomic_init(&q->head, 0);
	atomic_init(&q->tail, 0);
	atomic_init(&q->pushed, 0);
	atomic_init(&q->drops, 0);
	q->mask = n - 1;
	q->elem = elem_size;
	return q;
}

/* Free a queue (NULL is a no-op). Neither thread may use it any more. */
void spsc__free(struct spsc *q)
{
	if (!q)
		return;
	free(q->ring);
	free(q);
}

/* Bump a producer-owned counter: one writer, so a relaxed load and store, no locked RMW. */
static inline void producer_inc(atomic_uint_least64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* Producer thread: copy one record in; false (and drops++) when full. Never blocks. */
bool spsc__push(struct spsc *q, const void *rec)
{
	/* Relaxed: only this thread writes head. */
	size_t head = atomic_load_explicit(&q->head, memory_order_relaxed);

	if (head - q->tail_cache > q->mask) {
		/* Full by the cached tail; reload it. Acquire pairs with the consumer's release
		 * store of tail: its reads of the slots it freed happen before our overwrite. */
		q->tail_cache = atomic_load_explicit(&q->tail, memory_order_acquire);
		if (head - q->tail_cache > q->mask) {
			producer_inc(&q->drops);
			return false;
		}
	}
	memcpy(q->ring + (head & q->mask) * q->elem, rec, q->elem);
	/* Counted before publishing, so a consumer that has popped a record also sees it in
	 * pushed (the release below carries this relaxed store along). */
	producer_inc(&q->pushed);
	/* Release: the record's bytes are visible before the consumer sees head + 1. */
	atomic_store_explicit(&q->head, head + 1, memory_order_release);
	return true;
}

/* Consumer thread: copy up to max records out into buf (at most two memcpy); returns how many. */
size_t spsc__pop_batch(struct spsc *q, void *buf, size_t max)
{
	/* Relaxed: only this thread writes tail. */
	size_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
	size_t n = q->head_cache - tail, idx, first;

	if (n < max) {
		/* Fewer ready than wanted by the cached head; reload it. Acquire pairs with the
		 * producer's release store of head: the slots below it hold complete records. */
		q->head_cache = atomic_load_explicit(&q->head, memory_order_acquire);
		n = q->head_cache - tail;
	}
	if (n > max)
		n = max;
	if (!n)
		return 0;
	idx = tail & q->mask;
	first = q->mask + 1 - idx; /* slots before the ring's end */
	if (first > n)
		first = n;
	memcpy(buf, q->ring + idx * q->elem, first * q->elem);
	if (n > first) /* wrapped: the rest starts at slot 0 */
		memcpy((unsigned char *)buf + first * q->elem, q->ring, (n - first) * q->elem);
	/* Release: our copies are complete before the producer may reuse these slots. */
	atomic_store_explicit(&q->tail, tail + n, memory_order_release);
	return n;
}

/* Any thread: records dropped because the queue was full (relaxed: a statistic). */
uint64_t spsc__drops(const struct spsc *q)
{
	return atomic_load_explicit(&q->drops, memory_order_relaxed);
}

/* Any thread: records pushed successfully so far (relaxed: a statistic). */
uint64_t spsc__pushed(const struct spsc *q)
{
	return atomic_load_explicit(&q->pushed, memory_order_relaxed);
}

/* Capacity in records. */
size_t spsc__cap(const struct spsc *q)
{
	return q->mask + 1;
}
