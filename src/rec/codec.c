// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * codec.c - the recording's CRC and growable buffer (see rec.h and codec.h).
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "rec/codec.h"

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
