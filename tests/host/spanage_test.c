// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spanage_test.c - the pending-table sweeper against a real BPF hash map (root).
 *
 * The map has the pending table's key and value types and size. Entries are written by this
 * test in place of the BPF side, with start times far in the future of CLOCK_MONOTONIC, so the
 * sweeper's own thread (which sweeps at the real time) never finds them stale; the test sweeps
 * at times of its choosing. A hook called just before each entry is taken out plays a start
 * racing the sweep: it must be kept (put back), never dropped uncounted.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>

#include "collect/spanage.h"
#include "../unit/test.h"

#define SEC_NS 1000000000ull

static int fd = -1;
static uint64_t base_ns;

/* CLOCK_MONOTONIC in ns. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC_NS + (uint64_t)ts.tv_nsec;
}

/* Write a pending entry for (span, key) with depth starts, the newest at newest_ns. */
static int put(uint32_t span, uint64_t key, uint32_t depth, uint64_t newest_ns)
{
	struct lat_span_key k = { .span = span, .key = key };
	struct lat_span_pending v = { .depth = depth };
	uint32_t stored = depth < LAT_SPAN_DEPTH ? depth : LAT_SPAN_DEPTH;

	for (uint32_t i = 0; i < stored; i++)
		v.start_ns[i] = newest_ns - (stored - 1 - i);
	return bpf_map_update_elem(fd, &k, &v, BPF_ANY);
}

/* Depth of (span, key)'s entry, or -1 when there is none. */
static long depth_of(uint32_t span, uint64_t key)
{
	struct lat_span_key k = { .span = span, .key = key };
	struct lat_span_pending v;

	return bpf_map_lookup_elem(fd, &k, &v) ? -1 : (long)v.depth;
}

/* The racing start: pushes a fresh start onto the entry about to be taken (key 3 only). */
static void push_fresh(void *arg, const struct lat_span_key *k)
{
	struct lat_span_pending v;

	if (k->key != 3 || bpf_map_lookup_elem(fd, k, &v))
		return;
	v.start_ns[v.depth] = *(const uint64_t *)arg;
	v.depth++;
	bpf_map_update_elem(fd, k, &v, BPF_EXIST);
}

/* Stale entries go, and exactly their stored starts are counted; fresh ones stay. */
static void test_age(void)
{
	const uint64_t timeout_ns[2] = { SEC_NS, SEC_NS };
	struct spanage *a = spanage__start(fd, timeout_ns, 2);
	uint64_t now = base_ns + 3 * SEC_NS;

	if (!ASSERT_TRUE(a != NULL, "start"))
		return;
	ASSERT_EQ(put(0, 1, 3, base_ns), 0, "stale entry");
	ASSERT_EQ(put(0, 2, 1, base_ns + 5 * SEC_NS), 0, "fresh entry");
	ASSERT_EQ(put(1, 4, 20, base_ns), 0, "overflowed entry (16 stored)");
	ASSERT_EQ(spanage__sweep(a, now), 2, "two entries deleted");
	ASSERT_EQ(depth_of(0, 1), -1, "stale entry gone");
	ASSERT_EQ(depth_of(0, 2), 1, "fresh entry kept");
	ASSERT_EQ(depth_of(1, 4), -1, "overflowed entry gone");
	ASSERT_EQ(spanage__dropped(a, 0), 3, "its three starts counted");
	ASSERT_EQ(spanage__dropped(a, 1), LAT_SPAN_DEPTH, "only the stored starts counted");
	spanage__stop(a);
}

/* A start pushed onto a stale entry after the walk found it stale, just before the sweeper
 * takes it out: the entry must survive with both starts, nothing counted as dropped. A
 * look-up-then-delete sweeper deletes it uncounted. */
static void test_race(void)
{
	const uint64_t timeout_ns[2] = { SEC_NS, SEC_NS };
	struct spanage *a = spanage__start(fd, timeout_ns, 2);
	uint64_t now = base_ns + 3 * SEC_NS;

	if (!ASSERT_TRUE(a != NULL, "start"))
		return;
	ASSERT_EQ(put(1, 3, 1, base_ns), 0, "stale entry");
	spanage__set_hook(a, push_fresh, &now);
	ASSERT_EQ(spanage__sweep(a, now), 0, "nothing deleted");
	ASSERT_EQ(depth_of(1, 3), 2, "entry kept with the racing start");
	ASSERT_EQ(spanage__dropped(a, 1), 0, "nothing counted as dropped");
	/* Once the new start too is old, the entry goes and both starts are counted. */
	spanage__set_hook(a, NULL, NULL);
	ASSERT_EQ(spanage__sweep(a, now + 2 * SEC_NS), 1, "aged out later");
	ASSERT_EQ(spanage__dropped(a, 1), 2, "both starts counted");
	spanage__stop(a);
}

int main(void)
{
	test__suite = "spanage";
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "pending", sizeof(struct lat_span_key),
			    sizeof(struct lat_span_pending), LAT_SPAN_PENDING, NULL);
	if (fd < 0) {
		printf("FAIL spanage/map: bpf_map_create: %s (needs root)\n", strerror(errno));
		return 1;
	}
	/* Far ahead of the sweeper thread's clock: only the test's sweeps see entries as stale. */
	base_ns = mono_ns() + 1000000 * SEC_NS;
	RUN_TEST(test_age);
	RUN_TEST(test_race);
	printf("spanage: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
