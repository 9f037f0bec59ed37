// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flight.c - the flight recorder's ring of encoded intervals, its base of evicted state and
 * the queue of dumps (see flight.h); flight_dump.c is the dump thread's side.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/jsonw.h"
#include "rec/codec.h"
#include "rec/flight_int.h"
#include "rec/recorder.h"

static const char *const trigger_names[FT__COUNT] = {
    [FT_SIGNAL] = "signal",
    [FT_KEY] = "key",
    [FT_HTTP] = "http",
    [FT_THRESHOLD] = "threshold",
};

/* The name of a trigger kind. */
const char *flight__trigger_name(enum flight_trigger t)
{
	return t < FT__COUNT ? trigger_names[t] : "?";
}

/* Bytes a held frame counts for. */
static uint64_t frame_bytes(const struct flight_frame *fr)
{
	return fr->len + FLIGHT_FRAME_OVERHEAD;
}

/* Drop one reference on a frame (any thread); the last frees it. A frame that left the ring
 * was counted in zombie_bytes, which its free takes back. */
void flight_frame__unref(struct flight *f, struct flight_frame *fr)
{
	if (atomic_fetch_sub_explicit(&fr->ref, 1, memory_order_acq_rel) != 1)
		return;
	atomic_fetch_sub_explicit(&f->zombie_bytes, frame_bytes(fr), memory_order_relaxed);
	free(fr);
}

/* Position i (0 = oldest) of the ring. */
static struct flight_frame *ring_at(const struct flight *f, size_t i)
{
	return f->ring[(f->head + i) % f->cap];
}

/* Append a frame to the ring (growing it); false when out of memory. */
static bool ring_push(struct flight *f, struct flight_frame *fr)
{
	if (f->n == f->cap) {
		size_t ncap = f->cap ? 2 * f->cap : 64;
		struct flight_frame **nr = malloc(ncap * sizeof(*nr));

		if (!nr)
			return false;
		for (size_t i = 0; i < f->n; i++)
			nr[i] = ring_at(f, i);
		free(f->ring);
		f->ring = nr;
		f->cap = ncap;
		f->head = 0;
	}
	f->ring[(f->head + f->n) % f->cap] = fr;
	f->n++;
	f->ring_bytes += frame_bytes(fr);
	return true;
}

/* Remove the oldest frame: its state records go into the base, its bytes count as a zombie
 * until the last dump holding it lets go. */
static void ring_evict(struct flight *f)
{
	struct flight_frame *fr = f->ring[f->head];

	flight_base__fold(&f->base, fr->data, fr->len);
	f->head = (f->head + 1) % f->cap;
	f->n--;
	f->ring_bytes -= frame_bytes(fr);
	atomic_fetch_add_explicit(&f->zombie_bytes, frame_bytes(fr), memory_order_relaxed);
	flight_frame__unref(f, fr);
}

/* Bytes counted against the cap now. */
static uint64_t held_bytes(const struct flight *f)
{
	return f->ring_bytes + f->base.bytes +
	       atomic_load_explicit(&f->zombie_bytes, memory_order_relaxed);
}

/* True when only the ring holds frame fr (no dump is writing it): evicting it frees it. */
static bool unpinned(const struct flight_frame *fr)
{
	return atomic_load_explicit(&fr->ref, memory_order_acquire) == 1;
}

/* Make room for a frame of size bytes: evict the oldest intervals while they would span more
 * than the duration (half an interval of slack: a close comes a little late), then while the
 * bytes would pass the cap, as long as evicting frees memory (the oldest frame is not being
 * written by a dump). Returns false when size still does not fit under the cap. */
static bool make_room(struct flight *f, uint64_t size, uint64_t start_ns, uint64_t end_ns)
{
	uint64_t slack = (end_ns - start_ns) / 2;

	while (f->n && end_ns - ring_at(f, 0)->start_ns > f->cfg.keep_ns + slack)
		ring_evict(f);
	while (f->n && held_bytes(f) + size > f->cfg.max_bytes && unpinned(ring_at(f, 0)))
		ring_evict(f);
	return held_bytes(f) + size <= f->cfg.max_bytes;
}

