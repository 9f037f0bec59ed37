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
#define EHPAIR_KEY_MAX 32      /* a by field's value kept while its activity runs (text) */

/* What the fields of an activity's events said, for its options (start, then stop). */
struct took {
	char by[EHPAIR_KEY_MAX]; /* the by field's value as text ("" none yet) */
	bool has_by, has_value, pass, tested;
	uint64_t value;
};

struct pend {
	uint8_t id[EVHDR_ID_SIZE];
	uint8_t parent_id[EVHDR_ID_SIZE]; /* valid when has_parent */
	uint64_t start_ns, child_ns;	  /* child_ns: its direct children's time so far */
	uint32_t series; /* NO_SERIES: paired silently, counted nowhere */
	uint32_t used;
	int16_t src;	 /* its options (-1: none) */
	bool has_parent, had_child;
	struct took t;
};

struct held {
	uint8_t id[EVHDR_ID_SIZE];
	uint64_t ts_ns;
	uint32_t tid;
	uint32_t passes; /* pass ends seen while held */
	uint16_t len;	 /* bytes of ev: the stop event, or 0 when it did not fit */
	uint8_t ev[256];
};

struct tp {
	char name[EVHDR_NAME_MAX];
	uint8_t level;
	bool all;    /* every activity, one series per name */
	int16_t src; /* the options of "all" (-1: none) */
};

/* A source's options, and for a provider what it takes. */
struct src {
	struct ehpair_opts o;
	bool provider;
	char prov[EVHDR_NAME_MAX], activity[EHPAIR_NAME_MAX];
	uint8_t level;
	uint64_t kw;
};

struct series_def {
	char name[EHPAIR_NAME_MAX];
	char activity[EHPAIR_NAME_MAX]; /* the start event's name it takes ("" for "id N") */
	char key[EHPAIR_NAME_MAX];	/* a split row's "field=value" */
	int tp;				/* the tracepoint (-1: any of the "all" ones) */
	int parent;			/* -1: a top row */
	int16_t src;			/* named: its options */
	uint8_t kind;			/* enum ehpair_kind */
	bool named;			/* from a named activity: only it */
	bool value;			/* samples are a field's values */
	uint32_t nkeys;			/* split rows under it so far */
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
	struct src src[EHPAIR_SRC_MAX];
	int nsrc;
	bool tp_full; /* a provider's tracepoint did not fit (counted once) */
	/* Written by the pairing thread (relaxed: monotonic counts), read by any. */
	_Atomic uint64_t orphan, unmatched, malformed, foreign, lost, filtered, folded;
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

/* A new series (name, for activity on tracepoint tp, under parent, of kind, with options src);
 * its index, or -E2BIG. */
static int new_series(struct ehpair *p, const char *name, const char *activity, int tp, bool named,
		      int parent, uint8_t kind, int src, const char *key)
{
	uint32_t n = atomic_load_explicit(&p->nser, memory_order_relaxed);
	struct series_def *d;

	if (n == EHPAIR_SERIES_MAX)
		return -E2BIG;
	d = &p->ser[n];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->activity, sizeof(d->activity), "%s", activity);
	d->tp = tp;
	d->named = named;
	d->parent = parent;
	d->kind = kind;
	d->src = (int16_t)src;
	d->value = src >= 0 && p->src[src].o.value[0] && kind != EHPAIR_SELF;
	snprintf(d->key, sizeof(d->key), "%s", key);
	/* Release: the name is complete before a reader sees the count that includes it. */
	atomic_store_explicit(&p->nser, n + 1, memory_order_release);
	return (int)n;
}

/* Keep options o as a source; its index, -1 for none, or -E2BIG. */
static int new_src(struct ehpair *p, const struct ehpair_opts *o)
{
	if (!o || (!o->by[0] && !o->value[0] && !o->if_field[0]))
		return -1;
	if (p->nsrc == EHPAIR_SRC_MAX)
		return -E2BIG;
	p->src[p->nsrc].o = *o;
	return p->nsrc++;
}

/* Add a tracepoint and what to take from it. */
int ehpair__add(struct ehpair *p, const char *tp, const char *activity, const char *series)
{
	return ehpair__add_opts(p, tp, activity, series, NULL);
}

