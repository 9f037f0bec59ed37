// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_opts.c - option parsing: values, defaults and the error sentences.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opts.h"
#include "ui/prom/prom.h"
#include "test.h"

static struct opts o;
static char err[512];

/* Parse a NULL-terminated argument list. */
static int parse(const char **args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = "lattop";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return opts__parse(&o, argc, argv, err, sizeof(err));
}

static void test_defaults(void)
{
	const char *a[] = { NULL };

	unsetenv("NO_COLOR");
	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.mode, MODE_PROGRAMS, "mode");
	ASSERT_EQ(o.interval_ns, 1000000000ull, "interval");
	ASSERT_EQ(o.batch, 0, "batch");
	ASSERT_EQ(o.nfilter, 0, "filter");
	ASSERT_EQ(o.no_color, 0, "color");
}

static void test_values(void)
{
	const char *a[] = { "-b", "-d", "0.25", "-n", "7", "-D", "1.5", "-o", "csv",
			    "-p", "12,xdp_fw,57", "--demo", "-c", NULL };

	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.interval_ns, 250000000ull, "interval");
	ASSERT_EQ(o.iterations, 7, "iterations");
	ASSERT_EQ(o.duration_ns, 1500000000ull, "duration");
	ASSERT_EQ(o.out, OUT_CSV, "csv");
	ASSERT_EQ(o.nfilter, 3, "nfilter");
	ASSERT_EQ(o.filter[0].id, 12, "id0");
	ASSERT_STREQ(o.filter[1].name, "xdp_fw", "name1");
	ASSERT_EQ(o.filter[1].id, 0, "name has no id");
	ASSERT_EQ(o.filter[2].id, 57, "id2");
	ASSERT_EQ(o.demo, 1, "demo");
	ASSERT_EQ(o.cumulative, 1, "cumulative");
}

static void test_long_options(void)
{
	const char *a[] = { "--batch", "--interval=2", "--output", "json", "--programs=9",
			    "--mode", "programs", "--no-color", NULL };

	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.interval_ns, 2000000000ull, "interval");
	ASSERT_EQ(o.out, OUT_JSON, "json");
	ASSERT_EQ(o.filter[0].id, 9, "id");
	ASSERT_EQ(o.no_color, 1, "no-color");
}

static void test_no_color_env(void)
{
	const char *a[] = { NULL };

	setenv("NO_COLOR", "1", 1);
	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.no_color, 1, "NO_COLOR=1");
	setenv("NO_COLOR", "", 1);
	ASSERT_EQ(parse(a), OPTS_RUN, "parse");
	ASSERT_EQ(o.no_color, 0, "NO_COLOR empty means colour");
	unsetenv("NO_COLOR");
}

/* Each bad input: -EINVAL and the expected sentence. */
static void expect_error(const char **a, const char *needle)
{
	int r = parse(a);

	ASSERT_EQ(r, -EINVAL, needle);
	ASSERT_TRUE(strstr(err, needle) != NULL, err);
}

static void test_errors(void)
{
	const char *a1[] = { "-d", "x", NULL }, *a2[] = { "-d", "0.001", NULL },
		   *a3[] = { "-n", "-3", NULL }, *a4[] = { "-o", "yaml", "-b", NULL },
		   *a5[] = { "-p", ",", NULL }, *a6[] = { "-p", "0", NULL },
		   *a7[] = { "--nope", NULL }, *a8[] = { "-m", "segments", NULL },
		   *a9[] = { "-c", NULL }, *a10[] = { "-d", "inf", NULL },
		   *a11[] = { "-D", "1e309", NULL }, *a12[] = { "-p", "x y", NULL },
		   *a13[] = { "--per-cpu", "-m", "helpers", NULL },
		   *a14[] = { "--per-cpu", "-r", "a.lrec", "--compare", "b.lrec", NULL },
		   *a15[] = { "--per-cpu", "-u", "/bin/true:main", NULL };

	expect_error(a1, "bad interval 'x'");
	expect_error(a2, "bad interval '0.001'");
	expect_error(a3, "bad count '-3'");
	expect_error(a4, "unknown output format 'yaml'");
	expect_error(a5, "bad entry ''");
	expect_error(a6, "bad program ID '0'");
	expect_error(a7, "unknown option '--nope'");
	expect_error(a8, "segments mode needs spans or a profile: give -u, --spans or --profile");
	expect_error(a9, "add -b");
	expect_error(a10, "bad interval 'inf'");
	expect_error(a11, "bad duration '1e309'");
	expect_error(a12, "bad entry 'x y'");
	expect_error(a13, "--per-cpu splits the programs table: not with helpers or segments mode");
	expect_error(a14, "--per-cpu splits the programs table: not with --compare");
	expect_error(a15, "--per-cpu splits the programs table: not with helpers or segments mode");
}

