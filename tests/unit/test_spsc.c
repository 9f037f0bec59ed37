// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_spsc.c - the SPSC ring: capacity, full/drop accounting, order, wrap-around with odd
 * batches, and two threads (a fast and a slow consumer). Clean under ThreadSanitizer.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "base/spsc.h"
#include "test.h"

#define NRECS 5000000
#define CHECK_MUL 0x9e3779b97f4a7c15ull

/* A record the size of lattop's events: a sequence number and a checksum of it. */
struct rec {
	uint64_t seq;
	uint32_t cpu, id;
	uint64_t check[4]; /* seq * CHECK_MUL + i: a torn or stale copy shows up here */
};

_Static_assert(sizeof(struct rec) == 48, "test record is event-sized");

/* Build record seq. */
static void rec_fill(struct rec *r, uint64_t seq)
{
	r->seq = seq;
	r->cpu = (uint32_t)(seq & 7);
	r->id = (uint32_t)(seq >> 3);
	for (int i = 0; i < 4; i++)
		r->check[i] = seq * CHECK_MUL + (uint64_t)i;
}

/* True when record r is intact. */
static bool rec_ok(const struct rec *r)
{
	if (r->cpu != (uint32_t)(r->seq & 7) || r->id != (uint32_t)(r->seq >> 3))
		return false;
	for (int i = 0; i < 4; i++)
		if (r->check[i] != r->seq * CHECK_MUL + (uint64_t)i)
			return false;
	return true;
}

/* Push record seq; returns what spsc__push returned. */
static bool push_seq(struct spsc *q, uint64_t seq)
{
	struct rec r;

	rec_fill(&r, seq);
	return spsc__push(q, &r);
}

/* Capacity rounds up to a power of two; bad sizes fail with EINVAL/ENOMEM. */
static void test_new(void)
{
	static const size_t in[] = { 1, 2, 3, 5, 1000, 1024, 1025 };
	static const size_t out[] = { 1, 2, 4, 8, 1024, 1024, 2048 };
	struct spsc *q;

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		q = spsc__new(in[i], sizeof(struct rec));
		if (!ASSERT_TRUE(q != NULL, "new"))
			continue;
		ASSERT_EQ(spsc__cap(q), out[i], "cap rounded up");
		ASSERT_EQ(spsc__pushed(q), 0, "pushed");
		ASSERT_EQ(spsc__drops(q), 0, "drops");
		spsc__free(q);
	}
	errno = 0;
	ASSERT_TRUE(spsc__new(0, 48) == NULL && errno == EINVAL, "cap 0");
	errno = 0;
	ASSERT_TRUE(spsc__new(8, 0) == NULL && errno == EINVAL, "elem 0");
	errno = 0;
	ASSERT_TRUE(spsc__new(SIZE_MAX, 1) == NULL && errno == EINVAL, "cap too large to round");
	errno = 0;
	ASSERT_TRUE(spsc__new(1 << 20, SIZE_MAX / 1024) == NULL && errno == ENOMEM,
		    "size overflow");
	spsc__free(NULL);
}

/* One thread: fill to capacity, the next push drops, pops come back in order. */
static void test_fill_full_order(void)
{
	struct rec out[200];
	struct spsc *q = spsc__new(100, sizeof(struct rec));
	size_t cap, n;

	if (!ASSERT_TRUE(q != NULL, "new"))
		return;
	cap = spsc__cap(q);
	ASSERT_EQ(cap, 128, "cap");
	ASSERT_EQ(spsc__pop_batch(q, out, 10), 0, "empty pop");
	for (size_t i = 0; i < cap; i++)
		if (!ASSERT_TRUE(push_seq(q, i), "push below capacity"))
			break;
	ASSERT_TRUE(!push_seq(q, cap), "push on full returns false");
	ASSERT_EQ(spsc__drops(q), 1, "drops");
	ASSERT_EQ(spsc__pushed(q), cap, "pushed");
	ASSERT_EQ(spsc__pop_batch(q, out, 0), 0, "max 0 pops nothing");
	n = spsc__pop_batch(q, out, 200);
	ASSERT_EQ(n, cap, "pop all");
	for (size_t i = 0; i < n; i++)
		if (!ASSERT_EQ(out[i].seq, i, "order") || !ASSERT_TRUE(rec_ok(&out[i]), "intact"))
			break;
	ASSERT_EQ(spsc__pop_batch(q, out, 200), 0, "empty again");
	/* Room again after the pop; the next one goes to the slot after the last. */
	ASSERT_TRUE(push_seq(q, 1000), "push after pop");
	ASSERT_EQ(spsc__pop_batch(q, out, 200), 1, "one");
	ASSERT_EQ(out[0].seq, 1000, "its seq");
	ASSERT_EQ(spsc__drops(q), 1, "drops unchanged");
	ASSERT_EQ(spsc__pushed(q), cap + 1, "pushed");
	spsc__free(q);
}

