// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rec.c - the recording format (see rec.h): field tables, encoder, scanner, applier.
 *
 * Everything is little-endian and written field by field, so the layout does not depend on
 * the compiler's struct padding. The field tables below are both the documentation written
 * into every file's metadata and the offsets the code uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#include "rec/rec.h"

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
	{ "flags", "u16 (1 = has histogram, 2 = measured per invocation: format 1.3)", 2 },
	{ "id", "u32", 4 },	   { "aux", "u32", 8 },
	{ "aux2", "u32", 12 },	   { "cnt", "u64 stats delta", 16 },
	{ "time_ns", "u64 stats delta", 24 },
	{ "run_cnt", "u64 absolute", 32 },
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

/* CRC-32 (IEEE): zlib's, which uses the CPU's carry-less multiply where there is one (a
 * byte-at-a-time table cost ~2.5 ns/byte, most of what --raw cost per event). */
uint32_t rec__crc32(uint32_t crc, const void *p, size_t len)
{
	return (uint32_t)crc32(crc, p, (uInt)len);
}

/* Release a buffer's memory. */
void rec_buf__fini(struct rec_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* Make room for n more bytes; false (and oom) when that fails. */
bool rec_buf__room(struct rec_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->oom)
		return false;
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

/* Append n raw bytes. */
static void put(struct rec_buf *b, const void *v, size_t n)
{
	if (n && rec_buf__room(b, n)) {
		memcpy(b->p + b->len, v, n);
		b->len += n;
	}
}

/* Append little-endian integers. */
static void put16(struct rec_buf *b, uint16_t v)
{
	uint8_t x[2] = { v, v >> 8 };

	put(b, x, 2);
}

static void put32(struct rec_buf *b, uint32_t v)
{
	uint8_t x[4] = { v, v >> 8, v >> 16, v >> 24 };

	put(b, x, 4);
}

static void put64(struct rec_buf *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b, (uint32_t)(v >> 32));
}

/* Read little-endian integers at p. */
static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Append an unsigned LEB128 varint. */
static void putv(struct rec_buf *b, uint64_t v)
{
	uint8_t x[10];
	size_t n = 0;

	do {
		x[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	put(b, x, n);
}

/* Read an unsigned LEB128 varint at p[*off] (len bytes in all); false when malformed. */
static bool getv(const uint8_t *p, size_t len, size_t *off, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64 && *off < len; shift += 7) {
		uint8_t x = p[(*off)++];

		*v |= (uint64_t)(x & 0x7f) << shift;
		if (!(x & 0x80))
			return true;
	}
	return false;
}

/* Start a record: type and a length placeholder; returns the record's start. */
static size_t rec_begin(struct rec_buf *b, uint32_t type)
{
	size_t at = b->len;

	put32(b, type);
	put32(b, 0);
	return at;
}

/* Finish a record: fill in the length and append the CRC. */
static void rec_end(struct rec_buf *b, size_t at)
{
	uint32_t len, crc;

	if (b->oom)
		return;
	len = (uint32_t)(b->len - at - 8);
	b->p[at + 4] = len;
	b->p[at + 5] = len >> 8;
	b->p[at + 6] = len >> 16;
	b->p[at + 7] = len >> 24;
	crc = rec__crc32(0, b->p + at, b->len - at);
	put32(b, crc);
}

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
static cJSON *fields_json(uint32_t type, unsigned fixed, const struct rec_field *f, size_t n)
{
	cJSON *o = cJSON_CreateObject(), *arr;

	cJSON_AddNumberToObject(o, "type", type);
	cJSON_AddNumberToObject(o, "fixed_len", fixed);
	arr = cJSON_AddArrayToObject(o, "fields");
	for (size_t i = 0; i < n; i++) {
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "name", f[i].name);
		cJSON_AddStringToObject(x, "type", f[i].type);
		cJSON_AddNumberToObject(x, "offset", f[i].off);
		cJSON_AddItemToArray(arr, x);
	}
	return o;
}

#define NF(a) (sizeof(a) / sizeof((a)[0]))

