/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * attrib_int.h - what attrib.c (the table, owners, cgroups) and attrib_point.c (attach points)
 * share. Not for other modules: they use attrib.h.
 */
#ifndef LAT_ATTRIB_INT_H
#define LAT_ATTRIB_INT_H

#include <stdint.h>

#include "collect/attrib.h"

/* Most programs one scan keeps (~1.1 KiB each: 18 MiB at most); more are left out. */
#define ATTR_MAX_PROGS 16384

struct owners_bpf;
struct bpf_link;
struct attr_cgcache;
struct attr_res;

struct attrib {
	struct prog_attr *e; /* sorted by id */
	int32_t *last_pid;   /* per entry: the owner counted last (records come pid by pid) */
	uint32_t *type;      /* per entry: the program's type (BPF_PROG_TYPE_*) */
	size_t n, cap;
	struct owners_bpf *skel; /* the owners iterator, loaded on first scan */
	struct bpf_link *iter;
	bool iter_failed; /* it could not load or attach: fdinfo from now on */
	bool force_fdinfo;
	const char *source;
	struct attr_cgcache *cg; /* cgroup id -> path, kept across scans */
	struct attr_res *res;    /* devices and BTF, for one scan's points (attrib_res.c) */
	/* Perf events that run a program, as the owners' scan found them (pid, fd, program):
	 * their points come from BPF_TASK_FD_QUERY (attrib__perf_points). */
	struct attr_perf {
		int32_t pid;
		uint32_t fd, prog_id;
	} *perf;
	size_t nperf, perfcap;
};

/* The entry of program id in the table being built, or NULL. */
struct prog_attr *attrib__entry(struct attrib *a, uint32_t id);
/* The index of the entry of id, or -1. */
long attrib__index(const struct attrib *a, uint32_t id);
/* Add one attach point to id's entry (counted in points_total always, kept while room). */
void attrib__add_point(struct attrib *a, uint32_t id, const char *kind, const char *where,
		       uint32_t link_id);
/* The type of program id as the scan saw it (0: not seen). */
uint32_t attrib__prog_type(const struct attrib *a, uint32_t id);
/* Every link's attach point and every device's XDP program attached without a link. */
void attrib__points(struct attrib *a);
/* The points of the perf events that run programs (kprobes, uprobes, tracepoints attached
 * without a link): each fills in a link's nameless "perf_event" point of the same program, or
 * is added unless the same point is there already. */
void attrib__perf_points(struct attrib *a);
/* A point for each program a device's clsact qdisc runs as a cls_bpf filter (attrib_tc.c). */
void attrib__tc_legacy(struct attrib *a);
void attrib__cgcache_free(struct attr_cgcache *c);

#endif /* LAT_ATTRIB_INT_H */
