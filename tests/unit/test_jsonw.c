// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_jsonw.c - the typed JSON writer: integers exact at their limits (UINT64_MAX, INT64_MIN,
 * 2^53 + 1) where the cJSON double path rounds them; strings and keys escaped byte for byte as
 * cJSON + text__json_fputs escaped them; doubles printed as cJSON prints them; commas and
 * colons in nested objects and arrays; cJSON_Print's layout in pretty mode; misuse counted.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "base/jsonw.h"
#include "base/text.h"
#include "test.h"

/* A string that needs every kind of escape: ESC, quote, backslash, LF, TAB, DEL, a C1 CSI, a
 * bidirectional override, an invalid byte, then valid UTF-8 that stays as it is. */
#define NASTY "\x1b\"\\\n\t\x7f\xc2\x9b\xe2\x80\xae\xff ok\xc3\xa9"

/* The document of the tests, through the typed writer. */
static void doc_jsonw(FILE *f)
{
	struct jsonw w;

	jsonw__init(&w, f);
	jsonw__begin_object(&w);
	jsonw__u64_field(&w, "max", UINT64_MAX);
	jsonw__s64_field(&w, "min", INT64_MIN);
	jsonw__u64_field(&w, "odd", (1ull << 53) + 1);
	jsonw__string_field(&w, "s" NASTY, NASTY);
	jsonw__end_object(&w);
}

/* The same document the old way: cJSON numbers (doubles), then text__json_fputs. */
static void doc_cjson(FILE *f)
{
	cJSON *o = cJSON_CreateObject();
	char *txt;

	cJSON_AddNumberToObject(o, "max", (double)UINT64_MAX);
	cJSON_AddNumberToObject(o, "min", (double)INT64_MIN);
	cJSON_AddNumberToObject(o, "odd", (double)((1ull << 53) + 1));
	cJSON_AddStringToObject(o, "s" NASTY, NASTY);
	txt = cJSON_PrintUnformatted(o);
	text__json_fputs(f, txt);
	free(txt);
	cJSON_Delete(o);
}

#define NASTY_JSON "\\u001b\\\"\\\\\\n\\t\\u007f\\u009b\\u202e\\\\xff ok\xc3\xa9"
static const char want_doc[] = "{\"max\":18446744073709551615,\"min\":-9223372036854775808,"
			       "\"odd\":9007199254740993,\"s" NASTY_JSON "\":\"" NASTY_JSON "\"}";

/* Integers come out with every digit; the cJSON double path does not (the reason for the
 * writer): the same check on its output fails. */
static void test_exact_integers(void)
{
	char *out = NULL, *old = NULL;
	cJSON *back;

	CAPTURE(out, doc_jsonw(f));
	ASSERT_STREQ(out, want_doc, "UINT64_MAX, INT64_MIN, 2^53+1 and the string, exactly");
	CAPTURE(old, doc_cjson(f));
	ASSERT_TRUE(strcmp(old, want_doc) != 0, "the cJSON double path is not exact");
	ASSERT_TRUE(strstr(old, "\"max\":1.8446744073709552e+19") != NULL,
		    "cJSON writes UINT64_MAX as a rounded double");
	ASSERT_TRUE(strstr(old, "\"odd\":9.00719925474099e+15") != NULL,
		    "cJSON writes 2^53+1 with 15 digits");
	back = cJSON_Parse(out);
	ASSERT_TRUE(back != NULL, "the writer's output parses");
	cJSON_Delete(back);
	free(out);
	free(old);
}

/* Strings and keys: byte for byte what cJSON + text__json_fputs wrote. */
static void test_strings_as_before(void)
{
	char *out = NULL, *old = NULL;
	const char *o, *n;

	CAPTURE(out, doc_jsonw(f));
	CAPTURE(old, doc_cjson(f));
	o = old ? strstr(old, ",\"s") : NULL;
	n = out ? strstr(out, ",\"s") : NULL;
	if (ASSERT_NONNULL(o, "old string member") && ASSERT_NONNULL(n, "new string member"))
		ASSERT_STREQ(n, o, "key and value escaped as before");
	free(out);
	free(old);
}

