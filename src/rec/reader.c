// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * reader.c - the recording's reader (see rec.h): scan a file into an index of whole records
 * (stopping at the first damage, which it names by offset), apply records to a model, read
 * events and metadata.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rec/codec.h"

/* Check an attr record's layout: its strings, owners and points end exactly at its end. */
static const char *check_attr(const uint8_t *p, uint32_t len)
{
	uint64_t off = REC_ATTR_FIXED;

	if (len < REC_ATTR_FIXED)
		return "attr record too short";
	off += (uint64_t)get16(p + 60) + get16(p + 62) + get16(p + 64);
	for (uint32_t i = 0, n = get16(p + 40); i < n; i++) {
		if (off + REC_OWNER_FIXED > len)
			return "attr record owners run past its end";
		off += REC_OWNER_FIXED + get16(p + off + 4);
	}
	for (uint32_t i = 0, n = get16(p + 42); i < n; i++) {
		if (off + REC_POINT_FIXED > len)
			return "attr record attach points run past its end";
		off += REC_POINT_FIXED + (uint64_t)get16(p + off + 4) + get16(p + off + 6);
	}
	return off == len ? NULL : "attr record lengths do not add up";
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
	case REC_ATTR:
		return check_attr(p, len);
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
		if (get16(e + 2) & REC_ENTRY_SAMPLED)
			model__set_sampled(m, s);
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

/* Apply an attr record (check_attr passed): the program's owners, cgroup and attach points,
 * as many as the model keeps; the totals say how many there were. */
static int apply_attr(struct model *m, const uint8_t *p)
{
	struct series *s = model__series(m, get16(p), get32(p + 4), get32(p + 8), get32(p + 12));
	size_t lc = get16(p + 60), lk = get16(p + 62), lu = get16(p + 64);
	size_t off = REC_ATTR_FIXED + lc + lk + lu;
	uint32_t no = get16(p + 40), np = get16(p + 42);
	struct prog_attr a;

	if (!s)
		return -ENOMEM;
	if (get16(p + 2) & 1)
		return model__set_attr(m, s, NULL) ? -ENOMEM : REC_ATTR;
	memset(&a, 0, sizeof(a));
	a.id = s->id;
	a.uid = get32(p + 16);
	a.verified_insns = get32(p + 20);
	a.load_time_s = get64(p + 24);
	a.owners_total = get32(p + 32);
	a.points_total = get32(p + 36);
	copy_str(a.tag, sizeof(a.tag), p + 44, strnlen((const char *)p + 44, 16));
	copy_str(a.cgroup, sizeof(a.cgroup), p + REC_ATTR_FIXED, lc);
	copy_str(a.container, sizeof(a.container), p + REC_ATTR_FIXED + lc, lk);
	copy_str(a.unit, sizeof(a.unit), p + REC_ATTR_FIXED + lc + lk, lu);
	for (uint32_t i = 0; i < no; i++) {
		size_t l = get16(p + off + 4);

		if (a.nowners < ATTR_OWNERS) {
			a.owners[a.nowners].pid = (int32_t)get32(p + off);
			copy_str(a.owners[a.nowners].comm, sizeof(a.owners[0].comm),
				 p + off + REC_OWNER_FIXED, l);
			a.nowners++;
		}
		off += REC_OWNER_FIXED + l;
	}
	for (uint32_t i = 0; i < np; i++) {
		size_t l1 = get16(p + off + 4), l2 = get16(p + off + 6);

		if (a.npoints < ATTR_POINTS) {
			struct attr_point *pt = &a.points[a.npoints++];

			pt->link_id = get32(p + off);
			copy_str(pt->kind, sizeof(pt->kind), p + off + REC_POINT_FIXED, l1);
			copy_str(pt->where, sizeof(pt->where), p + off + REC_POINT_FIXED + l1, l2);
		}
		off += REC_POINT_FIXED + l1 + l2;
	}
	return model__set_attr(m, s, &a) ? -ENOMEM : REC_ATTR;
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
	case REC_ATTR:
		return apply_attr(m, p);
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
