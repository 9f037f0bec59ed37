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

/* Owners and attach points kept per program; the totals say how many there were. */
#define ATTR_OWNERS 4
#define ATTR_POINTS 4

struct attr_owner {
	int32_t pid;   /* thread-group id */
	char comm[16]; /* as the kernel keeps it */
};

/* One attach point: kind is a short word ("xdp", "tc", "tcx", "cgroup", "kprobe", "uprobe",
 * "tracepoint", "raw_tp", "tracing", "netfilter", "perf_event", "sk_lookup", "freplace",
 * "iter", "netns", "struct_ops", "unknown"); where says the rest in words, for example
 * "eth0 native", "eth0 ingress prio 1", "/sys/fs/cgroup/x ingress", "do_sys_openat2+0",
 * "sched/sched_switch", "prog 12 xdp_pass" (an extension: the program and function it
 * replaces). link_id is 0 for points found without a link. */
struct attr_point {
	char kind[16];
	char where[112];
	uint32_t link_id;
};

struct prog_attr {
	uint32_t id;
	uint32_t uid;           /* created_by_uid */
	uint64_t load_time_s;   /* when it was loaded, seconds since the epoch (0: unknown) */
	char tag[17];           /* 16 hex digits */
	uint32_t verified_insns; /* 0 where the kernel does not say (before 5.16) */
	uint32_t nowners, owners_total;
	struct attr_owner owners[ATTR_OWNERS]; /* lowest pids first */
	/* The first owner's cgroup v2 path ("/system.slice/foo.service"), the container it
	 * names ("docker:0123456789ab", "containerd:...", "podman:...", "crio:...",
	 * "k8s:<pod uid>/<12 hex>") or "", and the systemd unit ("foo.service", "session-3.scope")
	 * or "". */
	char cgroup[256];
	char container[80];
	char unit[64];
	uint32_t npoints, points_total;
	struct attr_point points[ATTR_POINTS];
};

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