/* Selectors: every key parses and formats back whole; an unknown key, an empty value, a
 * control byte and a value past 63 characters are refused in one sentence. */
static void test_selectors(void)
{
	const char *ok[] = { "-p", "comm:cilium-agent,dev:eth0,cgroup:/system.slice/x.service,"
				   "container:0123abcd,unit:foo@1.service,type:xdp,attach:tcx,12,x",
			     NULL };
	const char *b1[] = { "-p", "pid:12", NULL }, *b2[] = { "-p", "comm:", NULL },
		   *b3[] = { "-p", "comm:a\x1b" "b", NULL }, *b4[] = { "-p", "dev:eth0,", NULL };
	char longv[100], back[512];
	const char *b5[] = { "-p", longv, NULL };

	ASSERT_EQ(parse(ok), OPTS_RUN, err);
	ASSERT_EQ(o.nfilter, 9, "nine entries");
	ASSERT_EQ(o.filter[0].sel, FSEL_COMM, "comm");
	ASSERT_STREQ(opts__sel_value(&o.filter[0]), "cilium-agent", "comm value");
	ASSERT_EQ(o.filter[2].sel, FSEL_CGROUP, "cgroup");
	ASSERT_STREQ(opts__sel_value(&o.filter[2]), "/system.slice/x.service", "path value");
	ASSERT_EQ(o.filter[6].sel, FSEL_ATTACH, "attach");
	ASSERT_EQ(o.filter[7].id, 12, "an ID beside them");
	ASSERT_EQ(o.filter[8].sel, FSEL_NONE, "a name beside them");
	ASSERT_EQ(opts__filter_str(&o, back, sizeof(back)), 0, "formatted");
	ASSERT_STREQ(back, ok[1], "round trip");
	expect_error(b1, "unknown selector 'pid:' in -p");
	expect_error(b2, "selector 'comm:' in -p needs a value");
	expect_error(b3, "bad selector 'comm:' in -p: spaces and control characters");
	expect_error(b4, "-p list ends with a comma");
	snprintf(longv, sizeof(longv), "cgroup:/%070d", 0);
	expect_error(b5, "is too long: at most 63 characters");
}

static void test_filter_capacity(void)
{
	char list[FILTER_MAX * 8 + 16], *p = list;
	const char *a[] = { "-p", list, NULL };

	for (int i = 1; i <= FILTER_MAX; i++)
		p += sprintf(p, "%s%d", i > 1 ? "," : "", i);
	ASSERT_EQ(parse(a), OPTS_RUN, "256 entries accepted");
	ASSERT_EQ(o.nfilter, FILTER_MAX, "nfilter");
	sprintf(p, ",%d", FILTER_MAX + 1);
	expect_error(a, "too many entries in -p");
}

/* The longest list (256 names of 63 characters, half of them IDs of 10 digits) survives a
 * round trip text -> filter -> text -> filter whole; a short buffer keeps whole entries only. */
