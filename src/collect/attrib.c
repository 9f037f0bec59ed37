// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrib.c - the attribution table: every loaded program with its load facts, its owner
 * processes and the first owner's cgroup; attach points come from attrib_point.c.
 *
 * Owners come from our task_file iterator (owners.bpf.c) or, where it cannot load or attach
 * (a kernel without BTF or the ksyms, lockdown), from /proc/PID/fd and fdinfo: a program fd
 * and a link fd both have a prog_id line there. LATTOP_ATTR_FDINFO=1 in the environment forces
 * the /proc way (the tests compare the two).
 *
 * Everything may vanish while we look (a program unloaded, a process exited): what is gone
 * (ENOENT, ESRCH, a failed open under /proc) is skipped, never an error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect/attrib_int.h"
#include "collect/progstats.h"
#include "lattop.h"
#include "owners.skel.h"

/* /proc/PID/cgroup: room for every hierarchy's line and a long v2 path. */
#define CGROUP_FILE_MAX 16384

/* A new, empty attribution table. */
struct attrib *attrib__new(void)
{
	struct attrib *a = calloc(1, sizeof(*a));
	const char *env = getenv("LATTOP_ATTR_FDINFO");

	if (!a)
		return NULL;
	a->force_fdinfo = env && !strcmp(env, "1");
	a->source = "";
	return a;
}

void attrib__free(struct attrib *a)
{
	if (!a)
		return;
	bpf_link__destroy(a->iter);
	owners_bpf__destroy(a->skel);
	attrib__cgcache_free(a->cg);
	free(a->e);
	free(a->last_pid);
	free(a->type);
	free(a->perf);
	free(a);
}

/* Room for one more entry; false when the table is full or memory is out. */
static bool grow(struct attrib *a)
{
	size_t cap = a->cap ? a->cap * 2 : 256;
	void *e, *p, *t;

	if (a->n < a->cap)
		return true;
	if (a->cap >= ATTR_MAX_PROGS)
		return false;
	if (cap > ATTR_MAX_PROGS)
		cap = ATTR_MAX_PROGS;
	e = realloc(a->e, cap * sizeof(*a->e));
	if (e)
		a->e = e;
	p = realloc(a->last_pid, cap * sizeof(*a->last_pid));
	if (p)
		a->last_pid = p;
	t = realloc(a->type, cap * sizeof(*a->type));
	if (t)
		a->type = t;
	if (!e || !p || !t)
		return false;
	a->cap = cap;
	return true;
}

/* ns since boot (CLOCK_BOOTTIME, as load_time is) to seconds since the epoch. */
static uint64_t boot_to_epoch_s(uint64_t boot_ns)
{
	struct timespec rt, bt;
	uint64_t rt_ns, bt_ns;

	if (!boot_ns || clock_gettime(CLOCK_REALTIME, &rt) || clock_gettime(CLOCK_BOOTTIME, &bt))
		return 0;
	rt_ns = (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec;
	bt_ns = (uint64_t)bt.tv_sec * 1000000000ull + (uint64_t)bt.tv_nsec;
	if (bt_ns < boot_ns || rt_ns < bt_ns - boot_ns)
		return 0;
	return (rt_ns - (bt_ns - boot_ns)) / 1000000000ull;
}

/* Append program id's entry with its load facts; 0 also when it is gone meanwhile. */
static int add_prog(struct attrib *a, uint32_t id)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	struct prog_attr *e;
	int fd = bpf_prog_get_fd_by_id(id), err = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		err = errno == ENOENT ? 0 : -errno;
	close(fd);
	if (err || !info.id)
		return err;
	if (!grow(a))
		return 0; /* full: the rest are left out (bounded memory) */
	e = &a->e[a->n];
	memset(e, 0, sizeof(*e));
	e->id = info.id;
	e->uid = info.created_by_uid;
	e->load_time_s = boot_to_epoch_s(info.load_time);
	for (int i = 0; i < 8; i++)
		snprintf(e->tag + 2 * i, 3, "%02x", info.tag[i]);
	e->verified_insns = info.verified_insns;
	a->last_pid[a->n] = -1;
	a->type[a->n] = info.type;
	a->n++;
	return 0;
}

/* Every loaded program's entry, in id order (the order the kernel hands them out). */
static int scan_progs(struct attrib *a)
{
	uint32_t id = 0;
	int err;

	a->n = 0;
	while (!bpf_prog_get_next_id(id, &id)) {
		err = add_prog(a, id);
		if (err)
			return err;
	}
	return errno == ENOENT ? 0 : -errno;
}

