// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perfdata.c - read a perf.data file in memory (see perfdata.h). The layout, from the kernel's
 * tools/perf/Documentation/perf.data-file-format.txt: a file header (magic, its size, the size
 * of one attr entry, the attrs, data and event_types sections, 256 feature bits); the attrs
 * section holds one perf_event_attr plus a section of its sample ids per event; the data
 * section holds perf_event_header-framed records; after it, one section per feature bit set,
 * in bit order. Little-endian files only (the magic read as bytes says which).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/perfdata.h"

#define HDR_LEN 104	    /* the file header up to the end of the feature bits */
#define ATTR_V0 64	    /* the first perf_event_attr's size */
#define ATTR_BIG 4096	    /* an attr bigger than this is no attr */
#define SECTION 16	    /* a perf_file_section: offset, size */
#define REC_HDR 8	    /* a perf_event_header: type, misc, size */
#define TYPE_TRACEPOINT 2   /* PERF_TYPE_TRACEPOINT */
#define RECORD_LOST 2	    /* PERF_RECORD_LOST: id, lost */
#define RECORD_SAMPLE 9	    /* PERF_RECORD_SAMPLE */
#define RECORD_LOST_SAMPLES 13 /* PERF_RECORD_LOST_SAMPLES: lost */
#define FEAT_HOSTNAME 3
#define FEAT_OSRELEASE 4
#define FEAT_EVENT_DESC 12
#define FEAT_CLOCK_DATA 29
#define FEAT_BITS 256

/* PERF_SAMPLE_* bits, in the order their fields come in a sample. */
#define S_IP (1ull << 0)
#define S_TID (1ull << 1)
#define S_TIME (1ull << 2)
#define S_ADDR (1ull << 3)
#define S_READ (1ull << 4)
#define S_CALLCHAIN (1ull << 5)
#define S_ID (1ull << 6)
#define S_CPU (1ull << 7)
#define S_PERIOD (1ull << 8)
#define S_STREAM_ID (1ull << 9)
#define S_RAW (1ull << 10)
#define S_IDENTIFIER (1ull << 16)

/* A section of the file: checked to lie inside it. */
struct sect {
	uint64_t off, size;
};

/* One sample id and its attr. */
struct idmap {
	uint64_t id;
	uint32_t attr;
};

/* How a sample says its attr: the id's offset in the sample, or none (one attr only). */
struct finder {
	struct idmap *ids;
	size_t nids;
	int id_at; /* byte offset of the id in a sample, or -1 */
};

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* True when data starts with the magic, either byte order. */
bool pdata__is(const void *data, size_t size)
{
	return size >= 8 && (!memcmp(data, PDATA_MAGIC, 8) || !memcmp(data, "2ELIFREP", 8));
}

/* Read the section at byte at of the file into s; false when it does not lie in the file. */
static bool sect_at(const struct pdata *pd, uint64_t at, struct sect *s)
{
	if (at > pd->size || pd->size - at < SECTION)
		return false;
	s->off = get64(pd->data + at);
	s->size = get64(pd->data + at + 8);
	return s->off <= pd->size && s->size <= pd->size - s->off;
}

/* True when sections a and b share a byte. */
static bool overlap(const struct sect *a, const struct sect *b)
{
	return a->size && b->size && a->off < b->off + b->size && b->off < a->off + a->size;
}

