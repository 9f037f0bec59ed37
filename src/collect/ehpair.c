// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ehpair.c - pair EventHeader activity starts and stops by activity id (see ehpair.h): an
 * open-addressing table of pending starts (linear probing, backward-shift deletion), a short
 * list of stops held for a start still in another CPU's ring, and the series of the activity
 * names seen.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/evhdr.h"
#include "collect/ehpair.h"

#define SWEEP_NS 1000000000ull /* orphan starts are looked for once a second */
#define NO_SERIES UINT32_MAX   /* a start of an activity no series asked for */

struct pend {
	uint8_t id[EVHDR_ID_SIZE];
	uint64_t start_ns;
	uint32_t series; /* NO_SERIES: paired silently, counted nowhere */
	uint32_t used;
};

struct held {
	uint8_t id[EVHDR_ID_SIZE];
	uint64_t ts_ns;
	uint32_t tid;
	uint32_t passes; /* pass ends seen while held */
};

struct tp {
	char name[EVHDR_NAME_MAX];
	uint8_t level;
	bool all; /* every activity, one series per name */
};

struct series_def {
	char name[EHPAIR_NAME_MAX];
	char activity[EHPAIR_NAME_MAX]; /* the start event's name it takes ("" for "id N") */
	int tp;				/* the tracepoint (-1: any of the "all" ones) */
	bool named;			/* from a named activity: only it */
};

struct ehpair {
	uint64_t max_age_ns, last_sweep_ns;
	ehpair_emit emit;
	void *arg;
	struct tp tp[EHPAIR_TP_MAX];
	int ntp;
	struct series_def ser[EHPAIR_SERIES_MAX];
	_Atomic uint32_t nser; /* written (release) by the pairing thread, read by any */
	uint32_t npend;
	struct pend *pend; /* EHPAIR_PENDING slots */
	struct held held[EHPAIR_HELD];
	uint32_t nheld;
	/* Written by the pairing thread (relaxed: monotonic counts), read by any. */
	_Atomic uint64_t orphan, unmatched, malformed, foreign, lost;
};

/* Create a pairing state. */
struct ehpair *ehpair__new(uint64_t max_age_ns, ehpair_emit emit, void *arg)
{
	struct ehpair *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->pend = calloc(EHPAIR_PENDING, sizeof(*p->pend));
	if (!p->pend) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	p->max_age_ns = max_age_ns;
	p->emit = emit;
	p->arg = arg;
	return p;
}

/* Free a pairing state. */
void ehpair__free(struct ehpair *p)
{
	if (!p)
		return;
	free(p->pend);
	free(p);
}

/* Add one to a counter (the pairing thread is its only writer). */
static void bump(_Atomic uint64_t *c, uint64_t n)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + n,
			      memory_order_relaxed);
}

/* A new series (name, for activity on tracepoint tp); its index, or -E2BIG. */
static int new_series(struct ehpair *p, const char *name, const char *activity, int tp, bool named)
{
	uint32_t n = atomic_load_explicit(&p->nser, memory_order_relaxed);
	struct series_def *d;

	if (n == EHPAIR_SERIES_MAX)
		return -E2BIG;
	d = &p->ser[n];
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->activity, sizeof(d->activity), "%s", activity);
	d->tp = tp;
	d->named = named;
	/* Release: the name is complete before a reader sees the count that includes it. */
	atomic_store_explicit(&p->nser, n + 1, memory_order_release);
	return (int)n;
}

/* Add a tracepoint and what to take from it. */
int ehpair__add(struct ehpair *p, const char *tp, const char *activity, const char *series)
{
	char prov[EVHDR_NAME_MAX];
	uint64_t kw;
	uint8_t level;
	int i;

	if (evhdr__parse_tpname(tp, prov, sizeof(prov), &level, &kw))
		return -EINVAL;
	for (i = 0; i < p->ntp && strcmp(p->tp[i].name, tp); i++)
		;
	if (i == p->ntp) {
		if (p->ntp == EHPAIR_TP_MAX)
			return -E2BIG;
		snprintf(p->tp[i].name, sizeof(p->tp[i].name), "%s", tp);
		p->tp[i].level = level;
		p->ntp++;
	}
	if (!activity) {
		p->tp[i].all = true;
		return i;
	}
	if (new_series(p, series ? series : activity, activity, i, true) < 0)
		return -E2BIG;
	return i;
}

/* The number of tracepoints. */
int ehpair__ntp(const struct ehpair *p) { return p->ntp; }

/* The name of tracepoint i. */
const char *ehpair__tp_name(const struct ehpair *p, int i) { return p->tp[i].name; }

