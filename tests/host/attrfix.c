// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrfix.c - the attribution test's fixture (t_attrib.sh): real programs, attached the ways
 * attrib.c must find, held by a process in a docker-like cgroup with a crafted name.
 *
 * Usage: attrfix JOIN-CGROUP ATTACH-CGROUP PIN-PATH. It moves itself into JOIN-CGROUP (a
 * directory of the cgroup v2 tree), names itself "attr<ESC>fix<LF>", then loads with raw
 * instructions (no object file) and prints "<what> <id>" for each:
 *
 *	sockfilter  a socket filter it only holds (no attach point)
 *	xdplink     XDP on ifb0 by a link (generic mode: ifb has no native XDP)
 *	xdplegacy   XDP on ifb1 attached the legacy way (netlink, no link)
 *	tclegacy    a cls_bpf filter on ifb0's clsact ingress, priority 1 (netlink, no link)
 *	cgskb       cgroup_skb on ATTACH-CGROUP's ingress by a link, its program fd closed: the
 *	            fixture holds it through the link fd alone
 *	rawtp       a raw tracepoint link on sched_process_exec (0 where the kernel has none)
 *	perftp      a tracepoint program on sched/sched_process_exec by a perf_event link (0
 *	            where it cannot be)
 *	perfioc     the same by the perf event alone (PERF_EVENT_IOC_SET_BPF, no link)
 *	pinned      cgroup_skb on ATTACH-CGROUP's egress by a link pinned at PIN-PATH, its
 *	            program and link fds closed: no process holds it, the pin does
 *
 * then "pid <pid>" and "ready", and waits until stdin ends; then it detaches the legacy XDP
 * program and removes the clsact qdisc it added (the others go with their fds; the pinned
 * one with its pin, the test's to remove).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <linux/perf_event.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* r0 = ret; exit. */
#define RET(v)                                                                             \
	{ { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = (v) },       \
	  { .code = BPF_JMP | BPF_EXIT } }

static const struct bpf_insn pass_xdp[] = RET(2), pass_skb[] = RET(1), drop_sock[] = RET(0),
			     tc_ok[] = RET(0);

static int die(const char *what)
{
	fprintf(stderr, "attrfix: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* A loaded program's fd; its id is printed as "<what> <id>". */
static int load(enum bpf_prog_type type, enum bpf_attach_type at, const struct bpf_insn *insns,
		const char *what)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = at);
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int fd = bpf_prog_load(type, what, "GPL", insns, 2, &o);

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		die(what);
	printf("%s %u\n", what, info.id);
	return fd;
}

/* Write our pid into cgroup dir's cgroup.procs. */
static void join(const char *dir)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || dprintf(fd, "%d\n", getpid()) < 0)
		die(path);
	close(fd);
}

/* A cgroup_skb link on cgroup dir for attach type at; returns the link fd. */
static int cgroup_link(int prog, const char *dir, enum bpf_attach_type at)
{
	int cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (cg < 0)
		die(dir);
	fd = bpf_link_create(prog, cg, at, NULL);
	if (fd < 0)
		die("cgroup link");
	close(cg);
	return fd;
}

/* A cls_bpf filter running prog on ifindex's clsact ingress (the qdisc made if missing). */
static void tc_attach(int ifindex, int prog)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, o, .prog_fd = prog, .handle = 1, .priority = 1);
	int err = bpf_tc_hook_create(&hook);

	if (err && err != -EEXIST) {
		errno = -err;
		die("clsact on ifb0");
	}
	err = bpf_tc_attach(&hook, &o);
	if (err) {
		errno = -err;
		die("tc filter on ifb0");
	}
}

/* The tracefs id of sched/sched_process_exec, or 0. */
static int tp_id(void)
{
	FILE *f = fopen("/sys/kernel/tracing/events/sched/sched_process_exec/id", "r");
	int id = 0;

	if (f) {
		if (fscanf(f, "%d", &id) != 1)
			id = 0;
		fclose(f);
	}
	return id;
}

