// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flight_base.c - what the flight recorder's evicted intervals said about the series, the
 * filter and the named counters: the encoder writes a series or the filter only when it
 * changes, so a dump starts with the last word of every evicted frame on each (flight_int.h).
 */
#include <stdlib.h>
#include <string.h>

#include "rec/codec.h"
#include "rec/flight_int.h"

/* Bookkeeping bytes counted per base entry beside its record. */
#define BASE_ENTRY_OVERHEAD 32

/* Read a series or counter key (kind, id, aux, aux2) at p. */
static void read_key(const uint8_t *p, uint32_t key[4])
{
	key[0] = get16(p);
	key[1] = get32(p + 4);
	key[2] = get32(p + 8);
	key[3] = get32(p + 12);
}

/* Keep the framed series record rec (len bytes) as the last word on its series. */
static void fold_series(struct flight_base *b, const uint8_t *rec, size_t len)
{
	uint32_t key[4];
	uint8_t *copy = malloc(len);
	size_t i;

	if (!copy)
		return; /* the dump then names the series as a later record does, or not at all */
	memcpy(copy, rec, len);
	read_key(rec + 8, key);
	for (i = 0; i < b->ns && memcmp(b->s[i].key, key, sizeof(key)); i++)
		;
	if (i == b->ns) {
		if (b->ns == b->scap) {
			size_t ncap = b->scap ? 2 * b->scap : 64;
			struct base_series *n = realloc(b->s, ncap * sizeof(*n));

			if (!n) {
				free(copy);
				return;
			}
			b->s = n;
			b->scap = ncap;
		}
		b->s[b->ns++] = (struct base_series){.len = 0};
		memcpy(b->s[i].key, key, sizeof(key));
		b->bytes += BASE_ENTRY_OVERHEAD;
	}
	b->bytes += len - b->s[i].len;
	free(b->s[i].rec);
	b->s[i].rec = copy;
	b->s[i].len = len;
}

/* Keep the names of a counters record's counters (payload p, len bytes). */
static void fold_counters(struct flight_base *b, const uint8_t *p, size_t len)
{
	uint32_t n = get32(p), off = REC_COUNTERS_FIXED;

	for (uint32_t k = 0; k < n && off + REC_CTR_FIXED <= len; k++) {
		const uint8_t *c = p + off;
		struct base_counter bc = {.flags = get16(c + 2)};
		size_t nl = get16(c + 24), i;

		off += REC_CTR_FIXED + (uint32_t)nl;
		if (off > len || nl >= sizeof(bc.name))
			break;
		read_key(c, bc.key);
		memcpy(bc.name, c + REC_CTR_FIXED, nl);
		for (i = 0; i < b->nc; i++)
			if (!memcmp(b->c[i].key, bc.key, sizeof(bc.key)) &&
			    !strcmp(b->c[i].name, bc.name))
				break;
		if (i < b->nc)
			continue;
		if (b->nc == b->ccap) {
			size_t ncap = b->ccap ? 2 * b->ccap : 16;
			struct base_counter *nc = realloc(b->c, ncap * sizeof(*nc));

			if (!nc)
				return;
			b->c = nc;
			b->ccap = ncap;
		}
		b->c[b->nc++] = bc;
		b->bytes += REC_CTR_FIXED + nl + BASE_ENTRY_OVERHEAD;
	}
}

/* Keep the framed filter record rec as the last one. */
static void fold_filter(struct flight_base *b, const uint8_t *rec, size_t len)
{
	uint8_t *copy = malloc(len);

	if (!copy)
		return;
	memcpy(copy, rec, len);
	b->bytes += len;
	b->bytes -= b->filter_len;
	free(b->filter);
	b->filter = copy;
	b->filter_len = len;
}

/* Take the series, filter and counter names of an evicted frame into the base. */
void flight_base__fold(struct flight_base *b, const uint8_t *p, size_t len)
{
	for (size_t off = 0; off + 12 <= len;) {
		uint32_t type = get32(p + off), rl = get32(p + off + 4);

		if (rl > len - off - 12)
			break; /* the encoder wrote it: cannot happen */
		if (type == REC_SERIES && rl >= REC_SERIES_FIXED)
			fold_series(b, p + off, rl + 12);
		else if (type == REC_FILTER)
			fold_filter(b, p + off, rl + 12);
		else if (type == REC_COUNTERS && rl >= REC_COUNTERS_FIXED)
			fold_counters(b, p + off + 8, rl);
		off += 12 + (size_t)rl;
	}
}

/* Append the base's records to out. */
void flight_base__write(const struct flight_base *b, struct rec_buf *out)
{
	size_t at;

	for (size_t i = 0; i < b->ns; i++)
		put(out, b->s[i].rec, b->s[i].len);
	put(out, b->filter, b->filter_len);
	if (!b->nc)
		return;
	at = rec_begin(out, REC_COUNTERS);
	put32(out, (uint32_t)b->nc);
	put32(out, 0);
	for (size_t i = 0; i < b->nc; i++) {
		const struct base_counter *c = &b->c[i];
		uint16_t nl = (uint16_t)strlen(c->name);

		put16(out, (uint16_t)c->key[0]);
		put16(out, c->flags);
		put32(out, c->key[1]);
		put32(out, c->key[2]);
		put32(out, c->key[3]);
		put64(out, 0);
		put16(out, nl);
		put16(out, 0);
		put(out, c->name, nl);
	}
	rec_end(out, at);
}

/* Append a counters record (framed at rec, payload len bytes) with its deltas zeroed. */
static void state_counters(struct rec_buf *out, const uint8_t *rec, uint32_t len)
{
	size_t at = out->len;
	uint32_t n, off = REC_COUNTERS_FIXED, crc;

	put(out, rec, 8 + (size_t)len);
	if (out->oom)
		return;
	n = get32(out->p + at + 8);
	for (uint32_t k = 0; k < n && off + REC_CTR_FIXED <= len; k++) {
		memset(out->p + at + 8 + off + 16, 0, 8);
		off += REC_CTR_FIXED + get16(out->p + at + 8 + off + 24);
	}
	crc = rec__crc32(0, out->p + at, 8 + (size_t)len);
	put32(out, crc);
}

/* Append the state records of a frame left out of a dump's window. */
void flight_base__state(struct rec_buf *out, const uint8_t *p, size_t len)
{
	for (size_t off = 0; off + 12 <= len;) {
		uint32_t type = get32(p + off), rl = get32(p + off + 4);

		if (rl > len - off - 12)
			break;
		if (type == REC_SERIES || type == REC_FILTER)
			put(out, p + off, 12 + (size_t)rl);
		else if (type == REC_COUNTERS && rl >= REC_COUNTERS_FIXED)
			state_counters(out, p + off, rl);
		off += 12 + (size_t)rl;
	}
}

/* Free the base. */
void flight_base__fini(struct flight_base *b)
{
	for (size_t i = 0; i < b->ns; i++)
		free(b->s[i].rec);
	free(b->s);
	free(b->c);
	free(b->filter);
	memset(b, 0, sizeof(*b));
}
