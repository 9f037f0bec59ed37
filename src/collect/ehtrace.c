// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ehtrace.c - register EventHeader tracepoints through user_events, read them through one perf
 * ring per tracepoint and CPU on a reader thread, pair them (ehpair.c) and queue the samples.
 * See ehtrace.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/evhdr.h"
#include "base/spsc.h"
#include "collect/ehtrace.h"
#include "collect/progagg.h"
#include "collect/tpformat.h"

#define RING_PAGES 256	    /* 1 MiB of samples per tracepoint and CPU */
#define QUEUE_SAMPLES 65536 /* samples between two drains of the UI thread */
#define POLL_MS 50	    /* the reader's longest sleep */
#define TRACE_ENTRY_SIZE 8  /* the common fields before a user_events payload */


struct ring {
	int fd, tp;
	struct perf_event_mmap_page *meta;
	uint8_t *data;
	uint64_t size; /* bytes of data, a power of two */
};

struct ehtrace {
	struct ehpair *pair;
	struct spsc *q;
	int data_fd; /* user_events_data: our registrations live as long as it is open */
	uint32_t enabled[EHPAIR_TP_MAX]; /* the bits the kernel sets while someone listens */
	struct ring *ring;  /* one per tracepoint and online CPU: nring used of cap (x possible) */
	struct pollfd *pfd; /* the reader's, one per ring */
	int nring, cap;
	pthread_t thread;
	bool started, follow; /* follow: a provider was asked */
	uint64_t followed_ns;  /* the reader's last look for new tracepoints */
	int ncpu;
	atomic_bool stop; /* UI thread writes (release), reader reads (acquire) */
	long page;
};

