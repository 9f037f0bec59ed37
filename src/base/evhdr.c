// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * evhdr.c - decode EventHeader events (header, extensions, metadata) without trusting a length,
 * and check EventHeader tracepoint names. See evhdr.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/evhdr.h"

/* A 16-bit value in the event's byte order. */
static uint16_t get16(const uint8_t *p, bool le)
{
	return le ? (uint16_t)(p[0] | p[1] << 8) : (uint16_t)(p[1] | p[0] << 8);
}

/* Refuse with reason r. */
static int bad(const char **why, const char *r)
{
	if (why)
		*why = r;
	return -EBADMSG;
}

/* Take one extension (kind without the chain flag, size bytes at data) into ev. */
static int take_ext(struct evhdr_event *ev, uint16_t kind, const uint8_t *data, uint16_t size,
		    const char **why)
{
	switch (kind) {
	case 0:
		return bad(why, "extension of kind 0");
	case EVHDR_EXT_ACTIVITY:
		if (ev->has_activity)
			return bad(why, "two activity id extensions");
		if (size != EVHDR_ID_SIZE && size != 2 * EVHDR_ID_SIZE)
			return bad(why, "activity id extension neither 16 nor 32 bytes");
		ev->has_activity = true;
		memcpy(ev->activity, data, EVHDR_ID_SIZE);
		if (size == 2 * EVHDR_ID_SIZE) {
			ev->has_related = true;
			memcpy(ev->related, data + EVHDR_ID_SIZE, EVHDR_ID_SIZE);
		}
		return 0;
	case EVHDR_EXT_METADATA:
		if (ev->meta)
			return bad(why, "two metadata extensions");
		ev->meta = data;
		ev->meta_len = size;
		return 0;
	default:
		return 0; /* a kind defined later: skipped, as the convention asks */
	}
}

/* Decode one EventHeader event. */
int evhdr__decode(const void *buf, size_t len, struct evhdr_event *ev, const char **why)
{
	const uint8_t *p = buf, *end = p + len;
	bool le, more;

	memset(ev, 0, sizeof(*ev));
	if (!buf || len < EVHDR_SIZE)
		return bad(why, "shorter than the 8-byte header");
	if (len > UINT32_MAX)
		return bad(why, "longer than 4 GiB");
	ev->flags = p[0];
	ev->version = p[1];
	le = ev->flags & EVHDR_F_LE;
	ev->id = get16(p + 2, le);
	ev->tag = get16(p + 4, le);
	ev->opcode = p[6];
	ev->level = p[7];
	if (!ev->level)
		return bad(why, "level 0");
	p += EVHDR_SIZE;
	more = ev->flags & EVHDR_F_EXT;
	while (more) {
		uint16_t size, kind;

		if (end - p < 4)
			return bad(why, "extension header past the end");
		size = get16(p, le);
		kind = get16(p + 2, le);
		p += 4;
		if (end - p < size)
			return bad(why, "extension data past the end");
		more = kind & EVHDR_EXT_CHAIN;
		if (take_ext(ev, kind & ~EVHDR_EXT_CHAIN, p, size, why))
			return -EBADMSG;
		p += size;
	}
	ev->payload = p;
	ev->payload_len = (uint32_t)(end - p);
	return 0;
}

/* The NUL-terminated string at *p before end: its length up to the first ';' in *vis, *p moved
 * past its NUL. Returns 0 or -EBADMSG when no NUL comes before end. */
static int take_name(const uint8_t **p, const uint8_t *end, uint32_t *vis)
{
	const uint8_t *nul = memchr(*p, 0, (size_t)(end - *p));
	const uint8_t *semi;

	if (!nul)
		return -EBADMSG;
	semi = memchr(*p, ';', (size_t)(nul - *p));
	*vis = (uint32_t)((semi ? semi : nul) - *p);
	*p = nul + 1;
	return 0;
}