/* Order of sample ids. */
static int id_cmp(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Read the attrs section (entries of attr_size bytes: an attr, then its ids' section). */
static int read_attrs(struct pdata *pd, const struct sect *as, uint64_t attr_size,
		      struct finder *fd, char *err, size_t errlen)
{
	uint64_t n = as->size / attr_size, nids = 0;

	if (as->size % attr_size || !n || n > PDATA_ATTR_MAX) {
		snprintf(err, errlen,
			 "the attrs section holds %llu bytes: not 1 to %d events of %llu bytes",
			 (unsigned long long)as->size, PDATA_ATTR_MAX,
			 (unsigned long long)attr_size);
		return -EINVAL;
	}
	pd->attr = calloc(n, sizeof(*pd->attr));
	if (!pd->attr)
		return -ENOMEM;
	pd->nattr = (uint32_t)n;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *a = pd->data + as->off + i * attr_size;
		struct sect ids;

		pd->attr[i].type = get32(a);
		pd->attr[i].config = get64(a + 8);
		pd->attr[i].sample_type = get64(a + 24);
		if (!sect_at(pd, as->off + i * attr_size + attr_size - SECTION, &ids) ||
		    ids.size % 8 || ids.size / 8 > PDATA_ID_MAX - nids) {
			snprintf(err, errlen,
				 "event %llu's sample ids lie outside the file or are more than %d",
				 (unsigned long long)i, PDATA_ID_MAX);
			return -EINVAL;
		}
		nids += ids.size / 8;
	}
	fd->ids = calloc(nids ? nids : 1, sizeof(*fd->ids));
	if (!fd->ids)
		return -ENOMEM;
	for (uint64_t i = 0; i < n; i++) {
		struct sect ids = { 0 };

		sect_at(pd, as->off + i * attr_size + attr_size - SECTION, &ids);
		for (uint64_t k = 0; k < ids.size / 8; k++) {
			fd->ids[fd->nids].id = get64(pd->data + ids.off + k * 8);
			fd->ids[fd->nids++].attr = (uint32_t)i;
		}
	}
	qsort(fd->ids, fd->nids, sizeof(*fd->ids), id_cmp);
	return 0;
}

/* A string feature (u32 length, then that many bytes, NUL-padded) into out; bytes outside
 * printable ASCII become '?' (it is shown and written to JSON). */
static void read_string(const struct pdata *pd, const struct sect *s, char *out, size_t len)
{
	uint32_t n;
	size_t k = 0;

	if (s->size < 4)
		return;
	n = get32(pd->data + s->off);
	if (n > s->size - 4)
		n = (uint32_t)(s->size - 4);
	for (uint32_t i = 0; i < n && k + 1 < len && pd->data[s->off + 4 + i]; i++) {
		uint8_t c = pd->data[s->off + 4 + i];

		out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	out[k] = 0;
}

/* The attr whose type and config desc's attr has: the name goes to it (the part after the
 * "system:"), when it has none yet and the name fits. */
static void name_attr(struct pdata *pd, const uint8_t *a, const uint8_t *str, uint32_t len)
{
	const uint8_t *colon = memchr(str, ':', len);
	const uint8_t *nul = memchr(str, 0, len);
	size_t n;

	if (nul)
		len = (uint32_t)(nul - str);
	if (colon && colon < str + len) {
		len -= (uint32_t)(colon + 1 - str);
		str = colon + 1;
	}
	n = len;
	for (uint32_t i = 0; i < pd->nattr; i++) {
		struct pdata_attr *at = &pd->attr[i];

		if (at->type != get32(a) || at->config != get64(a + 8) || at->name[0] ||
		    n >= sizeof(at->name) || memchr(str, 0, n))
			continue;
		memcpy(at->name, str, n);
		at->name[n] = 0;
	}
}

/* HEADER_EVENT_DESC: u32 nr, u32 attr_size, then per event its attr, u32 nr_ids, u32 length
 * and the name, the ids. Names what it can; a description cut short ends it. */
static void read_desc(struct pdata *pd, const struct sect *s)
{
	const uint8_t *p = pd->data + s->off, *end = p + s->size;
	uint32_t nr, asz;

	if (s->size < 8)
		return;
	nr = get32(p);
	asz = get32(p + 4);
	p += 8;
	if (asz < ATTR_V0 || asz > ATTR_BIG || nr > PDATA_ATTR_MAX)
		return;
	for (uint32_t i = 0; i < nr; i++) {
		const uint8_t *a = p;
		uint32_t nids, len;

		if ((size_t)(end - p) < (size_t)asz + 8)
			return;
		nids = get32(p + asz);
		len = get32(p + asz + 4);
		p += asz + 8;
		if ((size_t)(end - p) < len)
			return;
		name_attr(pd, a, p, len);
		p += len;
		if ((size_t)(end - p) / 8 < nids)
			return;
		p += (size_t)nids * 8;
	}
}

/* CLOCK_DATA: u32 version, u32 clockid, u64 wall-clock ns, u64 clockid ns of one instant. */
static void read_clock(struct pdata *pd, const struct sect *s)
{
	const uint8_t *p = pd->data + s->off;

	if (s->size < 24)
		return;
	pd->clockid = get32(p + 4);
	pd->wall_ns = get64(p + 8);
	pd->clock_ns = get64(p + 16);
	pd->has_clock = pd->wall_ns && pd->clock_ns;
}

/* The feature sections after the data section, one per bit set, in bit order. */
static int read_features(struct pdata *pd, const struct sect *data, char *err, size_t errlen)
{
	uint64_t at = data->off + data->size;

	for (int bit = 0; bit < FEAT_BITS; bit++) {
		struct sect s;

		if (!(get64(pd->data + 72 + (bit / 64) * 8) >> (bit % 64) & 1))
			continue;
		if (!sect_at(pd, at, &s)) {
			snprintf(err, errlen,
				 "feature %d's section (at byte %llu) lies outside the file", bit,
				 (unsigned long long)at);
			return -EINVAL;
		}
		at += SECTION;
		if (bit == FEAT_HOSTNAME)
			read_string(pd, &s, pd->host, sizeof(pd->host));
		else if (bit == FEAT_OSRELEASE)
			read_string(pd, &s, pd->kernel, sizeof(pd->kernel));
		else if (bit == FEAT_EVENT_DESC)
			read_desc(pd, &s);
		else if (bit == FEAT_CLOCK_DATA)
			read_clock(pd, &s);
	}
	return 0;
}

/* Where the id of a sample is, from the attrs' sample types (perf's rule: IDENTIFIER first in
 * every sample, or one sample_type for all with ID, or a single attr). */
static int find_id_at(struct pdata *pd, struct finder *fd, char *err, size_t errlen)
{
	bool ident = true, same = true;
	uint64_t st = pd->attr[0].sample_type;
	int at = 0;

	for (uint32_t i = 0; i < pd->nattr; i++) {
		ident &= !!(pd->attr[i].sample_type & S_IDENTIFIER);
		same &= pd->attr[i].sample_type == st;
	}
	fd->id_at = -1;
	if (ident) {
		fd->id_at = 0;
	} else if (same && st & S_ID) {
		at += st & S_IP ? 8 : 0;
		at += st & S_TID ? 8 : 0;
		at += st & S_TIME ? 8 : 0;
		at += st & S_ADDR ? 8 : 0;
		fd->id_at = at;
	} else if (pd->nattr > 1) {
		snprintf(err, errlen, "its %u events' samples do not say which event they belong "
				      "to (no IDENTIFIER or ID in their sample_type)",
			 pd->nattr);
		return -EINVAL;
	}
	return 0;
}

/* The attr of sample rec[len] (after its header), or -1. */
static int64_t sample_attr(const struct pdata *pd, const struct finder *fd, const uint8_t *rec,
			   size_t len)
{
	struct idmap key, *m;

	if (fd->id_at < 0)
		return 0;
	if ((size_t)fd->id_at + 8 > len)
		return -1;
	if (pd->nattr == 1 && !fd->nids)
		return 0;
	key.id = get64(rec + fd->id_at);
	m = bsearch(&key, fd->ids, fd->nids, sizeof(*fd->ids), id_cmp);
	return m ? (int64_t)m->attr : -1;
}

/* Skip n bytes of a sample at *at (of len); false when they are not there. */
static bool skip(size_t *at, size_t len, uint64_t n)
{
	if (n > len - *at)
		return false;
	*at += n;
	return true;
}

/* The fields of sample rec[len] of attr a that lattop takes (tid, time, raw); false when the
 * sample is too short for its sample_type or has no time or raw data. */
static bool sample_fields(const struct pdata_attr *a, const uint8_t *rec, size_t len,
			  struct pdata_ev *ev)
{
	uint64_t st = a->sample_type;
	size_t at = 0;

	if ((st & (S_TIME | S_RAW)) != (S_TIME | S_RAW) || st & S_READ)
		return false;
	if ((st & S_IDENTIFIER && !skip(&at, len, 8)) || (st & S_IP && !skip(&at, len, 8)))
		return false;
	if (st & S_TID) {
		if (!skip(&at, len, 8))
			return false;
		ev->tid = get32(rec + at - 4);
	}
	if (!skip(&at, len, 8))
		return false;
	ev->time = get64(rec + at - 8);
	if ((st & S_ADDR && !skip(&at, len, 8)) || (st & S_ID && !skip(&at, len, 8)) ||
	    (st & S_STREAM_ID && !skip(&at, len, 8)) || (st & S_CPU && !skip(&at, len, 8)) ||
	    (st & S_PERIOD && !skip(&at, len, 8)))
		return false;
	if (st & S_CALLCHAIN) {
		if (!skip(&at, len, 8) || get64(rec + at - 8) > (len - at) / 8)
			return false;
		at += get64(rec + at - 8) * 8;
	}
	if (!skip(&at, len, 4) || get32(rec + at - 4) > len - at)
		return false;
	ev->raw_len = get32(rec + at - 4);
	ev->raw_off = at;
	return true;
}

/* Keep sample ev (raw_off relative to rec at file offset base). */
static int keep(struct pdata *pd, size_t *cap, struct pdata_ev *ev, uint64_t base)
{
	if (pd->nev == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct pdata_ev *ne = realloc(pd->ev, nc * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		pd->ev = ne;
		*cap = nc;
	}
	ev->raw_off += base;
	pd->ev[pd->nev++] = *ev;
	return 0;
}

/* One record of the data section at file offset off (h_type, rec[len] after the header). */
static int take_record(struct pdata *pd, const struct finder *fd, size_t *cap, uint32_t h_type,
		       uint64_t off, size_t len)
{
	const uint8_t *rec = pd->data + off;
	struct pdata_ev ev = { 0 };
	int64_t a;

	if (h_type == RECORD_LOST || h_type == RECORD_LOST_SAMPLES) {
		size_t at = h_type == RECORD_LOST ? 8 : 0;

		if (len >= at + 8)
			pd->lost += get64(rec + at);
		return 0;
	}
	if (h_type != RECORD_SAMPLE) {
		pd->skipped++;
		return 0;
	}
	a = sample_attr(pd, fd, rec, len);
	if (a < 0 || !sample_fields(&pd->attr[a], rec, len, &ev)) {
		pd->unknown++;
		return 0;
	}
	if (pd->attr[a].type != TYPE_TRACEPOINT) {
		pd->skipped++;
		return 0;
	}
	ev.attr = (uint32_t)a;
	return keep(pd, cap, &ev, off);
}

/* The data section's records, up to the first that it cannot hold. */
static int read_data(struct pdata *pd, const struct sect *ds, const struct finder *fd)
{
	uint64_t at = ds->off, end = ds->off + ds->size;
	size_t cap = 0;

	while (at < end) {
		uint16_t sz;
		int e;

		if (end - at < REC_HDR || (sz = get16(pd->data + at + 6)) < REC_HDR ||
		    sz > end - at) {
			snprintf(pd->damage, sizeof(pd->damage),
				 "the record at byte %llu of the perf.data is cut short or has a bad "
				 "size: the events after it are not read",
				 (unsigned long long)at);
			break;
		}
		e = take_record(pd, fd, &cap, get32(pd->data + at), at + REC_HDR, sz - REC_HDR);
		if (e)
			return e;
		at += sz;
	}
	return 0;
}

/* Order of samples: time, then place in the file. */
static int ev_cmp(const void *a, const void *b)
{
	const struct pdata_ev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->raw_off < y->raw_off ? -1 : x->raw_off > y->raw_off;
}

/* The file header: sizes sane, the attrs and data sections inside the file and apart. */
static int read_header(struct pdata *pd, struct sect *as, struct sect *ds, uint64_t *attr_size,
		       char *err, size_t errlen)
{
	if (pd->size < HDR_LEN) {
		snprintf(err, errlen, "a perf.data file of %zu bytes is cut short (its header "
				      "takes %d)",
			 pd->size, HDR_LEN);
		return -EINVAL;
	}
	*attr_size = get64(pd->data + 16);
	if (get64(pd->data + 8) < HDR_LEN || get64(pd->data + 8) > pd->size) {
		snprintf(err, errlen, "its header says it is %llu bytes long: not a perf.data "
				      "header lattop can read",
			 (unsigned long long)get64(pd->data + 8));
		return -EINVAL;
	}
	if (*attr_size < ATTR_V0 + SECTION || *attr_size > ATTR_BIG + SECTION) {
		snprintf(err, errlen, "its events (attrs) are %llu bytes each: not %d to %d",
			 (unsigned long long)*attr_size, ATTR_V0 + SECTION, ATTR_BIG + SECTION);
		return -EINVAL;
	}
	if (!sect_at(pd, 24, as) || !sect_at(pd, 40, ds)) {
		snprintf(err, errlen,
			 "its attrs or data section lies outside the file (cut short?)");
		return -EINVAL;
	}
	if (overlap(as, ds) || as->off < HDR_LEN || (ds->size && ds->off < HDR_LEN)) {
		snprintf(err, errlen, "its attrs and data sections overlap each other or the "
				      "header");
		return -EINVAL;
	}
	return 0;
}

/* Read the file. */
int pdata__open(struct pdata *pd, const uint8_t *data, size_t size, char *err, size_t errlen)
{
	struct finder fd = { 0 };
	struct sect as, ds;
	uint64_t attr_size;
	int e;

	memset(pd, 0, sizeof(*pd));
	pd->data = data;
	pd->size = size;
	if (!pdata__is(data, size) || memcmp(data, PDATA_MAGIC, 8)) {
		snprintf(err, errlen, "%s",
			 pdata__is(data, size)
			     ? "a big-endian perf.data file: lattop reads little-endian ones"
			     : "not a perf.data file (no PERFILE2 magic)");
		return -EINVAL;
	}
	e = read_header(pd, &as, &ds, &attr_size, err, errlen);
	if (!e)
		e = read_attrs(pd, &as, attr_size, &fd, err, errlen);
	if (!e)
		e = read_features(pd, &ds, err, errlen);
	if (!e)
		e = find_id_at(pd, &fd, err, errlen);
	if (!e)
		e = read_data(pd, &ds, &fd);
	free(fd.ids);
	if (e) {
		if (e == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		pdata__fini(pd);
		return e;
	}
	qsort(pd->ev, pd->nev, sizeof(*pd->ev), ev_cmp);
	return 0;
}

/* Release the attrs and the samples. */
void pdata__fini(struct pdata *pd)
{
	free(pd->attr);
	free(pd->ev);
	pd->attr = NULL;
	pd->ev = NULL;
	pd->nattr = 0;
	pd->nev = 0;
}
