/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * codec.h - the recording's framing, shared by its writer (writer.c) and reader (reader.c):
 * little-endian fixed-width fields written byte by byte (the layout does not depend on the
 * compiler's struct padding), LEB128 varints, and records framed as type, length, payload,
 * CRC-32 (rec__crc32, codec.c).
 *
 * Private to src/rec/. Thread use: any thread, on buffers it owns.
 */
#ifndef LAT_REC_CODEC_H
#define LAT_REC_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rec/rec.h"

/* Append n raw bytes. */
static inline void put(struct rec_buf *b, const void *v, size_t n)
{
	if (n && rec_buf__room(b, n)) {
		memcpy(b->p + b->len, v, n);
		b->len += n;
	}
}

/* Append little-endian integers. */
static inline void put16(struct rec_buf *b, uint16_t v)
{
	uint8_t x[2] = { v, v >> 8 };

	put(b, x, 2);
}

static inline void put32(struct rec_buf *b, uint32_t v)
{
	uint8_t x[4] = { v, v >> 8, v >> 16, v >> 24 };

	put(b, x, 4);
}

static inline void put64(struct rec_buf *b, uint64_t v)
{
	put32(b, (uint32_t)v);
	put32(b, (uint32_t)(v >> 32));
}

/* Read little-endian integers at p. */
static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Append an unsigned LEB128 varint. */
static inline void putv(struct rec_buf *b, uint64_t v)
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
static inline bool getv(const uint8_t *p, size_t len, size_t *off, uint64_t *v)
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
static inline size_t rec_begin(struct rec_buf *b, uint32_t type)
{
	size_t at = b->len;

	put32(b, type);
	put32(b, 0);
	return at;
}

/* Finish a record: fill in the length and append the CRC. */
static inline void rec_end(struct rec_buf *b, size_t at)
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

#endif /* LAT_REC_CODEC_H */