/* The event name of metadata, and the iterator over its fields. */
int evhdr__meta_name(const uint8_t *meta, uint32_t meta_len, bool le, const char **name,
		     uint32_t *name_len, struct evhdr_meta_iter *it)
{
	const uint8_t *p = meta;

	if (!meta || !meta_len || take_name(&p, meta + meta_len, name_len))
		return -EBADMSG;
	*name = (const char *)meta;
	if (it) {
		it->p = p;
		it->end = meta + meta_len;
		it->le = le;
	}
	return 0;
}

/* The next field definition of it. */
int evhdr__meta_next(struct evhdr_meta_iter *it, struct evhdr_field *f)
{
	const uint8_t *p = it->p;
	uint8_t enc, fmt = 0;

	if (p >= it->end)
		return 0;
	memset(f, 0, sizeof(*f));
	f->name = (const char *)p;
	if (take_name(&p, it->end, &f->name_len) || p >= it->end)
		return -EBADMSG;
	enc = *p++;
	if ((enc & EVHDR_ENC_MASK) == 0 || (enc & EVHDR_ENC_MASK) >= EVHDR_ENC__MAX ||
	    (enc & EVHDR_ENC_CARRAY && enc & EVHDR_ENC_VARRAY))
		return -EBADMSG;
	if (enc & EVHDR_ENC_CHAIN) {
		if (p >= it->end)
			return -EBADMSG;
		fmt = *p++;
		if (fmt & EVHDR_FMT_CHAIN) {
			if (it->end - p < 2)
				return -EBADMSG;
			f->tag = get16(p, it->le);
			p += 2;
		}
	}
	if (enc & EVHDR_ENC_CARRAY) {
		if (it->end - p < 2)
			return -EBADMSG;
		f->array_len = get16(p, it->le);
		p += 2;
		if (!f->array_len)
			return -EBADMSG;
	}
	f->encoding = enc;
	f->format = fmt & ~EVHDR_FMT_CHAIN;
	it->p = p;
	return 1;
}

/* An unsigned value of n bytes (1, 2, 4 or 8) at p in the byte order le says. */
static uint64_t getn(const uint8_t *p, unsigned n, bool le)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[le ? i : n - 1 - i] << (8 * i);
	return v;
}

/* The element width of encoding enc (low bits): bytes of a value, or of a string's unit. */
static unsigned width_of(uint8_t enc)
{
	static const uint8_t w[EVHDR_ENC__MAX] = {
	    [EVHDR_ENC_VALUE8] = 1,	   [EVHDR_ENC_VALUE16] = 2,	 [EVHDR_ENC_VALUE32] = 4,
	    [EVHDR_ENC_VALUE64] = 8,	   [EVHDR_ENC_VALUE128] = 16,	 [EVHDR_ENC_ZSTRING8] = 1,
	    [EVHDR_ENC_ZSTRING16] = 2,	   [EVHDR_ENC_ZSTRING32] = 4,	 [EVHDR_ENC_STRING16_8] = 1,
	    [EVHDR_ENC_STRING16_16] = 2, [EVHDR_ENC_STRING16_32] = 4, [EVHDR_ENC_BINARY16_8] = 1,
	};

	return enc < EVHDR_ENC__MAX ? w[enc] : 0;
}

/* The bytes of one element of encoding enc (not a struct) at p before end, or -1 when it runs
 * past end. */
static int64_t elem_len(uint8_t enc, const uint8_t *p, const uint8_t *end, bool le)
{
	size_t avail = (size_t)(end - p), w = width_of(enc), n;

	if (enc >= EVHDR_ENC_ZSTRING8 && enc <= EVHDR_ENC_ZSTRING32) {
		for (n = 0; n + w <= avail; n += w) {
			size_t z = 0;

			while (z < w && !p[n + z])
				z++;
			if (z == w)
				return (int64_t)(n + w);
		}
		return -1;
	}
	if (enc >= EVHDR_ENC_STRING16_8) {
		if (avail < 2)
			return -1;
		n = 2 + (size_t)get16(p, le) * w;
	} else {
		n = w;
	}
	return n <= avail ? (int64_t)n : -1;
}

