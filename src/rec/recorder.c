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

#include <cjson/cJSON.h>

#include "base/text.h"
#include "base/outfile.h"
#include "rec/recorder.h"
#include "rec/rec.h"
#include "session/session.h"

_Static_assert(REC_FILTER_MAX >= FILTER_STR_MAX, "a filter record must hold the longest -p list");

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

/* Write all of buf (retrying short writes); 0 or -errno. */
static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

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
			e = write_all(r->fd, f->b.p, f->b.len);
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

/* The metadata JSON of a new recording. */
static char *meta_json(const struct session *s, bool raw)
{
	cJSON *o = cJSON_CreateObject();
	struct utsname u;
	struct timespec rt;
	static char filt[FILTER_STR_MAX]; /* UI thread only; too big for the stack */
	char *txt;

	clock_gettime(CLOCK_REALTIME, &rt);
	if (uname(&u)) {
		snprintf(u.nodename, sizeof(u.nodename), "?");
		snprintf(u.release, sizeof(u.release), "?");
	}
	session__filter_str(s, filt, sizeof(filt));
	cJSON_AddStringToObject(o, "format", "lattop recording");
	cJSON_AddStringToObject(o, "lattop_version", LATTOP_VERSION);
	cJSON_AddStringToObject(o, "host", u.nodename);
	cJSON_AddStringToObject(o, "kernel", u.release);
	cJSON_AddStringToObject(o, "clock", "CLOCK_MONOTONIC");
	/* The same instant on both clocks: replay maps interval times to wall time with it. */
	cJSON_AddNumberToObject(o, "start_realtime_ns",
				(double)((uint64_t)rt.tv_sec * 1000000000ull + rt.tv_nsec));
	cJSON_AddNumberToObject(o, "start_monotonic_ns", (double)now_ns());
	cJSON_AddNumberToObject(o, "interval_ns", (double)s->o->interval_ns);
	cJSON_AddStringToObject(o, "mode", opts__mode_name(s->m->mode));
	cJSON_AddStringToObject(o, "filter", filt);
	cJSON_AddStringToObject(o, "source", s->m->source);
	cJSON_AddStringToObject(o, "notice", s->m->notice);
	cJSON_AddStringToObject(o, "seg_notice", s->m->seg_notice);
	cJSON_AddNumberToObject(o, "floor_ns", (double)s->m->floor_ns);
	cJSON_AddBoolToObject(o, "raw", raw);
	cJSON_AddItemToObject(o, "records", rec__records_json());
	txt = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return txt;
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

/* Start recording session s into fd, a new file named path (the recorder owns fd). */
static int start_fd(struct session *s, int fd, const char *path, bool raw, char *err,
		    size_t errlen)
{
	struct recorder *r = calloc(1, sizeof(*r));
	struct rec_buf hb = { 0 };
	char *meta;
	int e;

	if (!r) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->fd = fd;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->raw = raw;
	r->enc = rec_enc__new();
	r->rawbuf = raw ? calloc(RAW_BATCH, sizeof(*r->rawbuf)) : NULL;
	meta = r->enc && (!raw || r->rawbuf) ? meta_json(s, raw) : NULL;
	if (!meta) {
		recorder_free(r);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	rec__header(&hb, meta);
	free(meta);
	e = hb.oom ? -ENOMEM : write_all(r->fd, hb.p, hb.len);
	if (!e && fdatasync(r->fd))
		e = -errno;
	atomic_store_explicit(&r->bytes, hb.len, memory_order_relaxed);
	rec_buf__fini(&hb);
	if (!e)
		e = -pthread_create(&r->thr, NULL, writer_main, r);
	if (e) {
		snprintf(err, errlen, "cannot write the recording %s: %s", path, strerror(-e));
		recorder_free(r);
		return e;
	}
	r->started = true;
	s->rec = r;
	return 0;
}

/* Start recording session s to path, a file that must not exist yet. */
int recorder__start(struct session *s, const char *path, bool raw, char *err, size_t errlen)
{
	int fd = outfile__create(path, "recording", err, errlen);

	return fd < 0 ? fd : start_fd(s, fd, path, raw, err, errlen);
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

/* Encode and queue the interval s->m just closed. */
void recorder__interval(struct session *s)
{
	struct recorder *r = s->rec;
	struct frame *f;
	static char filt[FILTER_STR_MAX]; /* UI thread only */

	if (!r)
		return;
	if (atomic_load_explicit(&r->err, memory_order_relaxed)) {
		recorder__stop(s); /* says why, once */
		return;
	}
	flush_raw(r);
	f = calloc(1, sizeof(*f));
	if (!f) {
		r->lost++;
		return;
	}
	session__filter_str(s, filt, sizeof(filt));
	rec_enc__interval(r->enc, s->m, filt, (uint32_t)r->lost, &f->b);
	f->sync = true;
	/* The encoder counted what this frame says as written: a dropped frame must not take
	 * the only mention of a series, the filter or a counter's name with it. */
	if (!push(r, f))
		rec_enc__forget(r->enc);
}

/* Flush, stop the writer, close the file, free. A write that failed (now or earlier),
 * including the last frames' and the final fdatasync and close, is one sentence in the
 * session's errors (exit status 1). */
void recorder__stop(struct session *s)
{
	struct recorder *r = s->rec;
	int e;

	if (!r)
		return;
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
		session__error(s, "recording stopped: cannot write %.200s: %s", r->path,
			       strerror(e));
	if (r->lost && s->o->batch) {
		char msg[4096 + 160];

		snprintf(msg, sizeof(msg),
			 "recording %s: %llu frames (%llu --raw events) lost because the disk fell "
			 "behind",
			 r->path, (unsigned long long)r->lost, (unsigned long long)r->lost_events);
		text__line(stderr, "lattop: ", msg);
	}
	recorder_free(r);
	s->rec = NULL;
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

/* Toggle recording for the `w` and `W` keys. */
void recorder__toggle(struct session *s, const char *path, char *msg, size_t len)
{
	char def[80], stem[64], err[320];
	int fd;

	if (s->rec) {
		snprintf(err, sizeof(err), "%.300s", s->rec->path);
		recorder__stop(s);
		snprintf(msg, len, "recording stopped: %s", err);
		return;
	}
	if (path) {
		fd = outfile__create(path, "recording", err, sizeof(err));
	} else {
		/* The default name with the first free suffix: a second recording within the
		 * same second gets its own file. */
		default_stem(stem, sizeof(stem));
		fd = outfile__create_unique(def, sizeof(def), stem, ".lrec", "recording", err,
					    sizeof(err));
		path = def;
	}
	if (fd < 0 || start_fd(s, fd, path, s->o->raw, err, sizeof(err)))
		snprintf(msg, len, "%s", err);
	else
		snprintf(msg, len, "recording to %.280s (w stops)", path);
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