/* Encode the interval m just closed and keep it. */
int flight__interval(struct flight *f, const struct model *m, const char *filter)
{
	struct flight_frame *fr;
	uint64_t size;

	f->scratch.len = 0;
	rec_enc__interval(f->enc, m, filter, 0, &f->scratch);
	size = f->scratch.len + FLIGHT_FRAME_OVERHEAD;
	if (!f->scratch.oom && !make_room(f, size, m->last_start_ns, m->last_end_ns)) {
		/* Bigger than the cap, or a dump still holds the oldest intervals: this one is not
		 * kept (counted), and the next one carries every series again. */
		f->skipped++;
		rec_enc__forget(f->enc);
		return 0;
	}
	fr = f->scratch.oom ? NULL : malloc(sizeof(*fr) + f->scratch.len);
	if (fr) {
		atomic_init(&fr->ref, 1);
		fr->start_ns = m->last_start_ns;
		fr->end_ns = m->last_end_ns;
		fr->len = f->scratch.len;
		memcpy(fr->data, f->scratch.p, fr->len);
	}
	if (!fr || !ring_push(f, fr)) {
		/* What the encoder counted as written is lost with the frame: send it again. */
		free(fr);
		rec_enc__forget(f->enc);
		f->scratch.oom = false;
		return -ENOMEM;
	}
	return 0;
}

