// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_text.c - the visible form of untrusted strings (control bytes, invalid UTF-8, C1 and
 * bidirectional controls), column fitting, RFC 4180 CSV fields, JSON text, and range-checked
 * JSON numbers at their boundaries (2^32, -1, 1e300, fractions, 2^63, huge exponents).
 */
#include <errno.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "base/jnum.h"
#include "base/text.h"
#include "test.h"

static void test_visible_form(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "xdp_fw", "xdp_fw" },
		{ "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80" },
		{ "\x1b]2;pwned\x07", "\\x1b]2;pwned\\x07" },
		{ "a\rb\nc\td", "a\\x0db\\x0ac\\x09d" },
		{ "del\x7f", "del\\x7f" },
		{ "back\\slash", "back\\\\slash" },
		{ "\xff\xfe", "\\xff\\xfe" },                 /* never valid in UTF-8 */
		{ "\xc3", "\\xc3" },                          /* cut short */
		{ "\xc0\xaf", "\\xc0\\xaf" },                 /* overlong '/' */
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },        /* a surrogate */
		{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" }, /* beyond U+10FFFF */
		{ "\xc2\x9b" "31m", "\\u009b31m" },           /* C1 CSI */
		{ "ab\xe2\x80\xae" "cd", "ab\\u202ecd" },     /* right-to-left override */
		{ "q\"c,", "q\"c," },                         /* printable: kept */
	};
	char buf[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = NULL;

		text__esc(buf, sizeof(buf), cases[i].in);
		ASSERT_STREQ(buf, cases[i].want, cases[i].want);
		CAPTURE(out, text__fputs(f, cases[i].in));
		ASSERT_STREQ(out, cases[i].want, "fputs agrees");
		free(out);
	}
	/* A buffer that ends inside an escape or a character keeps only whole units. */
	text__esc(buf, 6, "ab\x1b" "cd");
	ASSERT_STREQ(buf, "ab", "escape left out whole");
	text__esc(buf, 7, "ab\x1b" "cd");
	ASSERT_STREQ(buf, "ab\\x1b", "escape that fits");
	text__esc(buf, 4, "a\xc3\xa9\xc3\xa9");
	ASSERT_STREQ(buf, "a\xc3\xa9", "character left out whole");
	ASSERT_EQ(text__esc(buf, 1, "abc"), 0, "room for the NUL only");
}

/* HTML text: markup characters become references, after the visible form (so an escape's
 * backslash stays one and an invalid byte never reaches the page). */
static void test_html(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;" },
		{ "a&b\"c'd", "a&amp;b&quot;c&#39;d" },
		{ "</script><script>", "&lt;/script&gt;&lt;script&gt;" },
		{ "x\xff<\x1b", "x\\xff&lt;\\x1b" },
		{ "caf\xc3\xa9 \xe2\x80\xae", "caf\xc3\xa9 \\u202e" },
		{ "", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = NULL;

		CAPTURE(out, text__html(f, cases[i].in));
		ASSERT_STREQ(out, cases[i].want, cases[i].want);
		free(out);
	}
}

static void test_fit(void)
{
	char buf[64], vis[64];

	text__fit(buf, sizeof(buf), "abc", 5, true);
	ASSERT_STREQ(buf, "abc  ", "pad right");
	text__fit(buf, sizeof(buf), "abc", 5, false);
	ASSERT_STREQ(buf, "  abc", "pad left");
	text__fit(buf, sizeof(buf), "caf\xc3\xa9s", 4, true);
	ASSERT_STREQ(buf, "caf\xc3\xa9", "cut after a whole character");
	text__esc(vis, sizeof(vis), "ab\x1b" "c");
	ASSERT_EQ(text__cols(vis), 7, "an escape takes its characters");
	text__fit(buf, sizeof(buf), vis, 5, true);
	ASSERT_STREQ(buf, "ab   ", "never inside an escape");
	text__fit(buf, sizeof(buf), vis, 6, true);
	ASSERT_STREQ(buf, "ab\\x1b", "a whole escape");
	ASSERT_EQ(text__cols("\xc3\xa9\xe2\x86\x92"), 2, "characters, not bytes");
}

static void test_csv(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "plain", "plain" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "two\nlines", "\"two\\x0alines\"" },
		{ "cr\r", "\"cr\\x0d\"" },
		{ "\x1b[31m", "\\x1b[31m" },
		{ "", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = NULL;

		CAPTURE(out, text__csv_field(f, cases[i].in));
		ASSERT_STREQ(out, cases[i].want, cases[i].want);
		free(out);
	}
}