/* Metadata "records" object: each record type's fields. */
void *rec__records_json(void)
{
	cJSON *r = cJSON_CreateObject();

	cJSON_AddStringToObject(r, "framing",
				"u32 type, u32 len, payload[len], u32 crc32(type,len,payload); "
				"little-endian; skip unknown types by len");
	cJSON_AddItemToObject(r, "series", fields_json(REC_SERIES, REC_SERIES_FIXED,
							 series_fields, NF(series_fields)));
	cJSON_AddItemToObject(r, "interval", fields_json(REC_INTERVAL, REC_INTERVAL_FIXED,
							   interval_fields, NF(interval_fields)));
	cJSON_AddItemToObject(r, "interval_entry",
			      fields_json(0, REC_ENTRY_FIXED, entry_fields, NF(entry_fields)));
	cJSON_AddItemToObject(r, "filter", fields_json(REC_FILTER, REC_FILTER_FIXED,
							 filter_fields, NF(filter_fields)));
	cJSON_AddItemToObject(r, "events", fields_json(REC_EVENTS, REC_EVENTS_FIXED,
							 events_fields, NF(events_fields)));
	cJSON_AddItemToObject(r, "counters", fields_json(REC_COUNTERS, REC_COUNTERS_FIXED,
							   counters_fields, NF(counters_fields)));
	cJSON_AddItemToObject(r, "counter",
			      fields_json(0, REC_CTR_FIXED, counter_fields, NF(counter_fields)));
	return r;
}