/* Add a tracepoint and what to take from it, with options. */
int ehpair__add_opts(struct ehpair *p, const char *tp, const char *activity, const char *series,
		     const struct ehpair_opts *o)
{
	int src = new_src(p, o);

	char prov[EVHDR_NAME_MAX];
	uint64_t kw;
	uint8_t level;
	int i;

	if (src == -E2BIG)
		return -E2BIG;
	if (evhdr__parse_tpname(tp, prov, sizeof(prov), &level, &kw))
		return -EINVAL;
	for (i = 0; i < p->ntp && strcmp(p->tp[i].name, tp); i++)
		;
	if (i == p->ntp) {
		if (p->ntp == EHPAIR_TP_MAX)
			return -E2BIG;
		snprintf(p->tp[i].name, sizeof(p->tp[i].name), "%s", tp);
		p->tp[i].level = level;
		p->tp[i].src = -1;
		p->ntp++;
	}
	if (!activity) {
		p->tp[i].all = true;
		if (src >= 0)
			p->tp[i].src = (int16_t)src;
		return i;
	}
	if (new_series(p, series ? series : activity, activity, i, true, -1, EHPAIR_ACTIVITY, src,
		       "") <
	    0)
		return -E2BIG;
	return i;
}

/* Take a provider's tracepoints as they come. */
int ehpair__add_provider(struct ehpair *p, const char *provider, uint8_t level,
			 uint64_t kw_mask, const char *activity, const struct ehpair_opts *o)
{
	struct ehpair_opts none = {};
	struct src *s;

	if (p->nsrc == EHPAIR_SRC_MAX)
		return -E2BIG;
	s = &p->src[p->nsrc++];
	s->o = o ? *o : none;
	s->provider = true;
	snprintf(s->prov, sizeof(s->prov), "%s", provider);
	snprintf(s->activity, sizeof(s->activity), "%s", activity ? activity : "");
	s->level = level;
	s->kw = kw_mask;
	return 0;
}

/* Whether any provider was asked. */
bool ehpair__has_providers(const struct ehpair *p)
{
	for (int i = 0; i < p->nsrc; i++)
		if (p->src[i].provider)
			return true;
	return false;
}

