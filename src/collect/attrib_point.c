// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrib_point.c - where programs are attached: every BPF link's bpf_link_info in words, and
 * the XDP programs each network device runs without a link (attached the legacy way).
 *
 * Programs tc runs as cls_bpf filters come from attrib_tc.c. Not found: perf_event_open
 * attachments without a link (PERF_EVENT_IOC_SET_BPF), sockmap/sockhash programs attached
 * with BPF_PROG_ATTACH, and other BPF_PROG_ATTACH attachments (cgroup programs attached
 * without a link, flow dissector, lirc): their programs show no point. Devices are those of
 * our network namespace.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collect/attrib_abi.h"
#include "collect/attrib_int.h"
#include "collect/attrib_res.h"

/* Names the kernel gives (tracepoints, functions, files): longer ones are cut. */
#define NAME_MAX_LEN 256

/* The words of each attach type (UAPI numbers, enum bpf_attach_type). */
static const char *const attach_words[] = {
	"ingress", "egress", "sock_create", "sock_ops", "sk_skb_parser", "sk_skb_verdict",
	"device", "sk_msg_verdict", "bind4", "bind6", "connect4", "connect6", "post_bind4",
	"post_bind6", "sendmsg4", "sendmsg6", "lirc_mode2", "flow_dissector", "sysctl", "recvmsg4",
	"recvmsg6", "getsockopt", "setsockopt", "raw_tp", "fentry", "fexit", "fmod_ret", "lsm",
	"iter", "getpeername4", "getpeername6", "getsockname4", "getsockname6", "xdp_devmap",
	"sock_release", "xdp_cpumap", "sk_lookup", "xdp", "sk_skb_verdict", "reuseport_select",
	"reuseport_migrate", "perf_event", "kprobe_multi", "lsm_cgroup", "struct_ops", "netfilter",
	"ingress", "egress", "uprobe_multi", "unix_connect", "unix_sendmsg", "unix_recvmsg",
	"unix_getpeername", "unix_getsockname", "primary", "peer", "kprobe_session",
	"uprobe_session",
};

/* The word of attach type t, or its number in buf. */
static const char *attach_word(uint32_t t, char *buf, size_t len)
{
	if (t < sizeof(attach_words) / sizeof(attach_words[0]))
		return attach_words[t];
	snprintf(buf, len, "attach_type %u", t);
	return buf;
}

