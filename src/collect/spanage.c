// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spanage.c - drop pending span starts older than their span's timeout, and count them.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "collect/spanage.h"
#include "lattop.h"

struct spanage {
	int fd;      /* the pending map */
	int stop_fd; /* eventfd: written once by spanage__stop */
	pthread_t thread;
	int period_ms;
	uint64_t timeout_ns[LAT_SPAN_MAX];
	/* Written by the sweeper thread, read by any thread: counters only, relaxed order. */
	_Atomic uint64_t dropped[LAT_SPAN_MAX];
	struct lat_span_key *stale; /* keys found stale in one sweep (LAT_SPAN_PENDING) */
	/* Tests only: set before any sweep of the caller's, read by whichever thread sweeps. */
	spanage_hook_fn before_take;
	void *hook_arg;
};

/* CLOCK_MONOTONIC in ns. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The newest start an entry holds and how many starts it stores. */
static uint64_t newest(const struct lat_span_pending *v, uint32_t *stored)
{
	*stored = v->depth < LAT_SPAN_DEPTH ? v->depth : LAT_SPAN_DEPTH;
	return *stored ? v->start_ns[*stored - 1] : 0;
}

/* True when entry v of span is older than the span's timeout at now. */
static bool stale(const struct spanage *a, uint32_t span, const struct lat_span_pending *v,
		  uint64_t now)
{
	uint32_t n;
	uint64_t t = newest(v, &n);

	return span < LAT_SPAN_MAX && a->timeout_ns[span] && now > t &&
	       now - t > a->timeout_ns[span];
}

/* One sweep: collect the stale keys first (deleting while walking a hash map restarts the
 * walk), then take each one out and count what was taken.
 *
 * The BPF side may push a start into an entry while this thread ages it. A look-up and then a
 * delete (two syscalls) would drop, uncounted, a start pushed between them; so each entry is
 * taken out with bpf_map_lookup_and_delete_elem, which copies and deletes it in one step under
 * the bucket lock: what is removed is exactly what is counted. The copy is then compared with
 * the timeout again: if a start came since the walk saw the entry, it is not stale and is put
 * back (BPF_NOEXIST); if a newer entry has meanwhile taken the key (a start after the take) or
 * the table is full, the taken starts cannot be merged back and are counted as evicted. An end
 * that comes between the take and the put-back finds nothing and is counted unmatched by the
 * BPF side; the start it should have closed ages out later, counted evicted. Every start is
 * thus counted once, paired or lost, but for one window no syscall can close: a BPF program
 * that looked the entry up before the take and stores into it after the copy (its own run
 * time, nanoseconds) writes into a freed element. Closing that would need a lock the BPF side
 * cannot take in tracing programs. */
int spanage__sweep(struct spanage *a, uint64_t now_ns)
{
	struct lat_span_key cur, next, *prev = NULL;
	struct lat_span_pending v;
	int n = 0, deleted = 0;

	while (n < LAT_SPAN_PENDING && bpf_map_get_next_key(a->fd, prev, &next) == 0) {
		cur = next;
		prev = &cur;
		if (bpf_map_lookup_elem(a->fd, &cur, &v) == 0 && stale(a, cur.span, &v, now_ns))
			a->stale[n++] = cur;
	}
	for (int i = 0; i < n; i++) {
		const struct lat_span_key *k = &a->stale[i];
		uint32_t stored;

		if (a->before_take)
			a->before_take(a->hook_arg, k);
		if (bpf_map_lookup_and_delete_elem(a->fd, k, &v))
			continue; /* its end came: gone */
		newest(&v, &stored);
		if (!stale(a, k->span, &v, now_ns) &&
		    bpf_map_update_elem(a->fd, k, &v, BPF_NOEXIST) == 0)
			continue; /* a start came since the walk: put back */
		atomic_fetch_add_explicit(&a->dropped[k->span], stored, memory_order_relaxed);
		deleted++;
	}
	return deleted;
}

/* Call fn(arg, key) just before each entry is taken out (tests: a start racing the sweep). */
void spanage__set_hook(struct spanage *a, spanage_hook_fn fn, void *arg)
{
	a->hook_arg = arg;
	a->before_take = fn;
}

/* The sweeper thread: one sweep per period until stopped. */
static void *sweeper(void *arg)
{
	struct spanage *a = arg;
	struct pollfd p = { .fd = a->stop_fd, .events = POLLIN };

	for (;;) {
		int r = poll(&p, 1, a->period_ms);

		if (r > 0 || (r < 0 && errno != EINTR))
			break;
		if (r == 0)
			spanage__sweep(a, mono_ns());
	}
	return NULL;
}

/* Start sweeping. */
struct spanage *spanage__start(int pending_fd, const uint64_t *timeout_ns, int n)
{
	struct spanage *a = calloc(1, sizeof(*a));
	uint64_t shortest = 0;
	int e;

	if (!a)
		return NULL;
	a->fd = pending_fd;
	a->stop_fd = -1;
	a->stale = calloc(LAT_SPAN_PENDING, sizeof(*a->stale));
	if (!a->stale)
		goto fail;
	for (int i = 0; i < n && i < LAT_SPAN_MAX; i++) {
		a->timeout_ns[i] = timeout_ns[i];
		if (timeout_ns[i] && (!shortest || timeout_ns[i] < shortest))
			shortest = timeout_ns[i];
	}
	/* Sweep every second, or twice per timeout when that is shorter (10 ms at least): a
	 * start is dropped between its timeout and its timeout plus one period. */
	a->period_ms = 1000;
	if (shortest && shortest / 2000000 < 1000)
		a->period_ms = shortest / 2000000 < 10 ? 10 : (int)(shortest / 2000000);
	a->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (a->stop_fd < 0)
		goto fail;
	e = pthread_create(&a->thread, NULL, sweeper, a);
	if (e) {
		errno = e;
		goto fail;
	}
	return a;
fail:
	e = errno;
	if (a->stop_fd >= 0)
		close(a->stop_fd);
	free(a->stale);
	free(a);
	errno = e;
	return NULL;
}

/* Stop and free. */
void spanage__stop(struct spanage *a)
{
	uint64_t one = 1;

	if (!a)
		return;
	if (write(a->stop_fd, &one, sizeof(one)) != sizeof(one))
		pthread_cancel(a->thread); /* cannot happen with an eventfd; never leak the thread */
	pthread_join(a->thread, NULL);
	close(a->stop_fd);
	free(a->stale);
	free(a);
}

/* Starts of span i dropped so far. */
uint64_t spanage__dropped(const struct spanage *a, int i)
{
	if (!a || i < 0 || i >= LAT_SPAN_MAX)
		return 0;
	return atomic_load_explicit(&a->dropped[i], memory_order_relaxed);
}
