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

/* A program series of m with id, type and what is known of who holds it. */
static void prog(struct model *m, uint32_t id, const char *type, const struct prog_attr *a)
{
	struct series *se = model__series(m, LAT_EV_PROG, id, 0, 0);

	if (!ASSERT_NONNULL(se, "series"))
		return;
	snprintf(se->type, sizeof(se->type), "%s", type);
	if (a)
		model__set_attr(m, se, a);
}

/* Which programs each selector picks, by owner, device (an extension of a program on it too),
 * cgroup (owner's and attach point's), container, unit, type and attach kind; a program not
 * attributed matches type: only; a selector matching nothing warns. */
static void test_selectors_pick(void)
{
	static struct session s;
	struct model *m = model__new(0);
	char err[256];
	const struct {
		const char *filter;
		const char *want; /* the IDs picked, of 1..6 */
	} cases[] = {
		{ "comm:agent", "1,3" },
		{ "comm:agen", "" },
		{ "dev:ifb0", "1,5" }, /* 5 extends 1; 6 extends a program not known */
		{ "dev:ifb", "" },
		{ "cgroup:/kubepods.slice", "3" },
		{ "cgroup:/kube", "" },
		{ "cgroup:/test/grp", "2" },
		{ "cgroup:/test/grp/sub", "2" },
		{ "cgroup:/test/grp/su", "" },
		{ "container:0123", "3" },
		{ "container:docker:0123456789ab", "3" },
		{ "unit:x.service", "1" },
		{ "type:xdp", "1,4" },
		{ "attach:freplace", "5,6" },
		{ "attach:cgroup", "2" },
		{ "attach:xdp,comm:other", "1,2" },
	};

	fake_session(&s);
	s.m = m;
	prog(m, 1, "xdp", &(struct prog_attr){ .nowners = 1, .owners = { { 10, "agent" } },
			.cgroup = "/system.slice/x.service", .unit = "x.service", .npoints = 1,
			.points = { { "xdp", "ifb0 generic", 3 } } });
	prog(m, 2, "cgroup_skb", &(struct prog_attr){ .nowners = 1, .owners = { { 11, "other" } },
			.npoints = 1, .points = { { "cgroup", "/test/grp/sub ingress", 4 } } });
	prog(m, 3, "sched_cls", &(struct prog_attr){ .nowners = 2,
			.owners = { { 12, "x" }, { 13, "agent" } },
			.cgroup = "/kubepods.slice/pod1/cri-containerd-0123456789abcdef.scope",
			.container = "docker:0123456789ab" });
	prog(m, 4, "xdp", NULL);
	prog(m, 5, "ext", &(struct prog_attr){ .npoints = 1,
			.points = { { "freplace", "prog 1 xdp_dispatcher", 7 } } });
	prog(m, 6, "ext", &(struct prog_attr){ .npoints = 1,
			.points = { { "freplace", "prog 99 prog0", 8 } } });
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char got[32] = "";

		if (!ASSERT_EQ(session__set_filter(&s, cases[i].filter, err, sizeof(err)), 0, err))
			continue;
		for (uint32_t id = 1; id <= 6; id++)
			if (session__wanted(&s, model__find(m, LAT_EV_PROG, id, 0, 0)))
				snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%u",
					 got[0] ? "," : "", id);
		ASSERT_STREQ(got, cases[i].want, cases[i].filter);
	}
	ASSERT_EQ(session__set_filter(&s, "comm:nobody", err, sizeof(err)), 0, "no match: no error");
	ASSERT_TRUE(strstr(s.warn, "selector 'comm:nobody' matches no program now") != NULL,
		    "but a warning");
	model__free(m);
}

int main(void)
{
	RUN_TEST(test_warnings_joined);
	RUN_TEST(test_filter_keeps_session_warnings);
	RUN_TEST(test_selectors_pick);
	printf("session: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
