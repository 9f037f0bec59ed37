// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrib_res.c - what attach points are said with: each device's XDP programs (one query per
 * device per scan), cgroup ids as paths (a walk of the cgroup v2 tree, where a directory's
 * inode number is the cgroup's id, kept across scans and redone at most once per scan on a
 * miss), BTF function names (each BTF object loaded once per scan) and map names.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collect/attrib_res.h"

/* Bounds: devices running XDP, XDP links, BTF objects per scan, cgroups, walk depth. */
#define MAX_DEVS 4096
#define MAX_LINKED 4096
#define MAX_BTF 16
#define MAX_CGROUPS 65536
#define CG_DEPTH 32
#define CGROUP2_MAGIC 0x63677270

struct xdp_dev {
	uint32_t ifindex;
	uint32_t drv, skb, hw; /* program ids per mode */
	char name[IF_NAMESIZE];
};

struct xdp_pair {
	uint32_t ifindex, prog;
};

struct btf_slot {
	uint32_t obj_id;
	struct btf *btf;
};

struct attr_res {
	struct xdp_dev *dev;
	size_t ndev;
	struct xdp_pair *linked;
	size_t nlinked;
	struct btf_slot btf[MAX_BTF];
	size_t nbtf;
	struct btf *vmlinux;
	bool cg_walked; /* the cgroup tree was walked in this scan */
};

struct cg_entry {
	uint64_t id;
	char *path; /* under the mount, "" for its root */
};

struct attr_cgcache {
	struct cg_entry *e;
	size_t n, cap;
	char mount[32];
};

/* The devices that run an XDP program, with their program per mode. */
static void query_devs(struct attr_res *r)
{
	struct if_nameindex *ifs = if_nameindex();

	if (!ifs)
		return;
	for (struct if_nameindex *p = ifs; p->if_index && r->ndev < MAX_DEVS; p++) {
		LIBBPF_OPTS(bpf_xdp_query_opts, o);
		struct xdp_dev *d;

		if (bpf_xdp_query((int)p->if_index, 0, &o) ||
		    (!o.drv_prog_id && !o.skb_prog_id && !o.hw_prog_id))
			continue;
		if (!r->dev && !(r->dev = calloc(MAX_DEVS, sizeof(*r->dev))))
			break;
		d = &r->dev[r->ndev++];
		d->ifindex = p->if_index;
		d->drv = o.drv_prog_id;
		d->skb = o.skb_prog_id;
		d->hw = o.hw_prog_id;
		snprintf(d->name, sizeof(d->name), "%s", p->if_name);
	}
	if_freenameindex(ifs);
}

void attrib__res_begin(struct attrib *a)
{
	a->res = calloc(1, sizeof(*a->res));
	if (a->res)
		query_devs(a->res);
}

void attrib__res_end(struct attrib *a)
{
	struct attr_res *r = a->res;

	if (!r)
		return;
	for (size_t i = 0; i < r->nbtf; i++)
		btf__free(r->btf[i].btf);
	btf__free(r->vmlinux);
	free(r->dev);
	free(r->linked);
	free(r);
	a->res = NULL;
}

static const struct xdp_dev *find_dev(const struct attr_res *r, uint32_t ifindex)
{
	for (size_t i = 0; r && i < r->ndev; i++)
		if (r->dev[i].ifindex == ifindex)
			return &r->dev[i];
	return NULL;
}

const char *attrib__xdp_mode(const struct attrib *a, uint32_t ifindex, uint32_t prog_id)
{
	const struct xdp_dev *d = find_dev(a->res, ifindex);

	if (!d)
		return "";
	if (d->drv == prog_id)
		return " native";
	if (d->skb == prog_id)
		return " generic";
	return d->hw == prog_id ? " offload" : "";
}

