// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * collector.c - ring buffer polling thread feeding per-CPU SPSC queues.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect/collector.h"
#include "base/spsc.h"

/* Poll timeout: also the longest a record submitted without a wake-up waits, and the period
 * of the timer that reads the ring when polling fails. */
#define COLLECTOR_POLL_MS 20

struct collector {
	int rb_fd, drops_fd;
	struct lat_drops *drops; /* mmap of the lat_drops array, an entry per CPU (BPF writes) */
	size_t drops_len;        /* its length: whole pages */
	int ncpu;                /* possible CPUs: lat_drops' entries */
	struct ring_buffer *rb;
	int nq;
	struct spsc **q;
	pthread_t thread;
	bool started;
	atomic_bool stop;     /* written by stop(), read by the thread: relaxed, polled */
	atomic_uint_fast64_t received; /* written by the thread only; relaxed */
	atomic_uint_fast64_t bad;      /* written by the thread only; relaxed */
	atomic_uint_fast64_t poll_errors; /* written by the thread only; relaxed */
	atomic_int poll_errno;            /* thread -> UI: errno of the first failure; relaxed */
	long fail_after_ms; /* LATTOP_POLL_FAIL_MS (test knob), -1 = off; set before start */
};

/* CLOCK_MONOTONIC in ms. */
static uint64_t collector_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Ring buffer callback (collector thread): copy one record into its CPU's queue. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct collector *c = ctx;
	const struct lat_event *e = data;

	if (size != sizeof(*e)) {
		atomic_fetch_add_explicit(&c->bad, 1, memory_order_relaxed);
		return 0;
	}
	/* Single writer (this thread): relaxed load+store, no locked read-modify-write. */
	atomic_store_explicit(&c->received,
			      atomic_load_explicit(&c->received, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	/* A full queue counts a drop inside spsc__push; the collector goes on. */
	spsc__push(c->q[e->cpu < (unsigned)c->nq ? e->cpu : 0], e); /* a CPU id is below nq */
	return 0;
}

/* Create the shared maps and the queues. */
struct collector *collector__new(size_t qcap)
{
	LIBBPF_OPTS(bpf_map_create_opts, mmap_opts, .map_flags = BPF_F_MMAPABLE);
	struct collector *c = calloc(1, sizeof(*c));
	int ncpu = libbpf_num_possible_cpus();
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	int err;

	if (!c)
		return NULL;
	c->rb_fd = c->drops_fd = -1;
	if (ncpu <= 0) {
		err = ncpu ? ncpu : -EINVAL;
		goto fail;
	}
	if (ncpu > LAT_CPUS_LIMIT) {
		err = -E2BIG; /* the session says what (session.c open_shared) */
		goto fail;
	}
	/* A queue per possible CPU: each CPU's records stay in order, whatever its id. */
	c->ncpu = c->nq = ncpu;
	c->rb_fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "events", 0, 0, LAT_RINGBUF_BYTES, NULL);
	if (c->rb_fd < 0) {
		err = -errno;
		goto fail;
	}
	c->drops_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "lat_drops", sizeof(__u32),
				     sizeof(struct lat_drops), (__u32)ncpu, &mmap_opts);
	if (c->drops_fd < 0) {
		err = -errno;
		goto fail;
	}
	c->drops_len = ((size_t)ncpu * sizeof(struct lat_drops) + pg - 1) / pg * pg;
	c->drops = mmap(NULL, c->drops_len, PROT_READ, MAP_SHARED, c->drops_fd, 0);
	if (c->drops == MAP_FAILED) {
		c->drops = NULL;
		err = -errno;
		goto fail;
	}
	c->rb = ring_buffer__new(c->rb_fd, on_record, c, NULL);
	if (!c->rb) {
		err = -errno;
		goto fail;
	}
	c->q = calloc(c->nq, sizeof(*c->q));
	if (!c->q) {
		err = -ENOMEM;
		goto fail;
	}
	for (int i = 0; i < c->nq; i++) {
		c->q[i] = spsc__new(qcap, sizeof(struct lat_event));
		if (!c->q[i]) {
			err = -ENOMEM;
			goto fail;
		}
	}
	return c;
fail:
	collector__free(c);
	errno = -err;
	return NULL;
}

/* Make obj use the collector's shared maps. */
int collector__share(struct collector *c, struct bpf_object *obj)
{
	struct bpf_map *m;
	int err;

	m = bpf_object__find_map_by_name(obj, "events");
	if (m) {
		err = bpf_map__reuse_fd(m, c->rb_fd);
		if (err)
			return err;
	}
	m = bpf_object__find_map_by_name(obj, "lat_drops");
	if (m) {
		err = bpf_map__reuse_fd(m, c->drops_fd);
		if (err)
			return err;
	}
	return 0;
}

/* Test knob LATTOP_POLL_FAIL_MS: make every ring_buffer__poll fail from then on, for real, by
 * putting /dev/null where libbpf's epoll fd was (epoll_wait then fails with EINVAL). */
static void break_epoll(struct collector *c)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		dup3(fd, ring_buffer__epoll_fd(c->rb), O_CLOEXEC);
		close(fd);
	}
}

