// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * evhdr.c - decode EventHeader events (header, extensions, metadata) without trusting a length,
 * and check EventHeader tracepoint names. See evhdr.h.
 */
#include <errno.h>
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
