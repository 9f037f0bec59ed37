/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * attr.h - what the model keeps about who holds a program and where it is attached
 * (collect/attrib.c fills it on a live host; a recording carries it for a replay).
 */
#ifndef LAT_ATTR_H
#define LAT_ATTR_H

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
 * "eth0 native", "eth0 ingress prio 1", "/system.slice/x.service ingress" (a cgroup path from
 * the cgroup2 root), "do_sys_openat2+0", "sched/sched_switch", "prog 12 xdp_pass" (an
 * extension: the program and function it replaces). link_id is 0 for points found without a
 * link. */
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

#endif /* LAT_ATTR_H */