static int skip_data(struct evhdr_meta_iter *m, const struct evhdr_field *f, const uint8_t **p,
		     const uint8_t *end, int depth, bool data);

/* Skip the nmemb member definitions of a struct in m, and with data the count elements of it
 * at *p (count 0: the definitions alone). */
static int skip_struct(struct evhdr_meta_iter *m, uint8_t nmemb, uint32_t count,
		       const uint8_t **p, const uint8_t *end, int depth, bool data)
{
	struct evhdr_meta_iter first = *m;
	struct evhdr_field f;
	uint32_t reps = data && count ? count : 1;

	if (!nmemb || depth >= EVHDR_DEPTH_MAX)
		return -EBADMSG;
	/* Every element takes at least one payload byte (a struct has a member, and every
	 * member that is not a struct takes a byte): reps is bounded by the payload left. */
	for (uint32_t r = 0; r < reps; r++) {
		*m = first;
		for (unsigned k = 0; k < nmemb; k++)
			if (evhdr__meta_next(m, &f) != 1 ||
			    skip_data(m, &f, p, end, depth + 1, data && count))
				return -EBADMSG;
	}
	return 0;
}

/* Skip the data of field f at *p (not with data false: then its member definitions alone),
 * m moving past its members' definitions when it is a struct. */
static int skip_data(struct evhdr_meta_iter *m, const struct evhdr_field *f, const uint8_t **p,
		     const uint8_t *end, int depth, bool data)
{
	uint8_t enc = f->encoding & EVHDR_ENC_MASK;
	uint32_t count = 1;

	if (data && f->encoding & EVHDR_ENC_VARRAY) {
		if (end - *p < 2)
			return -EBADMSG;
		count = get16(*p, m->le);
		*p += 2;
	} else if (f->encoding & EVHDR_ENC_CARRAY) {
		count = f->array_len;
	}
	if (enc == EVHDR_ENC_STRUCT)
		return skip_struct(m, f->format, count, p, end, depth, data);
	for (uint32_t i = 0; data && i < count; i++) {
		int64_t n = elem_len(enc, *p, end, m->le);

		if (n < 0)
			return -EBADMSG;
		*p += n;
	}
	return 0;
}

/* Start walking an event's fields. */
int evhdr__fields_begin(const struct evhdr_event *ev, struct evhdr_fields *it, const char **name,
			uint32_t *name_len)
{
	if (evhdr__meta_name(ev->meta, ev->meta_len, ev->flags & EVHDR_F_LE, name, name_len,
			     &it->m))
		return -EBADMSG;
	it->p = ev->payload;
	it->end = ev->payload + ev->payload_len;
	return 0;
}

/* Interpret the scalar (not array, not struct) value v of len bytes. */
static void interpret(struct evhdr_value *v, bool le)
{
	uint8_t enc = v->f.encoding & EVHDR_ENC_MASK, fmt = v->f.format;

	if (enc >= EVHDR_ENC_VALUE8 && enc <= EVHDR_ENC_VALUE64) {
		unsigned w = width_of(enc);

		if (fmt == EVHDR_FMT_SIGNED || fmt == EVHDR_FMT_ERRNO || fmt == EVHDR_FMT_TIME) {
			uint64_t u = getn(v->data, w, le), sign = 1ull << (8 * w - 1);

			v->kind = EVHDR_V_INT;
			v->u = w == 8 ? u : (u ^ sign) - sign; /* sign-extended */
		} else if (fmt == EVHDR_FMT_PORT) {
			v->kind = EVHDR_V_UINT;
			v->u = getn(v->data, w, false); /* network byte order */
		} else if (fmt <= EVHDR_FMT_BOOL) {
			v->kind = EVHDR_V_UINT;
			v->u = getn(v->data, w, le);
		}
		return;
	}
	if (fmt == EVHDR_FMT_HEXBYTES ||
	    (enc != EVHDR_ENC_ZSTRING8 && enc != EVHDR_ENC_STRING16_8))
		return;
	v->kind = EVHDR_V_STR;
	if (enc == EVHDR_ENC_ZSTRING8) {
		v->len--; /* its NUL */
	} else {
		v->data += 2; /* its count */
		v->len -= 2;
	}
}

