// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * progstats.c - enumerate loaded BPF programs and read their bpf_stats counters.
 *
 * A program fd pins the program, so fds are opened and closed within one scan: holding them
 * would keep unloaded programs alive and they could never be shown as gone.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <stdbool.h>
#include <fcntl.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collect/progstats.h"

/* Turn on BPF_STATS_RUN_TIME for the lifetime of the returned fd. */
int progstats__enable(void)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	return fd < 0 ? -errno : fd;
}

/* Whether BPF run-time stats are on now, for any reason: the kernel.bpf_stats_enabled sysctl
 * reads only what was written to it, not the fds of bpf_enable_stats, so the one sure sign is a
 * run counted: run an empty socket filter of our own once and read its run_cnt. */
int progstats__on_now(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	unsigned char pkt[64] = {};
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = pkt, .data_size_in = sizeof(pkt));
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "lattop_stats_on", "GPL", insns, 2, NULL);
	if (fd < 0)
		return -errno;
	err = bpf_prog_test_run_opts(fd, &run);
	if (!err)
		err = bpf_obj_get_info_by_fd(fd, &info, &len);
	err = err ? -errno : info.run_cnt > 0;
	close(fd);
	return err;
}

/* Full name of a program from its BTF func_info (bpftool's profile_target_name). */
void progstats__name(int fd, const void *infop, char *buf, size_t len)
{
	const struct bpf_prog_info *info0 = infop;
	struct bpf_func_info finfo = {};
	struct bpf_prog_info info = {};
	__u32 info_len = sizeof(info);
	struct btf *btf = NULL;
	const struct btf_type *t;

	snprintf(buf, len, "%s", info0->name[0] ? info0->name : "-");
	if (!info0->btf_id || !info0->nr_func_info)
		return;
	info.nr_func_info = 1;
	info.func_info_rec_size = sizeof(finfo);
	info.func_info = (__u64)(unsigned long)&finfo;
	if (bpf_obj_get_info_by_fd(fd, &info, &info_len))
		return;
	btf = btf__load_from_kernel_by_id(info0->btf_id);
	if (!btf)
		return;
	t = btf__type_by_id(btf, finfo.type_id);
	if (t && btf_is_func(t))
		snprintf(buf, len, "%s", btf__name_by_offset(btf, t->name_off));
	btf__free(btf);
}

/* Names already resolved, by program ID: loading BTF for every program every interval would
 * cost more than the whole scan. A program's name never changes while its ID lives. */
static struct name_cache {
	uint32_t id;
	char name[64];
} *names;
static size_t names_n, names_cap;

/* Look up (or resolve and remember) the full name of program id. */
static void cached_name(uint32_t id, int fd, const struct bpf_prog_info *info, char *buf,
			size_t len)
{
	struct name_cache *nc;

	for (size_t i = 0; i < names_n; i++) {
		if (names[i].id == id) {
			snprintf(buf, len, "%s", names[i].name);
			return;
		}
	}
	progstats__name(fd, info, buf, len);
	if (names_n == names_cap) {
		size_t ncap = names_cap ? names_cap * 2 : 64;
		struct name_cache *nn = realloc(names, ncap * sizeof(*nn));

		if (!nn)
			return;
		names = nn;
		names_cap = ncap;
	}
	nc = &names[names_n++];
	nc->id = id;
	snprintf(nc->name, sizeof(nc->name), "%s", buf);
}

/* Read every loaded program's counters. */
int progstats__scan(struct prog_stat **out, size_t *n, size_t *cap)
{
	__u32 id = 0;

	*n = 0;
	for (;;) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		struct prog_stat *p;
		const char *tn;
		int fd, err;

		err = bpf_prog_get_next_id(id, &id);
		if (err) {
			if (errno == ENOENT)
				break;
			return -errno;
		}
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0) {
			if (errno == ENOENT)
				continue; /* unloaded between the two calls */
			return -errno;
		}
		err = bpf_obj_get_info_by_fd(fd, &info, &len);
		if (err) {
			close(fd);
			continue;
		}
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			struct prog_stat *np = realloc(*out, ncap * sizeof(*np));

			if (!np) {
				close(fd);
				return -ENOMEM;
			}
			*out = np;
			*cap = ncap;
		}
		p = &(*out)[(*n)++];
		memset(p, 0, sizeof(*p));
		p->id = info.id;
		p->type = info.type;
		cached_name(info.id, fd, &info, p->name, sizeof(p->name));
		tn = libbpf_bpf_prog_type_str(info.type);
		snprintf(p->type_name, sizeof(p->type_name), "%s", tn ? tn : "unknown");
		p->run_cnt = info.run_cnt;
		p->run_time_ns = info.run_time_ns;
		p->recursion_misses = info.recursion_misses;
		close(fd);
	}
	return 0;
}

/* Read the bpf_prog_info of fd into info (zeroed on failure). */
static void prog_info(int fd, struct bpf_prog_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	if (bpf_obj_get_info_by_fd(fd, info, &len))
		memset(info, 0, sizeof(*info));
}

/* ID of the program behind fd. */
uint32_t progstats__prog_id(int fd)
{
	struct bpf_prog_info info;

	prog_info(fd, &info);
	return info.id;
}

/* recursion_misses of the program behind fd. */
uint64_t progstats__recursion_misses(int fd)
{
	struct bpf_prog_info info;

	prog_info(fd, &info);
	return info.recursion_misses;
}

void progstats__run_add(int fd, uint64_t *run_time_ns, uint64_t *runs)
{
	struct bpf_prog_info info;

	if (fd < 0)
		return;
	prog_info(fd, &info);
	*run_time_ns += info.run_time_ns;
	if (runs)
		*runs += info.run_cnt;
}

/* The prog_id line of one fdinfo file (a program or a link), or 0. */
uint32_t progstats__fdinfo_prog_id(int dirfd, const char *name)
{
	char buf[1024];
	uint32_t id = 0;
	ssize_t n;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	const char *p;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strstr(buf, "prog_id:");
	if (p && (p == buf || p[-1] == '\n'))
		id = (uint32_t)strtoul(p + 8, NULL, 10);
	return id;
}

/* IDs of the programs this process holds. */
int progstats__own_ids(uint32_t *ids, int max)
{
	DIR *d = opendir("/proc/self/fdinfo");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < max) {
		uint32_t id;
		bool dup = false;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		id = progstats__fdinfo_prog_id(dirfd(d), de->d_name);
		for (int i = 0; i < n && !dup; i++)
			dup = ids[i] == id;
		if (id && !dup)
			ids[n++] = id;
	}
	closedir(d);
	return n;
}
