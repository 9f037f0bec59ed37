/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * attrib_abi.h - the kernel's struct bpf_link_info as the running kernel may fill it, in our
 * own declaration. Debian 12's <linux/bpf.h> (6.1) lacks the members and the link types that
 * came later (netfilter 6.4, kprobe_multi details and tcx 6.6, perf_event details 6.6,
 * uprobe_multi 6.8, netkit 6.7, sockmap 6.10), so these are written out here from the UAPI
 * layout, with the padding the kernel's __aligned_u64 members imply spelled out. A kernel
 * that knows fewer members fills fewer bytes and leaves ours zero; one that knows more writes
 * no further than the size we pass.
 *
 * Numbers (link types, attach types, perf event types) are the UAPI's and never change; they
 * are used as numbers here so that no header's enum decides what compiles.
 */
#ifndef LAT_ATTRIB_ABI_H
#define LAT_ATTRIB_ABI_H

#include <stdint.h>

enum {
	LAT_LINK_RAW_TRACEPOINT = 1,
	LAT_LINK_TRACING = 2,
	LAT_LINK_CGROUP = 3,
	LAT_LINK_ITER = 4,
	LAT_LINK_NETNS = 5,
	LAT_LINK_XDP = 6,
	LAT_LINK_PERF_EVENT = 7,
	LAT_LINK_KPROBE_MULTI = 8,
	LAT_LINK_STRUCT_OPS = 9,
	LAT_LINK_NETFILTER = 10,
	LAT_LINK_TCX = 11,
	LAT_LINK_UPROBE_MULTI = 12,
	LAT_LINK_NETKIT = 13,
	LAT_LINK_SOCKMAP = 14,
};

enum {
	LAT_PERF_UPROBE = 1,
	LAT_PERF_URETPROBE = 2,
	LAT_PERF_KPROBE = 3,
	LAT_PERF_KRETPROBE = 4,
	LAT_PERF_TRACEPOINT = 5,
	LAT_PERF_EVENT = 6,
};

/* Attach types this file tests by number. */
#define LAT_ATTACH_FLOW_DISSECTOR 17
#define LAT_ATTACH_SK_LOOKUP 36
/* kprobe_multi's flags: a return probe. */
#define LAT_KPROBE_MULTI_RETURN 1u

struct lat_link_info {
	uint32_t type;
	uint32_t id;
	uint32_t prog_id;
	uint32_t pad0; /* the union is 8-aligned */
	union {
		struct {
			uint64_t tp_name;
			uint32_t tp_name_len;
			uint32_t pad;
			uint64_t cookie;
		} raw_tracepoint;
		struct {
			uint32_t attach_type;
			uint32_t target_obj_id;
			uint32_t target_btf_id;
			uint32_t pad;
			uint64_t cookie;
		} tracing;
		struct {
			uint64_t cgroup_id;
			uint32_t attach_type;
		} cgroup;
		struct {
			uint64_t target_name;
			uint32_t target_name_len;
			uint32_t map_id;
			uint64_t cgroup_id; /* or tid, pid */
			uint32_t order;
		} iter;
		struct {
			uint32_t netns_ino;
			uint32_t attach_type;
		} netns;
		struct {
			uint32_t ifindex;
		} xdp;
		struct {
			uint32_t map_id;
		} struct_ops;
		struct {
			uint32_t pf;
			uint32_t hooknum;
			int32_t priority;
			uint32_t flags;
		} netfilter;
		struct {
			uint64_t addrs;
			uint32_t count;
			uint32_t flags;
			uint64_t missed;
			uint64_t cookies;
		} kprobe_multi;
		struct {
			uint64_t path;
			uint64_t offsets;
			uint64_t ref_ctr_offsets;
			uint64_t cookies;
			uint32_t path_size;
			uint32_t count;
			uint32_t flags;
			uint32_t pid;
		} uprobe_multi;
		struct {
			uint32_t type;
			uint32_t pad;
			/* uprobe: file_name; kprobe: func_name; tracepoint: tp_name */
			uint64_t name;
			uint32_t name_len;
			uint32_t offset; /* uprobe, kprobe */
			uint64_t addr;   /* kprobe; an event's config is at name instead */
			uint64_t rest[2];
		} perf_event;
		struct {
			uint32_t ifindex;
			uint32_t attach_type;
		} tcx, netkit;
		struct {
			uint32_t map_id;
			uint32_t attach_type;
		} sockmap;
	};
};

_Static_assert(sizeof(struct lat_link_info) == 64, "bpf_link_info layout");
_Static_assert(__builtin_offsetof(struct lat_link_info, perf_event.name) == 24, "perf_event");
_Static_assert(__builtin_offsetof(struct lat_link_info, uprobe_multi.pid) == 60, "uprobe_multi");

#endif /* LAT_ATTRIB_ABI_H */
