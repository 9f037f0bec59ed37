// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * recorder.c - the recording writer: frames encoded on the UI thread, written by a thread of
 * their own (see recorder.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>


#include "base/jsonw.h"
#include "base/outfile.h"
#include "rec/recorder.h"
#include "rec/rec.h"
#include "base/clock.h"
#include "model/model.h"

/* Frames the writer may fall behind by: 64 intervals (a minute at the default interval). */
#define RECQ_FRAMES 64
/* Events per REC_EVENTS record: 1024 x 48 bytes = 48 KiB, framing 20 bytes per batch. */
#define RAW_BATCH 1024
/* Queue slots --raw batches may not take: interval frames (what replay needs) always fit. */
#define RECQ_RESERVED 8

struct frame {
	struct rec_buf b;
	bool sync;     /* fdatasync after writing (end of an interval) */
	uint32_t nraw; /* events in a --raw batch (0 for an interval frame) */
};

struct recorder {
	char path[4096];
	int fd;
	bool raw;
	struct rec_enc *enc;
	pthread_t thr;
	bool started;
	/* Queue: the UI thread pushes, the writer pops, both under mu, which is only ever held
	 * for a pointer move (never across I/O), so the UI thread never waits for the disk. */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct frame *q[RECQ_FRAMES];
	unsigned head, count;
	bool stop;               /* under mu */
	atomic_int err;          /* writer -> UI: errno of the first failure (relaxed) */
	atomic_uint_fast64_t bytes; /* writer -> UI: bytes written (relaxed) */
	uint64_t lost;           /* UI thread: frames dropped */
	uint64_t lost_events;    /* UI thread: --raw events in the dropped frames */
	struct lat_event *rawbuf; /* UI thread: events waiting for a batch */
	uint32_t nraw;
};

/* Writer thread: pop frames and write them; after a failure, drop the rest. */
static void *writer_main(void *arg)
{
	struct recorder *r = arg;

	for (;;) {
		struct frame *f;
		int e;

		pthread_mutex_lock(&r->mu);
		while (!r->count && !r->stop)
			pthread_cond_wait(&r->cv, &r->mu);
		if (!r->count) {
			pthread_mutex_unlock(&r->mu);
			break;
		}
		f = r->q[r->head];
		r->head = (r->head + 1) % RECQ_FRAMES;
		r->count--;
		pthread_mutex_unlock(&r->mu);
		if (!atomic_load_explicit(&r->err, memory_order_relaxed)) {
			e = outfile__write_all(r->fd, f->b.p, f->b.len);
			if (!e && f->sync && fdatasync(r->fd))
				e = -errno;
			if (e)
				atomic_store_explicit(&r->err, -e, memory_order_relaxed);
			else
				atomic_fetch_add_explicit(&r->bytes, f->b.len,
							  memory_order_relaxed);
		}
		rec_buf__fini(&f->b);
		free(f);
	}
	return NULL;
}

/* Queue a frame without waiting for the disk; a full queue drops it and counts the loss.
 * Returns false when the frame was dropped. */
static bool push(struct recorder *r, struct frame *f)
{
	unsigned room = f->nraw ? RECQ_FRAMES - RECQ_RESERVED : RECQ_FRAMES;

	if (f->b.oom) {
		r->lost++;
		r->lost_events += f->nraw;
		rec_buf__fini(&f->b);
		free(f);
		return false;
	}
	pthread_mutex_lock(&r->mu);
	if (r->count >= room) {
		pthread_mutex_unlock(&r->mu);
		r->lost++;
		r->lost_events += f->nraw;
		rec_buf__fini(&f->b);
		free(f);
		return false;
	}
	r->q[(r->head + r->count) % RECQ_FRAMES] = f;
	r->count++;
	pthread_cond_signal(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return true;
}

/* Queue the waiting raw events as one record. */
static void flush_raw(struct recorder *r)
{
	struct frame *f;

	if (!r->nraw)
		return;
	f = calloc(1, sizeof(*f));
	if (!f) {
		r->lost++;
		r->lost_events += r->nraw;
	} else {
		rec__events(&f->b, r->rawbuf, r->nraw);
		f->nraw = r->nraw;
		push(r, f);
	}
	r->nraw = 0;
}

/* Keep one event for --raw. */
void recorder__event(struct recorder *r, const struct lat_event *e)
{
	if (!r || !r->raw)
		return;
	r->rawbuf[r->nraw++] = *e;
	if (r->nraw == RAW_BATCH)
		flush_raw(r);
}

/* The metadata JSON of a new recording (malloc'd), or NULL when out of memory. Integers are
 * written whole (jsonw): a wall-clock ns count is above 2^53, where a double rounds. */
char *recorder__meta_json(const struct rec_meta *meta)
{
	const struct model *m = meta->m;
	struct utsname u;
	struct timespec rt;
	struct jsonw_mem jm;
	struct jsonw *w = &jm.w;

	if (jsonw__mem_open(&jm))
		return NULL;
	clock_gettime(CLOCK_REALTIME, &rt);
	if (uname(&u)) {
		snprintf(u.nodename, sizeof(u.nodename), "?");
		snprintf(u.release, sizeof(u.release), "?");
	}
	jsonw__begin_object(w);
	jsonw__string_field(w, "format", "lattop recording");
	jsonw__string_field(w, "lattop_version", LATTOP_VERSION);
	jsonw__string_field(w, "host", meta->host ? meta->host : u.nodename);
	jsonw__string_field(w, "kernel", meta->kernel ? meta->kernel : u.release);
	jsonw__string_field(w, "clock", "CLOCK_MONOTONIC");
	/* The same instant on both clocks: replay maps interval times to wall time with it. */
	if (meta->realtime_ns || meta->monotonic_ns) {
		jsonw__u64_field(w, "start_realtime_ns", meta->realtime_ns);
		jsonw__u64_field(w, "start_monotonic_ns", meta->monotonic_ns);
	} else {
		jsonw__u64_field(w, "start_realtime_ns",
				 (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec);
		jsonw__u64_field(w, "start_monotonic_ns", now_ns());
	}
	jsonw__u64_field(w, "interval_ns", meta->interval_ns);
	jsonw__string_field(w, "mode", meta->mode_name);
	jsonw__string_field(w, "filter", meta->filter);
	jsonw__string_field(w, "source", m->source);
	jsonw__string_field(w, "notice", m->notice);
	jsonw__string_field(w, "seg_notice", m->seg_notice);
	jsonw__u64_field(w, "floor_ns", m->floor_ns);
	jsonw__u64_field(w, "run_cost_ns", m->run_cost_ns);
	if (m->has_budget) {
		/* The probes' CPU budget in % of the machine (-1: max) and the machine's CPUs. */
		jsonw__double_field(w, "budget_pct", m->budget_pct);
		jsonw__s64_field(w, "cpus", m->ncpu);
	}
	jsonw__bool_field(w, "raw", meta->raw);
	if (meta->extra)
		meta->extra(w, meta->extra_arg);
	jsonw__key(w, "records");
	rec__records_json(w);
	jsonw__end_object(w);
	return jsonw__mem_close(&jm);
}

/* Free a recorder (joined or never started). */
static void recorder_free(struct recorder *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	rec_enc__free(r->enc);
	free(r->rawbuf);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r);
}

/* Start recording into fd, a new file named path (the recorder owns fd). */
static struct recorder *start_fd(int fd, const char *path, const struct rec_meta *rm,
				 char *err, size_t errlen)
{
	struct recorder *r = calloc(1, sizeof(*r));
	struct rec_buf hb = { 0 };
	bool raw = rm->raw;
	char *meta;
	int e;

	if (!r) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	r->fd = fd;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->raw = raw;
	r->enc = rec_enc__new();
	r->rawbuf = raw ? calloc(RAW_BATCH, sizeof(*r->rawbuf)) : NULL;
	meta = r->enc && (!raw || r->rawbuf) ? recorder__meta_json(rm) : NULL;
	if (!meta) {
		recorder_free(r);
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	rec__header(&hb, meta);
	free(meta);
	e = hb.oom ? -ENOMEM : outfile__write_all(r->fd, hb.p, hb.len);
	if (!e && fdatasync(r->fd))
		e = -errno;
	atomic_store_explicit(&r->bytes, hb.len, memory_order_relaxed);
	rec_buf__fini(&hb);
	if (!e)
		e = -pthread_create(&r->thr, NULL, writer_main, r);
	if (e) {
		snprintf(err, errlen, "cannot write the recording %s: %s", path, strerror(-e));
		recorder_free(r);
		errno = -e;
		return NULL;
	}
	r->started = true;
	return r;
}

/* Stop the writer thread after it wrote what is queued. */
static void writer_join(struct recorder *r)
{
	if (!r->started)
		return;
	pthread_mutex_lock(&r->mu);
	r->stop = true;
	pthread_cond_signal(&r->cv);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->thr, NULL);
	r->started = false;
}

/* Encode and queue the interval m just closed. */
int recorder__interval(struct recorder *r, const struct model *m, const char *filter)
{
	struct frame *f;
	int e;

	if (!r)
		return 0;
	e = atomic_load_explicit(&r->err, memory_order_relaxed);
	if (e)
		return -e; /* the caller stops recording: recorder__free says why, once */
	flush_raw(r);
	f = calloc(1, sizeof(*f));
	if (!f) {
		r->lost++;
		return 0;
	}
	rec_enc__interval(r->enc, m, filter, (uint32_t)r->lost, &f->b);
	f->sync = true;
	/* The encoder counted what this frame says as written: a dropped frame must not take
	 * the only mention of a series, the filter or a counter's name with it. */
	if (!push(r, f))
		rec_enc__forget(r->enc);
	return 0;
}

/* Flush, stop the writer, close the file, free. A write that failed (now or earlier),
 * including the last frames' and the final fdatasync and close, is one sentence in err. */
int recorder__free(struct recorder *r, char *err, size_t errlen)
{
	int e;

	if (!r)
		return 0;
	flush_raw(r);
	writer_join(r);
	e = atomic_load_explicit(&r->err, memory_order_relaxed);
	/* EINVAL: a file that cannot be synced, nothing was lost. */
	if (!e && fdatasync(r->fd) && errno != EINVAL)
		e = errno;
	if (close(r->fd) && !e && errno != EINTR)
		e = errno;
	r->fd = -1;
	if (e)
		snprintf(err, errlen, "recording stopped: cannot write %.200s: %s", r->path,
			 strerror(e));
	recorder_free(r);
	return -e;
}

/* The default file name of a recording started now, without its suffix and extension. */
static void default_stem(char *stem, size_t len)
{
	struct tm tm;
	time_t t = time(NULL);

	localtime_r(&t, &tm);
	strftime(stem, len, "lattop-%Y%m%d-%H%M%S", &tm);
}

/* The first free default file name of a recording started now. */
void recorder__default_name(char *buf, size_t len)
{
	char stem[64];

	default_stem(stem, sizeof(stem));
	if (outfile__free_name(buf, len, stem, ".lrec"))
		snprintf(buf, len, "%s.lrec", stem); /* all taken: the create says so */
}

/* Start recording to path, or to the first free default name when path is NULL. */
struct recorder *recorder__new(const char *path, const struct rec_meta *meta, char *err,
			       size_t errlen)
{
	char def[80], stem[64];
	int fd;

	if (path) {
		fd = outfile__create(path, "recording", err, errlen);
	} else {
		/* The default name with the first free suffix: a second recording within the
		 * same second gets its own file. */
		default_stem(stem, sizeof(stem));
		fd = outfile__create_unique(def, sizeof(def), stem, ".lrec", "recording", err,
					    errlen);
		path = def;
	}
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	return start_fd(fd, path, meta, err, errlen);
}

/* Frames dropped because the writer's queue was full. */
uint64_t recorder__lost(const struct recorder *r)
{
	return r ? r->lost : 0;
}

/* --raw events dropped with their frames. */
uint64_t recorder__lost_events(const struct recorder *r)
{
	return r ? r->lost_events : 0;
}

/* Bytes written so far. */
uint64_t recorder__bytes(const struct recorder *r)
{
	return r ? atomic_load_explicit(&r->bytes, memory_order_relaxed) : 0;
}

/* The file being written. */
const char *recorder__path(const struct recorder *r)
{
	return r ? r->path : "";
}
