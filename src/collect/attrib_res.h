/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * attrib_res.h - what attach points are said with (attrib_res.c): network devices and their
 * XDP programs, cgroup ids as paths, BTF function names, map names. Looked up once per scan
 * (devices, BTF) or kept across scans (cgroup paths), between attrib__res_begin and _end.
 */
#ifndef LAT_ATTRIB_RES_H
#define LAT_ATTRIB_RES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/attrib_int.h"

/* Longest cgroup path kept (a longer one is named by its id). */
#define PATH_MAX_LEN 4096

/* Look up the devices' XDP programs; free what one scan used. */
void attrib__res_begin(struct attrib *a);
void attrib__res_end(struct attrib *a);
/* " native", " generic", " offload" as device ifindex runs prog_id, or "". */
const char *attrib__xdp_mode(const struct attrib *a, uint32_t ifindex, uint32_t prog_id);
/* prog_id runs on ifindex by a link (the legacy pass leaves it out). */
void attrib__xdp_linked(struct attrib *a, uint32_t ifindex, uint32_t prog_id);
/* A point for each XDP program a device runs without a link. */
void attrib__xdp_legacy(struct attrib *a);
/* The function a tracing link of prog_id attaches to (target_obj_id, target_btf_id) into
 * buf; *is_prog tells the target is a BPF program (obj_id its id), else a kernel function. */
void attrib__btf_target(struct attrib *a, uint32_t prog_id, uint32_t obj_id, uint32_t btf_id,
			char *buf, size_t len, bool *is_prog);
/* The path of cgroup id under the cgroup v2 mount; false when not found. */
bool attrib__cgroup_path(struct attrib *a, uint64_t id, char *buf, size_t len);
/* The name of map map_id into buf ("" when gone). */
void attrib__map_name(uint32_t map_id, char *buf, size_t len);

#endif /* LAT_ATTRIB_RES_H */