/* Odd-sized pushes and pops walk the indexes around the ring many times, splitting batches. */
static void test_wrap_odd_batches(void)
{
	static const size_t pops[] = { 3, 5, 7, 1, 11, 13 };
	struct rec out[16];
	struct spsc *q = spsc__new(16, sizeof(struct rec));
	uint64_t next_push = 0, next_pop = 0, drops = 0;
	bool ok = true;

	if (!ASSERT_TRUE(q != NULL, "new"))
		return;
	for (int round = 0; ok && round < 10000; round++) {
		size_t k = (size_t)(round * 7 % 19) + 1, n; /* 10 pushed per round on average */

		for (size_t i = 0; i < k; i++) {
			if (push_seq(q, next_push))
				next_push++;
			else
				drops++;
		}
		n = spsc__pop_batch(q, out, pops[round % 6]);
		ok &= ASSERT_TRUE(n <= pops[round % 6], "at most max");
		for (size_t i = 0; ok && i < n; i++) {
			ok &= ASSERT_EQ(out[i].seq, next_pop, "order across the wrap");
			ok &= ASSERT_TRUE(rec_ok(&out[i]), "intact across the wrap");
			next_pop++;
		}
	}
	/* Drain: everything pushed comes out, in order. */
	for (size_t n; ok && (n = spsc__pop_batch(q, out, 16)) > 0;)
		for (size_t i = 0; ok && i < n; i++)
			ok &= ASSERT_EQ(out[i].seq, next_pop++, "drain order");
	ASSERT_EQ(next_pop, next_push, "all pushed popped");
	ASSERT_TRUE(next_push > 10 * 16, "wrapped many times");
	ASSERT_TRUE(drops > 0, "the ring filled up at times");
	ASSERT_EQ(spsc__pushed(q), next_push, "pushed");
	ASSERT_EQ(spsc__drops(q), drops, "drops");
	spsc__free(q);
}

/* Shared by the producer thread and the test's consumer. */
struct run {
	struct spsc *q;
	uint64_t n;              /* records the producer offers */
	bool yield_on_drop;      /* pace the producer: let a descheduled consumer run */
	/* Written by the producer before it sets done; read by the consumer after it sees done
	 * (the release/acquire pair on done orders them). */
	uint64_t pushed, drops, seq_sum;
	double producer_ms;
	atomic_bool go;          /* consumer stores (relaxed) once it is polling; producer spins */
	atomic_bool done;        /* producer stores release when finished; consumer loads acquire */
};