static void test_filter_round_trip(void)
{
	static char list[FILTER_STR_MAX], back[FILTER_STR_MAX], small[100];
	static struct opts again;
	char *p = list;

	for (int i = 0; i < FILTER_MAX; i++) {
		if (i % 2)
			p += sprintf(p, "%s%u", i ? "," : "", 4000000000u + (unsigned)i);
		else
			p += sprintf(p, "%sprog_%03d_%.*s", i ? "," : "", i, 54,
				     "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz.__");
	}
	ASSERT_LE(strlen(list) + 1, sizeof(list), "longest list fits FILTER_STR_MAX");
	o.nfilter = 0;
	ASSERT_EQ(opts__parse_filter(&o, list, err, sizeof(err)), 0, err);
	ASSERT_EQ(o.nfilter, FILTER_MAX, "parsed");
	ASSERT_EQ(strlen(o.filter[254].name), 63, "63-char name");
	ASSERT_EQ(opts__filter_str(&o, back, sizeof(back)), 0, "formatted");
	ASSERT_STREQ(back, list, "text round trip");
	again.nfilter = 0;
	ASSERT_EQ(opts__parse_filter(&again, back, err, sizeof(err)), 0, err);
	ASSERT_EQ(again.nfilter, FILTER_MAX, "reparsed");
	ASSERT_EQ(memcmp(again.filter, o.filter, sizeof(o.filter)), 0, "entries round trip");
	/* Too small: -ENOSPC, and what is there is whole entries (it parses, as a prefix). */
	ASSERT_EQ(opts__filter_str(&o, small, sizeof(small)), -ENOSPC, "ENOSPC");
	ASSERT_EQ(strncmp(small, list, strlen(small)), 0, "prefix");
	ASSERT_EQ(list[strlen(small)], ',', "cut at a comma");
}

static void test_theme(void)
{
	const char *by_name[] = { "--theme", "light", NULL };
	const char *by_path[] = { "--theme", "themes/mono.json", NULL };
	const char *missing[] = { "--theme", "no-such-theme", NULL };
	const char *empty[] = { "--theme", "", NULL };

	ASSERT_EQ(parse(by_name), OPTS_RUN, "theme by name");
	ASSERT_STREQ(o.theme, "light", "theme kept");
	ASSERT_EQ(parse(by_path), OPTS_RUN, "theme by path");
	ASSERT_EQ(parse(missing), -EINVAL, "missing theme is a usage error");
	ASSERT_TRUE(strstr(err, "no theme 'no-such-theme'") != NULL, "names the theme");
	ASSERT_EQ(parse(empty), -EINVAL, "empty theme");
}

/* Write text to a temporary spans file; returns its path. */
static const char *spans_file(const char *text)
{
	static char path[] = "/tmp/lattop-spans-XXXXXX";
	int fd;

	strcpy(path, "/tmp/lattop-spans-XXXXXX");
	fd = mkstemp(path);
	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			path[0] = '\0';
		close(fd);
	}
	return path;
}

static void test_spans(void)
{
	static char mine[32];
	const char *a1[] = { "-u", "/proc/self/exe:main", "-u", mine, NULL },
		   *a2[] = { "-m", "programs", "-u", "/proc/self/exe:main", NULL },
		   *a3[] = { "--spans", "spans/sched-wakeup.json", NULL };

	char want[32];

	snprintf(mine, sizeof(mine), "%d:spin", (int)getpid());
	snprintf(want, sizeof(want), "/proc/%d/exe", (int)getpid());
	ASSERT_EQ(parse(a1), OPTS_RUN, err);
	ASSERT_EQ(o.nspans, 2, "two spans");
	ASSERT_EQ(o.mode, MODE_SEGMENTS, "spans imply segments mode");
	ASSERT_STREQ(o.spans[0].name, "main", "name is the function");
	ASSERT_STREQ(o.spans[0].start.path, "/proc/self/exe", "path");
	ASSERT_EQ(o.spans[0].start.kind, SPK_UPROBE, "start uprobe");
	ASSERT_EQ(o.spans[0].end.kind, SPK_URETPROBE, "end uretprobe");
	ASSERT_EQ(o.spans[0].nest, 1, "function spans nest");
	ASSERT_EQ(o.spans[0].start.keysel, LAT_KEY_TID, "keyed by thread");
	ASSERT_STREQ(o.spans[1].start.path, want, "PID:func");
	ASSERT_EQ(o.spans[1].start.pid, (int)getpid(), "PID:func attaches to that process");
	ASSERT_EQ(parse(a2), OPTS_RUN, "parse -m programs -u");
	ASSERT_EQ(o.mode, MODE_PROGRAMS, "-m wins");
	ASSERT_EQ(parse(a3), OPTS_RUN, err);
	ASSERT_EQ(o.nspans, 2, "example spans");
	ASSERT_EQ(o.spans[0].start.tp, LAT_TP_SCHED_WAKEUP, "start tracepoint");
	ASSERT_EQ(o.spans[0].end.tp, LAT_TP_SCHED_SWITCH, "end tracepoint");
	ASSERT_EQ(o.spans[0].end.keysel, LAT_KEY_FIELD, "keyed by a field");
	ASSERT_EQ(o.spans[0].end.field, 0, "next_pid");
	ASSERT_EQ(o.spans[0].nest, 0, "one slot per pid");
}

