// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * writer.c - the recording's encoder (see rec.h): the field tables written into every file's
 * metadata, the header, interval records with only what changed, --raw event batches.
 *
 * The field tables are both the documentation written into the metadata and the offsets the
 * code uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "base/jsonw.h"
#include "rec/codec.h"

/* One field of a record payload, as the metadata describes it. */
struct rec_field {
	const char *name, *type;
	unsigned off;
};

static const struct rec_field series_fields[] = {
	{ "kind", "u16", 0 },	    { "flags", "u16 (1 = gone)", 2 }, { "id", "u32", 4 },
	{ "aux", "u32", 8 },	    { "aux2", "u32", 12 },	      { "src", "u32 bits", 16 },
	{ "name_len", "u16", 20 }, { "type_len", "u16", 22 },	      { "note_len", "u16", 24 },
	{ "sub_len", "u16 (format 1.2; 0 before: a pad)", 26 },
	{ "strings", "name, type, note, sub (a helper's map name) bytes", 28 },
};
static const struct rec_field interval_fields[] = {
	{ "start_ns", "u64 CLOCK_MONOTONIC", 0 },
	{ "end_ns", "u64 CLOCK_MONOTONIC", 8 },
	{ "mode", "u32", 16 },
	{ "nentries", "u32", 20 },
	{ "events", "u64", 24 },
	{ "rb_drops", "u64", 32 },
	{ "queue_drops", "u64", 40 },
	{ "recursion", "u64", 48 },
	{ "nest", "u64", 56 },
	{ "probed", "u32", 64 },
	{ "lost_frames", "u32 (recorder queue full, so far)", 68 },
	{ "entries", "nentries x entry", 72 },
};
static const struct rec_field entry_fields[] = {
	{ "kind", "u16", 0 },
	{ "flags", "u16 (1 = has histogram, 2 = measured per invocation: format 1.3, 4 = watched in turns: 1.4)", 2 },
	{ "id", "u32", 4 },	   { "aux", "u32", 8 },
	{ "aux2", "u32", 12 },
	{ "cnt", "u64 stats delta (0, no figure, unless the series' src has bit 1: bpf_stats)", 16 },
	{ "time_ns", "u64 stats delta (as cnt)", 24 },
	{ "run_cnt", "u64 absolute (as cnt)", 32 },
	{ "h_count", "u64", 40 },  { "h_sum", "u64", 48 },
	{ "h_min", "u64", 56 },	   { "h_max", "u64", 64 },
	{ "h_clamped", "u64", 72 }, { "nbuckets", "u32", 80 },
	{ "blen", "u32 bytes of buckets", 84 },
	{ "buckets", "nbuckets x {uleb128 index - previous index, uleb128 count}", 88 },
};
static const struct rec_field filter_fields[] = {
	{ "mode", "u32", 0 },
	{ "len", "u32", 4 },
	{ "filter", "len bytes, -p list", 8 },
};
static const struct rec_field events_fields[] = {
	{ "n", "u32", 0 },
	{ "pad", "u32", 4 },
	{ "events", "n x struct lat_event (48 bytes, bpf/lattop.h)", 8 },
};

static const struct rec_field counters_fields[] = {
	{ "n", "u32", 0 },
	{ "pad", "u32", 4 },
	{ "counters", "n x counter", 8 },
};
static const struct rec_field counter_fields[] = {
	{ "kind", "u16 (0 = session-wide, else the series key's kind)", 0 },
	{ "flags", "u16 (1 = a loss)", 2 },
	{ "id", "u32", 4 },
	{ "aux", "u32", 8 },
	{ "aux2", "u32", 12 },
	{ "delta", "u64 growth in the interval", 16 },
	{ "name_len", "u16", 24 },
	{ "pad", "u16", 26 },
	{ "name", "name_len bytes", 28 },
};

