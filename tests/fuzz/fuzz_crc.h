/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fuzz_crc.h - for the fuzz targets: rewrite every record's CRC as a writer would have.
 *
 * Every record carries a CRC, so almost every mutation of a payload would end the readable data
 * at the CRC check and never reach the payload checks, the appliers or the writers. The targets
 * therefore read each input twice: as it is (the framing and CRC paths), and with its CRCs made
 * right by fix_crcs (the payload paths). The production reader is the same in both.
 */
#ifndef LAT_FUZZ_CRC_H
#define LAT_FUZZ_CRC_H

#include <stddef.h>
#include <stdint.h>

#include "rec/rec.h"

/* Little-endian u32 at p. */
static inline uint32_t fuzz_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Rewrite the CRC of every whole record after the header. */
static inline void fix_crcs(uint8_t *p, size_t size)
{
	size_t off;

	if (size < REC_HDR_LEN || fuzz_le32(p + 16) > size - REC_HDR_LEN)
		return;
	for (off = REC_HDR_LEN + (size_t)fuzz_le32(p + 16); size - off >= 12;) {
		uint32_t len = fuzz_le32(p + off + 4), crc;

		if (len > size - off - 12)
			return;
		crc = rec__crc32(0, p + off, 8 + (size_t)len);
		p[off + 8 + len] = (uint8_t)crc;
		p[off + 9 + len] = (uint8_t)(crc >> 8);
		p[off + 10 + len] = (uint8_t)(crc >> 16);
		p[off + 11 + len] = (uint8_t)(crc >> 24);
		off += 12 + (size_t)len;
	}
}

#endif /* LAT_FUZZ_CRC_H */
