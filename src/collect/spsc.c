// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spsc.c - bounded lock-free single-producer/single-consumer ring of fixed-size records.
 */
#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "collect/spsc.h"

struct spsc {
	/* Producer's line: head is written by the producer (release) and read by the consumer
	 * (acquire); cached_tail is the producer's private copy of tail. */
	alignas(64) atomic_size_t head;
	size_t cached_tail;
	atomic_uint_fast64_t drops;  /* producer writes (relaxed), anyone reads */
	atomic_uint_fast64_t pushed; /* producer writes (relaxed), anyone reads */
	/* Consumer's line: tail is written by the consumer (release), read by the producer
	 * (acquire) to know a slot is free before overwriting it. */
	alignas(64) atomic_size_t tail;
	alignas(64) size_t mask, elem;
	unsigned char *buf;
};

/* Create a queue. */
struct spsc *spsc__new(size_t cap, size_t elem_size)
{
	struct spsc *q;
	size_t n = 1;

	if (!cap || !elem_size) {
		errno = EINVAL;
		return NULL;
	}
	while (n < cap)
		n <<= 1;
	q = aligned_alloc(64, sizeof(*q));
	if (!q)
		return NULL;
	memset(q, 0, sizeof(*q));
	q->buf = malloc(n * elem_size);
	if (!q->buf) {
		free(q);
		errno = ENOMEM;
		return NULL;
	}
	q->mask = n - 1;
	q->elem = elem_size;
	return q;
}

/* Free a queue. */
void spsc__free(struct spsc *q)
{
	if (!q)
		return;
	free(q->buf);
	free(q);
}

/* Producer: copy one record in; false (and drops++) when full. */
bool spsc__push(struct spsc *q, const void *rec)
{
	size_t head = atomic_load_explicit(&q->head, memory_order_relaxed);

	if (head - q->cached_tail > q->mask) {
		/* Looks full: refresh the consumer's position (acquire: its reads of the slot are
		 * done before we overwrite it). */
		q->cached_tail = atomic_load_explicit(&q->tail, memory_order_acquire);
		if (head - q->cached_tail > q->mask) {
			atomic_fetch_add_explicit(&q->drops, 1, memory_order_relaxed);
			return false;
		}
	}
	memcpy(q->buf + (head & q->mask) * q->elem, rec, q->elem);
	/* Release: the record's bytes are visible before the consumer sees the new head. */
	atomic_store_explicit(&q->head, head + 1, memory_order_release);
	atomic_fetch_add_explicit(&q->pushed, 1, memory_order_relaxed);
	return true;
}

/* Consumer: copy up to max records out. */
size_t spsc__pop_batch(struct spsc *q, void *buf, size_t max)
{
	size_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
	size_t head = atomic_load_explicit(&q->head, memory_order_acquire);
	size_t n = head - tail, first, idx;

	if (n > max)
		n = max;
	if (!n)
		return 0;
	idx = tail & q->mask;
	first = q->mask + 1 - idx;
	if (first > n)
		first = n;
	memcpy(buf, q->buf + idx * q->elem, first * q->elem);
	if (n > first)
		memcpy((unsigned char *)buf + first * q->elem, q->buf, (n - first) * q->elem);
	/* Release: our copies are complete before the producer may reuse the slots. */
	atomic_store_explicit(&q->tail, tail + n, memory_order_release);
	return n;
}

/* Records dropped because the queue was full. */
uint64_t spsc__drops(const struct spsc *q)
{
	return atomic_load_explicit(&((struct spsc *)q)->drops, memory_order_relaxed);
}

/* Records pushed successfully. */
uint64_t spsc__pushed(const struct spsc *q)
{
	return atomic_load_explicit(&((struct spsc *)q)->pushed, memory_order_relaxed);
}

/* Capacity in records. */
size_t spsc__cap(const struct spsc *q)
{
	return q->mask + 1;
}
