// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_flow.c - the segments-mode flow syntax: every key, IPv4 and IPv6, and each error.
 */
#include <arpa/inet.h>
#include <errno.h>

#include "collect/flow.h"
#include "test.h"

/* The full IPv4 spec round-trips, in network byte order. */
static void test_full_v4(void)
{
	const char *spec = "proto=udp,src=10.0.0.1,dst=10.0.0.2,sport=1234,dport=4321";
	struct lat_flow f;
	char err[256] = "", back[256];

	ASSERT_OK(flow__parse(&f, spec, err, sizeof(err)), "parse");
	ASSERT_EQ(f.family, 4, "family");
	ASSERT_EQ(f.proto, 17, "proto");
	ASSERT_EQ(f.sport, htons(1234), "sport");
	ASSERT_EQ(f.dport, htons(4321), "dport");
	ASSERT_EQ(f.src[0], 10, "src[0]");
	ASSERT_EQ(f.src[3], 1, "src[3]");
	ASSERT_EQ(f.dst[3], 2, "dst[3]");
	ASSERT_TRUE(f.has_src && f.has_dst, "has addrs");
	flow__format(&f, back, sizeof(back));
	ASSERT_STREQ(back, spec, "format");
}

/* A subset, and IPv6 with tcp. */
static void test_subset_v6(void)
{
	struct lat_flow f;
	char err[256] = "", back[256];

	ASSERT_OK(flow__parse(&f, "dport=80", err, sizeof(err)), "dport only");
	ASSERT_EQ(f.family, 0, "any family");
	ASSERT_EQ(f.proto, 0, "any proto");
	ASSERT_TRUE(!f.has_src && !f.has_dst && !f.sport, "rest any");
	ASSERT_OK(flow__parse(&f, "proto=tcp,src=fd00::1,dst=fd00::2", err, sizeof(err)), "v6");
	ASSERT_EQ(f.family, 6, "family 6");
	ASSERT_EQ(f.proto, 6, "tcp");
	ASSERT_EQ(f.src[0], 0xfd, "src[0]");
	ASSERT_EQ(f.src[15], 1, "src[15]");
	flow__format(&f, back, sizeof(back));
	ASSERT_STREQ(back, "proto=tcp,src=fd00::1,dst=fd00::2", "format v6");
	ASSERT_OK(flow__parse(&f, "", err, sizeof(err)), "empty matches all");
}

/* One error each, with its sentence. */
static void test_errors(void)
{
	static const struct {
		const char *spec, *want;
	} bad[] = {
		{ "proto=icmp", "bad protocol 'icmp'" },
		{ "port=1", "unknown key 'port'" },
		{ "src=10.0.0.300", "bad address '10.0.0.300' for src" },
		{ "dst=host", "bad address 'host' for dst" },
		{ "sport=0", "bad port '0' for sport" },
		{ "dport=65536", "bad port '65536' for dport" },
		{ "dport=12x", "bad port '12x' for dport" },
		{ "src=10.0.0.1,dst=fd00::2", "flow mixes IPv4 and IPv6" },
		{ "proto", "bad flow item 'proto'" },
		{ "proto=", "bad flow item 'proto='" },
	};
	struct lat_flow f;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "";

		ASSERT_EQ(flow__parse(&f, bad[i].spec, err, sizeof(err)), -EINVAL, bad[i].spec);
		ASSERT_TRUE(strstr(err, bad[i].want) != NULL, bad[i].want);
	}
}

int main(void)
{
	test__suite = "flow";
	RUN_TEST(test_full_v4);
	RUN_TEST(test_subset_v6);
	RUN_TEST(test_errors);
	printf("flow: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