/* A tracepoint that exists now: added when a provider asks for it. */
int ehpair__follow(struct ehpair *p, const char *name)
{
	char prov[EVHDR_NAME_MAX];
	uint64_t kw;
	uint8_t level;
	int i, e;

	if (evhdr__parse_tpname(name, prov, sizeof(prov), &level, &kw))
		return -1;
	for (i = 0; i < p->ntp; i++)
		if (!strcmp(p->tp[i].name, name))
			return -1;
	for (i = 0; i < p->nsrc; i++) {
		const struct src *s = &p->src[i];

		if (!s->provider || strcmp(s->prov, prov) || (s->level && level > s->level) ||
		    (s->kw && kw && !(kw & s->kw)))
			continue;
		if (p->ntp == EHPAIR_TP_MAX) {
			if (!p->tp_full)
				bump(&p->lost, 1);
			p->tp_full = true;
			return -E2BIG;
		}
		/* Every activity on it, its rows shared with the provider's other tracepoints; a
		 * named activity alone is kept by series_for (the source's activity). */
		e = ehpair__add_opts(p, name, NULL, NULL, NULL);
		if (e < 0)
			return e;
		p->tp[e].src = (int16_t)i;
		return e;
	}
	return -1;
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

/* The options of source src (NULL: none). */
static const struct ehpair_opts *opts_of(const struct ehpair *p, int src)
{
	return src >= 0 ? &p->src[src].o : NULL;
}

/* The series of activity (shown as name) under parent, of kind, with split key key and
 * options src, created on first sight; NO_SERIES (counted lost) when no more fit. */
static uint32_t find_or_new(struct ehpair *p, const char *name, const char *activity, int parent,
			    uint8_t kind, const char *key, int src)
{
	uint32_t n = atomic_load_explicit(&p->nser, memory_order_relaxed);
	char full[2 * EHPAIR_NAME_MAX + 8];
	int k;

	for (uint32_t i = 0; i < n; i++) {
		const struct series_def *d = &p->ser[i];

		if (!d->named && d->parent == parent && d->kind == kind && d->src == src &&
		    !strcmp(d->activity, activity) && !strcmp(d->key, key))
			return i;
	}
	snprintf(full, sizeof(full), "%s%s%s", name,
		 key[0] ? " " : kind == EHPAIR_SELF ? " self" : "", key);
	k = new_series(p, full, activity, -1, false, parent, kind, src, key);
	if (k < 0) {
		bump(&p->lost, 1);
		return NO_SERIES;
	}
	return (uint32_t)k;
}

/* The series an event of kind on tracepoint tp named name under parent takes, and its options
 * in *src: a named activity's (or its child row under parent), else (on an "all" tracepoint)
 * the name's, created on first sight; NO_SERIES when nothing asked for it. */
static uint32_t series_for(struct ehpair *p, int tp, const char *name, int parent, uint8_t kind,
			   int *src)
{
	uint32_t n = atomic_load_explicit(&p->nser, memory_order_relaxed);
	const struct src *s;

	*src = -1;
	for (uint32_t i = 0; i < n; i++) {
		const struct series_def *d = &p->ser[i];

		if (d->named && d->tp == tp && !strcmp(d->activity, name)) {
			*src = d->src;
			return parent < 0 ? i
					  : find_or_new(p, d->name, name, parent, kind, "", d->src);
		}
	}
	if (!p->tp[tp].all)
		return NO_SERIES;
	*src = p->tp[tp].src;
	s = *src >= 0 ? &p->src[*src] : NULL;
	if (s && s->provider && s->activity[0] && strcmp(s->activity, name))
		return NO_SERIES; /* a provider's named activity: only it */
	return find_or_new(p, name, name, parent, kind, "", *src);
}

/* Whether field definition f is called name ("" never is). */
static bool is_field(const struct evhdr_field *f, const char *name)
{
	return name[0] && strlen(name) == f->name_len && !memcmp(f->name, name, f->name_len);
}

/* An integer field's value widened, or an integer operand's (base 0; false when text is not
 * one). */
static bool operand(const char *text, __int128 *out)
{
	char *end;

	errno = 0;
	if (text[0] == '-')
		*out = strtoll(text, &end, 0);
	else
		*out = strtoull(text, &end, 0);
	return !errno && end != text && !*end;
}

/* Whether value v passes the filter of o. */
static bool passes(const struct evhdr_value *v, const struct ehpair_opts *o)
{
	__int128 a, b;
	char txt[EHPAIR_NAME_MAX];
	int c;

	if ((v->kind == EVHDR_V_UINT || v->kind == EVHDR_V_INT) && operand(o->if_text, &b)) {
		a = v->kind == EVHDR_V_INT ? (__int128)(int64_t)v->u : (__int128)v->u;
		c = a < b ? -1 : a > b;
	} else {
		evhdr__value_text(v, txt, sizeof(txt));
		c = strcmp(txt, o->if_text);
	}
	switch (o->if_op) {
	case EHPAIR_OP_EQ: return c == 0;
	case EHPAIR_OP_NE: return c != 0;
	case EHPAIR_OP_LT: return c < 0;
	case EHPAIR_OP_LE: return c <= 0;
	case EHPAIR_OP_GT: return c > 0;
	case EHPAIR_OP_GE: return c >= 0;
	default: return true;
	}
}

/* The split row of base for value text txt of o's by field: the first top values get a row
 * each, the others the "other" row (folded). */
static uint32_t split_row(struct ehpair *p, uint32_t base, const struct ehpair_opts *o,
			  const char *txt)
{
	struct series_def *b = &p->ser[base];
	uint32_t n = atomic_load_explicit(&p->nser, memory_order_relaxed);
	uint32_t top = o->top ? o->top : EHPAIR_TOP;
	char key[2 * EHPAIR_NAME_MAX + 2];

	snprintf(key, sizeof(key), "%s=%s", o->by, txt);
	key[EHPAIR_NAME_MAX - 1] = 0; /* as a row's key holds it */
	for (uint32_t i = 0; i < n; i++)
		if (p->ser[i].parent == (int)base && !p->ser[i].named && !strcmp(p->ser[i].key, key))
			return i;
	if (b->nkeys >= top) {
		bump(&p->folded, 1);
		snprintf(key, sizeof(key), "%s=other", o->by);
	} else {
		b->nkeys++;
	}
	return find_or_new(p, b->name, b->activity, (int)base, b->kind, key, b->src);
}

/* Read what options o want from the fields of ev into t (a field found replaces what t had).
 * A field list that stops decoding ends the reading. */
static void take_fields(const struct evhdr_event *ev, const struct ehpair_opts *o, struct took *t)
{
	struct evhdr_fields it;
	struct evhdr_value v;
	const char *nm;
	uint32_t nl;

	if (!o || !ev->meta || evhdr__fields_begin(ev, &it, &nm, &nl))
		return;
	while (evhdr__field_next(&it, &v) == 1) {
		if (is_field(&v.f, o->by)) {
			evhdr__value_text(&v, t->by, sizeof(t->by));
			t->has_by = true;
		}
		if (is_field(&v.f, o->value) && (v.kind == EVHDR_V_UINT || v.kind == EVHDR_V_INT)) {
			t->has_value = true;
			t->value = v.kind == EVHDR_V_INT && (int64_t)v.u < 0 ? 0 : v.u;
		}
		if (is_field(&v.f, o->if_field)) {
			t->tested = true;
			t->pass = passes(&v, o);
		}
	}
}

/* Record a start (a pending start of the same id is replaced: it counts as an orphan). */
static void start(struct ehpair *p, const struct evhdr_event *ev, uint64_t ts, uint32_t series,
		  int src)
{
	int at = find(p, ev->activity);
	struct pend pe = {.start_ns = ts, .series = series, .used = 1, .src = (int16_t)src};
	uint32_t i;

	memcpy(pe.id, ev->activity, EVHDR_ID_SIZE);
	pe.has_parent = ev->has_related;
	memcpy(pe.parent_id, ev->related, EVHDR_ID_SIZE);
	take_fields(ev, opts_of(p, src), &pe.t);
	if (at >= 0) {
		bump(&p->orphan, 1);
		p->pend[at] = pe;
		return;
	}
	if (p->npend >= EHPAIR_PENDING - EHPAIR_PENDING / 8) {
		bump(&p->lost, 1); /* the table is kept 7/8 full at most: searches stay short */
		return;
	}
	for (i = slot_of(ev->activity); p->pend[i].used; i = (i + 1) & (EHPAIR_PENDING - 1))
		;
	p->pend[i] = pe;
	p->npend++;
}

/* The samples of a finished activity or plain event pe (duration dur, or its value field):
 * its row, its split row, and its self time when it had children. Dropped (filtered) when it
 * fails its filter or lacks its value field. */
static void emit_row(struct ehpair *p, const struct pend *pe, uint64_t start_ns, uint64_t dur,
		     uint32_t tid)
{
	const struct ehpair_opts *o = opts_of(p, pe->src);
	struct ehpair_sample s = {.series = pe->series, .tid = tid, .start_ns = start_ns,
				  .dur_ns = dur};
	const struct series_def *d = &p->ser[pe->series];
	uint32_t self;

	if ((o && o->if_field[0] && !(pe->t.tested && pe->t.pass)) ||
	    (o && o->value[0] && !pe->t.has_value)) {
		bump(&p->filtered, 1);
		return;
	}
	if (o && o->value[0])
		s.dur_ns = pe->t.value;
	p->emit(p->arg, &s);
	if (o && o->by[0] && pe->t.has_by &&
	    (s.series = split_row(p, pe->series, o, pe->t.by)) != NO_SERIES)
		p->emit(p->arg, &s);
	if (!pe->had_child || (o && o->value[0]))
		return;
	self = find_or_new(p, d->name, d->activity, (int)pe->series, EHPAIR_SELF, "", -1);
	s.series = self;
	s.dur_ns = dur > pe->child_ns ? dur - pe->child_ns : 0;
	if (self != NO_SERIES)
		p->emit(p->arg, &s);
}

/* Pair a stop (its event's len bytes at data, or none) with its pending start; false when no
 * start is pending (or it is later). */
static bool stop(struct ehpair *p, const uint8_t *id, uint64_t ts, uint32_t tid,
		 const uint8_t *data, size_t len)
{
	int at = find(p, id);
	struct evhdr_event ev;
	struct pend pe;
	uint64_t dur;

	if (at < 0 || p->pend[at].start_ns > ts)
		return false;
	pe = p->pend[at];
	delete_at(p, (uint32_t)at);
	dur = ts - pe.start_ns;
	if (pe.has_parent && (at = find(p, pe.parent_id)) >= 0) {
		p->pend[at].child_ns += dur;
		p->pend[at].had_child = true;
	}
	if (pe.series == NO_SERIES)
		return true;
	if (data && !evhdr__decode(data, len, &ev, NULL))
		take_fields(&ev, opts_of(p, pe.src), &pe.t);
	emit_row(p, &pe, pe.start_ns, dur, tid);
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

/* The name of an event: its metadata's event name, or "id N". -EBADMSG when its metadata does
 * not decode. */
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

/* Hold a stop whose start has not been read yet (with its event when it fits, for its
 * fields). */
static void hold(struct ehpair *p, const uint8_t *id, uint64_t ts, uint32_t tid,
		 const void *data, size_t len)
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
	h->len = len <= sizeof(h->ev) ? (uint16_t)len : 0;
	memcpy(h->ev, data, h->len);
}

/* A plain event (not an activity's start or stop): one sample in the row of its name. */
static void plain(struct ehpair *p, int tp, const struct evhdr_event *ev, uint64_t ts,
		  uint32_t tid)
{
	char name[EHPAIR_NAME_MAX];
	struct pend pe = {0};
	int src;

	if (start_name(ev, name, sizeof(name))) {
		bump(&p->malformed, 1);
		return;
	}
	pe.series = series_for(p, tp, name, -1, EHPAIR_EVENT, &src);
	if (pe.series == NO_SERIES)
		return;
	pe.src = (int16_t)src;
	take_fields(ev, opts_of(p, src), &pe.t);
	emit_row(p, &pe, ts, 0, tid);
}

/* Take one event. */
void ehpair__event(struct ehpair *p, int tp, const void *data, size_t len, uint64_t ts_ns,
		   uint32_t tid)
{
	const uint8_t *b = data;
	struct evhdr_event ev;
	char name[EHPAIR_NAME_MAX];
	int parent = -1, src, at;
	uint32_t series;

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
	if (ev.opcode != EVHDR_OP_START && ev.opcode != EVHDR_OP_STOP) {
		plain(p, tp, &ev, ts_ns, tid);
		return;
	}
	if (!ev.has_activity) {
		bump(&p->malformed, 1);
		return;
	}
	if (ev.opcode == EVHDR_OP_STOP) {
		if (!stop(p, ev.activity, ts_ns, tid, data, len))
			hold(p, ev.activity, ts_ns, tid, data, len);
		return;
	}
	if (start_name(&ev, name, sizeof(name))) {
		bump(&p->malformed, 1);
		return;
	}
	if (ev.has_related && (at = find(p, ev.related)) >= 0 && p->pend[at].series != NO_SERIES)
		parent = (int)p->pend[at].series;
	series = series_for(p, tp, name, parent, EHPAIR_ACTIVITY, &src);
	start(p, &ev, ts_ns, series, src);
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

		if (stop(p, h->id, h->ts_ns, h->tid, h->len ? h->ev : NULL, h->len))
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
	out->filtered = atomic_load_explicit(&p->filtered, memory_order_relaxed);
	out->folded = atomic_load_explicit(&p->folded, memory_order_relaxed);
}

/* What series i is (its fields are written before the count that includes it is published,
 * and never change after). */
void ehpair__series_info(const struct ehpair *p, uint32_t i, struct ehpair_info *out)
{
	const struct series_def *d = &p->ser[i];

	out->name = d->name;
	out->parent = d->parent;
	out->kind = (enum ehpair_kind)d->kind;
	out->split = d->key[0];
	out->value = d->value;
}

/* Starts pending now. */
uint32_t ehpair__pending(const struct ehpair *p) { return p->npend; }