/* Producer thread: offer n records once each, never retrying or waiting for room. */
static void *producer(void *arg)
{
	struct run *r = arg;
	struct timespec t0, t1;

	/* Start together with the consumer, not while it is still being set up. Relaxed: go
	 * carries no data. */
	while (!atomic_load_explicit(&r->go, memory_order_relaxed))
		sched_yield();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (uint64_t seq = 0; seq < r->n; seq++) {
		if (push_seq(r->q, seq)) {
			r->pushed++;
			r->seq_sum += seq;
		} else {
			r->drops++; /* the record is lost: it is never offered again */
			if (r->yield_on_drop)
				sched_yield();
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->producer_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
			 (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	atomic_store_explicit(&r->done, true, memory_order_release);
	return NULL;
}

/* Run a producer thread against a consumer here; sleep_us > 0 makes the consumer slow. */
static void run_pair(size_t cap, uint64_t n, size_t batch, long sleep_us)
{
	struct rec *buf = malloc(batch * sizeof(*buf));
	struct run r = { .n = n, .yield_on_drop = !sleep_us };
	uint64_t popped = 0, popped_at_done = 0, seq_sum = 0, last = 0, batches = 0;
	bool ok = true, seen_done = false;
	pthread_t tid;

	r.q = spsc__new(cap, sizeof(struct rec));
	atomic_init(&r.go, false);
	atomic_init(&r.done, false);
	if (!ASSERT_TRUE(buf && r.q, "alloc") ||
	    !ASSERT_OK(pthread_create(&tid, NULL, producer, &r), "pthread_create"))
		goto cleanup;
	atomic_store_explicit(&r.go, true, memory_order_relaxed);
	for (;;) {
		/* done is read before the pop: seen true, that pop sees every record pushed. */
		bool done = atomic_load_explicit(&r.done, memory_order_acquire);
		size_t got = spsc__pop_batch(r.q, buf, 1 + batches % batch);

		if (done && !seen_done) {
			seen_done = true;
			popped_at_done = popped;
		}
		for (size_t i = 0; ok && i < got; i++) {
			ok &= ASSERT_TRUE(popped + i == 0 || buf[i].seq > last,
					  "seq strictly rises");
			ok &= ASSERT_TRUE(buf[i].seq < n && rec_ok(&buf[i]), "record intact");
			last = buf[i].seq;
			seq_sum += buf[i].seq;
		}
		popped += got;
		batches++;
		/* pushed is counted before head is published: never behind what we popped. */
		ok &= ASSERT_TRUE(spsc__pushed(r.q) >= popped, "pushed >= popped");
		if (!got && done)
			break;
		if (sleep_us) {
			struct timespec ts = { 0, sleep_us * 1000 };

			nanosleep(&ts, NULL);
		} else if (!got) {
			sched_yield();
		}
	}
	pthread_join(tid, NULL);
	ASSERT_EQ(r.pushed + r.drops, n, "pushed + drops == offered");
	ASSERT_EQ(spsc__pushed(r.q), r.pushed, "spsc__pushed");
	ASSERT_EQ(spsc__drops(r.q), r.drops, "spsc__drops");
	ASSERT_EQ(popped, r.pushed, "popped == pushed");
	ASSERT_TRUE(seq_sum == r.seq_sum, "popped exactly the pushed sequence numbers");
	printf("  info: cap %zu, %" PRIu64 " offered: %" PRIu64 " pushed, %" PRIu64
	       " dropped, %" PRIu64 " batches; producer %.1f ms; consumer had %" PRIu64
	       " when the producer finished\n",
	       spsc__cap(r.q), n, r.pushed, r.drops, batches, r.producer_ms, popped_at_done);
	if (sleep_us) {
		/* A producer that waited for room would drop nothing and finish only once the
		 * consumer had nearly caught up. */
		ASSERT_TRUE(r.drops > 0, "slow consumer: drops > 0");
		ASSERT_TRUE(popped_at_done + spsc__cap(r.q) < n,
			    "producer finished while the consumer lagged");
	}
cleanup:
	spsc__free(r.q);
	free(buf);
}

/*
 * Two threads, 5M event-sized records, consumer popping in batches of 1..256. The producer
 * yields after a drop so that, on a busy machine where both threads share a core, most records
 * still go through the ring rather than being dropped while the consumer is off the CPU.
 */
static void test_two_threads(void)
{
	run_pair(1024, NRECS, 256, 0);
}

/* A small queue and a consumer that sleeps each batch: the producer drops and still finishes. */
static void test_slow_consumer(void)
{
	run_pair(64, NRECS, 16, 100);
}

int main(void)
{
	test__suite = "spsc";
	RUN_TEST(test_new);
	RUN_TEST(test_fill_full_order);
	RUN_TEST(test_wrap_odd_batches);
	RUN_TEST(test_two_threads);
	RUN_TEST(test_slow_consumer);
	printf("spsc: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
