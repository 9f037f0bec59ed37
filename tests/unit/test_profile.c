// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_profile.c - segments-mode profiles: a written profile loads back field for field, and
 * each broken file gets its sentence naming the file and the key; a profile is written only
 * into a new file (mode 0600), never over a file or through a symbolic link.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/profile.h"
#include "test.h"

static char path[] = "/tmp/lattop-profile-XXXXXX";

/* Write text to the scratch file. */
static void put(const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

/* Write, load, compare. */
static void test_roundtrip(void)
{
	struct profile p = {}, q;
	char err[256] = "";

	snprintf(p.device, sizeof(p.device), "vtap0");
	snprintf(p.flow, sizeof(p.flow), "proto=udp,dport=4321");
	p.nctx = 2;
	p.ctx[0] = (struct profile_ctx){ .ctx = 0xffff888006334500ull, .runs = 5, .packets = 64 };
	p.ctx[1] = (struct profile_ctx){ .ctx = 0xffff888006334600ull, .runs = 1, .packets = 2 };
	p.ntid = 1;
	p.tid[0] = (struct profile_tid){ .tid = 812, .pid = 2, .ctx = 0xffff888006334600ull,
					 .queue = 1, .runs = 1, .packets = 2 };
	snprintf(p.tid[0].comm, sizeof(p.tid[0].comm), "vhost-811");
	unlink(path);
	ASSERT_OK(profile__write(&p, path, err, sizeof(err)), "write");
	ASSERT_OK(profile__load(&q, path, err, sizeof(err)), "load");
	ASSERT_STREQ(q.device, "vtap0", "device");
	ASSERT_STREQ(q.flow, "proto=udp,dport=4321", "flow");
	ASSERT_EQ(q.nctx, 2, "nctx");
	ASSERT_TRUE(q.ctx[0].ctx == 0xffff888006334500ull, "ctx 0 exact (a hex string)");
	ASSERT_TRUE(q.ctx[1].ctx == 0xffff888006334600ull, "ctx 1 exact");
	ASSERT_EQ(q.ctx[0].packets, 64, "packets");
	ASSERT_EQ(q.ntid, 1, "ntid");
	ASSERT_EQ(q.tid[0].tid, 812, "tid");
	ASSERT_EQ(q.tid[0].queue, 1, "queue from the worker's ctx");
	ASSERT_STREQ(q.tid[0].comm, "vhost-811", "comm");
	ASSERT_TRUE(q.timestamp[0] && q.kernel[0], "timestamp and kernel written");
	ASSERT_STREQ(q.version, LATTOP_VERSION, "version");
	ASSERT_EQ(profile__queue(&q, 0xffff888006334600ull), 1, "queue lookup");
	ASSERT_EQ(profile__queue(&q, 1), -1, "unknown ctx");
}

/* Broken files. */
static void test_errors(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "{\"device\": \"v\"", "is not valid JSON" },
		{ "[]", "is not valid JSON" },
		{ "{\"flow\": \"proto=udp\"}", "\"device\" is missing" },
		{ "{\"device\": \"v\"}", "\"flow\" is missing" },
		{ "{\"device\": \"v\", \"flow\": \"x\"}", "\"eventfds\" is missing" },
		{ "{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": []}", "\"eventfds\" is empty" },
		{ "{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": [{\"ctx\": \"12\"}]}",
		  "eventfds[0].\"ctx\" is not a hex address" },
		{ "{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": [{\"ctx\": \"0x12\"}]}",
		  "\"workers\" is missing" },
		{ "{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": [{\"ctx\": \"0x12\"}], "
		  "\"workers\": [{\"ctx\": \"0x12\"}]}",
		  "workers[0].\"tid\" is missing" },
		{ "{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": [{\"ctx\": \"0x12\"}], "
		  "\"workers\": [{\"tid\": 5, \"ctx\": \"0x13\"}]}",
		  "workers[0].\"ctx\" is not one of \"eventfds\"" },
	};
	struct profile p;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(bad[i].text);
		err[0] = '\0';
		ASSERT_EQ(profile__load(&p, path, err, sizeof(err)), -EINVAL, bad[i].want);
		ASSERT_TRUE(strstr(err, bad[i].want) && strstr(err, path), bad[i].want);
	}
	put("{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": [{\"ctx\": \"0x12\"}], "
	    "\"workers\": [{\"tid\": 5, \"ctx\": \"0x12\"}]}");
	ASSERT_OK(profile__load(&p, path, err, sizeof(err)), "minimal profile");
	unlink(path);
	ASSERT_EQ(profile__load(&p, path, err, sizeof(err)), -ENOENT, "no file");
	ASSERT_TRUE(strstr(err, "cannot open the profile") != NULL, "no file sentence");
}

/* A profile is only ever a new file: an existing one, a symbolic link (its target untouched)
 * and a device are refused with a sentence; a new one is created 0600 whatever the umask. */
static void test_write_refuses(void)
{
	char dir[] = "/tmp/lattop-profile-dir-XXXXXX", f[64], link[64], target[64], err[256];
	struct profile p = {};
	struct stat st;
	mode_t old = umask(0);

	if (!ASSERT_TRUE(mkdtemp(dir) != NULL, "mkdtemp"))
		goto out;
	snprintf(p.device, sizeof(p.device), "vtap0");
	snprintf(p.flow, sizeof(p.flow), "proto=udp");
	snprintf(f, sizeof(f), "%s/p.json", dir);
	snprintf(link, sizeof(link), "%s/l.json", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	ASSERT_OK(profile__write(&p, f, err, sizeof(err)), "new file");
	ASSERT_TRUE(stat(f, &st) == 0 && (st.st_mode & 07777) == 0600, "created 0600");
	ASSERT_EQ(profile__write(&p, f, err, sizeof(err)), -EEXIST, "existing refused");
	ASSERT_TRUE(strstr(err, "already exists: lattop never overwrites a file") != NULL,
		    "existing: sentence");
	ASSERT_TRUE(symlink(target, link) == 0, "symlink");
	ASSERT_EQ(profile__write(&p, link, err, sizeof(err)), -ELOOP, "symlink refused");
	ASSERT_TRUE(strstr(err, "is a symbolic link") != NULL, "symlink: sentence");
	ASSERT_TRUE(lstat(target, &st) != 0, "symlink: target not created");
	ASSERT_EQ(profile__write(&p, "/dev/null", err, sizeof(err)), -EEXIST, "device refused");
	ASSERT_TRUE(strstr(err, "/dev/null is a character device, not a regular file") != NULL,
		    "device: sentence");
	unlink(link);
	unlink(f);
	rmdir(dir);
out:
	umask(old);
}

/* Numbers out of their range, fractional or absurd are one sentence naming the key and the
 * range, never a silent conversion (a tid of 4294967297 used to become 1). */
static void test_number_ranges(void)
{
	static const struct {
		const char *worker, *want;
	} bad[] = {
		{ "\"tid\": 4294967297", "workers[0].\"tid\" is 4294967297: give a whole number from 1 to 4194304" },
		{ "\"tid\": 4294967296", "\"tid\" is 4294967296" },
		{ "\"tid\": -1", "\"tid\" is -1" },
		{ "\"tid\": 0", "\"tid\" is 0" },
		{ "\"tid\": 1e300", "\"tid\" is 1e+300" },
		{ "\"tid\": -1e300", "\"tid\" is -1e+300" },
		{ "\"tid\": 1e999", "\"tid\" is inf" },
		{ "\"tid\": 12.5", "\"tid\" is 12.5: give a whole number" },
		{ "\"tid\": \"12\"", "\"tid\" is not a number" },
		{ "\"tid\": 5, \"pid\": 4294967297", "\"pid\" is 4294967297" },
		{ "\"tid\": 5, \"runs\": 1e300", "\"runs\" is 1e+300: give a whole number from 0 to 9007199254740992" },
		{ "\"tid\": 5, \"packets\": -3", "\"packets\" is -3" },
	};
	struct profile p;
	char err[320], text[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
			 "{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": [{\"ctx\": \"0x12\"}], "
			 "\"workers\": [{%s, \"ctx\": \"0x12\"}]}",
			 bad[i].worker);
		put(text);
		err[0] = '\0';
		ASSERT_EQ(profile__load(&p, path, err, sizeof(err)), -EINVAL, bad[i].worker);
		if (!ASSERT_TRUE(strstr(err, bad[i].want) != NULL, bad[i].want))
			printf("  got: %s\n", err);
	}
	put("{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": [{\"ctx\": \"0x12\", "
	    "\"runs\": 1e300}], \"workers\": [{\"tid\": 5, \"ctx\": \"0x12\"}]}");
	ASSERT_EQ(profile__load(&p, path, err, sizeof(err)), -EINVAL, "eventfd runs 1e300");
	ASSERT_TRUE(strstr(err, "eventfds[0].\"runs\" is 1e+300") != NULL, err);
	/* The bounds themselves are accepted. */
	put("{\"device\": \"v\", \"flow\": \"x\", \"eventfds\": [{\"ctx\": \"0x12\", "
	    "\"runs\": 9007199254740992}], \"workers\": [{\"tid\": 4194304, \"pid\": 1, "
	    "\"ctx\": \"0x12\", \"packets\": 0}]}");
	ASSERT_OK(profile__load(&p, path, err, sizeof(err)), "bounds accepted");
	ASSERT_EQ(p.tid[0].tid, 4194304, "largest tid");
	ASSERT_TRUE(p.ctx[0].runs == 9007199254740992ull, "largest count");
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 1;
	close(fd);
	test__suite = "profile";
	RUN_TEST(test_roundtrip);
	RUN_TEST(test_errors);
	RUN_TEST(test_write_refuses);
	RUN_TEST(test_number_ranges);
	unlink(path);
	printf("profile: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