const struct prog_attr *attrib__get(const struct attrib *a, uint32_t id)
{
	long i = a ? attrib__index(a, id) : -1;

	return i < 0 ? NULL : &a->e[i];
}

const char *attrib__owner_source(const struct attrib *a)
{
	return a->source;
}

/* One holder of program id. Both sources give a process's records together, so a pid equal
 * to the last one counted is the same owner again (a program fd and a link fd, say). */
static void add_owner(struct attrib *a, uint32_t id, int32_t pid, const char *comm)
{
	long i = attrib__index(a, id);
	struct prog_attr *e;
	int k;

	if (i < 0 || a->last_pid[i] == pid)
		return;
	a->last_pid[i] = pid;
	e = &a->e[i];
	e->owners_total++;
	if (e->nowners == ATTR_OWNERS && pid > e->owners[ATTR_OWNERS - 1].pid)
		return;
	if (e->nowners < ATTR_OWNERS)
		e->nowners++;
	/* Keep the lowest pids, in order: shift the larger ones up, dropping the last. */
	for (k = (int)e->nowners - 1; k > 0 && e->owners[k - 1].pid > pid; k--)
		e->owners[k] = e->owners[k - 1];
	e->owners[k].pid = pid;
	memcpy(e->owners[k].comm, comm, sizeof(e->owners[k].comm) - 1);
	e->owners[k].comm[sizeof(e->owners[k].comm) - 1] = '\0';
}

/* A perf event running a program, for its point (attrib__perf_points); one that does not fit
 * in memory is left out (its program keeps its owner, not that point). */
static void add_perf(struct attrib *a, const struct lat_owner_rec *r)
{
	if (a->nperf == a->perfcap) {
		size_t cap = a->perfcap ? 2 * a->perfcap : 16;
		struct attr_perf *np = realloc(a->perf, cap * sizeof(*np));

		if (!np)
			return;
		a->perf = np;
		a->perfcap = cap;
	}
	a->perf[a->nperf++] = (struct attr_perf){ (int32_t)r->tgid, r->fd, r->prog_id };
}

/* Owners from the task_file iterator; a negative errno when it cannot run here. */
static int owners_iter(struct attrib *a)
{
	struct lat_owner_rec r[256];
	ssize_t got;
	int fd;

	if (!a->skel) {
		a->skel = owners_bpf__open_and_load();
		if (!a->skel)
			return -errno;
	}
	if (!a->iter) {
		a->iter = bpf_program__attach_iter(a->skel->progs.lat_owners_iter, NULL);
		if (!a->iter)
			return -errno;
	}
	fd = bpf_iter_create(bpf_link__fd(a->iter));
	if (fd < 0)
		return -errno;
	while ((got = read(fd, r, sizeof(r))) > 0) {
		for (size_t k = 0; k < (size_t)got / sizeof(r[0]); k++) {
			r[k].comm[sizeof(r[k].comm) - 1] = '\0';
			add_owner(a, r[k].prog_id, (int32_t)r[k].tgid, r[k].comm);
			if (r[k].perf)
				add_perf(a, &r[k]);
		}
	}
	got = got < 0 ? -errno : 0;
	close(fd);
	return (int)got;
}

/* /proc/PID/comm into comm[16] (the kernel's bytes: only the newline it adds is cut). */
static void read_comm(int procfd, int pid, char *comm)
{
	char path[64];
	ssize_t n;
	int fd;

	comm[0] = '\0';
	snprintf(path, sizeof(path), "%d/comm", pid);
	fd = openat(procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, comm, 16);
	close(fd);
	if (n > 0 && comm[n - 1] == '\n')
		n--;
	comm[n > 0 ? n : 0] = '\0';
}

enum { FD_OTHER, FD_BPF, FD_PERF };

/* What an fd of one process is: a program or a link, or a perf event (its /proc link names
 * the anon inode). */
static int fd_kind(int fddir, const char *name)
{
	char target[64];
	ssize_t n = readlinkat(fddir, name, target, sizeof(target) - 1);

	if (n <= 0)
		return FD_OTHER;
	target[n] = '\0';
	if (!strcmp(target, "anon_inode:bpf-prog") || !strcmp(target, "anon_inode:bpf_link"))
		return FD_BPF;
	return !strcmp(target, "anon_inode:[perf_event]") ? FD_PERF : FD_OTHER;
}

