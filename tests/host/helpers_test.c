// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * helpers_test.c - helpers-mode analysis on the running kernel: the demo programs' map helper
 * calls are found in their xlated instructions and named after the right helpers and maps.
 */
#include <errno.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include "collect/collector.h"
#include "collect/demo.h"
#include "collect/helpertrace.h"
#include "../unit/test.h"

static struct collector *col;
static struct demo *demo;
static struct helpertrace *ht;
static uint32_t ids[DEMO_NPROGS];

/* Does the site list hold (helper, map name[, why prefix])? */
static bool has(const struct helper_site *s, size_t n, const char *helper, const char *map,
		const char *why)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].helper, helper) && !strcmp(s[i].map_name, map) &&
		    (why ? !strncmp(s[i].why, why, strlen(why)) : !s[i].why[0]) && s[i].map_id)
			return true;
	return false;
}

/* Print a site list (shown on failure, and useful in the log). */
static void dump(const struct helper_site *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("    %-24s %-30s map %u %-12s %-16s %s\n", s[i].helper, s[i].func,
		       s[i].map_id, s[i].map_name, s[i].map_type, s[i].why);
}

static void test_hash_program(void)
{
	struct helper_site *s = NULL;
	size_t n = 0;
	char err[256];

	if (!ASSERT_OK(helpertrace__analyze(ht, ids[0], &s, &n, err, sizeof(err)), err))
		return;
	dump(s, n);
	ASSERT_TRUE(has(s, n, "bpf_map_update_elem", "demo_hash", NULL), "update on demo_hash");
	ASSERT_TRUE(has(s, n, "bpf_map_lookup_elem", "demo_hash", NULL), "lookup on demo_hash");
	ASSERT_TRUE(has(s, n, "bpf_map_delete_elem", "demo_hash", NULL), "delete on demo_hash");
	free(s);
}

static void test_array_inlined(void)
{
	struct helper_site *s = NULL;
	size_t n = 0;
	char err[256];

	if (!ASSERT_OK(helpertrace__analyze(ht, ids[1], &s, &n, err, sizeof(err)), err))
		return;
	dump(s, n);
	ASSERT_TRUE(has(s, n, "bpf_map_lookup_elem", "demo_array", "inlined by the verifier"),
		    "array lookup inlined");
	free(s);
}

static void test_queue_program(void)
{
	struct helper_site *s = NULL;
	size_t n = 0;
	char err[256];

	if (!ASSERT_OK(helpertrace__analyze(ht, ids[2], &s, &n, err, sizeof(err)), err))
		return;
	dump(s, n);
	ASSERT_TRUE(has(s, n, "bpf_map_push_elem", "demo_queue", NULL), "push");
	ASSERT_TRUE(has(s, n, "bpf_map_pop_elem", "demo_queue", NULL), "pop");
	free(s);
}

static void test_gone_program(void)
{
	struct helper_site *s = NULL;
	size_t n = 0;
	char err[256];

	ASSERT_EQ(helpertrace__analyze(ht, 4000000000u, &s, &n, err, sizeof(err)), -ENOENT,
		  "unknown id");
	ASSERT_TRUE(strstr(err, "is gone") != NULL, err);
}

int main(void)
{
	char err[256];

	test__suite = "helpers";
	libbpf_set_print(NULL);
	col = collector__new(1024);
	demo = col ? demo__start(col, false, err, sizeof(err)) : NULL;
	ht = col ? helpertrace__new(col, -1, -1) : NULL;
	if (!demo || !ht) {
		printf("FAIL helpers/setup: %s\n", demo ? strerror(errno) : err);
		return 1;
	}
	demo__prog_ids(demo, ids, DEMO_NPROGS);
	RUN_TEST(test_hash_program);
	RUN_TEST(test_array_inlined);
	RUN_TEST(test_queue_program);
	RUN_TEST(test_gone_program);
	helpertrace__free(ht);
	demo__free(demo);
	collector__free(col);
	printf("helpers: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