/* A tracepoint program named name on sched_process_exec, by a perf_event link, or (ioc) by
 * the perf event alone (PERF_EVENT_IOC_SET_BPF: what BCC does, and libbpf before 5.15): no
 * link says where it is. Its id, or 0. */
static uint32_t perf_tp(const char *name, bool ioc)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(attr),
					.sample_period = 1, .wakeup_events = 1 };
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int prog, pfd, err;

	attr.config = (uint64_t)tp_id();
	prog = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, name, "GPL", drop_sock, 2, &o);
	pfd = attr.config ? (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0) : -1;
	if (prog < 0 || pfd < 0)
		return 0;
	err = ioc ? ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog)
		  : bpf_link_create(prog, pfd, BPF_PERF_EVENT, NULL);
	if (err < 0 || bpf_obj_get_info_by_fd(prog, &info, &len))
		return 0;
	return info.id;
}

/* A raw tracepoint link on sched_process_exec; the program's id, or 0. */
static uint32_t raw_tp(void)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int prog = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "rawtp", "GPL", drop_sock, 2, NULL);

	if (prog < 0 || bpf_raw_tracepoint_open("sched_process_exec", prog) < 0 ||
	    bpf_obj_get_info_by_fd(prog, &info, &len))
		return 0;
	return info.id;
}

/* Remove the clsact qdisc of ifindex, and its filters with it. */
static void tc_detach(int ifindex)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);

	bpf_tc_hook_destroy(&hook);
}

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_link_create_opts, xo, .flags = XDP_FLAGS_SKB_MODE);
	int ifb0 = (int)if_nametoindex("ifb0"), ifb1 = (int)if_nametoindex("ifb1");
	int xlink, xprog, legacy, cgl, prog, pin;
	char line[64];

	if (argc != 4 || !ifb0 || !ifb1) {
		fprintf(stderr, "usage: attrfix JOIN-CGROUP ATTACH-CGROUP PIN-PATH (needs ifb0, ifb1)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	join(argv[1]);
	if (prctl(PR_SET_NAME, "attr\033fix\n"))
		die("prctl");

	load(BPF_PROG_TYPE_SOCKET_FILTER, 0, drop_sock, "sockfilter");

	xprog = load(BPF_PROG_TYPE_XDP, BPF_XDP, pass_xdp, "xdplink");
	xlink = bpf_link_create(xprog, ifb0, BPF_XDP, &xo);
	if (xlink < 0)
		die("xdp link on ifb0");

	legacy = load(BPF_PROG_TYPE_XDP, 0, pass_xdp, "xdplegacy");
	if (bpf_xdp_attach(ifb1, legacy, XDP_FLAGS_SKB_MODE, NULL))
		die("xdp attach on ifb1");

	tc_attach(ifb0, load(BPF_PROG_TYPE_SCHED_CLS, 0, tc_ok, "tclegacy"));

	cgl = load(BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS, pass_skb, "cgskb");
	cgroup_link(cgl, argv[2], BPF_CGROUP_INET_INGRESS);
	close(cgl); /* held by its link fd alone: the owner must be found through the link */

	printf("rawtp %u\nperftp %u\n", raw_tp(), perf_tp("perftp", false));
	printf("perfioc %u\n", perf_tp("perfioc", true));

	prog = load(BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS, pass_skb, "pinned");
	pin = cgroup_link(prog, argv[2], BPF_CGROUP_INET_EGRESS);
	if (bpf_obj_pin(pin, argv[3]))
		die("pin");
	close(pin);
	close(prog);

	printf("pid %d\nready\n", getpid());
	while (fgets(line, sizeof(line), stdin))
		;
	bpf_xdp_detach(ifb1, XDP_FLAGS_SKB_MODE, NULL);
	tc_detach(ifb0);
	return 0;
}
