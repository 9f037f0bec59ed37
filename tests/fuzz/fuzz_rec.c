// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_rec.c - libFuzzer target for the recording reader: scan any bytes, then apply every
 * record it accepted to a fresh model and read every event, as replay and --events do.
 *
 * Every record carries a CRC, so almost every mutation of a payload would end the readable data
 * at the CRC check and never reach the payload checks or the appliers. Each input is therefore
 * read twice: as it is (the framing and CRC paths), and with every record's CRC recomputed by
 * this harness (the payload paths). The production reader is the same in both.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/rec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Little-endian u32 at p. */
static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Rewrite the CRC of every whole record after the header, as a writer would have. */
static void fix_crcs(uint8_t *p, size_t size)
{
	size_t off;

	if (size < REC_HDR_LEN || le32(p + 16) > size - REC_HDR_LEN)
		return;
	for (off = REC_HDR_LEN + (size_t)le32(p + 16); size - off >= 12;) {
		uint32_t len = le32(p + off + 4), crc;

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

/* Scan, then apply and read back everything the scan accepted. */
static void read_all(const uint8_t *data, size_t size)
{
	struct rec_file f;
	struct model *m;
	char err[256], filt[256];

	if (rec__scan(&f, data, size, err, sizeof(err)))
		return;
	m = model__new(0);
	for (size_t i = 0; m && i < f.nrecs; i++) {
		uint32_t n;

		rec__apply(&f, i, m, filt, sizeof(filt));
		rec__event(&f, i, 0, NULL, &n);
		for (uint32_t j = 0; j < n; j++) {
			struct lat_event e;

			rec__event(&f, i, j, &e, NULL);
		}
	}
	if (m) {
		for (size_t i = 0; i < m->n; i++) {
			struct row r;

			model__row(m, &m->s[i], true, &r);
			model__row(m, &m->s[i], false, &r);
		}
		for (size_t k = 0; k < f.nivals; k++) {
			(void)rec__ival_start(&f, k);
			(void)rec__ival_end(&f, k);
			(void)rec__ival_lost(&f, k);
		}
	}
	model__free(m);
	rec__fini(&f);
}

/* One input: scanning must either refuse it or index a prefix that applies cleanly, with the
 * CRCs as they are and with them made right. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;

	read_all(data, size);
	fixed = malloc(size ? size : 1);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	fix_crcs(fixed, size);
	if (memcmp(fixed, data, size))
		read_all(fixed, size);
	free(fixed);
	return 0;
}
