// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrib_tc.c - programs attached the legacy tc way: cls_bpf filters on a clsact qdisc's
 * ingress or egress, found by a netlink dump of each device's filters (RTM_GETTFILTER); a
 * "bpf" filter's options carry its program's id (TCA_BPF_ID). Devices are those of our
 * network namespace. Filters on other qdiscs (a classful qdisc's classes) are not dumped.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "collect/attrib_int.h"

/* The attribute type without the nested and byte-order flags. */
#define RTA_KIND(rta) ((rta)->rta_type & NLA_TYPE_MASK)

/* The program id in a bpf filter's nested options, or 0. */
static uint32_t bpf_id(struct rtattr *rta, int len)
{
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
		if (RTA_KIND(rta) == TCA_BPF_ID && RTA_PAYLOAD(rta) >= sizeof(uint32_t)) {
			uint32_t id;

			memcpy(&id, RTA_DATA(rta), sizeof(id));
			return id;
		}
	return 0;
}

/* One filter of a dump: a point when it is a bpf filter. */
static void one_filter(struct attrib *a, struct nlmsghdr *nh, const char *where)
{
	struct tcmsg *t = NLMSG_DATA(nh);
	int len = (int)nh->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*t));
	struct rtattr *rta = (struct rtattr *)((char *)t + NLMSG_ALIGN(sizeof(*t)));
	bool is_bpf = false;
	uint32_t id = 0;
	char w[112];

	for (; len > 0 && RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (RTA_KIND(rta) == TCA_KIND)
			is_bpf = RTA_PAYLOAD(rta) >= 4 && !memcmp(RTA_DATA(rta), "bpf", 4);
		else if (RTA_KIND(rta) == TCA_OPTIONS)
			id = bpf_id(RTA_DATA(rta), (int)RTA_PAYLOAD(rta));
	}
	if (!is_bpf || !id)
		return;
	snprintf(w, sizeof(w), "%s prio %u", where, TC_H_MAJ(t->tcm_info) >> 16);
	attrib__add_point(a, id, "tc", w, 0);
}

/* Read a dump's answer (seq) to its end. */
static void read_dump(struct attrib *a, int fd, uint32_t seq, const char *where)
{
	static __thread char buf[32768] __attribute__((aligned(4)));

	for (;;) {
		int n = (int)recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nh = (struct nlmsghdr *)buf;

		if (n <= 0)
			return; /* an error or the timeout: what came is kept */
		for (; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_seq != seq)
				continue;
			if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR)
				return;
			if (nh->nlmsg_type == RTM_NEWTFILTER)
				one_filter(a, nh, where);
		}
	}
}

/* Dump the filters of device ifindex under parent (clsact's ingress or egress). */
static void dump(struct attrib *a, int fd, uint32_t seq, unsigned ifindex, uint32_t parent,
		 const char *where)
{
	struct {
		struct nlmsghdr n;
		struct tcmsg t;
	} req;

	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(sizeof(req.t));
	req.n.nlmsg_type = RTM_GETTFILTER;
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.n.nlmsg_seq = seq;
	req.t.tcm_family = AF_UNSPEC;
	req.t.tcm_ifindex = (int)ifindex;
	req.t.tcm_parent = parent;
	if (send(fd, &req, req.n.nlmsg_len, 0) == (ssize_t)req.n.nlmsg_len)
		read_dump(a, fd, seq, where);
}

/* A point for each cls_bpf program on a clsact qdisc of each device. */
void attrib__tc_legacy(struct attrib *a)
{
	struct timeval tmo = { .tv_sec = 1 };
	struct if_nameindex *ifs;
	uint32_t seq = 1;
	char where[64];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return;
	/* A kernel that does not answer does not stall the scan for long. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
	ifs = if_nameindex();
	for (struct if_nameindex *p = ifs; p && p->if_index; p++) {
		snprintf(where, sizeof(where), "%s ingress", p->if_name);
		dump(a, fd, seq++, p->if_index, TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS), where);
		snprintf(where, sizeof(where), "%s egress", p->if_name);
		dump(a, fd, seq++, p->if_index, TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_EGRESS), where);
	}
	if (ifs)
		if_freenameindex(ifs);
	close(fd);
}