/* The hash slot where id's search starts. */
static uint32_t slot_of(const uint8_t *id)
{
	uint64_t a, b;

	memcpy(&a, id, 8);
	memcpy(&b, id + 8, 8);
	a ^= b * 0x9e3779b97f4a7c15ull;
	a ^= a >> 29;
	a *= 0xbf58476d1ce4e5b9ull;
	a ^= a >> 32;
	return (uint32_t)a & (EHPAIR_PENDING - 1);
}

/* The slot holding id, or -1. */
static int find(const struct ehpair *p, const uint8_t *id)
{
	for (uint32_t i = slot_of(id), n = 0; n < EHPAIR_PENDING;
	     i = (i + 1) & (EHPAIR_PENDING - 1), n++) {
		if (!p->pend[i].used)
			return -1;
		if (!memcmp(p->pend[i].id, id, EVHDR_ID_SIZE))
			return (int)i;
	}
	return -1;
}

/* Empty slot i, moving later entries of its cluster back so every search still finds them. */
static void delete_at(struct ehpair *p, uint32_t i)
{
	uint32_t j = i;

	p->pend[i].used = 0;
	p->npend--;
	for (;;) {
		uint32_t home;

		j = (j + 1) & (EHPAIR_PENDING - 1);
		if (!p->pend[j].used)
			return;
		home = slot_of(p->pend[j].id);
		/* Entry j may move to i when its home is not cyclically within (i, j]. */
		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		p->pend[i] = p->pend[j];
		p->pend[j].used = 0;
		i = j;
	}
}

/* Record a start (a pending start of the same id is replaced: it counts as an orphan). */
static void start(struct ehpair *p, const uint8_t *id, uint64_t ts, uint32_t series)
{
	int at = find(p, id);
	uint32_t i;

	if (at >= 0) {
		bump(&p->orphan, 1);
		p->pend[at].start_ns = ts;
		p->pend[at].series = series;
		return;
	}
	if (p->npend >= EHPAIR_PENDING - EHPAIR_PENDING / 8) {
		bump(&p->lost, 1); /* the table is kept 7/8 full at most: searches stay short */
		return;
	}
	for (i = slot_of(id); p->pend[i].used; i = (i + 1) & (EHPAIR_PENDING - 1))
		;
	memcpy(p->pend[i].id, id, EVHDR_ID_SIZE);
	p->pend[i].start_ns = ts;
	p->pend[i].series = series;
	p->pend[i].used = 1;
	p->npend++;
}

/* Pair a stop with its pending start; false when no start is pending (or it is later). */
static bool stop(struct ehpair *p, const uint8_t *id, uint64_t ts, uint32_t tid)
{
	int at = find(p, id);
	struct ehpair_sample s;

	if (at < 0 || p->pend[at].start_ns > ts)
		return false;
	s.series = p->pend[at].series;
	s.tid = tid;
	s.start_ns = p->pend[at].start_ns;
	s.dur_ns = ts - s.start_ns;
	delete_at(p, (uint32_t)at);
	if (s.series != NO_SERIES)
		p->emit(p->arg, &s);
	return true;
}

/* Visible form of an activity name of len bytes into out (bytes outside printable ASCII
 * become '?'). */
static void visible(char *out, size_t outlen, const char *name, size_t len)
{
	size_t n = len < outlen - 1 ? len : outlen - 1;

	for (size_t i = 0; i < n; i++)
		out[i] = name[i] > 0x20 && name[i] < 0x7f ? name[i] : '?';
	out[n] = 0;
}

/* The series a start on tracepoint tp named name takes: a named activity's, else (on an "all"
 * tracepoint) the name's, created on first sight; NO_SERIES when nothing asked for it. */
static uint32_t series_for(struct ehpair *p, int tp, const char *name)
{
	uint32_t n = atomic_load_explicit(&p->nser, memory_order_relaxed);
	int k;

	for (uint32_t i = 0; i < n; i++)
		if (p->ser[i].named && p->ser[i].tp == tp && !strcmp(p->ser[i].activity, name))
			return i;
	if (!p->tp[tp].all)
		return NO_SERIES;
	for (uint32_t i = 0; i < n; i++)
		if (!p->ser[i].named && !strcmp(p->ser[i].activity, name))
			return i;
	k = new_series(p, name, name, -1, false);
	if (k < 0) {
		bump(&p->lost, 1);
		return NO_SERIES;
	}
	return (uint32_t)k;
}

/* The name of a start event: its metadata's event name, or "id N". -EBADMSG when its
 * metadata does not decode. */
