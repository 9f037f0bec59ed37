// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_evhdr.c - libFuzzer target for the EventHeader decoder (src/base/evhdr.c): the input is
 * an event as a user_events tracepoint carries it (header, extensions, payload). Every event
 * that decodes has its metadata walked to the end, then its fields decoded with their values
 * (the payload and the metadata together) and each value put as text; the input is also
 * checked as a tracepoint name. Seeds: tests/fuzz/corpus_evhdr (events with every field
 * encoding, arrays and structs). ASan/UBSan catch any read outside the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/evhdr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct evhdr_event ev;
	struct evhdr_meta_iter it;
	struct evhdr_field f;
	const char *why, *name;
	uint32_t len;
	/* An exact-size copy, so that ASan sees a read one byte past the end. */
	uint8_t *copy = malloc(size ? size : 1);
	char tp[EVHDR_NAME_MAX + 8], prov[EVHDR_NAME_MAX];
	uint8_t level;
	uint64_t kw;

	struct evhdr_fields fi;
	struct evhdr_value v;
	char txt[64];

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!evhdr__decode(copy, size, &ev, &why) && ev.meta &&
	    !evhdr__meta_name(ev.meta, ev.meta_len, ev.flags & EVHDR_F_LE, &name, &len, &it)) {
		while (evhdr__meta_next(&it, &f) == 1)
			if (f.name_len > ev.meta_len)
				abort();
		if (!evhdr__fields_begin(&ev, &fi, &name, &len))
			while (evhdr__field_next(&fi, &v) == 1) {
				if (v.data < ev.payload || v.len > ev.payload_len ||
				    v.data + v.len > ev.payload + ev.payload_len)
					abort();
				evhdr__value_text(&v, txt, sizeof(txt));
			}
	}
	free(copy);
	len = size < sizeof(tp) - 1 ? (uint32_t)size : sizeof(tp) - 1;
	memcpy(tp, data, len);
	tp[len] = 0;
	evhdr__parse_tpname(tp, prov, sizeof(prov), &level, &kw);
	return 0;
}