static void test_span_errors(void)
{
	const char *a[] = { "--spans", NULL, NULL }, *u1[] = { "-u", "nofunc", NULL },
		   *u2[] = { "-u", "/no/such/file:f", NULL }, *u3[] = { "-u", "999999999:f", NULL };

	expect_error(u1, "-u 'nofunc' needs FILE:FUNCTION or PID:FUNCTION");
	expect_error(u2, "-u '/no/such/file:f': no such file /no/such/file");
	expect_error(u3, "no process 999999999");
	a[1] = "/no/such.json";
	expect_error(a, "cannot read the spans file /no/such.json");
	a[1] = spans_file("{ \"spans\": [ \n");
	expect_error(a, "not valid JSON (line 2)");
	a[1] = spans_file("{\"spans\":[{\"name\":\"x\",\"strat\":{}}]}");
	expect_error(a, "unknown key 'strat' in spans[0]");
	a[1] = spans_file("{\"spans\":[{\"name\":\"x\",\"start\":{\"kind\":\"uprobe\","
			  "\"probe\":\"/bin/sh:main\",\"colour\":1}}]}");
	expect_error(a, "unknown key 'colour' in span 'x' start");
	a[1] = spans_file("{\"spans\":[{\"name\":\"x\",\"start\":{\"kind\":\"usdt\","
			  "\"probe\":\"a:b\"}}]}");
	expect_error(a, "unknown kind 'usdt' in span 'x' start");
	a[1] = spans_file("{\"spans\":[{\"name\":\"slow_read\",\"start\":{\"kind\":\"kprobe\","
			  "\"probe\":\"vfs_read\"}}]}");
	expect_error(a, "span 'slow_read': start probe kprobe vfs_read is unavailable");
	a[1] = spans_file("{\"spans\":[{\"name\":\"x\",\"start\":{\"kind\":\"tp_btf\","
			  "\"probe\":\"sched:sched_switch\",\"field\":\"rq\"}}]}");
	expect_error(a, "no field 'rq' of sched:sched_switch");
	unlink(a[1]);
	a[1] = spans_file("{\"spans\":[{\"name\":\"x\",\"start\":{\"kind\":\"fentry\","
			  "\"probe\":\"vfs_read\",\"field\":\"ret\"}}]}");
	expect_error(a, "bad field 'ret' in span 'x' start: use arg0..arg4 (the function's "
			"arguments)");
	unlink(a[1]);
	a[1] = spans_file("{\"spans\":[{\"name\":\"x\",\"start\":{\"kind\":\"fexit\","
			  "\"probe\":\"vfs_read\",\"field\":\"arg5\"}}]}");
	expect_error(a, "bad field 'arg5' in span 'x' start: use arg0..arg4 (the function's "
			"arguments) or ret");
	unlink(a[1]);
	a[1] = spans_file("{\"spans\":[{\"name\":\"x\",\"start\":{\"kind\":\"fentry\","
			  "\"probe\":\"vfs/read\"}}]}");
	expect_error(a, "is not a kernel function name");
	unlink(a[1]);
	a[1] = spans_file("{\"spans\":[{\"name\":\"x\",\"timeout\":-1,\"start\":{\"kind\":"
			  "\"fentry\",\"probe\":\"vfs_read\"},\"end\":{\"kind\":\"fexit\","
			  "\"probe\":\"vfs_read\"}}]}");
	expect_error(a, "'timeout' in span 'x' must be seconds from 0.1 to 86400");
	unlink(a[1]);
}