void attrib__xdp_linked(struct attrib *a, uint32_t ifindex, uint32_t prog_id)
{
	struct attr_res *r = a->res;

	if (!r || r->nlinked >= MAX_LINKED)
		return;
	if (!r->linked && !(r->linked = calloc(MAX_LINKED, sizeof(*r->linked))))
		return;
	r->linked[r->nlinked++] = (struct xdp_pair){ ifindex, prog_id };
}

static bool linked(const struct attr_res *r, uint32_t ifindex, uint32_t prog)
{
	for (size_t i = 0; i < r->nlinked; i++)
		if (r->linked[i].ifindex == ifindex && r->linked[i].prog == prog)
			return true;
	return false;
}

/* One mode's program of device d, unless a link put it there. */
static void legacy_one(struct attrib *a, const struct xdp_dev *d, uint32_t prog,
		       const char *mode)
{
	char where[64];

	if (!prog || linked(a->res, d->ifindex, prog))
		return;
	snprintf(where, sizeof(where), "%s %s", d->name, mode);
	attrib__add_point(a, prog, "xdp", where, 0);
}

void attrib__xdp_legacy(struct attrib *a)
{
	for (size_t i = 0; a->res && i < a->res->ndev; i++) {
		const struct xdp_dev *d = &a->res->dev[i];

		legacy_one(a, d, d->drv, "native");
		legacy_one(a, d, d->skb, "generic");
		legacy_one(a, d, d->hw, "offload");
	}
}

/* The info of program id (zeroed when it is gone). */
static void prog_info(uint32_t id, struct bpf_prog_info *info)
{
	uint32_t len = sizeof(*info);
	int fd = bpf_prog_get_fd_by_id(id);

	memset(info, 0, sizeof(*info));
	if (fd < 0)
		return;
	if (bpf_obj_get_info_by_fd(fd, info, &len))
		memset(info, 0, sizeof(*info));
	close(fd);
}

/* Kernel BTF object id is vmlinux's (a module's splits off it). */
static bool is_vmlinux(uint32_t id)
{
	struct bpf_btf_info info = { 0 };
	uint32_t len = sizeof(info);
	char name[64] = "";
	int fd = bpf_btf_get_fd_by_id(id);
	bool yes;

	if (fd < 0)
		return false;
	info.name = (uint64_t)(uintptr_t)name;
	info.name_len = sizeof(name);
	yes = !bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(name, "vmlinux");
	close(fd);
	return yes;
}

/* BTF object id, loaded once per scan; kernel says whether it is the kernel's. */
static struct btf *btf_of(struct attr_res *r, uint32_t id, bool kernel)
{
	struct btf *b;

	for (size_t i = 0; i < r->nbtf; i++)
		if (r->btf[i].obj_id == id)
			return r->btf[i].btf;
	if (r->nbtf == MAX_BTF)
		return NULL;
	if (kernel && !is_vmlinux(id)) {
		if (!r->vmlinux)
			r->vmlinux = btf__load_vmlinux_btf();
		b = r->vmlinux ? btf__load_from_kernel_by_id_split(id, r->vmlinux) : NULL;
	} else {
		b = btf__load_from_kernel_by_id(id);
	}
	if (!b)
		return NULL;
	r->btf[r->nbtf++] = (struct btf_slot){ id, b };
	return b;
}

void attrib__btf_target(struct attrib *a, uint32_t prog_id, uint32_t obj_id, uint32_t btf_id,
			char *buf, size_t len, bool *is_prog)
{
	struct bpf_prog_info info;
	const struct btf_type *t;
	struct btf *b = NULL;
	uint32_t btf_obj = obj_id;

	snprintf(buf, len, "btf %u", btf_id);
	/* A kernel target's BTF object is the one the program was loaded against; any other
	 * object id is the program it attaches to (an extension's always is). */
	prog_info(prog_id, &info);
	*is_prog = attrib__prog_type(a, prog_id) == BPF_PROG_TYPE_EXT ||
		   info.attach_btf_obj_id != obj_id;
	if (*is_prog) {
		prog_info(obj_id, &info);
		btf_obj = info.btf_id;
		if (info.name[0])
			snprintf(buf, len, "%s", info.name);
	}
	if (btf_obj && a->res)
		b = btf_of(a->res, btf_obj, !*is_prog);
	t = b ? btf__type_by_id(b, btf_id) : NULL;
	if (t && t->name_off)
		snprintf(buf, len, "%s", btf__name_by_offset(b, t->name_off));
}

