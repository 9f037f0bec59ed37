/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * attrib.h - who and where: each loaded program's owner processes, their cgroup (container or
 * systemd unit), its attach points and its load facts.
 *
 * Owners: the processes holding a program fd or a link fd of the program, found with a
 * task_file iterator (the way bpftool finds them) or, where that cannot load, from
 * /proc/PID/fdinfo. Attach points: every BPF link's bpf_link_info, and, for programs attached
 * without a link, the device side where the kernel tells (XDP per device). Strings are kept as
 * the kernel or /proc gave them (NUL-terminated, cut to the field); views make them visible.
 *
 * Thread use: UI thread (scanned once per interval at most, outside the collector).
 */
#ifndef LAT_ATTRIB_H
#define LAT_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/attr.h" /* struct prog_attr: the model keeps it per program */

struct attrib;

/* A new, empty attribution table; NULL + errno on failure. */
struct attrib *attrib__new(void);
void attrib__free(struct attrib *a);
/* Refresh the table: every loaded program's entry. Returns 0 or a negative errno. Where
 * owners came from: "iter" or "fdinfo" (attrib__owner_source). */
int attrib__scan(struct attrib *a);
/* The entry of program id after the last scan, or NULL when the program was not seen. */
const struct prog_attr *attrib__get(const struct attrib *a, uint32_t id);
const char *attrib__owner_source(const struct attrib *a);

/* Pure parts (unit tested): the container and systemd unit a cgroup v2 path names. */
void attrib__classify(const char *cgroup, char *container, size_t clen, char *unit,
		      size_t ulen);

#endif /* LAT_ATTRIB_H */