/* fentry/fexit probes parse without touching the kernel (BTF is checked at load). */
static void test_fentry_spans(void)
{
	const char *a[] = { "--spans", NULL, NULL };

	a[1] = spans_file("{\"spans\":[{\"name\":\"rd\",\"timeout\":2.5,"
			  "\"start\":{\"kind\":\"fentry\",\"probe\":\"vfs_read\"},"
			  "\"end\":{\"kind\":\"fexit\",\"probe\":\"vfs_read\"}},"
			  "{\"name\":\"by_file\",\"start\":{\"kind\":\"fentry\","
			  "\"probe\":\"vfs_read\",\"field\":\"arg0\"},\"end\":{\"kind\":"
			  "\"fexit\",\"probe\":\"vfs_write\",\"field\":\"ret\"}}]}");
	ASSERT_EQ(parse(a), OPTS_RUN, err);
	ASSERT_EQ(o.nspans, 2, "two fentry spans");
	ASSERT_STREQ(o.spans[0].kind, "fentry", "kind column");
	ASSERT_EQ(o.spans[0].start.kind, SPK_FENTRY, "start fentry");
	ASSERT_EQ(o.spans[0].end.kind, SPK_FEXIT, "end fexit");
	ASSERT_STREQ(o.spans[0].end.func, "vfs_read", "function");
	ASSERT_EQ(o.spans[0].nest, 1, "fentry to fexit by tid nests");
	ASSERT_EQ(o.spans[0].timeout_ns, 2500000000ull, "timeout in ns");
	ASSERT_EQ(o.spans[1].timeout_ns, SPAN_TIMEOUT_NS, "default timeout");
	ASSERT_EQ(o.spans[1].nest, 0, "field keys do not nest");
	ASSERT_EQ(o.spans[1].start.keysel, LAT_KEY_FIELD, "arg key");
	ASSERT_EQ(o.spans[1].start.field, 0, "arg0");
	ASSERT_EQ(o.spans[1].end.field, LAT_FIELD_RET, "ret key");
	unlink(a[1]);
}

/* Span names are unique across -u and every spans file, and never the vhost chain's row names. */
static void test_span_names(void)
{
	static char mine[32];
	const char *dup_u[] = { "-u", "/proc/self/exe:main", "-u", mine, NULL },
		   *res_u[] = { "-u", "/proc/self/exe:total", NULL },
		   *file_then_u[] = { "--spans", NULL, "-u", "/proc/self/exe:main", NULL },
		   *u_then_file[] = { "-u", "/proc/self/exe:main", "--spans", NULL, NULL },
		   *res_file[] = { "--spans", NULL, NULL };
	const char *f;

	snprintf(mine, sizeof(mine), "%d:main", (int)getpid());
	expect_error(dup_u, "two spans are named 'main': names must be unique");
	expect_error(res_u, "-u '/proc/self/exe:total': the span name 'total' is the vhost chain's");
	f = spans_file("{\"spans\":[{\"name\":\"main\",\"start\":{\"kind\":\"uprobe\","
		       "\"probe\":\"/proc/self/exe:main\"},\"end\":{\"kind\":\"uretprobe\","
		       "\"probe\":\"/proc/self/exe:main\"}}]}");
	file_then_u[1] = f;
	expect_error(file_then_u, "two spans are named 'main'");
	u_then_file[3] = f;
	expect_error(u_then_file, "two spans are named 'main'");
	unlink(f);
	for (int i = 0; i < 4; i++) {
		static const char *const names[] = { "S0", "S1", "S2", "total" };
		char txt[256], want[64];

		snprintf(txt, sizeof(txt),
			 "{\"spans\":[{\"name\":\"%s\",\"start\":{\"kind\":\"uprobe\","
			 "\"probe\":\"/proc/self/exe:main\"},\"end\":{\"kind\":\"uretprobe\","
			 "\"probe\":\"/proc/self/exe:main\"}}]}",
			 names[i]);
		res_file[1] = spans_file(txt);
		snprintf(want, sizeof(want), "the name '%s' in spans[0] is the vhost chain's",
			 names[i]);
		expect_error(res_file, want);
		unlink(res_file[1]);
	}
}