static const struct rec_field attr_fields[] = {
	{ "kind", "u16", 0 },
	{ "flags", "u16 (1 = nothing known any more)", 2 },
	{ "id", "u32", 4 },
	{ "aux", "u32", 8 },
	{ "aux2", "u32", 12 },
	{ "uid", "u32", 16 },
	{ "verified_insns", "u32", 20 },
	{ "loaded_at", "u64 seconds since the epoch", 24 },
	{ "owners_total", "u32", 32 },
	{ "attach_total", "u32", 36 },
	{ "nowners", "u16", 40 },
	{ "npoints", "u16", 42 },
	{ "tag", "16 bytes (hex digits)", 44 },
	{ "cgroup_len", "u16", 60 },
	{ "container_len", "u16", 62 },
	{ "unit_len", "u16", 64 },
	{ "pad", "u16", 66 },
	{ "strings", "cgroup, container, unit bytes, then nowners x owner, npoints x point", 68 },
};
static const struct rec_field owner_fields[] = {
	{ "pid", "s32", 0 },
	{ "comm_len", "u16", 4 },
	{ "comm", "comm_len bytes", 6 },
};
static const struct rec_field point_fields[] = {
	{ "link_id", "u32", 0 },
	{ "kind_len", "u16", 4 },
	{ "where_len", "u16", 6 },
	{ "strings", "kind, where bytes", 8 },
};

/* Append the file header. */
void rec__header(struct rec_buf *b, const char *meta_json)
{
	uint8_t magic[REC_MAGIC_LEN] = REC_MAGIC;

	put(b, magic, sizeof(magic));
	put32(b, REC_MAJOR << 16 | REC_MINOR);
	put32(b, (uint32_t)strlen(meta_json));
	put(b, meta_json, strlen(meta_json));
}

/* One record type's description for the metadata. */
static void fields_json(struct jsonw *w, const char *key, uint32_t type, unsigned fixed,
			const struct rec_field *f, size_t n)
{
	jsonw__key(w, key);
	jsonw__begin_object(w);
	jsonw__u64_field(w, "type", type);
	jsonw__u64_field(w, "fixed_len", fixed);
	jsonw__key(w, "fields");
	jsonw__begin_array(w);
	for (size_t i = 0; i < n; i++) {
		jsonw__begin_object(w);
		jsonw__string_field(w, "name", f[i].name);
		jsonw__string_field(w, "type", f[i].type);
		jsonw__u64_field(w, "offset", f[i].off);
		jsonw__end_object(w);
	}
	jsonw__end_array(w);
	jsonw__end_object(w);
}

#define NF(a) (sizeof(a) / sizeof((a)[0]))

/* Metadata "records" object: each record type's fields. */
void rec__records_json(struct jsonw *w)
{
	jsonw__begin_object(w);
	jsonw__string_field(w, "framing",
			    "u32 type, u32 len, payload[len], u32 crc32(type,len,payload); "
			    "little-endian; skip unknown types by len");
	fields_json(w, "series", REC_SERIES, REC_SERIES_FIXED, series_fields, NF(series_fields));
	fields_json(w, "interval", REC_INTERVAL, REC_INTERVAL_FIXED, interval_fields,
		    NF(interval_fields));
	fields_json(w, "interval_entry", 0, REC_ENTRY_FIXED, entry_fields, NF(entry_fields));
	fields_json(w, "filter", REC_FILTER, REC_FILTER_FIXED, filter_fields, NF(filter_fields));
	fields_json(w, "events", REC_EVENTS, REC_EVENTS_FIXED, events_fields, NF(events_fields));
	fields_json(w, "counters", REC_COUNTERS, REC_COUNTERS_FIXED, counters_fields,
		    NF(counters_fields));
	fields_json(w, "counter", 0, REC_CTR_FIXED, counter_fields, NF(counter_fields));
	fields_json(w, "attr", REC_ATTR, REC_ATTR_FIXED, attr_fields, NF(attr_fields));
	fields_json(w, "attr_owner", 0, REC_OWNER_FIXED, owner_fields, NF(owner_fields));
	fields_json(w, "attr_point", 0, REC_POINT_FIXED, point_fields, NF(point_fields));
	jsonw__end_object(w);
}

