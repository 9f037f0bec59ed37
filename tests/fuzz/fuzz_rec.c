// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_rec.c - libFuzzer target for the recording reader: scan any bytes, then apply every
 * record it accepted to a fresh model and read every event, as replay and --events do.
 *
 * Each input is read as it is and with its CRCs made right (fuzz_crc.h). fuzz_replay.c goes
 * further: the whole replay path, the metadata and every output format.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_crc.h"
#include "rec/rec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