/* Only one function's entry and return nest; another function's return keeps one slot. */
static void test_span_nesting(void)
{
	const char *a[] = { "--spans", NULL, NULL };

	a[1] = spans_file("{\"spans\":["
			  "{\"name\":\"same\",\"start\":{\"kind\":\"uprobe\",\"probe\":"
			  "\"/proc/self/exe:main\"},\"end\":{\"kind\":\"uretprobe\",\"probe\":"
			  "\"/proc/self/exe:main\"}},"
			  "{\"name\":\"other_fn\",\"start\":{\"kind\":\"uprobe\",\"probe\":"
			  "\"/proc/self/exe:main\"},\"end\":{\"kind\":\"uretprobe\",\"probe\":"
			  "\"/proc/self/exe:spans_file\"}},"
			  "{\"name\":\"other_file\",\"start\":{\"kind\":\"uprobe\",\"probe\":"
			  "\"/proc/self/exe:main\"},\"end\":{\"kind\":\"uretprobe\",\"probe\":"
			  "\"libc.so.6:main\"}},"
			  "{\"name\":\"read_write\",\"start\":{\"kind\":\"fentry\",\"probe\":"
			  "\"vfs_read\"},\"end\":{\"kind\":\"fexit\",\"probe\":\"vfs_write\"}}]}");
	ASSERT_EQ(parse(a), OPTS_RUN, err);
	ASSERT_EQ(o.nspans, 4, "four spans");
	ASSERT_EQ(o.spans[0].nest, 1, "one function's entry and return nest");
	ASSERT_EQ(o.spans[1].nest, 0, "another function's return does not nest");
	ASSERT_EQ(o.spans[2].nest, 0, "the same name in another file does not nest");
	ASSERT_EQ(o.spans[3].nest, 0, "fentry of one function, fexit of another: no nesting");
	ASSERT_STREQ(o.spans[1].kind, "uprobe", "still a uprobe span");
	ASSERT_STREQ(o.spans[3].kind, "fentry", "still an fentry span");
	unlink(a[1]);
}

/* --span-timeout sets the timeout of -u spans and of file spans that give none, wherever it
 * stands among them. */
static void test_span_timeout(void)
{
	const char *a[] = { "-u", "/proc/self/exe:main", "--spans", NULL, "--span-timeout", "60",
			    NULL },
		   *dflt[] = { "-u", "/proc/self/exe:main", NULL },
		   *bad[] = { "-u", "/proc/self/exe:main", "--span-timeout", "0.05", NULL },
		   *big[] = { "-u", "/proc/self/exe:main", "--span-timeout", "86401", NULL },
		   *alone[] = { "--span-timeout", "5", NULL };

	a[3] = spans_file("{\"spans\":["
			  "{\"name\":\"own\",\"timeout\":2.5,\"start\":{\"kind\":\"uprobe\","
			  "\"probe\":\"/proc/self/exe:spans_file\"},\"end\":{\"kind\":"
			  "\"uretprobe\",\"probe\":\"/proc/self/exe:spans_file\"}},"
			  "{\"name\":\"none\",\"start\":{\"kind\":\"uprobe\",\"probe\":"
			  "\"/proc/self/exe:main\"},\"end\":{\"kind\":\"uretprobe\",\"probe\":"
			  "\"/proc/self/exe:main\"}}]}");
	ASSERT_EQ(parse(a), OPTS_RUN, err);
	ASSERT_EQ(o.nspans, 3, "three spans");
	ASSERT_EQ(o.spans[0].timeout_ns, 60000000000ull, "-u span takes --span-timeout");
	ASSERT_EQ(o.spans[1].timeout_ns, 2500000000ull, "a file's own timeout wins");
	ASSERT_EQ(o.spans[2].timeout_ns, 60000000000ull, "file span without one takes it");
	unlink(a[3]);
	ASSERT_EQ(parse(dflt), OPTS_RUN, err);
	ASSERT_EQ(o.spans[0].timeout_ns, SPAN_TIMEOUT_NS, "default 10 s");
	expect_error(bad, "bad timeout '0.05' for --span-timeout: give seconds from 0.1 to 86400");
	expect_error(big, "bad timeout '86401' for --span-timeout");
	expect_error(alone, "--span-timeout applies to spans: give -u, --spans or --activities too");
}