/* The next field and its value. */
int evhdr__field_next(struct evhdr_fields *it, struct evhdr_value *v)
{
	const uint8_t *p0 = it->p;
	int e;

	memset(v, 0, sizeof(*v));
	e = evhdr__meta_next(&it->m, &v->f);
	if (e <= 0)
		return e;
	v->kind = EVHDR_V_OTHER;
	if ((v->f.encoding & EVHDR_ENC_MASK) == EVHDR_ENC_STRUCT &&
	    !(v->f.encoding & (EVHDR_ENC_CARRAY | EVHDR_ENC_VARRAY))) {
		/* A scalar struct: its members follow as fields of their own. */
		if (!v->f.format)
			return -EBADMSG;
		v->data = p0;
		return 1;
	}
	if (skip_data(&it->m, &v->f, &it->p, it->end, 0, true))
		return -EBADMSG;
	v->data = p0;
	v->len = (uint32_t)(it->p - p0);
	if (!(v->f.encoding & (EVHDR_ENC_CARRAY | EVHDR_ENC_VARRAY)))
		interpret(v, it->m.le);
	return 1;
}

/* A value as text. */
void evhdr__value_text(const struct evhdr_value *v, char *buf, size_t len)
{
	size_t n;

	switch (v->kind) {
	case EVHDR_V_UINT:
		snprintf(buf, len, v->f.format == EVHDR_FMT_HEX ? "0x%" PRIx64 : "%" PRIu64, v->u);
		return;
	case EVHDR_V_INT:
		snprintf(buf, len, "%" PRId64, (int64_t)v->u);
		return;
	case EVHDR_V_STR:
		n = v->len < len - 1 ? v->len : len - 1;
		for (size_t i = 0; i < n; i++)
			buf[i] = v->data[i] >= 0x20 && v->data[i] < 0x7f ? (char)v->data[i] : '?';
		buf[n] = 0;
		return;
	default:
		snprintf(buf, len, "?");
	}
}

/* Read lowercase hex digits at *s (1 to max of them) into *v; *s moves past them. */
static int take_hex(const char **s, int max, uint64_t *v)
{
	int n = 0;

	*v = 0;
	for (; n < max; n++, (*s)++) {
		char c = **s;

		if (c >= '0' && c <= '9')
			*v = *v << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v = *v << 4 | (uint64_t)(c - 'a' + 10);
		else
			break;
	}
	return n ? 0 : -EINVAL;
}

/* Check an EventHeader tracepoint name and split it. */
int evhdr__parse_tpname(const char *tp, char *provider, size_t provlen, uint8_t *level,
			uint64_t *keyword)
{
	size_t len = strnlen(tp, EVHDR_NAME_MAX);
	const char *u, *s;
	uint64_t lv = 0;

	if (!len || len >= EVHDR_NAME_MAX || strpbrk(tp, " :"))
		return -EINVAL;
	/* The provider ends at the last "_L" followed by hex and a 'K'. */
	for (u = tp + len; u > tp; u--) {
		s = u;
		if (s[0] == '_' && s[1] == 'L' && s != tp) {
			s += 2;
			if (!take_hex(&s, 2, &lv) && *s == 'K')
				break;
		}
	}
	if (u == tp || lv == 0 || (size_t)(u - tp) >= provlen)
		return -EINVAL;
	s++;
	if (take_hex(&s, 16, keyword))
		return -EINVAL;
	/* Options: an uppercase letter and lowercase letters or digits, each. */
	while (*s) {
		if (*s < 'A' || *s > 'Z')
			return -EINVAL;
		for (s++; (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9'); s++)
			;
	}
	memcpy(provider, tp, (size_t)(u - tp));
	provider[u - tp] = 0;
	*level = (uint8_t)lv;
	return 0;
}