/* What the encoder last wrote about one series (indexed by model position). */
struct shadow {
	bool written, gone;
	unsigned src;
	uint64_t run_cnt;
	uint32_t strings_crc;
	uint32_t attr_gen; /* the series' attr_gen when its attr record was written */
};

struct rec_enc {
	struct shadow *sh;
	size_t nsh;
	bool filter_written;
	uint32_t mode;
	char filter[REC_FILTER_MAX]; /* the list last written, whole */
	size_t nctr; /* named counters written at least once (a counter's name travels once) */
};

/* Create an encoder. */
struct rec_enc *rec_enc__new(void)
{
	return calloc(1, sizeof(struct rec_enc));
}

/* Free an encoder (NULL is a no-op). */
void rec_enc__free(struct rec_enc *e)
{
	if (!e)
		return;
	free(e->sh);
	free(e);
}

/* Forget what was written: the next interval re-sends every series, the filter and every
 * counter's name (the frame carrying their first mention was dropped). */
void rec_enc__forget(struct rec_enc *e)
{
	memset(e->sh, 0, e->nsh * sizeof(*e->sh));
	e->filter_written = false;
	e->nctr = 0;
}

/* CRC of a series' strings, to notice a rename, a new note or a new map name. */
static uint32_t strings_crc(const struct series *s)
{
	uint32_t c = rec__crc32(0, s->name, strlen(s->name) + 1);

	c = rec__crc32(c, s->type, strlen(s->type) + 1);
	c = rec__crc32(c, s->sub, strlen(s->sub) + 1);
	return rec__crc32(c, s->note, strlen(s->note) + 1);
}

/* Append a series record. */
static void enc_series(struct rec_buf *b, const struct series *s)
{
	size_t at = rec_begin(b, REC_SERIES);
	uint16_t ln = strlen(s->name), lt = strlen(s->type), lno = strlen(s->note);
	uint16_t lsub = strlen(s->sub);

	put16(b, s->kind);
	put16(b, s->gone ? 1 : 0);
	put32(b, s->id);
	put32(b, s->aux);
	put32(b, s->aux2);
	put32(b, s->src);
	put16(b, ln);
	put16(b, lt);
	put16(b, lno);
	put16(b, lsub);
	put(b, s->name, ln);
	put(b, s->type, lt);
	put(b, s->note, lno);
	put(b, s->sub, lsub);
	rec_end(b, at);
}

/* Append an attr record: what is known of who holds a series' program and where it is
 * attached (flags 1 and nothing more when that is not known any more). */
static void enc_attr(struct rec_buf *b, const struct series *s)
{
	const struct prog_attr *a = s->attr;
	size_t at = rec_begin(b, REC_ATTR);
	uint16_t lc = a ? strlen(a->cgroup) : 0, lk = a ? strlen(a->container) : 0;
	uint16_t lu = a ? strlen(a->unit) : 0;
	uint8_t tag[16] = { 0 };

	put16(b, s->kind);
	put16(b, a ? 0 : 1);
	put32(b, s->id);
	put32(b, s->aux);
	put32(b, s->aux2);
	put32(b, a ? a->uid : 0);
	put32(b, a ? a->verified_insns : 0);
	put64(b, a ? a->load_time_s : 0);
	put32(b, a ? a->owners_total : 0);
	put32(b, a ? a->points_total : 0);
	put16(b, a ? a->nowners : 0);
	put16(b, a ? a->npoints : 0);
	if (a)
		memcpy(tag, a->tag, strnlen(a->tag, sizeof(tag)));
	put(b, tag, sizeof(tag));
	put16(b, lc);
	put16(b, lk);
	put16(b, lu);
	put16(b, 0);
	if (a) {
		put(b, a->cgroup, lc);
		put(b, a->container, lk);
		put(b, a->unit, lu);
		for (uint32_t i = 0; i < a->nowners; i++) {
			uint16_t l = strlen(a->owners[i].comm);

			put32(b, (uint32_t)a->owners[i].pid);
			put16(b, l);
			put(b, a->owners[i].comm, l);
		}
		for (uint32_t i = 0; i < a->npoints; i++) {
			uint16_t l1 = strlen(a->points[i].kind), l2 = strlen(a->points[i].where);

			put32(b, a->points[i].link_id);
			put16(b, l1);
			put16(b, l2);
			put(b, a->points[i].kind, l1);
			put(b, a->points[i].where, l2);
		}
	}
	rec_end(b, at);
}