/* Where user_events_data is, or NULL and why. */
const char *ehtrace__user_events(char *why, size_t len)
{
	static char path[96];
	const char *tracefs = tpformat__tracefs();

	if (!tracefs) {
		snprintf(why, len,
			 "tracefs is not mounted and cannot be (EventHeader activities need "
			 "/sys/kernel/tracing with user_events)");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/user_events_data", tracefs);
	if (access(path, W_OK)) {
		snprintf(
		    why, len,
		    "this kernel has no user_events (%s is missing: CONFIG_USER_EVENTS), "
		    "which --activities and --eventheader need: use a kernel that enables it, e.g. "
		    "Ubuntu 24.04's or Azure Linux's",
		    path);
		return NULL;
	}
	return path;
}

/* Queue one paired sample for the UI thread (a full queue counts a drop). */
static void on_sample(void *arg, const struct ehpair_sample *s)
{
	struct ehtrace *t = arg;

	spsc__push(t->q, s);
}

/* Register tracepoint i (name) through user_events. 0 or -errno with err. */
static int reg_tp(struct ehtrace *t, int i, const char *name, char *err, size_t errlen)
{
	char cmd[EVHDR_NAME_MAX + sizeof(EVHDR_TP_FIELDS) + 2];
	struct ue_reg r = {};

	snprintf(cmd, sizeof(cmd), "%s %s", name, EVHDR_TP_FIELDS);
	r.size = sizeof(r);
	r.enable_bit = 0;
	r.enable_size = sizeof(t->enabled[i]);
	r.enable_addr = (uint64_t)(uintptr_t)&t->enabled[i];
	r.name_args = (uint64_t)(uintptr_t)cmd;
	if (ioctl(t->data_fd, UE_IOCSREG, &r) == 0)
		return 0;
	if (errno == EADDRINUSE)
		snprintf(err, errlen,
			 "user_events tracepoint %s exists with fields other than EventHeader's: "
			 "its writer does not follow the convention",
			 name);
	else
		snprintf(err, errlen, "cannot register user_events tracepoint %s: %s", name,
			 strerror(errno));
	return -errno;
}

/* The perf id of user_events tracepoint name, or -errno. */
static long tp_id(const char *name)
{
	const char *tracefs = tpformat__tracefs();
	char path[EVHDR_NAME_MAX + 96], buf[32] = "";
	int fd;
	ssize_t n;

	if (!tracefs)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/user_events/%s/id", tracefs, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

/* Open and map the perf ring of tracepoint tp (perf id id) on cpu. 0, 1 when the CPU is
 * offline, or -errno. */
static int open_ring(struct ehtrace *t, int tp, long id, int cpu)
{
	struct perf_event_attr a = {};
	size_t len = (size_t)(RING_PAGES + 1) * (size_t)t->page;
	struct ring *r;
	void *m;
	int fd;

	if (t->nring == t->cap)
		return -E2BIG;
	r = &t->ring[t->nring];
	a.type = PERF_TYPE_TRACEPOINT;
	a.size = sizeof(a);
	a.config = (uint64_t)id;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(RING_PAGES * t->page / 4);
	fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno == ENODEV ? 1 : -errno;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return -errno;
	}
	r->fd = fd;
	r->tp = tp;
	r->meta = m;
	r->data = (uint8_t *)m + t->page;
	r->size = (uint64_t)RING_PAGES * (uint64_t)t->page;
	t->nring++;
	return 0;
}

/* Copy len bytes at offset off (wrapping) of the size-byte ring data into out. */
static void ring_copy(const uint8_t *data, uint64_t size, uint64_t off, void *out, size_t len)
{
	uint64_t at = off & (size - 1), first = size - at;

	if (first >= len) {
		memcpy(out, data + at, len);
	} else {
		memcpy(out, data + at, first);
		memcpy((uint8_t *)out + first, data, len - first);
	}
}

/* One sample record (rec, len bytes after its header) of tracepoint tp. */
static void take_sample(struct ehpair *p, int tp, const uint8_t *rec, size_t len)
{
	uint32_t tid, raw;
	uint64_t time;

	/* pid, tid (8) | time (8) | cpu, res (8) | raw size (4) | raw */
	if (len < 28) {
		ehpair__add_lost(p, 1);
		return;
	}
	memcpy(&tid, rec + 4, 4);
	memcpy(&time, rec + 8, 8);
	memcpy(&raw, rec + 24, 4);
	if (raw > len - 28 || raw < TRACE_ENTRY_SIZE) {
		ehpair__add_lost(p, 1);
		return;
	}
	ehpair__event(p, tp, rec + 28 + TRACE_ENTRY_SIZE, raw - TRACE_ENTRY_SIZE, time, tid);
}

/* Read the records of a perf ring between tail and head. */
uint64_t ehtrace__parse_ring(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
			     struct ehpair *p, int tp)
{
	static _Thread_local uint8_t rec[65536];

	while (tail < head) {
		struct perf_event_header h;

		ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail || h.size > size)
			break; /* cannot happen with a sane kernel: give up on this pass */
		ring_copy(data, size, tail + sizeof(h), rec, h.size - sizeof(h));
		if (h.type == PERF_RECORD_SAMPLE) {
			take_sample(p, tp, rec, h.size - sizeof(h));
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost;

			memcpy(&lost, rec + 8, 8);
			ehpair__add_lost(p, lost);
		}
		tail += h.size;
	}
	return tail;
}