/* What the encoder last wrote about one series (indexed by model position). */
struct shadow {
	bool written, gone;
	unsigned src;
	uint64_t run_cnt;
	uint32_t strings_crc;
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

/* Append one interval entry: the series' last-interval deltas. */
static void enc_entry(struct rec_buf *b, const struct series *s)
{
	const struct hist *h = s->has_hist ? &s->h_last : NULL;
	uint32_t nb = 0, prev = 0, it, bi;
	uint64_t cnt;
	size_t blen_at;

	put16(b, s->kind);
	put16(b, (s->has_hist ? REC_ENTRY_HIST : 0) | (s->meas_last ? REC_ENTRY_MEASURED : 0));
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

/* Check a known record's inner layout against its length; NULL when fine, else what. */
static const char *check_payload(uint32_t type, const uint8_t *p, uint32_t len)
{
	switch (type) {
	case REC_SERIES:
		if (len < REC_SERIES_FIXED)
			return "series record too short";
		if ((uint64_t)REC_SERIES_FIXED + get16(p + 20) + get16(p + 22) + get16(p + 24) +
			    get16(p + 26) !=
		    len)
			return "series record string lengths do not add up";
		return NULL;
	case REC_INTERVAL: {
		uint32_t n, off = REC_INTERVAL_FIXED;

		if (len < REC_INTERVAL_FIXED)
			return "interval record too short";
		n = get32(p + 20);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t nb, blen;
			size_t at = 0;
			uint64_t v;

			if (len - off < REC_ENTRY_FIXED)
				return "interval record entries run past its end";
			nb = get32(p + off + 80);
			blen = get32(p + off + 84);
			if (blen > len - off - REC_ENTRY_FIXED)
				return "interval record buckets run past its end";
			/* Each bucket takes two varints of a byte or more; in 64 bits, since 2 * nb
			 * wraps in 32 (a wrapped count made the applier loop ~2^31 times). */
			if (2ull * nb > blen)
				return "interval record buckets are malformed";
			for (uint64_t k = 0; k < 2ull * nb; k++)
				if (!getv(p + off + REC_ENTRY_FIXED, blen, &at, &v))
					return "interval record buckets are malformed";
			if (at != blen)
				return "interval record bucket bytes do not match their count";
			off += REC_ENTRY_FIXED + blen;
		}
		return off == len ? NULL : "interval record has trailing bytes";
	}
	case REC_FILTER:
		if (len < REC_FILTER_FIXED || get32(p + 4) != len - REC_FILTER_FIXED)
			return "filter record length does not match";
		return NULL;
	case REC_EVENTS:
		if (len < REC_EVENTS_FIXED ||
		    (uint64_t)get32(p) * REC_EVENT_SIZE != len - REC_EVENTS_FIXED)
			return "events record length does not match its count";
		return NULL;
	case REC_COUNTERS: {
		uint32_t n, off = REC_COUNTERS_FIXED;

		if (len < REC_COUNTERS_FIXED)
			return "counters record too short";
		n = get32(p);
		for (uint32_t i = 0; i < n; i++) {
			if (len - off < REC_CTR_FIXED)
				return "counters record entries run past its end";
			if (get16(p + off + 24) > len - off - REC_CTR_FIXED)
				return "counters record name runs past its end";
			off += REC_CTR_FIXED + get16(p + off + 24);
		}
		return off == len ? NULL : "counters record has trailing bytes";
	}
	default:
		return NULL; /* unknown: skipped by length */
	}
}

/* Append a good record to the index. */
static int index_add(struct rec_file *f, size_t *cap, uint32_t type, uint32_t len, size_t off)
{
	if (f->nrecs == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct rec_ref *nr = realloc(f->recs, nc * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		f->recs = nr;
		*cap = nc;
	}
	f->recs[f->nrecs++] = (struct rec_ref){ .type = type, .len = len, .off = off };
	return 0;
}

/* Scan step 1, the header: magic, a version this reader reads, the metadata JSON. Returns 0
 * (*body: where the records start) or a negative errno with one sentence in err. */
static int scan_header(struct rec_file *f, size_t *body, char *err, size_t errlen)
{
	static const uint8_t magic[REC_MAGIC_LEN] = REC_MAGIC;
	const uint8_t *data = f->data;
	size_t size = f->size;
	uint32_t meta_len;
	char *meta;

	if (size < REC_HDR_LEN || memcmp(data, magic, REC_MAGIC_LEN)) {
		snprintf(err, errlen, "not a lattop recording (bad magic)");
		return -EINVAL;
	}
	f->version = get32(data + 12);
	if (f->version >> 16 > REC_MAJOR) {
		snprintf(err, errlen,
			 "recorded with format version %u.%u, newer than this lattop reads (%u.x): "
			 "replay it with a newer lattop",
			 f->version >> 16, f->version & 0xffff, (unsigned)REC_MAJOR);
		return -EPROTO;
	}
	meta_len = get32(data + 16);
	if (meta_len > size - REC_HDR_LEN) {
		snprintf(err, errlen, "header metadata is cut short (%u bytes announced, %zu present)",
			 meta_len, size - REC_HDR_LEN);
		return -EINVAL;
	}
	meta = malloc((size_t)meta_len + 1);
	if (!meta)
		return -ENOMEM;
	memcpy(meta, data + REC_HDR_LEN, meta_len);
	meta[meta_len] = '\0';
	f->meta = cJSON_Parse(meta);
	free(meta);
	if (!cJSON_IsObject((cJSON *)f->meta)) {
		snprintf(err, errlen, "header metadata is not a JSON object");
		return -EINVAL;
	}
	*body = REC_HDR_LEN + (size_t)meta_len;
	return 0;
}

/* Scan step 2, one record frame at off: true when it is whole (type, length, CRC and payload
 * check out), else false with the damage sentence set. */
static bool frame_ok(struct rec_file *f, size_t off)
{
	const uint8_t *data = f->data;
	size_t size = f->size;
	uint32_t type, len, crc;
	const char *what;

	if (size - off < 12) {
		snprintf(f->damage, sizeof(f->damage),
			 "truncated/corrupt record at byte %zu: %zu bytes, shorter than a "
			 "record frame",
			 off, size - off);
		return false;
	}
	type = get32(data + off);
	len = get32(data + off + 4);
	if (len > size - off - 12) {
		snprintf(f->damage, sizeof(f->damage),
			 "truncated/corrupt record at byte %zu: length %u runs past the end "
			 "of the file",
			 off, len);
		return false;
	}
	crc = get32(data + off + 8 + len);
	if (rec__crc32(0, data + off, 8 + (size_t)len) != crc) {
		snprintf(f->damage, sizeof(f->damage),
			 "truncated/corrupt record at byte %zu: CRC mismatch", off);
		return false;
	}
	what = check_payload(type, data + off + 8, len);
	if (what) {
		snprintf(f->damage, sizeof(f->damage), "truncated/corrupt record at byte %zu: %s",
			 off, what);
		return false;
	}
	return true;
}

/* Scan step 3, the records from off: index every whole one, stop at the first damage (what
 * comes before it stays readable). Returns 0 or -ENOMEM. */
static int scan_records(struct rec_file *f, size_t off)
{
	const uint8_t *data = f->data;
	size_t cap = 0;

	while (off < f->size && frame_ok(f, off)) {
		uint32_t type = get32(data + off), len = get32(data + off + 4);

		if (index_add(f, &cap, type, len, off + 8))
			return -ENOMEM;
		if (type == REC_INTERVAL)
			f->nivals++;
		if (type == REC_EVENTS)
			f->nevents += get32(data + off + 8);
		if (type == REC_SERIES && get16(data + off + 8) < 32)
			f->kinds |= 1u << get16(data + off + 8);
		off += 12 + (size_t)len;
	}
	return 0;
}

/* Scan step 4, the interval index: record number of each interval record. */
static int index_intervals(struct rec_file *f)
{
	size_t k = 0;

	f->ivals = calloc(f->nivals + 1, sizeof(*f->ivals));
	if (!f->ivals)
		return -ENOMEM;
	for (size_t i = 0; i < f->nrecs; i++)
		if (f->recs[i].type == REC_INTERVAL)
			f->ivals[k++] = i;
	return 0;
}

/* Scan a whole file in memory. */
int rec__scan(struct rec_file *f, const uint8_t *data, size_t size, char *err, size_t errlen)
{
	size_t body;
	int e;

	memset(f, 0, sizeof(*f));
	f->data = data;
	f->size = size;
	e = scan_header(f, &body, err, errlen);
	if (!e)
		e = scan_records(f, body);
	if (!e)
		e = index_intervals(f);
	if (e)
		rec__fini(f);
	return e;
}

/* Release what rec__scan allocated. */
void rec__fini(struct rec_file *f)
{
	cJSON_Delete(f->meta);
	free(f->recs);
	free(f->ivals);
	f->meta = NULL;
	f->recs = NULL;
	f->ivals = NULL;
	f->nrecs = f->nivals = 0;
}

/* Copy a length-delimited string into a fixed field. */
static void copy_str(char *dst, size_t dstlen, const uint8_t *p, size_t n)
{
	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

/* Apply a series record. */
static int apply_series(struct model *m, const uint8_t *p)
{
	struct series *s = model__series(m, get16(p), get32(p + 4), get32(p + 8), get32(p + 12));
	size_t ln = get16(p + 20), lt = get16(p + 22), lno = get16(p + 24), lsub = get16(p + 26);

	if (!s)
		return -ENOMEM;
	s->gone = get16(p + 2) & 1;
	s->src = get32(p + 16) & ~SRC_PROBING;
	model__set_probing(m, s, get32(p + 16) & SRC_PROBING);
	copy_str(s->name, sizeof(s->name), p + 28, ln);
	copy_str(s->type, sizeof(s->type), p + 28 + ln, lt);
	copy_str(s->note, sizeof(s->note), p + 28 + ln + lt, lno);
	copy_str(s->sub, sizeof(s->sub), p + 28 + ln + lt + lno, lsub);
	return REC_SERIES;
}

/* Apply an interval record: deltas into the open interval, then close it. */
static int apply_interval(struct model *m, const uint8_t *p)
{
	uint32_t n = get32(p + 20), off = REC_INTERVAL_FIXED;
	uint32_t idx[256];
	uint64_t cnt[256];

	m->open_start_ns = get64(p);
	m->mode = get32(p + 16) < MODE__COUNT ? (enum lat_mode)get32(p + 16) : MODE_PROGRAMS;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *e = p + off;
		struct series *s = model__series(m, get16(e), get32(e + 4), get32(e + 8),
						 get32(e + 12));
		struct hist_delta d = {
			.count = get64(e + 40),
			.sum = get64(e + 48),
			.min = get64(e + 56),
			.max = get64(e + 64),
			.clamped = get64(e + 72),
		};
		uint32_t nb = get32(e + 80), blen = get32(e + 84);
		size_t at = 0;
		uint64_t bi = 0;

		if (!s)
			return -ENOMEM;
		model__set_stats(m, s, get64(e + 16), get64(e + 24), get64(e + 32));
		if (get16(e + 2) & REC_ENTRY_MEASURED)
			model__set_measured(m, s);
		if (get16(e + 2) & REC_ENTRY_HIST) {
			/* Buckets in chunks: the summary goes with the first chunk only. */
			uint32_t done = 0;

			do {
				uint32_t k = 0;

				for (; k < 256 && done + k < nb; k++) {
					uint64_t step;

					getv(e + REC_ENTRY_FIXED, blen, &at, &step);
					getv(e + REC_ENTRY_FIXED, blen, &at, &cnt[k]);
					bi += step;
					idx[k] = bi > UINT32_MAX ? UINT32_MAX : (uint32_t)bi;
				}
				if (model__add_hist(m, s, idx, cnt, k,
						    done ? &(struct hist_delta){ 0 } : &d))
					return -ENOMEM;
				done += k;
			} while (done < nb);
		}
		off += REC_ENTRY_FIXED + blen;
	}
	m->c_open = (struct model_counters){
		.events = get64(p + 24),
		.rb_drops = get64(p + 32),
		.queue_drops = get64(p + 40),
		.recursion = get64(p + 48),
		.nest = get64(p + 56),
	};
	m->probed = (int)get32(p + 64);
	/* Frames the writer dropped so far (absolute): their growth is this interval's loss. */
	if (get32(p + 68) && model__set_counter(m, REC_LOST_FRAMES, get32(p + 68)))
		return -ENOMEM;
	if (model__close_interval(m, get64(p + 8)))
		return -ENOMEM;
	return REC_INTERVAL;
}

/* Apply a counters record: deltas into the open interval (the interval record closes it). */
static int apply_counters(struct model *m, const uint8_t *p)
{
	uint32_t n = get32(p), off = REC_COUNTERS_FIXED;

	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *c = p + off;
		struct series *s = NULL;
		char name[MODEL_CTR_NAME];

		if (get16(c)) {
			s = model__series(m, get16(c), get32(c + 4), get32(c + 8), get32(c + 12));
			if (!s)
				return -ENOMEM;
		}
		copy_str(name, sizeof(name), c + REC_CTR_FIXED, get16(c + 24));
		if (model__add_counter(m, s, name, get16(c + 2) & 1, get64(c + 16)))
			return -ENOMEM;
		off += REC_CTR_FIXED + get16(c + 24);
	}
	return REC_COUNTERS;
}

/* Apply record i to m. */
int rec__apply(const struct rec_file *f, size_t i, struct model *m, char *filter,
	       size_t filterlen)
{
	const struct rec_ref *r = &f->recs[i];
	const uint8_t *p = f->data + r->off;

	m->legacy_rows = f->version < (1u << 16 | 3);
	switch (r->type) {
	case REC_SERIES:
		return apply_series(m, p);
	case REC_INTERVAL:
		return apply_interval(m, p);
	case REC_COUNTERS:
		return apply_counters(m, p);
	case REC_FILTER:
		if (get32(p) < MODE__COUNT)
			m->mode = (enum lat_mode)get32(p);
		if (filter)
			copy_str(filter, filterlen, p + 8, get32(p + 4));
		return REC_FILTER;
	default:
		return 0;
	}
}

/* Event j of record i. */
void rec__event(const struct rec_file *f, size_t i, uint32_t j, struct lat_event *ev,
		uint32_t *n)
{
	const uint8_t *p = f->data + f->recs[i].off;

	if (!ev) {
		*n = f->recs[i].type == REC_EVENTS ? get32(p) : 0;
		return;
	}
	p += REC_EVENTS_FIXED + (size_t)j * REC_EVENT_SIZE;
	memset(ev, 0, sizeof(*ev));
	ev->kind = get16(p);
	ev->flags = get16(p + 2);
	ev->cpu = get32(p + 4);
	ev->id = get32(p + 8);
	ev->aux = get32(p + 12);
	ev->aux2 = get32(p + 16);
	ev->pid = get32(p + 20);
	ev->tid = get32(p + 24);
	ev->start_ns = get64(p + 32);
	ev->dur_ns = get64(p + 40);
}

/* A string field of the metadata ("" when absent). */
const char *rec__meta_str(const struct rec_file *f, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive((const cJSON *)f->meta, key);

	return cJSON_IsString(v) && v->valuestring ? v->valuestring : "";
}

/* A number field of the metadata (0 when absent). */
double rec__meta_num(const struct rec_file *f, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive((const cJSON *)f->meta, key);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* Start of interval k. */
uint64_t rec__ival_start(const struct rec_file *f, size_t k)
{
	return get64(f->data + f->recs[f->ivals[k]].off);
}

/* Writer frames lost before interval k was written (absolute). */
uint32_t rec__ival_lost(const struct rec_file *f, size_t k)
{
	return get32(f->data + f->recs[f->ivals[k]].off + 68);
}

/* End of interval k. */
uint64_t rec__ival_end(const struct rec_file *f, size_t k)
{
	return get64(f->data + f->recs[f->ivals[k]].off + 8);
}