void attrib__map_name(uint32_t map_id, char *buf, size_t len)
{
	struct bpf_map_info info = { 0 };
	uint32_t ilen = sizeof(info);
	int fd = bpf_map_get_fd_by_id(map_id);

	buf[0] = '\0';
	if (fd < 0)
		return;
	if (!bpf_obj_get_info_by_fd(fd, &info, &ilen))
		snprintf(buf, len, "%s", info.name);
	close(fd);
}

/* Remember cgroup id at path (under the mount). */
static void cg_add(struct attr_cgcache *c, uint64_t id, const char *path)
{
	void *e;

	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;

		if (cap > MAX_CGROUPS || !(e = realloc(c->e, cap * sizeof(*c->e))))
			return;
		c->e = e;
		c->cap = cap;
	}
	c->e[c->n].path = strdup(path);
	if (c->e[c->n].path)
		c->e[c->n++].id = id;
}

/* Every cgroup below directory dfd (path, plen bytes long, names it); takes dfd. */
static void walk(struct attr_cgcache *c, int dfd, char *path, size_t plen, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		int sub;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    plen + 1 + n >= PATH_MAX_LEN)
			continue;
		path[plen] = '/';
		memcpy(path + plen + 1, de->d_name, n + 1);
		cg_add(c, de->d_ino, path);
		sub = depth < CG_DEPTH ? openat(dirfd(d), de->d_name,
						O_RDONLY | O_DIRECTORY | O_CLOEXEC)
				       : -1;
		if (sub >= 0)
			walk(c, sub, path, plen + 1 + n, depth + 1);
		path[plen] = '\0';
	}
	closedir(d);
}

void attrib__cgcache_free(struct attr_cgcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].path);
	free(c->e);
	free(c);
}

/* Forget the cache and walk the cgroup v2 tree again. */
static void cg_rewalk(struct attr_cgcache *c)
{
	static const char *const mounts[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	char path[PATH_MAX_LEN] = "";
	struct stat st;
	struct statfs sf;
	int fd;

	for (size_t i = 0; i < c->n; i++)
		free(c->e[i].path);
	c->n = 0;
	c->mount[0] = '\0';
	for (size_t i = 0; i < 2 && !c->mount[0]; i++)
		if (!statfs(mounts[i], &sf) && sf.f_type == CGROUP2_MAGIC)
			snprintf(c->mount, sizeof(c->mount), "%s", mounts[i]);
	if (!c->mount[0] || stat(c->mount, &st))
		return;
	cg_add(c, st.st_ino, "");
	fd = open(c->mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		walk(c, fd, path, 0, 0);
}

static const struct cg_entry *cg_find(const struct attr_cgcache *c, uint64_t id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->e[i].id == id)
			return &c->e[i];
	return NULL;
}

bool attrib__cgroup_path(struct attrib *a, uint64_t id, char *buf, size_t len)
{
	const struct cg_entry *e;

	if (!a->cg && !(a->cg = calloc(1, sizeof(*a->cg))))
		return false;
	e = cg_find(a->cg, id);
	if (!e && a->res && !a->res->cg_walked) {
		a->res->cg_walked = true;
		cg_rewalk(a->cg);
		e = cg_find(a->cg, id);
	}
	if (!e)
		return false;
	/* From the cgroup2 root, as /proc/PID/cgroup says an owner's (the mount point differs
	 * between hosts and hybrid layouts; the path within the hierarchy does not). */
	snprintf(buf, len, "%s", e->path[0] ? e->path : "/");
	return true;
}
