// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrib_class.c - the container and the systemd unit a cgroup v2 path names (pure).
 *
 * The path is read one component at a time, in place: nothing is copied until a name is
 * known, so a path of any length or content is read up to its NUL and no further. A container
 * is named only by a component that carries a full 64-digit lowercase hex ID in one of the
 * forms runtimes write:
 *
 *	docker-<id>.scope            docker (systemd driver)
 *	docker/<id>                  docker (cgroupfs driver: the component after "docker")
 *	cri-containerd-<id>.scope    containerd (CRI, systemd driver)
 *	libpod-<id>.scope            podman (machine.slice, or user.slice when rootless)
 *	crio-<id>.scope              CRI-O
 *	<id> under a kubepods...     containerd (cgroupfs driver)
 *
 * and under a Kubernetes pod's cgroup ("kubepods-burstable-pod<uid>.slice" with the systemd
 * driver, where the uid's dashes are underscores, or "pod<uid>" with cgroupfs) the container
 * is "k8s:<pod uid>/<12 digits>". A deeper match wins (a container in a container). The
 * runtimes' monitors ("crio-conmon-<id>.scope", "libpod-conmon-<id>.scope") are not
 * containers: their prefix is not one of the above, so they are units.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "collect/attrib.h"

#define ID_LEN 64
#define SHORT_ID 12
/* A pod uid: a UUID (36) or a static pod's 32-digit hash; a little room, no more. */
#define POD_UID_MAX 40

/* One path component: not NUL-terminated. */
struct comp {
	const char *s;
	size_t len;
};

/* What the components so far have named. */
struct found {
	const char *runtime;
	const char *id; /* ID_LEN digits inside the path */
	char pod[POD_UID_MAX + 1];
	bool kubepods;
	struct comp unit;
};

static bool has_prefix(struct comp c, const char *p)
{
	size_t n = strlen(p);

	return c.len >= n && !memcmp(c.s, p, n);
}

static bool has_suffix(struct comp c, const char *sfx)
{
	size_t n = strlen(sfx);

	return c.len >= n && !memcmp(c.s + c.len - n, sfx, n);
}

static bool is_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
}

/* s[0..len) is exactly a 64-digit lowercase hex ID. */
static bool is_id(const char *s, size_t len)
{
	if (len != ID_LEN)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_hex(s[i]))
			return false;
	return true;
}

/* "<prefix><id>.scope": the ID's start, or NULL. */
static const char *scope_id(struct comp c, const char *prefix)
{
	size_t n = strlen(prefix);

	if (!has_prefix(c, prefix) || !has_suffix(c, ".scope") ||
	    c.len != n + ID_LEN + strlen(".scope"))
		return NULL;
	return is_id(c.s + n, ID_LEN) ? c.s + n : NULL;
}

/* A pod's cgroup: "kubepods[-qos]-pod<uid>.slice" or "pod<uid>"; the uid, dashes restored,
 * into f->pod. */
static bool pod_uid(struct comp c, struct found *f)
{
	const char *p = NULL, *end = c.s + c.len;
	char uid[POD_UID_MAX + 1];
	size_t n, hex = 0;

	if (has_prefix(c, "kubepods") && has_suffix(c, ".slice")) {
		for (const char *q = c.s; q + 4 <= end; q++)
			if (!memcmp(q, "-pod", 4))
				p = q + 4;
		end -= strlen(".slice");
	} else if (has_prefix(c, "pod") && f->kubepods) {
		p = c.s + 3;
	}
	if (!p || p >= end || (size_t)(end - p) > POD_UID_MAX)
		return false;
	n = (size_t)(end - p);
	for (size_t i = 0; i < n; i++) {
		if (is_hex(p[i]))
			hex++;
		else if (p[i] != '-' && p[i] != '_')
			return false;
		uid[i] = p[i] == '_' ? '-' : p[i];
	}
	uid[n] = '\0';
	if (hex < 32)
		return false;
	memcpy(f->pod, uid, n + 1);
	return true;
}

/* The container ID one component names, with prev the component before it. */
static void component_id(struct comp c, struct comp prev, struct found *f)
{
	static const struct {
		const char *prefix, *runtime;
	} scopes[] = {
		{ "docker-", "docker" },
		{ "cri-containerd-", "containerd" },
		{ "libpod-", "podman" },
		{ "crio-", "crio" },
	};
	const char *id;

	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		id = scope_id(c, scopes[i].prefix);
		if (id) {
			f->runtime = scopes[i].runtime;
			f->id = id;
			return;
		}
	}
	if (is_id(c.s, c.len) && prev.len == 6 && !memcmp(prev.s, "docker", 6)) {
		f->runtime = "docker";
		f->id = c.s;
	} else if (is_id(c.s, c.len) && f->kubepods) {
		f->runtime = "containerd";
		f->id = c.s;
	}
}

/* Read one component: what it names goes into f. */
static void component(struct comp c, struct comp prev, struct found *f)
{
	const char *had = f->id;

	if (has_prefix(c, "kubepods"))
		f->kubepods = true;
	if (f->kubepods && !f->id && pod_uid(c, f))
		return;
	component_id(c, prev, f);
	if (f->id == had && c.len > strlen(".scope") &&
	    (has_suffix(c, ".service") || has_suffix(c, ".scope")))
		f->unit = c;
}

/* The container and systemd unit a cgroup v2 path names ("" when none). */
void attrib__classify(const char *cgroup, char *container, size_t clen, char *unit, size_t ulen)
{
	struct found f = { 0 };
	struct comp prev = { "", 0 };
	const char *p = cgroup ? cgroup : "";

	if (clen)
		container[0] = '\0';
	if (ulen)
		unit[0] = '\0';
	while (*p) {
		struct comp c = { p, strcspn(p, "/") };

		if (c.len)
			component(c, prev, &f);
		prev = c;
		p += c.len;
		if (*p == '/')
			p++;
	}
	if (f.id && f.pod[0])
		snprintf(container, clen, "k8s:%s/%.*s", f.pod, SHORT_ID, f.id);
	else if (f.id)
		snprintf(container, clen, "%s:%.*s", f.runtime, SHORT_ID, f.id);
	else if (f.pod[0])
		snprintf(container, clen, "k8s:%s", f.pod);
	/* A unit name that does not fit is left out rather than cut into another name. */
	if (f.unit.len && f.unit.len < ulen) {
		memcpy(unit, f.unit.s, f.unit.len);
		unit[f.unit.len] = '\0';
	}
}