/* The double form of v as cJSON prints it (caller frees). */
static char *cjson_double(double v)
{
	cJSON *x = cJSON_CreateNumber(v);
	char *txt = cJSON_PrintUnformatted(x);

	cJSON_Delete(x);
	return txt;
}

/* Doubles: the same text as cJSON for edge values and a spread of magnitudes. */
static void test_doubles_as_cjson(void)
{
	/* -0.0 is checked on its own below. */
	static const double edge[] = { 0.0,	   1.0,	       -1.0,	   0.1,
				       1.0 / 3,    2.0 / 3,    12.5,	   99.999,     100.0,
				       2147483647, 2147483648, -2147483648, -2147483649, 1e15 + 0.3,
				       1e17,	   1e300,      -1e-300,	   DBL_MIN,    DBL_MAX,
				       5e-324,	   0.30000000000000004, 123456.789 };
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int bad = 0;

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		char mine[64], *theirs = cjson_double(edge[i]);

		jsonw__fmt_double(mine, sizeof(mine), edge[i]);
		ASSERT_STREQ(mine, theirs, "edge value as cJSON");
		free(theirs);
	}
	/* Random bit patterns (every magnitude) and random percentages and rates. */
	for (int i = 0; i < 20000 && bad < 5; i++) {
		double v;
		char mine[64], *theirs;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (i & 1)
			memcpy(&v, &x, sizeof(v));
		else
			v = (double)(x % 100000000) / (double)(1 + x % 1000);
		if (!isfinite(v))
			continue;
		jsonw__fmt_double(mine, sizeof(mine), v);
		theirs = cjson_double(v);
		if (!ASSERT_STREQ(mine, theirs, "random value as cJSON"))
			bad++;
		free(theirs);
	}
	/* Negative zero: cJSON printed "-0" up to 1.7.17 (Debian 12) and prints "0" from 1.7.18
	 * (Debian 13); the writer keeps "-0", the same on both. */
	{
		char buf[64];

		jsonw__fmt_double(buf, sizeof(buf), -0.0);
		ASSERT_STREQ(buf, "-0", "negative zero");
	}
	{
		char buf[64];

		jsonw__fmt_double(buf, sizeof(buf), NAN);
		ASSERT_STREQ(buf, "null", "NaN");
		jsonw__fmt_double(buf, sizeof(buf), -INFINITY);
		ASSERT_STREQ(buf, "null", "-inf");
	}
}

/* Commas, colons and nesting come out right; so do fixed decimals. */
static void test_grammar(void)
{
	char *out = NULL;
	struct jsonw w;

	CAPTURE(out, ({
			jsonw__init(&w, f);
			jsonw__begin_object(&w);
			jsonw__key(&w, "a");
			jsonw__begin_array(&w);
			jsonw__u64(&w, 1);
			jsonw__begin_array(&w);
			jsonw__end_array(&w);
			jsonw__begin_object(&w);
			jsonw__null_field(&w, "n");
			jsonw__bool_field(&w, "t", true);
			jsonw__end_object(&w);
			jsonw__double(&w, 0.5);
			jsonw__decimal(&w, 1234567, 3);
			jsonw__decimal(&w, 5, 3);
			jsonw__decimal(&w, 42, 0);
			jsonw__end_array(&w);
			jsonw__key(&w, "e");
			jsonw__begin_object(&w);
			jsonw__end_object(&w);
			jsonw__string_field(&w, "s", "");
			jsonw__end_object(&w);
		}));
	ASSERT_STREQ(out,
		     "{\"a\":[1,[],{\"n\":null,\"t\":true},0.5,1234.567,0.005,42],"
		     "\"e\":{},\"s\":\"\"}",
		     "nested document");
	ASSERT_EQ(w.misuse, 0, "well-formed use");
	ASSERT_EQ(w.depth, 0, "all closed");
	free(out);
	out = NULL;
	CAPTURE(out, ({
			jsonw__init(&w, f);
			jsonw__begin_object(&w);
			jsonw__u64(&w, 1); /* no key */
			jsonw__end_array(&w); /* wrong end */
		}));
	ASSERT_EQ(w.misuse, 2, "a value without a key and a wrong end are counted");
	free(out);
}