static void test_json(void)
{
	cJSON *o = cJSON_CreateObject();
	char *txt, *out = NULL, *back;
	cJSON *rt;

	cJSON_AddStringToObject(o, "n", "\x1b\x7f\xc2\x9b\xe2\x80\xae\xff\"\\ok\xc3\xa9");
	txt = cJSON_PrintUnformatted(o);
	CAPTURE(out, text__json_fputs(f, txt));
	ASSERT_STREQ(out, "{\"n\":\"\\u001b\\u007f\\u009b\\u202e\\\\xff\\\"\\\\ok\xc3\xa9\"}",
		     "cJSON text escaped");
	rt = cJSON_Parse(out);
	back = rt ? cJSON_GetObjectItem(rt, "n")->valuestring : NULL;
	ASSERT_STREQ(back, "\x1b\x7f\xc2\x9b\xe2\x80\xae\\xff\"\\ok\xc3\xa9",
		     "parses back; the invalid byte as its visible form");
	cJSON_Delete(rt);
	free(out);
	out = NULL;
	CAPTURE(out, text__json_str(f, "\x1b\"\\\xff\xc3\xa9"));
	ASSERT_STREQ(out, "\"\\u001b\\\"\\\\\\\\xff\xc3\xa9\"", "a JSON string by hand");
	free(out);
	free(txt);
	cJSON_Delete(o);
}

static void test_jnum_int(void)
{
	static const struct {
		const char *json;
		int64_t min, max;
		int want_err;
		int64_t want;
		const char *why;
	} cases[] = {
		{ "{\"v\": 4294967295}", 0, 4294967295, 0, 4294967295, NULL },
		{ "{\"v\": 4294967296}", 0, 4294967295, -EINVAL, 0,
		  "\"v\" is 4294967296: give a whole number from 0 to 4294967295" },
		{ "{\"v\": 4294967297}", 1, 4194304, -EINVAL, 0,
		  "\"v\" is 4294967297: give a whole number from 1 to 4194304" },
		{ "{\"v\": -1}", 0, 10, -EINVAL, 0, "\"v\" is -1: give a whole number from 0 to 10" },
		{ "{\"v\": 0}", 0, 10, 0, 0, NULL },
		{ "{\"v\": 1e300}", 0, INT64_MAX, -EINVAL, 0, "\"v\" is 1e+300" },
		{ "{\"v\": -1e300}", INT64_MIN, INT64_MAX, -EINVAL, 0, "\"v\" is -1e+300" },
		{ "{\"v\": 1e999}", 0, INT64_MAX, -EINVAL, 0, "\"v\" is inf" },
		{ "{\"v\": 9223372036854775808}", 0, INT64_MAX, -EINVAL, 0, "\"v\" is 9.22337203685478e+18" },
		{ "{\"v\": 9223372036854774784}", 0, INT64_MAX, 0, 9223372036854774784, NULL },
		{ "{\"v\": 1.5}", 0, 10, -EINVAL, 0, "\"v\" is 1.5: give a whole number" },
		{ "{\"v\": 2.0}", 0, 10, 0, 2, NULL },
		{ "{\"v\": \"5\"}", 0, 10, -EINVAL, 0, "\"v\" is not a number: give a whole number" },
		{ "{\"v\": null}", 0, 10, -EINVAL, 0, "\"v\" is not a number" },
		{ "{}", 0, 10, -ENOENT, 7, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cJSON *o = cJSON_Parse(cases[i].json);
		char why[160] = "";
		int64_t v = 7;
		int e;

		if (!ASSERT_TRUE(o != NULL, cases[i].json))
			continue;
		e = jnum__int(o, "v", cases[i].min, cases[i].max, &v, why, sizeof(why));
		ASSERT_EQ(e, cases[i].want_err, cases[i].json);
		if (!e || e == -ENOENT)
			ASSERT_TRUE(v == cases[i].want, cases[i].json);
		else
			ASSERT_TRUE(strstr(why, cases[i].why) != NULL, why);
		cJSON_Delete(o);
	}
}

static void test_jnum_num(void)
{
	cJSON *o = cJSON_Parse("{\"a\": 0.1, \"b\": 0.05, \"c\": 1e999, \"d\": true}");
	char why[160] = "";
	double v = 0;

	ASSERT_OK(jnum__num(o, "a", 0.1, 86400, &v, why, sizeof(why)), "lower bound kept");
	ASSERT_TRUE(v == 0.1, "value");
	ASSERT_EQ(jnum__num(o, "b", 0.1, 86400, &v, why, sizeof(why)), -EINVAL, "below");
	ASSERT_STREQ(why, "\"b\" is 0.05: give a number from 0.1 to 86400", "sentence");
	ASSERT_EQ(jnum__num(o, "c", 0.1, 86400, &v, why, sizeof(why)), -EINVAL, "infinite");
	ASSERT_EQ(jnum__num(o, "d", 0.1, 86400, &v, why, sizeof(why)), -EINVAL, "a bool");
	ASSERT_EQ(jnum__num(o, "e", 0.1, 86400, &v, why, sizeof(why)), -ENOENT, "absent");
	cJSON_Delete(o);
}

int main(void)
{
	test__suite = "text";
	RUN_TEST(test_visible_form);
	RUN_TEST(test_fit);
	RUN_TEST(test_html);
	RUN_TEST(test_csv);
	RUN_TEST(test_json);
	RUN_TEST(test_jnum_int);
	RUN_TEST(test_jnum_num);
	return TEST_EXIT();
}