/* Append one interval entry: the series' last-interval deltas. */
static void enc_entry(struct rec_buf *b, const struct series *s)
{
	const struct hist *h = s->has_hist ? &s->h_last : NULL;
	uint32_t nb = 0, prev = 0, it, bi;
	uint64_t cnt;
	size_t blen_at;

	put16(b, s->kind);
	put16(b, (s->has_hist ? REC_ENTRY_HIST : 0) | (s->meas_last ? REC_ENTRY_MEASURED : 0) |
		     (s->samp_last ? REC_ENTRY_SAMPLED : 0));
	put32(b, s->id);
	put32(b, s->aux);
	put32(b, s->aux2);
	put64(b, s->st_last.cnt);
	put64(b, s->st_last.time_ns);
	put64(b, s->run_cnt);
	put64(b, h ? h->count : 0);
	put64(b, h ? h->sum : 0);
	put64(b, h && h->count ? h->min : 0);
	put64(b, h ? h->max : 0);
	put64(b, h ? h->clamped : 0);
	for (it = 0; h && h->count && hist__next(h, &it, &bi, &cnt);)
		nb++;
	put32(b, nb);
	blen_at = b->len;
	put32(b, 0);
	for (it = 0; nb && hist__next(h, &it, &bi, &cnt);) {
		putv(b, bi - prev);
		putv(b, cnt);
		prev = bi;
	}
	if (!b->oom) {
		uint32_t blen = (uint32_t)(b->len - blen_at - 4);

		b->p[blen_at] = blen;
		b->p[blen_at + 1] = blen >> 8;
		b->p[blen_at + 2] = blen >> 16;
		b->p[blen_at + 3] = blen >> 24;
	}
}

/* True when series s has something to say about the last interval. */
static bool entry_needed(const struct series *s, const struct shadow *sh)
{
	return s->st_last.cnt || s->st_last.time_ns || s->run_cnt != sh->run_cnt ||
	       (s->has_hist && s->h_last.count) || (s->has_hist && !sh->written);
}

/* Append the named counters that grew in the interval, and any not written before (so a
 * replay knows every counter, zero ones included). */
static void enc_counters(struct rec_enc *e, const struct model *m, struct rec_buf *b)
{
	size_t at;
	uint32_t n = 0;

	for (size_t i = 0; i < m->nctr; i++)
		n += m->ctr[i].last || i >= e->nctr;
	if (!n)
		return;
	at = rec_begin(b, REC_COUNTERS);
	put32(b, n);
	put32(b, 0);
	for (size_t i = 0; i < m->nctr; i++) {
		const struct model_counter *c = &m->ctr[i];
		const struct series *s = c->series >= 0 ? &m->s[c->series] : NULL;
		uint16_t ln = strlen(c->name);

		if (!c->last && i < e->nctr)
			continue;
		put16(b, s ? s->kind : 0);
		put16(b, c->loss ? 1 : 0);
		put32(b, s ? s->id : 0);
		put32(b, s ? s->aux : 0);
		put32(b, s ? s->aux2 : 0);
		put64(b, c->last);
		put16(b, ln);
		put16(b, 0);
		put(b, c->name, ln);
	}
	rec_end(b, at);
	e->nctr = m->nctr;
}

