/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tpformat.h - a tracepoint's record layout, from its tracefs format file
 * (events/CATEGORY/NAME/format), for spans keyed by a field of a generic tracepoint.
 *
 * Thread use: UI/main thread only (option parsing).
 */
#ifndef LAT_TPFORMAT_H
#define LAT_TPFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One field of a tracepoint's record. */
struct tp_field {
	char name[64];
	uint32_t off;  /* bytes from the record's start (the common fields included) */
	uint32_t size; /* bytes */
	bool is_signed;
	bool integer; /* 1, 2, 4 or 8 bytes, not an array, not a __data_loc string */
};

/* The tracefs directory holding events/ ("/sys/kernel/tracing" or
 * "/sys/kernel/debug/tracing"). When neither has events/, tracefs is mounted on
 * /sys/kernel/tracing (as bpftool does; it stays mounted). NULL + errno when none can be had. */
const char *tpformat__tracefs(void);
/* True when tracepoint "cat:name" exists (its format file is readable). */
bool tpformat__exists(const char *tracefs, const char *cat, const char *name);
/* Find field in the text of a format file. Returns 0, -ENOENT (no such field), or -EINVAL (a
 * field that is not an integer). Either way avail gets the integer fields, comma-separated,
 * the common_* fields last. */
int tpformat__parse(const char *text, const char *field, struct tp_field *out, char *avail,
		    size_t availlen);
/* Read cat:name's format file and find field in it (as tpformat__parse; -ENODEV when the
 * tracepoint has no readable format file). */
int tpformat__field(const char *tracefs, const char *cat, const char *name, const char *field,
		    struct tp_field *out, char *avail, size_t availlen);

#endif /* LAT_TPFORMAT_H */