/* Count a failed poll (the first errno is kept for the sentence the UI shows). */
static void poll_failed(struct collector *c, int e)
{
	int none = 0;

	atomic_compare_exchange_strong_explicit(&c->poll_errno, &none, e, memory_order_relaxed,
						memory_order_relaxed);
	atomic_store_explicit(&c->poll_errors,
			      atomic_load_explicit(&c->poll_errors, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* Collector thread body: poll until told to stop. A failed poll never stops it: the failure
 * is counted and shown, and the ring is read on a timer instead (consume needs no epoll), so
 * no event is lost to it. */
static void *collector_main(void *arg)
{
	struct collector *c = arg;
	uint64_t t0 = collector_now_ms();
	bool broken = false;

	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		int n;

		if (c->fail_after_ms >= 0 && !broken &&
		    collector_now_ms() - t0 >= (uint64_t)c->fail_after_ms) {
			break_epoll(c);
			broken = true;
		}
		n = ring_buffer__poll(c->rb, COLLECTOR_POLL_MS);
		if (n < 0 && n != -EINTR) {
			struct timespec nap = { 0, COLLECTOR_POLL_MS * 1000000L };

			poll_failed(c, -n);
			if (ring_buffer__consume(c->rb) < 0)
				poll_failed(c, EINVAL);
			nanosleep(&nap, NULL);
			continue;
		}
		/* Producers wake us only every LAT_WAKEUP_EVERY records, and poll consumes only
		 * rings epoll reported: after a quiet timeout, take the unsignalled tail too. */
		if (n == 0)
			ring_buffer__consume(c->rb);
	}
	/* Deliver what is already in the ring before leaving. */
	ring_buffer__consume(c->rb);
	return NULL;
}

/* Start the collector thread. */
int collector__start(struct collector *c)
{
	const char *knob = getenv("LATTOP_POLL_FAIL_MS");
	int err;

	c->fail_after_ms = knob && *knob ? strtol(knob, NULL, 10) : -1;
	err = pthread_create(&c->thread, NULL, collector_main, c);

	if (err)
		return -err;
	c->started = true;
	return 0;
}

/* Stop and join the thread. */
void collector__stop(struct collector *c)
{
	if (!c || !c->started)
		return;
	atomic_store_explicit(&c->stop, true, memory_order_relaxed);
	pthread_join(c->thread, NULL);
	c->started = false;
}

/* Stop, join and free everything. */
void collector__free(struct collector *c)
{
	if (!c)
		return;
	collector__stop(c);
	ring_buffer__free(c->rb);
	if (c->q) {
		for (int i = 0; i < c->nq; i++)
			spsc__free(c->q[i]);
		free(c->q);
	}
	if (c->drops)
		munmap(c->drops, c->drops_len);
	if (c->drops_fd >= 0)
		close(c->drops_fd);
	if (c->rb_fd >= 0)
		close(c->rb_fd);
	free(c);
}

/* Drain every queue through fn. */
size_t collector__drain(struct collector *c, void (*fn)(const struct lat_event *e, void *arg),
			void *arg)
{
	struct lat_event buf[512];
	size_t total = 0;

	for (int i = 0; i < c->nq; i++) {
		size_t got;

		while ((got = spsc__pop_batch(c->q[i], buf, 512)) > 0) {
			for (size_t k = 0; k < got; k++)
				fn(&buf[k], arg);
			total += got;
		}
	}
	return total;
}

/* Ring buffer reserve failures counted by BPF. */
uint64_t collector__rb_drops(const struct collector *c)
{
	uint64_t sum = 0;

	for (int i = 0; i < c->ncpu; i++)
		sum += __atomic_load_n(&c->drops[i].rb, __ATOMIC_RELAXED);
	return sum;
}

/* Records dropped because a queue was full. */
uint64_t collector__queue_drops(const struct collector *c)
{
	uint64_t sum = 0;

	for (int i = 0; i < c->nq; i++)
		sum += spsc__drops(c->q[i]);
	return sum;
}

/* Records taken off the ring buffer so far. */
uint64_t collector__received(const struct collector *c)
{
	return atomic_load_explicit(&c->received, memory_order_relaxed);
}

/* Records of an unexpected size. */
uint64_t collector__bad_records(const struct collector *c)
{
	return atomic_load_explicit(&c->bad, memory_order_relaxed);
}

/* Failed ring_buffer__poll calls. */
uint64_t collector__poll_errors(const struct collector *c)
{
	return atomic_load_explicit(&c->poll_errors, memory_order_relaxed);
}

/* errno of the first failed poll (0 = none). */
int collector__poll_errno(const struct collector *c)
{
	return atomic_load_explicit(&c->poll_errno, memory_order_relaxed);
}

/* Number of per-CPU queues. */
int collector__nqueues(const struct collector *c)
{
	return c->nq;
}

/* CPU time the collector thread has used. */
uint64_t collector__cpu_ns(const struct collector *c)
{
	struct timespec ts;
	clockid_t cid;

	if (!c->started || pthread_getcpuclockid(c->thread, &cid) || clock_gettime(cid, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* fd of the shared ring buffer map. */
int collector__ringbuf_fd(const struct collector *c)
{
	return c->rb_fd;
}
