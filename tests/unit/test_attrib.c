// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_attrib.c - the container and systemd unit a cgroup v2 path names (attrib__classify):
 * each runtime's forms, Kubernetes pods under both cgroup drivers, plain units, and hostile
 * paths (too long, control bytes, IDs one digit short, prefixes alone) that must name nothing
 * or only what they do name, and never write past the buffers given.
 */
#include <stdio.h>
#include <string.h>

#include "collect/attrib.h"
#include "test.h"

#define HEX64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define UID "1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b"
#define UID_ "1b2c3d4e_5f60_4718_9a2b_3c4d5e6f7a8b"

/* Classify path and compare both answers. */
static void expect(const char *path, const char *want_c, const char *want_u, const char *name)
{
	char c[80], u[64];

	attrib__classify(path, c, sizeof(c), u, sizeof(u));
	ASSERT_STREQ(c, want_c, name);
	ASSERT_STREQ(u, want_u, name);
}

static void test_runtimes(void)
{
	expect("/system.slice/docker-" HEX64 ".scope", "docker:0123456789ab", "", "docker systemd");
	expect("/docker/" HEX64, "docker:0123456789ab", "", "docker cgroupfs");
	expect("/system.slice/cri-containerd-" HEX64 ".scope", "containerd:0123456789ab", "",
	       "cri-containerd");
	expect("/machine.slice/libpod-" HEX64 ".scope", "podman:0123456789ab", "", "podman");
	expect("/machine.slice/libpod-" HEX64 ".scope/container", "podman:0123456789ab", "",
	       "podman, process in the inner cgroup");
	expect("/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" HEX64 ".scope",
	       "podman:0123456789ab", "user@1000.service", "rootless podman");
	expect("/system.slice/crio-" HEX64 ".scope", "crio:0123456789ab", "", "crio");
	/* (its unit's name, 82 bytes, does not fit unit[64]: left out) */
	expect("/system.slice/crio-conmon-" HEX64 ".scope", "", "", "crio's monitor is no container");
}

static void test_k8s(void)
{
	expect("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	       ".slice/cri-containerd-" HEX64 ".scope",
	       "k8s:" UID "/0123456789ab", "", "k8s systemd driver");
	expect("/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" HEX64 ".scope",
	       "k8s:" UID "/0123456789ab", "", "k8s guaranteed, crio");
	expect("/kubepods/burstable/pod" UID "/" HEX64, "k8s:" UID "/0123456789ab", "",
	       "k8s cgroupfs driver");
	expect("/kubepods/" HEX64, "containerd:0123456789ab", "", "kubepods, no pod");
	expect("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice",
	       "k8s:" UID, "", "pod cgroup itself");
}

static void test_units(void)
{
	expect("/system.slice/cilium.service", "", "cilium.service", "service");
	expect("/user.slice/user-1000.slice/session-3.scope", "", "session-3.scope", "session");
	expect("/system.slice/containerd.service/foo.scope", "", "foo.scope", "innermost unit");
	expect("/", "", "", "root");
	expect("", "", "", "empty");
	expect(NULL, "", "", "NULL");
	expect("/system.slice", "", "", "a slice is no unit");
	expect("/x/.scope", "", "", "suffix alone");
}

static void test_hostile(void)
{
	static char longp[100000];
	char c[80], u[64], small[5];

	/* (their unit names do not fit unit[64]: left out) */
	expect("/system.slice/docker-" HEX64 "0.scope", "", "", "65 digits: no container");
	expect("/system.slice/docker-123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	       ".scope", "", "", "63 digits: no container");
	expect("/docker/" HEX64 "0", "", "", "65 digits after docker");
	expect("/system.slice/docker-" HEX64 ".scopex", "", "", "a suffix after .scope");
	expect("/system.slice/docker-.scope", "", "docker-.scope", "docker- alone");
	expect("/system.slice/docker-", "", "", "docker- without scope");
	expect("/docker/zz23456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "", "",
	       "no hex");
	expect("/docker/0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF", "", "",
	       "upper case is no docker ID");
	expect("/x/" HEX64, "", "", "a bare ID outside docker and kubepods");
	expect("/system.slice/a\033[2Jb\n.service", "", "a\033[2Jb\n.service",
	       "control bytes kept raw");
	expect("/kubepods/pod" UID "\n/" HEX64, "containerd:0123456789ab", "",
	       "a pod uid with a newline is no pod");
	expect("/kubepods.slice/kubepods-podzz.slice/" HEX64, "containerd:0123456789ab", "",
	       "a pod uid without hex is no pod");

	/* 99,999 bytes of components, a container at the end. */
	memset(longp, 'a', sizeof(longp) - 1);
	for (size_t i = 0; i < sizeof(longp) - 1; i += 50)
		longp[i] = '/';
	memcpy(longp + sizeof(longp) - 1 - strlen("/docker/" HEX64), "/docker/" HEX64,
	       strlen("/docker/" HEX64));
	attrib__classify(longp, c, sizeof(c), u, sizeof(u));
	ASSERT_STREQ(c, "docker:0123456789ab", "long path");
	ASSERT_STREQ(u, "", "long path: no unit");

	/* A unit longer than the field is left out, not cut. */
	memset(longp, 'b', 200);
	memcpy(longp, "/x/", 3);
	strcpy(longp + 200, ".service");
	attrib__classify(longp, c, sizeof(c), u, sizeof(u));
	ASSERT_STREQ(u, "", "unit too long for the field");

	/* Small buffers: cut, terminated, nothing written past them. */
	memset(small, 'Z', sizeof(small));
	attrib__classify("/docker/" HEX64, small, 4, u, 0);
	ASSERT_STREQ(small, "doc", "container cut to its buffer");
	ASSERT_EQ(small[4], 'Z', "byte past the buffer untouched");
}

int main(void)
{
	RUN_TEST(test_runtimes);
	RUN_TEST(test_k8s);
	RUN_TEST(test_units);
	RUN_TEST(test_hostile);
	printf("attrib: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