/* A device's name, or its index in buf. */
static const char *dev_name(uint32_t ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

/* A point found by a link: kind and where into p. */
struct point {
	char kind[16];
	char where[112];
};

/* Say a point: its kind, and where in words (cut to the field: a long cgroup path or
 * function name is still recognisable by its start). */
__attribute__((format(printf, 3, 4))) static void say_at(struct point *p, const char *kind,
							  const char *fmt, ...)
{
	va_list ap;

	snprintf(p->kind, sizeof(p->kind), "%s", kind);
	va_start(ap, fmt);
	vsnprintf(p->where, sizeof(p->where), fmt, ap);
	va_end(ap);
}

/* A netfilter hook in words. */
static void say_netfilter(struct point *p, const struct lat_link_info *li)
{
	static const char *const hooks[] = { "prerouting", "input", "forward", "output",
					     "postrouting" };
	uint32_t pf = li->netfilter.pf, h = li->netfilter.hooknum;
	char pfw[16], hw[16];

	if (pf == 2 || pf == 10)
		snprintf(pfw, sizeof(pfw), "%s", pf == 2 ? "ipv4" : "ipv6");
	else
		snprintf(pfw, sizeof(pfw), "pf %u", pf);
	if (h < sizeof(hooks) / sizeof(hooks[0]))
		snprintf(hw, sizeof(hw), "%s", hooks[h]);
	else
		snprintf(hw, sizeof(hw), "hook %u", h);
	say_at(p, "netfilter", "%s %s prio %d", pfw, hw, li->netfilter.priority);
}

/* A perf event link (the names are there since 6.6; before, only the kind is known). */
static void say_perf(struct point *p, const struct lat_link_info *li, const char *name)
{
	uint32_t t = li->perf_event.type;

	if (t == LAT_PERF_UPROBE || t == LAT_PERF_URETPROBE)
		say_at(p, "uprobe", "%s+0x%x%s", name, li->perf_event.offset,
		       t == LAT_PERF_URETPROBE ? " return" : "");
	else if (t == LAT_PERF_KPROBE || t == LAT_PERF_KRETPROBE)
		say_at(p, "kprobe", "%s+%u%s", name, li->perf_event.offset,
		       t == LAT_PERF_KRETPROBE ? " return" : "");
	else if (t == LAT_PERF_TRACEPOINT)
		say_at(p, "tracepoint", "%s", name);
	else if (t == LAT_PERF_EVENT)
		say_at(p, "perf_event", "type %u config %llu", li->perf_event.name_len,
		       (unsigned long long)li->perf_event.name);
	else
		say_at(p, "perf_event", "%s", "");
}

/* Link types whose point needs no more than the info. */
static bool say_plain(struct attrib *a, struct point *p, const struct lat_link_info *li,
		      const char *name)
{
	char dev[IF_NAMESIZE], w[32];

	switch (li->type) {
	case LAT_LINK_RAW_TRACEPOINT:
		say_at(p, "raw_tp", "%s", name);
		return true;
	case LAT_LINK_ITER:
		if (li->iter.map_id)
			say_at(p, "iter", "%s map %u", name, li->iter.map_id);
		else
			say_at(p, "iter", "%s", name);
		return true;
	case LAT_LINK_NETNS:
		if (li->netns.attach_type == LAT_ATTACH_SK_LOOKUP)
			say_at(p, "sk_lookup", "netns %u", li->netns.netns_ino);
		else
			say_at(p, "netns", "netns %u %s", li->netns.netns_ino,
			       attach_word(li->netns.attach_type, w, sizeof(w)));
		return true;
	case LAT_LINK_XDP:
		say_at(p, "xdp", "%s%s", dev_name(li->xdp.ifindex, dev),
		       attrib__xdp_mode(a, li->xdp.ifindex, li->prog_id));
		attrib__xdp_linked(a, li->xdp.ifindex, li->prog_id);
		return true;
	case LAT_LINK_PERF_EVENT:
		say_perf(p, li, name);
		return true;
	case LAT_LINK_KPROBE_MULTI:
		say_at(p, "kprobe", "%u functions%s", li->kprobe_multi.count,
		       li->kprobe_multi.flags & LAT_KPROBE_MULTI_RETURN ? " return" : "");
		return true;
	case LAT_LINK_UPROBE_MULTI:
		if (li->uprobe_multi.pid)
			say_at(p, "uprobe", "%s %u offsets pid %u", name, li->uprobe_multi.count,
			       li->uprobe_multi.pid);
		else
			say_at(p, "uprobe", "%s %u offsets", name, li->uprobe_multi.count);
		return true;
	case LAT_LINK_NETFILTER:
		say_netfilter(p, li);
		return true;
	case LAT_LINK_TCX:
	case LAT_LINK_NETKIT:
		say_at(p, li->type == LAT_LINK_TCX ? "tcx" : "netkit", "%s %s",
		       dev_name(li->tcx.ifindex, dev), attach_word(li->tcx.attach_type, w, sizeof(w)));
		return true;
	case LAT_LINK_SOCKMAP:
		say_at(p, "sockmap", "map %u %s", li->sockmap.map_id,
		       attach_word(li->sockmap.attach_type, w, sizeof(w)));
		return true;
	}
	return false;
}

/* A link's point in words. */
static void say(struct attrib *a, struct point *p, const struct lat_link_info *li,
		const char *name)
{
	char w[32], fn[NAME_MAX_LEN], path[PATH_MAX_LEN];
	const char *aw;
	bool is_prog = false;

	if (say_plain(a, p, li, name))
		return;
	switch (li->type) {
	case LAT_LINK_TRACING:
		aw = attach_word(li->tracing.attach_type, w, sizeof(w));
		if (!li->tracing.target_btf_id) { /* an older kernel's link does not name its target */
			if (attrib__prog_type(a, li->prog_id) == BPF_PROG_TYPE_EXT)
				say_at(p, "freplace", "%s", "");
			else
				say_at(p, "tracing", "%s", aw);
			break;
		}
		attrib__btf_target(a, li->prog_id, li->tracing.target_obj_id,
				   li->tracing.target_btf_id, fn, sizeof(fn), &is_prog);
		if (attrib__prog_type(a, li->prog_id) == BPF_PROG_TYPE_EXT)
			say_at(p, "freplace", "prog %u %s", li->tracing.target_obj_id, fn);
		else if (is_prog)
			say_at(p, "tracing", "%s prog %u %s", aw, li->tracing.target_obj_id, fn);
		else
			say_at(p, "tracing", "%s %s", aw, fn);
		break;
	case LAT_LINK_CGROUP:
		if (attrib__cgroup_path(a, li->cgroup.cgroup_id, path, sizeof(path)))
			say_at(p, "cgroup", "%s %s", path,
			       attach_word(li->cgroup.attach_type, w, sizeof(w)));
		else
			say_at(p, "cgroup", "cgroup %llu %s", (unsigned long long)li->cgroup.cgroup_id,
			       attach_word(li->cgroup.attach_type, w, sizeof(w)));
		break;
	case LAT_LINK_STRUCT_OPS:
		say_at(p, "struct_ops", "map %u%s%s", li->struct_ops.map_id, name[0] ? " " : "", name);
		break;
	default:
		say_at(p, "unknown", "link type %u", li->type);
	}
}

/* The buffer the kernel writes a link's name into, for the types that have one. */
static void ask_name(struct lat_link_info *li, char *name, uint32_t len)
{
	uint64_t buf = (uint64_t)(uintptr_t)name;

	switch (li->type) {
	case LAT_LINK_RAW_TRACEPOINT:
		li->raw_tracepoint.tp_name = buf;
		li->raw_tracepoint.tp_name_len = len;
		break;
	case LAT_LINK_ITER:
		li->iter.target_name = buf;
		li->iter.target_name_len = len;
		break;
	case LAT_LINK_UPROBE_MULTI:
		li->uprobe_multi.path = buf;
		li->uprobe_multi.path_size = len;
		break;
	case LAT_LINK_PERF_EVENT:
		/* (an event's config comes back in its place) */
		li->perf_event.name = buf;
		li->perf_event.name_len = len;
		break;
	}
}

/* The info of link fd with its name; false when it is gone. */
static bool link_info(int fd, struct lat_link_info *li, char *name, uint32_t len)
{
	struct lat_link_info first = { 0 };
	uint32_t sz = sizeof(first);

	name[0] = '\0';
	/* First the type (which member is there), then again with a buffer for its name. */
	if (bpf_obj_get_info_by_fd(fd, &first, &sz))
		return false;
	memset(li, 0, sizeof(*li));
	li->type = first.type;
	ask_name(li, name, len);
	sz = sizeof(*li);
	if (bpf_obj_get_info_by_fd(fd, li, &sz)) {
		*li = first; /* the name is the part that failed; the rest is known */
		name[0] = '\0';
	}
	name[len - 1] = '\0';
	if (li->type == LAT_LINK_STRUCT_OPS)
		attrib__map_name(li->struct_ops.map_id, name, len);
	return true;
}

/* The point of link id, added to its program's entry. */
static void link_point(struct attrib *a, uint32_t id)
{
	struct lat_link_info li;
	char name[NAME_MAX_LEN];
	struct point p;
	int fd = bpf_link_get_fd_by_id(id);

	if (fd < 0)
		return; /* gone (ENOENT) or not ours to see */
	if (link_info(fd, &li, name, sizeof(name)) && li.prog_id && attrib__index(a, li.prog_id) >= 0) {
		say(a, &p, &li, name);
		attrib__add_point(a, li.prog_id, p.kind, p.where, li.id);
	}
	close(fd);
}

/* A perf event's point from the kernel's answer about it (fd_type BPF_FD_TYPE_*), as a
 * perf_event link's would be named (say_perf); false for a kind it does not name. */
static bool perf_fd_point(struct point *p, uint32_t fd_type, const char *buf, uint64_t off,
			  uint64_t addr)
{
	switch (fd_type) {
	case BPF_FD_TYPE_RAW_TRACEPOINT:
		say_at(p, "raw_tp", "%s", buf);
		return true;
	case BPF_FD_TYPE_TRACEPOINT:
		say_at(p, "tracepoint", "%s", buf);
		return true;
	case BPF_FD_TYPE_KPROBE:
	case BPF_FD_TYPE_KRETPROBE:
		if (buf[0])
			say_at(p, "kprobe", "%s+%llu%s", buf, (unsigned long long)off,
			       fd_type == BPF_FD_TYPE_KRETPROBE ? " return" : "");
		else
			say_at(p, "kprobe", "0x%llx%s", (unsigned long long)addr,
			       fd_type == BPF_FD_TYPE_KRETPROBE ? " return" : "");
		return true;
	case BPF_FD_TYPE_UPROBE:
	case BPF_FD_TYPE_URETPROBE:
		say_at(p, "uprobe", "%s+0x%llx%s", buf, (unsigned long long)off,
		       fd_type == BPF_FD_TYPE_URETPROBE ? " return" : "");
		return true;
	}
	return false;
}

/* The points of the perf events that run programs. */
void attrib__perf_points(struct attrib *a)
{
	for (size_t i = 0; i < a->nperf; i++) {
		const struct attr_perf *pe = &a->perf[i];
		char buf[NAME_MAX_LEN] = "";
		uint32_t len = sizeof(buf), prog_id = 0, fd_type = 0;
		__u64 off = 0, addr = 0;
		struct prog_attr *e;
		struct point p;
		uint32_t k;

		/* The event may be gone since the iterator saw it, or its fd reused. */
		if (bpf_task_fd_query(pe->pid, (int)pe->fd, 0, buf, &len, &prog_id, &fd_type, &off,
				      &addr) ||
		    prog_id != pe->prog_id)
			continue;
		buf[sizeof(buf) - 1] = '\0';
		e = attrib__entry(a, prog_id);
		if (!e || !perf_fd_point(&p, fd_type, buf, off, addr))
			continue;
		for (k = 0; k < e->npoints; k++) {
			struct attr_point *q = &e->points[k];

			if (!strcmp(q->kind, "perf_event") && !q->where[0]) { /* a link before 6.6 */
				snprintf(q->kind, sizeof(q->kind), "%s", p.kind);
				snprintf(q->where, sizeof(q->where), "%s", p.where);
				break;
			}
			if (!strcmp(q->kind, p.kind) && !strcmp(q->where, p.where))
				break;
		}
		if (k == e->npoints)
			attrib__add_point(a, prog_id, p.kind, p.where, 0);
	}
}

/* Every link's point, then the XDP programs attached without one. */
void attrib__points(struct attrib *a)
{
	uint32_t id = 0;

	attrib__res_begin(a);
	while (!bpf_link_get_next_id(id, &id))
		link_point(a, id);
	attrib__perf_points(a);
	attrib__xdp_legacy(a);
	attrib__tc_legacy(a);
	attrib__res_end(a);
}