/* The pretty layout: byte for byte what cJSON_Print writes for the same document (objects in
 * arrays, empty ones, a document like a profile). */
static void test_pretty_as_cjson(void)
{
	cJSON *o = cJSON_CreateObject(), *arr, *x;
	char *out = NULL, *txt;
	struct jsonw w;

	cJSON_AddStringToObject(o, "device", "vnet0");
	arr = cJSON_AddArrayToObject(o, "eventfds");
	for (int i = 0; i < 2; i++) {
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "ctx", "0xffff888100000000");
		cJSON_AddNumberToObject(x, "queue", i);
		cJSON_AddItemToArray(arr, x);
	}
	cJSON_AddArrayToObject(o, "none");
	cJSON_AddObjectToObject(o, "empty");
	x = cJSON_AddArrayToObject(o, "nums");
	cJSON_AddItemToArray(x, cJSON_CreateNumber(1));
	cJSON_AddItemToArray(x, cJSON_CreateNumber(2.5));
	cJSON_AddItemToArray(x, cJSON_CreateArray());
	cJSON_AddItemToArray(x, cJSON_CreateObject());
	txt = cJSON_Print(o);
	CAPTURE(out, ({
			jsonw__init(&w, f);
			jsonw__pretty(&w);
			jsonw__begin_object(&w);
			jsonw__string_field(&w, "device", "vnet0");
			jsonw__key(&w, "eventfds");
			jsonw__begin_array(&w);
			for (int i = 0; i < 2; i++) {
				jsonw__begin_object(&w);
				jsonw__string_field(&w, "ctx", "0xffff888100000000");
				jsonw__u64_field(&w, "queue", (uint64_t)i);
				jsonw__end_object(&w);
			}
			jsonw__end_array(&w);
			jsonw__key(&w, "none");
			jsonw__begin_array(&w);
			jsonw__end_array(&w);
			jsonw__key(&w, "empty");
			jsonw__begin_object(&w);
			jsonw__end_object(&w);
			jsonw__key(&w, "nums");
			jsonw__begin_array(&w);
			jsonw__u64(&w, 1);
			jsonw__double(&w, 2.5);
			jsonw__begin_array(&w);
			jsonw__end_array(&w);
			jsonw__begin_object(&w);
			jsonw__end_object(&w);
			jsonw__end_array(&w);
			jsonw__end_object(&w);
		}));
	ASSERT_STREQ(out, txt, "cJSON_Print's layout");
	ASSERT_EQ(w.misuse, 0, "well-formed use");
	free(out);
	free(txt);
	cJSON_Delete(o);
}

/* A writer into memory returns its text, or NULL after misuse (no half document). */
static void test_mem(void)
{
	struct jsonw_mem jm;
	char *txt;

	ASSERT_EQ(jsonw__mem_open(&jm), 0, "mem open");
	jsonw__begin_object(&jm.w);
	jsonw__u64_field(&jm.w, "n", UINT64_MAX);
	jsonw__end_object(&jm.w);
	txt = jsonw__mem_close(&jm);
	ASSERT_NONNULL(txt, "text");
	ASSERT_STREQ(txt, "{\"n\":18446744073709551615}", "the document");
	free(txt);
	ASSERT_EQ(jsonw__mem_open(&jm), 0, "mem open");
	jsonw__begin_object(&jm.w);
	jsonw__u64(&jm.w, 1); /* a value where a key is due */
	jsonw__end_object(&jm.w);
	ASSERT_TRUE(jsonw__mem_close(&jm) == NULL, "misuse gives NULL");
}

int main(void)
{
	test__suite = "jsonw";
	RUN_TEST(test_exact_integers);
	RUN_TEST(test_strings_as_before);
	RUN_TEST(test_doubles_as_cjson);
	RUN_TEST(test_grammar);
	RUN_TEST(test_pretty_as_cjson);
	RUN_TEST(test_mem);
	return TEST_EXIT();
}