/* The "dump" object of a dump's metadata. */
static void why_json(struct jsonw *w, const void *arg)
{
	const struct flight_dump_meta *dm = arg;
	const struct flight_why *y = &dm->why;
	struct timespec rt;
	uint64_t real_ns;

	clock_gettime(CLOCK_REALTIME, &rt);
	real_ns =
	    (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec - (now_ns() - y->fired_ns);
	jsonw__key(w, "dump");
	jsonw__begin_object(w);
	jsonw__string_field(w, "trigger", flight__trigger_name(y->trigger));
	if (y->expr[0]) {
		jsonw__string_field(w, "expr", y->expr);
		jsonw__string_field(w, "series", y->series);
		jsonw__string_field(w, "metric", y->metric);
		jsonw__double_field(w, "value", y->value);
		jsonw__double_field(w, "threshold", y->threshold);
		jsonw__u64_field(w, "after_ns", y->after_ns);
	}
	jsonw__u64_field(w, "fired_monotonic_ns", y->fired_ns);
	jsonw__u64_field(w, "fired_realtime_ns", real_ns);
	jsonw__u64_field(w, "window_start_ns", dm->start_ns);
	jsonw__u64_field(w, "window_end_ns", dm->end_ns);
	jsonw__u64_field(w, "window_asked_ns", y->last_ns);
	jsonw__u64_field(w, "intervals", dm->n);
	jsonw__u64_field(w, "flight_ns", dm->keep_ns);
	jsonw__end_object(w);
}

/* The first frame of the window a dump asks for (the last last_ns of what is held). */
static size_t window_first(const struct flight *f, uint64_t last_ns)
{
	const struct flight_frame *nw = ring_at(f, f->n - 1);
	uint64_t slack = (nw->end_ns - nw->start_ns) / 2;
	size_t i = 0;

	while (last_ns && i + 1 < f->n && nw->end_ns - ring_at(f, i)->start_ns > last_ns + slack)
		i++;
	return i;
}

/* The file name stem of a dump fired now: lattop-flight-YYYYMMDD-HHMMSS-TRIGGER. */
static void dump_stem(char *stem, size_t len, enum flight_trigger t)
{
	struct tm tm;
	time_t now = time(NULL);
	char when[32];

	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(stem, len, "%s%s-%s", FLIGHT_PREFIX, when, flight__trigger_name(t));
}

/* Build a dump's job: header, base (and the state records of the frames before the window),
 * references on the window's frames. NULL when out of memory. */
static struct flight_job *job_new(struct flight *f, const struct rec_meta *meta,
				  const struct flight_why *why, size_t first)
{
	struct flight_job *j = calloc(1, sizeof(*j));
	struct flight_dump_meta dm = {.why = *why, .keep_ns = f->cfg.keep_ns};
	struct rec_meta mm = *meta;
	char *text;

	if (!j)
		return NULL;
	j->n = f->n - first;
	j->fr = malloc(j->n * sizeof(*j->fr));
	dm.n = j->n;
	dm.start_ns = ring_at(f, first)->start_ns;
	dm.end_ns = ring_at(f, f->n - 1)->end_ns;
	mm.extra = why_json;
	mm.extra_arg = &dm;
	text = j->fr ? recorder__meta_json(&mm) : NULL;
	if (!text) {
		free(j->fr);
		free(j);
		return NULL;
	}
	rec__header(&j->head, text);
	free(text);
	flight_base__write(&f->base, &j->head);
	for (size_t i = 0; i < first; i++)
		flight_base__state(&j->head, ring_at(f, i)->data, ring_at(f, i)->len);
	for (size_t i = 0; i < j->n; i++) {
		j->fr[i] = ring_at(f, first + i);
		atomic_fetch_add_explicit(&j->fr[i]->ref, 1, memory_order_relaxed);
	}
	j->trigger = why->trigger;
	dump_stem(j->stem, sizeof(j->stem), why->trigger);
	return j;
}

/* Queue a dump of what is held. */
int flight__dump(struct flight *f, const struct rec_meta *meta, const struct flight_why *why,
		 char *err, size_t errlen)
{
	struct flight_job *j;
	int e = 0;

	if (!f->n) {
		snprintf(err, errlen, "flight recorder: nothing to dump yet (no interval closed)");
		e = -ENODATA;
	} else if (atomic_load_explicit(&f->pending, memory_order_relaxed) >= FLIGHT_QUEUE) {
		snprintf(err, errlen,
			 "flight recorder: %d dumps are waiting for the disk already; this one is "
			 "dropped",
			 FLIGHT_QUEUE);
		e = -EBUSY;
	} else {
		j = job_new(f, meta, why, window_first(f, why->last_ns));
		if (!j || j->head.oom) {
			flight_job__free(f, j);
			snprintf(err, errlen, "flight recorder: out of memory for a dump");
			e = -ENOMEM;
		} else {
			flight_dump__queue(f, j);
		}
	}
	if (e)
		atomic_fetch_add_explicit(&f->errors, 1, memory_order_relaxed);
	return e;
}

/* Ask for a dump from any thread. */
void flight__request(struct flight *f, enum flight_trigger t, uint64_t last_ns)
{
	atomic_store_explicit(&f->req_last_ns, last_ns, memory_order_relaxed);
	/* Release: the window is visible to whoever sees the request. */
	atomic_store_explicit(&f->req, (int)t + 1, memory_order_release);
}

/* Take the pending request, if any. */
bool flight__take_request(struct flight *f, enum flight_trigger *t, uint64_t *last_ns)
{
	int r = atomic_exchange_explicit(&f->req, 0, memory_order_acquire);

	if (!r)
		return false;
	*t = (enum flight_trigger)(r - 1);
	*last_ns = atomic_load_explicit(&f->req_last_ns, memory_order_relaxed);
	return true;
}

/* Figures for the header and the gauges. */
void flight__stats(const struct flight *f, struct flight_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->bytes = held_bytes(f);
	st->intervals = f->n;
	st->max_bytes = f->cfg.max_bytes;
	st->keep_ns = f->cfg.keep_ns;
	for (int i = 0; i < FT__COUNT; i++)
		st->dumps[i] = atomic_load_explicit(&f->dumps[i], memory_order_relaxed);
	st->errors = atomic_load_explicit(&f->errors, memory_order_relaxed);
	st->pending = atomic_load_explicit(&f->pending, memory_order_relaxed);
	st->last_dump_ns = atomic_load_explicit(&f->last_dump_ns, memory_order_relaxed);
	st->last_dump_bytes = atomic_load_explicit(&f->last_dump_bytes, memory_order_relaxed);
	st->skipped = f->skipped;
}

/* Create a flight recorder and start its dump thread. */
struct flight *flight__new(const struct flight_cfg *cfg)
{
	struct flight *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->cfg = *cfg;
	snprintf(f->dir, sizeof(f->dir), "%s", cfg->dir ? cfg->dir : ".");
	f->cfg.dir = f->dir;
	f->enc = rec_enc__new();
	if (!f->enc || flight_dump__start(f)) {
		rec_enc__free(f->enc);
		free(f);
		errno = ENOMEM;
		return NULL;
	}
	return f;
}

/* Finish the queued dumps, stop the thread, free everything. */
void flight__free(struct flight *f)
{
	if (!f)
		return;
	flight_dump__stop(f);
	while (f->n)
		ring_evict(f);
	free(f->ring);
	flight_base__fini(&f->base);
	rec_buf__fini(&f->scratch);
	rec_enc__free(f->enc);
	free(f);
}