static void test_help_version(void)
{
	const char *h[] = { "-h", NULL }, *v[] = { "--version", NULL };

	ASSERT_EQ(parse(h), OPTS_HELP, "help");
	ASSERT_EQ(parse(v), OPTS_VERSION, "version");
}

/* A spans file's numbers are range-checked before they become integers (no float-to-int
 * undefined behaviour, no fraction silently dropped), a -u PID too, and a file over the 1 MiB
 * limit says so instead of failing as "not valid JSON". */
static void test_span_numbers(void)
{
	static const struct {
		const char *filter_or_timeout, *want;
	} bad[] = {
		{ "\"filter\":{\"pid\":4294967297}",
		  "'pid' in span 'x' filter must be a process ID up to 4194304 (0: any), not 4294967297" },
		{ "\"filter\":{\"pid\":1.5}", "must be a process ID up to 4194304 (0: any), not 1.5" },
		{ "\"filter\":{\"pid\":-1}", "(0: any), not -1" },
		{ "\"filter\":{\"pid\":1e300}", "(0: any), not 1e+300" },
		{ "\"filter\":{\"pid\":\"7\"}", "(0: any), not not a number" },
		{ "\"timeout\":1e300", "'timeout' in span 'x' must be seconds from 0.1 to 86400, not 1e+300" },
		{ "\"timeout\":1e999", "must be seconds from 0.1 to 86400, not inf" },
		{ "\"timeout\":0.05", "must be seconds from 0.1 to 86400, not 0.05" },
	};
	const char *a[] = { "--spans", NULL, NULL },
		   *u[] = { "-u", "99999999999999999999:f", NULL };
	char txt[512], *big;
	FILE *f;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(txt, sizeof(txt),
			 "{\"spans\":[{\"name\":\"x\",%s,\"start\":{\"kind\":\"fentry\","
			 "\"probe\":\"vfs_read\"},\"end\":{\"kind\":\"fexit\",\"probe\":\"vfs_read\"}}]}",
			 bad[i].filter_or_timeout);
		a[1] = spans_file(txt);
		expect_error(a, bad[i].want);
		unlink(a[1]);
	}
	snprintf(txt, sizeof(txt),
		 "{\"spans\":[{\"name\":\"x\",\"timeout\":86400,\"filter\":{\"pid\":4194304},"
		 "\"start\":{\"kind\":\"fentry\",\"probe\":\"vfs_read\"},\"end\":{\"kind\":"
		 "\"fexit\",\"probe\":\"vfs_read\"}}]}");
	a[1] = spans_file(txt);
	ASSERT_EQ(parse(a), OPTS_RUN, "the bounds themselves");
	ASSERT_EQ(o.spans[0].filter_pid, 4194304, "largest pid");
	ASSERT_TRUE(o.spans[0].timeout_ns == 86400000000000ull, "longest timeout");
	unlink(a[1]);
	expect_error(u, "no process 99999999999999999999 (process IDs go up to 4194304)");
	/* 1 MiB of valid JSON and one byte more: the limit is named, not "not valid JSON". */
	a[1] = spans_file("");
	f = fopen(a[1], "w");
	big = malloc((1 << 20) + 1);
	if (ASSERT_TRUE(f && big, "scratch")) {
		memset(big, ' ', (1 << 20) + 1);
		fwrite(big, 1, (1 << 20) + 1, f);
	}
	if (f)
		fclose(f);
	free(big);
	expect_error(a, "is larger than 1 MiB, the most lattop reads: split it into several "
			"--spans files");
	unlink(a[1]);
}

