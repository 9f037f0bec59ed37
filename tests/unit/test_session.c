// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_session.c - the session's warnings: joined, not repeated, and the session-wide ones
 * (the vhost device's NAPI and RPS, a gone profile worker) kept through filter edits.
 */
#include <stdio.h>
#include <string.h>

#include "session/filter.h"
#include "session/session.h"
#include "test.h"

static struct opts o;
static struct prog_stat st[2] = {
	{ .id = 12, .name = "xdp_fw" },
	{ .id = 13, .name = "xdp_fw" },
};

/* A session with no BPF: just what the filter and the warnings use. */
static void fake_session(struct session *s)
{
	memset(s, 0, sizeof(*s));
	memset(&o, 0, sizeof(o));
	s->o = &o;
	s->st = st;
	s->nst = 2;
}

static void test_warnings_joined(void)
{
	static struct session s;

	fake_session(&s);
	session__warn(&s, "%s has NAPI enabled", "vtap0");
	session__warn(&s, "%s has RPS enabled", "vtap0");
	session__warn(&s, "%s has NAPI enabled", "vtap0");
	ASSERT_STREQ(s.warn, "vtap0 has NAPI enabled; vtap0 has RPS enabled", "both, once each");
}

static void test_filter_keeps_session_warnings(void)
{
	static struct session s;
	char err[256];

	fake_session(&s);
	session__warn(&s, "vtap0 has NAPI enabled");
	session__warn(&s, "vtap0 has RPS enabled");
	s.warn_keep = strlen(s.warn);
	ASSERT_EQ(session__set_filter(&s, "xdp_fw", err, sizeof(err)), 0, "filter by name");
	ASSERT_STREQ(s.warn,
		     "vtap0 has NAPI enabled; vtap0 has RPS enabled; name 'xdp_fw' matches 2 "
		     "programs",
		     "the filter's warning joins the device's");
	ASSERT_EQ(session__set_filter(&s, "12", err, sizeof(err)), 0, "filter by id");
	ASSERT_STREQ(s.warn, "vtap0 has NAPI enabled; vtap0 has RPS enabled",
		     "the old filter's warning goes, the device's stay");
	ASSERT_EQ(session__set_filter(&s, "", err, sizeof(err)), 0, "empty filter");
	ASSERT_STREQ(s.warn, "vtap0 has NAPI enabled; vtap0 has RPS enabled", "still there");
}

int main(void)
{
	RUN_TEST(test_warnings_joined);
	RUN_TEST(test_filter_keeps_session_warnings);
	printf("session: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