/* The program a perf event fd of process pid runs, or 0 (none, or gone). */
static uint32_t perf_prog(int pid, const char *fdname)
{
	char buf[256]; /* the name's room: a shorter one fails with ENOSPC */
	__u32 len = sizeof(buf), prog_id = 0, fd_type;
	__u64 off, addr;

	if (bpf_task_fd_query(pid, atoi(fdname), 0, buf, &len, &prog_id, &fd_type, &off, &addr))
		return 0;
	return prog_id;
}

/* The programs process pid holds (its fds that are programs or links). */
static void owners_of_pid(struct attrib *a, int procfd, int pid)
{
	char path[64], comm[17] = "";
	int fddir, infodir;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%d/fd", pid);
	fddir = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fddir < 0)
		return;
	d = fdopendir(fddir);
	if (!d) {
		close(fddir);
		return;
	}
	snprintf(path, sizeof(path), "%d/fdinfo", pid);
	infodir = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (infodir >= 0 && (de = readdir(d))) {
		uint32_t id = 0;
		int kind;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		kind = fd_kind(fddir, de->d_name);
		if (kind == FD_BPF)
			id = progstats__fdinfo_prog_id(infodir, de->d_name);
		else if (kind == FD_PERF) /* fdinfo does not say: the kernel does, by pid and fd */
			id = perf_prog(pid, de->d_name);
		if (!id)
			continue;
		if (!comm[0])
			read_comm(procfd, pid, comm);
		add_owner(a, id, pid, comm);
		if (kind == FD_PERF)
			add_perf(a, &(struct lat_owner_rec){ .tgid = (uint32_t)pid,
							     .prog_id = id,
							     .fd = (uint32_t)atoi(de->d_name) });
	}
	if (infodir >= 0)
		close(infodir);
	closedir(d);
}

/* Owners from /proc: every process's fds (readdir gives pids in increasing order). */
static int owners_fdinfo(struct attrib *a)
{
	DIR *proc = opendir("/proc");
	struct dirent *de;

	if (!proc)
		return -errno;
	while ((de = readdir(proc)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			owners_of_pid(a, dirfd(proc), (int)strtol(de->d_name, NULL, 10));
	closedir(proc);
	return 0;
}

/* Owners of every entry, by the iterator where it works. */
static int scan_owners(struct attrib *a)
{
	int err;

	a->nperf = 0;
	if (!a->force_fdinfo && !a->iter_failed) {
		err = owners_iter(a);
		if (!err) {
			a->source = "iter";
			return 0;
		}
		/* Not here (no BTF, no ksyms, lockdown): do not retry every interval. */
		a->iter_failed = true;
		for (size_t i = 0; i < a->n; i++) {
			a->e[i].nowners = a->e[i].owners_total = 0;
			a->last_pid[i] = -1;
		}
	}
	a->source = "fdinfo";
	return owners_fdinfo(a);
}

/* The cgroup v2 path of process pid ("0::" line of /proc/PID/cgroup) into buf; false when
 * gone or not on cgroup v2. */
static bool pid_cgroup(int32_t pid, char *buf, size_t len)
{
	char path[64], *p, *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (p = buf; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, "0::", 3))
			continue;
		end = strchr(p + 3, '\n');
		if (end)
			*end = '\0';
		memmove(buf, p + 3, strlen(p + 3) + 1);
		return true;
	}
	return false;
}

/* s into dst[len], cut to fit. */
static void cut_copy(char *dst, size_t len, const char *s)
{
	size_t n = strnlen(s, len - 1);

	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Each entry's first owner's cgroup, container and unit (one read per distinct pid in a
 * row: a process that holds many programs is read once). */
static void scan_cgroups(struct attrib *a)
{
	char buf[CGROUP_FILE_MAX];
	int32_t last = -1;
	bool have = false;

	for (size_t i = 0; i < a->n; i++) {
		struct prog_attr *e = &a->e[i];

		if (!e->nowners)
			continue;
		if (e->owners[0].pid != last) {
			last = e->owners[0].pid;
			have = pid_cgroup(last, buf, sizeof(buf));
		}
		if (!have)
			continue;
		cut_copy(e->cgroup, sizeof(e->cgroup), buf);
		/* From the whole path: a cut one could name another container. */
		attrib__classify(buf, e->container, sizeof(e->container), e->unit, sizeof(e->unit));
	}
}

/* Refresh the table. On an error it is left empty: half a table would say that programs
 * have no owner or no attach point when nobody looked. */
int attrib__scan(struct attrib *a)
{
	int err = scan_progs(a);

	if (!err)
		err = scan_owners(a);
	if (err) {
		a->n = 0;
		return err;
	}
	scan_cgroups(a);
	attrib__points(a);
	return 0;
}