static int start_name(const struct evhdr_event *ev, char *out, size_t outlen)
{
	const char *name;
	uint32_t len;

	if (!ev->meta) {
		snprintf(out, outlen, "id %u", ev->id);
		return 0;
	}
	if (evhdr__meta_name(ev->meta, ev->meta_len, ev->flags & EVHDR_F_LE, &name, &len, NULL))
		return -EBADMSG;
	visible(out, outlen, name, len);
	return 0;
}

/* Hold a stop whose start has not been read yet. */
static void hold(struct ehpair *p, const uint8_t *id, uint64_t ts, uint32_t tid)
{
	struct held *h;

	if (p->nheld == EHPAIR_HELD) {
		bump(&p->lost, 1);
		return;
	}
	h = &p->held[p->nheld++];
	memcpy(h->id, id, EVHDR_ID_SIZE);
	h->ts_ns = ts;
	h->tid = tid;
	h->passes = 0;
}

/* Take one event. */
void ehpair__event(struct ehpair *p, int tp, const void *data, size_t len, uint64_t ts_ns,
		   uint32_t tid)
{
	const uint8_t *b = data;
	struct evhdr_event ev;
	char name[EHPAIR_NAME_MAX];

	if (tp < 0 || tp >= p->ntp)
		return;
	if (len >= EVHDR_SIZE &&
	    ((b[0] & ~(EVHDR_F_PTR64 | EVHDR_F_LE | EVHDR_F_EXT)) || b[7] != p->tp[tp].level)) {
		bump(&p->foreign, 1);
		return;
	}
	if (evhdr__decode(data, len, &ev, NULL)) {
		bump(&p->malformed, 1);
		return;
	}
	if (ev.opcode != EVHDR_OP_START && ev.opcode != EVHDR_OP_STOP)
		return; /* other events of an activity: nothing to time */
	if (!ev.has_activity) {
		bump(&p->malformed, 1);
		return;
	}
	if (ev.opcode == EVHDR_OP_STOP) {
		if (!stop(p, ev.activity, ts_ns, tid))
			hold(p, ev.activity, ts_ns, tid);
		return;
	}
	if (start_name(&ev, name, sizeof(name))) {
		bump(&p->malformed, 1);
		return;
	}
	start(p, ev.activity, ts_ns, series_for(p, tp, name));
}

/* Starts older than the maximum age become orphans. */
static void sweep(struct ehpair *p, uint64_t now_ns)
{
	for (uint32_t i = 0; i < EHPAIR_PENDING; i++) {
		/* A deletion moves a later entry into i: look at i again. */
		while (p->pend[i].used && now_ns > p->pend[i].start_ns &&
		       now_ns - p->pend[i].start_ns > p->max_age_ns) {
			bump(&p->orphan, 1);
			delete_at(p, i);
		}
	}
}

/* End of a read pass. */
void ehpair__pass_end(struct ehpair *p, uint64_t now_ns)
{
	uint32_t keep = 0;

	for (uint32_t i = 0; i < p->nheld; i++) {
		struct held *h = &p->held[i];

		if (stop(p, h->id, h->ts_ns, h->tid))
			continue;
		if (h->passes++ >= 1) {
			bump(&p->unmatched, 1);
			continue;
		}
		p->held[keep++] = *h;
	}
	p->nheld = keep;
	if (now_ns - p->last_sweep_ns >= SWEEP_NS) {
		p->last_sweep_ns = now_ns;
		sweep(p, now_ns);
	}
}

/* Count events lost before the pairing. */
void ehpair__add_lost(struct ehpair *p, uint64_t n) { bump(&p->lost, n); }

/* Series published so far. */
uint32_t ehpair__nseries(const struct ehpair *p)
{
	return atomic_load_explicit(&p->nser, memory_order_acquire);
}

/* The name of series i. */
const char *ehpair__series_name(const struct ehpair *p, uint32_t i) { return p->ser[i].name; }

/* The loss counters. */
void ehpair__loss(const struct ehpair *p, struct ehpair_loss *out)
{
	out->orphan = atomic_load_explicit(&p->orphan, memory_order_relaxed);
	out->unmatched = atomic_load_explicit(&p->unmatched, memory_order_relaxed);
	out->malformed = atomic_load_explicit(&p->malformed, memory_order_relaxed);
	out->foreign = atomic_load_explicit(&p->foreign, memory_order_relaxed);
	out->lost = atomic_load_explicit(&p->lost, memory_order_relaxed);
}

/* Starts pending now. */
uint32_t ehpair__pending(const struct ehpair *p) { return p->npend; }