/* Read every record of ring r written so far. */
static void drain_ring(struct ehtrace *t, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail =
	    ehtrace__parse_ring(r->data, r->size, r->meta->data_tail, head, t->pair, r->tp);

	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

/* CLOCK_MONOTONIC in ns. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Open the rings of tracepoint i (name) on every CPU. 0 or -errno with err. */
static int open_tp(struct ehtrace *t, int i, const char *name, char *err, size_t errlen)
{
	long id = tp_id(name);
	int e;

	if (id < 0) {
		snprintf(err, errlen, "cannot read the perf id of user_events:%s: %s", name,
			 strerror((int)-id));
		return (int)id;
	}
	for (int cpu = 0; cpu < t->ncpu; cpu++) {
		e = open_ring(t, i, id, cpu);
		if (e < 0) {
			snprintf(err, errlen, "cannot open perf on user_events:%s: %s", name,
				 strerror(-e));
			return e;
		}
	}
	return 0;
}

/* Take the providers' tracepoints that exist now and are not followed yet (a tracepoint whose
 * rings do not open is counted lost once, and not retried). */
static void follow_new(struct ehtrace *t)
{
	const char *tracefs = tpformat__tracefs();
	char path[128], err[256];
	struct dirent *de;
	DIR *d;

	if (!tracefs)
		return;
	snprintf(path, sizeof(path), "%s/events/user_events", tracefs);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int i = ehpair__follow(t->pair, de->d_name), first = t->nring;

		if (i < 0)
			continue;
		if (open_tp(t, i, de->d_name, err, sizeof(err)))
			ehpair__add_lost(t->pair, 1);
		for (int k = first; k < t->nring; k++)
			t->pfd[k] = (struct pollfd){.fd = t->ring[k].fd, .events = POLLIN};
	}
	closedir(d);
}

/* The reader thread: wait for a ring to fill a quarter (or POLL_MS), read them all, end the
 * pass; a last pass after the stop. */
static void *reader(void *arg)
{
	struct ehtrace *t = arg;
	struct pollfd *pfd = t->pfd;
	bool last = false;
	uint64_t now;

	for (int i = 0; i < t->nring; i++)
		pfd[i] = (struct pollfd){.fd = t->ring[i].fd, .events = POLLIN};
	while (!last) {
		last = atomic_load_explicit(&t->stop, memory_order_acquire);
		if (!last)
			poll(pfd, (nfds_t)t->nring, POLL_MS);
		for (int i = 0; i < t->nring; i++)
			drain_ring(t, &t->ring[i]);
		now = mono_ns();
		ehpair__pass_end(t->pair, now);
		if (t->follow && !last && now - t->followed_ns >= EHTRACE_FOLLOW_NS) {
			t->followed_ns = now;
			follow_new(t);
		}
	}
	return NULL;
}

/* Add the specs to the pairing: each tracepoint, or each provider. 0, or -ENOENT with err. */
static int add_specs(struct ehtrace *t, const struct ehtrace_spec *sp, int n, char *err,
		     size_t errlen)
{
	for (int i = 0; i < n; i++) {
		const char *act = sp[i].activity[0] ? sp[i].activity : NULL;
		int e;

		if (sp[i].provider) {
			e = ehpair__add_provider(t->pair, sp[i].tp, sp[i].level, sp[i].kw, act,
						 &sp[i].o);
			t->follow = true;
		} else {
			e = ehpair__add_opts(t->pair, sp[i].tp, act,
					     sp[i].series[0] ? sp[i].series : NULL, &sp[i].o);
		}
		if (e < 0) {
			snprintf(err, errlen,
				 e == -EINVAL
				     ? "'%s' is not an EventHeader tracepoint name "
				       "(Provider_L<level>K<keyword>, e.g. MyProvider_L4K1)"
				     : "'%s': too many EventHeader tracepoints, activities or options",
				 sp[i].tp);
			return -ENOENT;
		}
	}
	return 0;
}

/* Add the specs to the pairing, register their tracepoints (a provider's are followed, not
 * registered) and open their rings. */