/* --listen: [ADDR:]PORT parsed and checked before anything starts; --tui goes with it. */
static void test_listen(void)
{
	const char *port[] = { "--listen", "9364", NULL };
	const char *v6[] = { "--listen", "[::1]:9364", "-b", NULL };
	const char *any[] = { "--listen", "0.0.0.0:80", "--tui", NULL };
	const char *bad[] = { "--listen", "9364x", NULL };
	const char *tui[] = { "--tui", NULL };
	const char *both[] = { "--listen", "9364", "--tui", "-b", NULL };
	const char *replay[] = { "--listen", "9364", "-r", "x.lrec", NULL };
	struct prom_addr a;

	ASSERT_EQ(parse(port), OPTS_RUN, "port alone");
	ASSERT_STREQ(o.listen, "9364", "kept");
	ASSERT_EQ(prom__parse_listen("9364", &a, err, sizeof(err)), 0, "parse");
	ASSERT_STREQ(a.text, "127.0.0.1:9364", "127.0.0.1 by default");
	ASSERT_EQ(prom__parse_listen("localhost:1", &a, err, sizeof(err)), 0, "localhost");
	ASSERT_STREQ(a.text, "127.0.0.1:1", "localhost is 127.0.0.1");
	ASSERT_EQ(parse(v6), OPTS_RUN, "IPv6");
	ASSERT_EQ(prom__parse_listen("[::1]:9364", &a, err, sizeof(err)), 0, "parse v6");
	ASSERT_STREQ(a.text, "[::1]:9364", "v6 text");
	ASSERT_EQ(parse(any), OPTS_RUN, "any address, TUI");
	ASSERT_EQ(o.tui, 1, "tui");
	ASSERT_EQ(parse(bad), -EINVAL, "bad port");
	ASSERT_STREQ(err,
		     "bad address '9364x' for --listen: give [ADDR:]PORT with PORT 1..65535 and ADDR a "
		     "numeric IPv4 address, [IPv6] or localhost (e.g. --listen 9364 or "
		     "--listen 0.0.0.0:9364)",
		     "bad port sentence");
	ASSERT_EQ(prom__parse_listen("65536", &a, err, sizeof(err)), -EINVAL, "port range");
	ASSERT_EQ(prom__parse_listen("[::1]", &a, err, sizeof(err)), -EINVAL, "v6 without port");
	ASSERT_EQ(prom__parse_listen("example.com:80", &a, err, sizeof(err)), -EINVAL, "names");
	ASSERT_EQ(parse(tui), -EINVAL, "--tui alone");
	ASSERT_EQ(parse(both), -EINVAL, "--tui and -b");
	ASSERT_EQ(parse(replay), -EINVAL, "--listen with -r");
}

/* The option table: names and letters unique, every option has help text, and each one either
 * parses its value or names a field. */
static void test_table(void)
{
	size_t n;
	const struct opt_def *t = opts__table(&n);

	ASSERT_TRUE(n >= 30, "table read");
	for (size_t i = 0; i < n; i++) {
		ASSERT_TRUE(t[i].name && t[i].name[0] && t[i].name[0] != '-', t[i].name);
		ASSERT_TRUE(t[i].help && t[i].help[0], "help text");
		ASSERT_TRUE(t[i].parse || t[i].field, "parser or field");
		for (size_t j = 0; j < i; j++) {
			ASSERT_TRUE(strcmp(t[i].name, t[j].name), "long names unique");
			ASSERT_TRUE(!t[i].letter || t[i].letter != t[j].letter, "letters unique");
		}
	}
}

/* With --list: the option table, one "LETTER NAME ARG" line each ("-" for none), for
 * tests/host/t_docs.sh to check against --help and the man page. */
static int list_options(void)
{
	size_t n;
	const struct opt_def *t = opts__table(&n);

	for (size_t i = 0; i < n; i++)
		printf("%c %s %s\n", t[i].letter ? t[i].letter : '-', t[i].name,
		       t[i].arg ? t[i].arg : "-");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list"))
		return list_options();
	test__suite = "opts";
	RUN_TEST(test_table);
	RUN_TEST(test_defaults);
	RUN_TEST(test_values);
	RUN_TEST(test_long_options);
	RUN_TEST(test_no_color_env);
	RUN_TEST(test_errors);
	RUN_TEST(test_filter_capacity);
	RUN_TEST(test_selectors);
	RUN_TEST(test_filter_round_trip);
	RUN_TEST(test_theme);
	RUN_TEST(test_spans);
	RUN_TEST(test_span_errors);
	RUN_TEST(test_fentry_spans);
	RUN_TEST(test_span_names);
	RUN_TEST(test_span_nesting);
	RUN_TEST(test_span_timeout);
	RUN_TEST(test_span_numbers);
	RUN_TEST(test_help_version);
	RUN_TEST(test_listen);
	printf("opts: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