/* Append the records of the interval m just closed. */
void rec_enc__interval(struct rec_enc *e, const struct model *m, const char *filter,
		       uint32_t lost, struct rec_buf *b)
{
	const struct model_counters *c = &m->c_last;
	size_t at, nat;
	uint32_t n = 0;

	if (e->nsh < m->n) {
		struct shadow *ns = realloc(e->sh, m->n * sizeof(*ns));

		if (!ns) {
			b->oom = true;
			return;
		}
		memset(ns + e->nsh, 0, (m->n - e->nsh) * sizeof(*ns));
		e->sh = ns;
		e->nsh = m->n;
	}
	for (size_t i = 0; i < m->n; i++) {
		const struct series *s = &m->s[i];
		struct shadow *sh = &e->sh[i];
		uint32_t sc = strings_crc(s);

		if (sh->written && sh->gone == s->gone && sh->src == s->src &&
		    sh->strings_crc == sc)
			continue;
		enc_series(b, s);
		sh->gone = s->gone;
		sh->src = s->src;
		sh->strings_crc = sc;
	}
	for (size_t i = 0; i < m->n; i++) {
		if (m->s[i].attr_gen == e->sh[i].attr_gen)
			continue;
		enc_attr(b, &m->s[i]);
		e->sh[i].attr_gen = m->s[i].attr_gen;
	}
	if (!e->filter_written || e->mode != (uint32_t)m->mode || strcmp(e->filter, filter)) {
		at = rec_begin(b, REC_FILTER);
		put32(b, m->mode);
		put32(b, (uint32_t)strlen(filter));
		put(b, filter, strlen(filter));
		rec_end(b, at);
		e->filter_written = true;
		e->mode = m->mode;
		snprintf(e->filter, sizeof(e->filter), "%s", filter);
	}
	enc_counters(e, m, b);
	at = rec_begin(b, REC_INTERVAL);
	put64(b, m->last_start_ns);
	put64(b, m->last_end_ns);
	put32(b, m->mode);
	nat = b->len;
	put32(b, 0);
	put64(b, c->events);
	put64(b, c->rb_drops);
	put64(b, c->queue_drops);
	put64(b, c->recursion);
	put64(b, c->nest);
	put32(b, (uint32_t)m->probed);
	put32(b, lost);
	for (size_t i = 0; i < m->n; i++) {
		const struct series *s = &m->s[i];
		struct shadow *sh = &e->sh[i];

		if (!entry_needed(s, sh)) {
			sh->written = true;
			continue;
		}
		enc_entry(b, s);
		sh->written = true;
		sh->run_cnt = s->run_cnt;
		n++;
	}
	if (!b->oom) {
		b->p[nat] = n;
		b->p[nat + 1] = n >> 8;
		b->p[nat + 2] = n >> 16;
		b->p[nat + 3] = n >> 24;
	}
	rec_end(b, at);
}

/* Append one record of events. */
void rec__events(struct rec_buf *b, const struct lat_event *ev, uint32_t n)
{
	size_t at;

	rec_buf__room(b, 20 + (size_t)n * REC_EVENT_SIZE); /* one allocation for the record */
	at = rec_begin(b, REC_EVENTS);

	put32(b, n);
	put32(b, 0);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* struct lat_event's memory layout is the record layout here: one copy. */
	_Static_assert(sizeof(struct lat_event) == REC_EVENT_SIZE, "lat_event is the record");
	put(b, ev, (size_t)n * sizeof(*ev));
	n = 0;
#endif
	for (uint32_t i = 0; i < n; i++) {
		const struct lat_event *x = &ev[i];

		put16(b, x->kind);
		put16(b, x->flags);
		put32(b, x->cpu);
		put32(b, x->id);
		put32(b, x->aux);
		put32(b, x->aux2);
		put32(b, x->pid);
		put32(b, x->tid);
		put32(b, 0);
		put64(b, x->start_ns);
		put64(b, x->dur_ns);
	}
	rec_end(b, at);
}