static int open_all(struct ehtrace *t, const struct ehtrace_spec *sp, int n, char *err,
		    size_t errlen)
{
	int e;

	/* Every possible CPU id (sparse ids included; an offline one has no ring: open_ring). */
	t->ncpu = progagg__ncpu();
	if ((e = add_specs(t, sp, n, err, errlen)))
		return e;
	t->cap = (t->follow ? EHPAIR_TP_MAX : ehpair__ntp(t->pair)) * t->ncpu;
	t->ring = calloc((size_t)t->cap, sizeof(*t->ring));
	t->pfd = calloc((size_t)t->cap, sizeof(*t->pfd));
	if (!t->ring || !t->pfd) {
		snprintf(err, errlen, "out of memory for %d perf rings", t->cap);
		return -ENOMEM;
	}
	for (int i = 0; i < ehpair__ntp(t->pair); i++) {
		const char *name = ehpair__tp_name(t->pair, i);

		if ((e = reg_tp(t, i, name, err, errlen)))
			return e == -EADDRINUSE ? -ENOENT : e;
		if ((e = open_tp(t, i, name, err, errlen)))
			return e;
	}
	if (t->follow) {
		follow_new(t);
		t->followed_ns = mono_ns();
	}
	return 0;
}

/* Register, open and start. */
struct ehtrace *ehtrace__new(const struct ehtrace_spec *sp, int n, uint64_t max_age_ns, char *err,
			     size_t errlen)
{
	const char *path = ehtrace__user_events(err, errlen);
	struct ehtrace *t;
	int e;

	if (!path) {
		errno = ENOENT;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->page = sysconf(_SC_PAGESIZE);
	t->data_fd = open(path, O_RDWR | O_CLOEXEC);
	t->pair = ehpair__new(max_age_ns, on_sample, t);
	t->q = spsc__new(QUEUE_SAMPLES, sizeof(struct ehpair_sample));
	if (t->data_fd < 0 || !t->pair || !t->q) {
		e = errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(e));
		goto fail;
	}
	e = -open_all(t, sp, n, err, errlen);
	if (!e)
		e = pthread_create(&t->thread, NULL, reader, t);
	if (e)
		goto fail;
	t->started = true;
	return t;
fail:
	ehtrace__free(t);
	errno = e;
	return NULL;
}

/* Hand queued samples to fn. */
size_t ehtrace__drain(struct ehtrace *t, void (*fn)(void *arg, const struct ehpair_sample *s),
		      void *arg)
{
	struct ehpair_sample buf[256];
	size_t n, total = 0;

	if (!t)
		return 0;
	while ((n = spsc__pop_batch(t->q, buf, 256)) > 0) {
		for (size_t i = 0; i < n; i++)
			fn(arg, &buf[i]);
		total += n;
	}
	return total;
}

/* Series known so far. */
uint32_t ehtrace__nseries(const struct ehtrace *t) { return t ? ehpair__nseries(t->pair) : 0; }

/* The name of series i. */
const char *ehtrace__series_name(const struct ehtrace *t, uint32_t i)
{
	return ehpair__series_name(t->pair, i);
}

/* What series i is. */
void ehtrace__series_info(const struct ehtrace *t, uint32_t i, struct ehpair_info *out)
{
	ehpair__series_info(t->pair, i, out);
}

/* The loss counters, the queue's drops included. */
void ehtrace__loss(const struct ehtrace *t, struct ehpair_loss *out)
{
	ehpair__loss(t->pair, out);
	out->lost += spsc__drops(t->q);
}

/* Stop the reader after its last pass. */
void ehtrace__stop(struct ehtrace *t)
{
	if (!t || !t->started)
		return;
	atomic_store_explicit(&t->stop, true, memory_order_release);
	pthread_join(t->thread, NULL);
	t->started = false;
}

/* Stop and free. */
void ehtrace__free(struct ehtrace *t)
{
	if (!t)
		return;
	ehtrace__stop(t);
	for (int i = 0; i < t->nring; i++) {
		munmap(t->ring[i].meta, (size_t)(RING_PAGES + 1) * (size_t)t->page);
		close(t->ring[i].fd);
	}
	if (t->data_fd >= 0)
		close(t->data_fd);
	ehpair__free(t->pair);
	spsc__free(t->q);
	free(t->ring);
	free(t->pfd);
	free(t);
}
