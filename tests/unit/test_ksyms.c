// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_ksyms.c - the kallsyms reader on a crafted file: text symbols kept and sorted, data
 * symbols and malformed lines skipped, modules split off, lookups both ways, hidden addresses
 * told, the walk stopped by its callback, a missing file an errno; and on the real
 * /proc/kallsyms where this machine shows addresses.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/ksyms.h"
#include "test.h"

/* Write text to a new temporary file; its path into path (caller unlinks). */
static bool write_tmp(char *path, const char *text)
{
	int fd;
	FILE *f;

	strcpy(path, "/tmp/lattop-ksyms-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	f = fdopen(fd, "w");
	if (!f)
		return false;
	fputs(text, f);
	return fclose(f) == 0;
}

static const char sample[] = "ffffffff81000300 T zeta\n"
			     "ffffffff81000100 t alpha\n"
			     "ffffffff81000200 D some_data\n"
			     "not a symbol line\n"
			     "ffffffff81000100 T alpha_alias\n"
			     "\n"
			     "ffffffffc0201000 t tun_sendmsg\t[tun]\n"
			     "ffffffff81000200 T beta\n"
			     "ffffffff81000400 T __bpf_call_base\n"
			     "ffffffff81000500 W weak_one\n"
			     "ffffffff81000600 T alpha\n";

/* Text symbols only, sorted; names and addresses found both ways. */
static void test_load(void)
{
	char path[64];
	struct ksyms *ks;

	if (!ASSERT_TRUE(write_tmp(path, sample), "fixture"))
		return;
	ks = ksyms__load(path);
	unlink(path);
	if (!ASSERT_NONNULL(ks, "load"))
		return;
	ASSERT_EQ(ksyms__count(ks), 7, "t/T symbols only (not D, W or bad lines)");
	ASSERT_STREQ(ksyms__name_at(ks, 0xffffffff81000100ull), "alpha",
		     "first of two at one address, in file order");
	ASSERT_STREQ(ksyms__name_at(ks, 0xffffffff81000200ull), "beta", "text, not the data symbol");
	ASSERT_STREQ(ksyms__name_at(ks, 0xffffffffc0201000ull), "tun_sendmsg",
		     "module symbol without its module");
	ASSERT_TRUE(ksyms__name_at(ks, 0xffffffff81000101ull) == NULL, "no symbol in between");
	ASSERT_TRUE(ksyms__name_at(ks, 0xfffffffff0000000ull) == NULL, "none past the last");
	ASSERT_TRUE(ksyms__name_at(ks, 0) == NULL, "none before the first");
	ASSERT_EQ(ksyms__addr(ks, "__bpf_call_base"), 0xffffffff81000400ull, "by name");
	ASSERT_EQ(ksyms__addr(ks, "alpha"), 0xffffffff81000100ull, "the first of a name");
	ASSERT_EQ(ksyms__addr(ks, "some_data"), 0, "data symbols are not loaded");
	ASSERT_EQ(ksyms__addr(ks, "nope"), 0, "absent");
	ASSERT_TRUE(!ksyms__hidden(ks), "addresses shown");
	ksyms__free(ks);
	ksyms__free(NULL);
}

/* What the callback is given, and how it stops the walk. */
struct seen {
	int n, stop_at;
	char type[16];
	char mod[16];
	bool vmlinux_mod;
};

static int count_cb(void *ctx, const struct ksym *sym)
{
	struct seen *s = ctx;

	if (s->n < (int)sizeof(s->type) - 1)
		s->type[s->n] = sym->type;
	if (!strcmp(sym->name, "tun_sendmsg") && sym->module)
		snprintf(s->mod, sizeof(s->mod), "%s", sym->module);
	if (!strcmp(sym->name, "zeta") && sym->module)
		s->vmlinux_mod = true;
	return ++s->n == s->stop_at ? 42 : 0;
}

static void test_each(void)
{
	struct seen s = { 0 };
	char path[64];

	if (!ASSERT_TRUE(write_tmp(path, sample), "fixture"))
		return;
	ASSERT_EQ(ksyms__each(path, count_cb, &s), 0, "whole walk");
	ASSERT_EQ(s.n, 9, "every symbol line, of any type");
	ASSERT_STREQ(s.type, "TtDTtTTWT", "types in file order");
	ASSERT_STREQ(s.mod, "tun", "module without brackets");
	ASSERT_TRUE(!s.vmlinux_mod, "no module for vmlinux");
	memset(&s, 0, sizeof(s));
	s.stop_at = 3;
	ASSERT_EQ(ksyms__each(path, count_cb, &s), 42, "the callback's value stops the walk");
	ASSERT_EQ(s.n, 3, "stopped at the third");
	unlink(path);
	ASSERT_EQ(ksyms__each(path, count_cb, &s), -ENOENT, "missing file");
	errno = 0;
	ASSERT_TRUE(ksyms__load(path) == NULL, "load of a missing file");
	ASSERT_EQ(errno, ENOENT, "errno says why");
}

/* kptr_restrict: every address 0. */
static void test_hidden(void)
{
	char path[64];
	struct ksyms *ks;

	if (!ASSERT_TRUE(write_tmp(path, "0000000000000000 T a\n0000000000000000 t b\n"), "fixture"))
		return;
	ks = ksyms__load(path);
	unlink(path);
	if (!ASSERT_NONNULL(ks, "load"))
		return;
	ASSERT_TRUE(ksyms__hidden(ks), "hidden");
	ASSERT_EQ(ksyms__addr(ks, "a"), 0, "no address");
	ksyms__free(ks);
}

/* The real file: where it shows addresses (root, kptr_restrict below 2), a name and its
 * address agree both ways; where it hides them, the reader says so. */
static void test_proc(void)
{
	struct ksyms *ks = ksyms__load(KSYMS_PATH);
	uint64_t a;

	if (!ASSERT_NONNULL(ks, KSYMS_PATH))
		return;
	ASSERT_TRUE(ksyms__count(ks) > 1000, "thousands of text symbols");
	a = ksyms__addr(ks, "schedule");
	if (ksyms__hidden(ks))
		ASSERT_EQ(a, 0, "hidden: no address");
	else if (ASSERT_TRUE(a != 0, "schedule is a text symbol"))
		ASSERT_STREQ(ksyms__name_at(ks, a), "schedule", "and found by its address");
	ksyms__free(ks);
}

int main(void)
{
	test__suite = "ksyms";
	RUN_TEST(test_load);
	RUN_TEST(test_each);
	RUN_TEST(test_hidden);
	RUN_TEST(test_proc);
	return TEST_EXIT();
}
