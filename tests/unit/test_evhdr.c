// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_evhdr.c - the EventHeader decoder (base/evhdr.c): header fields in both byte orders,
 * the activity id extension (16 and 32 bytes), metadata (event name, attributes, fields with
 * format, tag and constant-array length), unknown extension kinds skipped, and every way an
 * event can be malformed refused at the exact byte that makes it so; tracepoint names; the
 * field decoder (every encoding, the integer formats, arrays and structs skipped exactly, and
 * hostile payloads and metadata: truncated at every byte, huge counts, empty or too deep
 * structs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/evhdr.h"
#include "test.h"

/* A little-endian start event with an activity id (and related id when rel) and metadata
 * "Req;a=b\0" + field "n" (value32, format unsigned, tag 7) + field "c" (value8, carray 3);
 * payload "PL". Returns its length. */
static size_t build(uint8_t *b, bool rel)
{
	static const uint8_t meta[] = {'R',  'e',  'q', ';', 'a', '=', 'b',  0, 'n', 0,
				       0x84, 0x81, 7,	0,   'c', 0,   0x22, 3, 0};
	size_t n = 0, idlen = rel ? 32 : 16;

	b[n++] = EVHDR_F_LE | EVHDR_F_PTR64 | EVHDR_F_EXT;
	b[n++] = 3;		      /* version */
	b[n++] = 0x34, b[n++] = 0x12; /* id */
	b[n++] = 0x78, b[n++] = 0x56; /* tag */
	b[n++] = EVHDR_OP_START;
	b[n++] = 4;
	b[n++] = (uint8_t)idlen, b[n++] = 0;
	b[n++] = EVHDR_EXT_ACTIVITY, b[n++] = 0x80;
	for (size_t i = 0; i < idlen; i++)
		b[n++] = (uint8_t)(0xa0 + i);
	b[n++] = sizeof(meta), b[n++] = 0;
	b[n++] = EVHDR_EXT_METADATA, b[n++] = 0;
	memcpy(b + n, meta, sizeof(meta));
	n += sizeof(meta);
	b[n++] = 'P', b[n++] = 'L';
	return n;
}

static void test_decode(void)
{
	uint8_t b[128];
	size_t n = build(b, false);
	struct evhdr_event ev;
	const char *why = NULL;

	ASSERT_OK(evhdr__decode(b, n, &ev, &why), "decodes");
	ASSERT_EQ(ev.version, 3, "version");
	ASSERT_EQ(ev.id, 0x1234, "id");
	ASSERT_EQ(ev.tag, 0x5678, "tag");
	ASSERT_EQ(ev.opcode, EVHDR_OP_START, "opcode");
	ASSERT_EQ(ev.level, 4, "level");
	ASSERT_TRUE(ev.has_activity && !ev.has_related, "activity id only");
	ASSERT_EQ(ev.activity[0], 0xa0, "id first byte");
	ASSERT_EQ(ev.activity[15], 0xaf, "id last byte");
	ASSERT_EQ(ev.meta_len, 19, "metadata length");
	ASSERT_EQ(ev.payload_len, 2, "payload length");
	ASSERT_EQ(ev.payload[0], 'P', "payload");

	n = build(b, true);
	ASSERT_OK(evhdr__decode(b, n, &ev, &why), "decodes with a related id");
	ASSERT_TRUE(ev.has_related, "related id");
	ASSERT_EQ(ev.related[0], 0xb0, "related id first byte");
}

static void test_metadata(void)
{
	uint8_t b[128];
	size_t n = build(b, false);
	struct evhdr_event ev;
	struct evhdr_meta_iter it;
	struct evhdr_field f;
	const char *name;
	uint32_t len;

	ASSERT_OK(evhdr__decode(b, n, &ev, NULL), "decodes");
	ASSERT_OK(evhdr__meta_name(ev.meta, ev.meta_len, true, &name, &len, &it), "name");
	ASSERT_EQ(len, 3, "name stops at the attribute");
	ASSERT_TRUE(!memcmp(name, "Req", 3), "name bytes");
	ASSERT_EQ(evhdr__meta_next(&it, &f), 1, "field n");
	ASSERT_EQ(f.name_len, 1, "field n name");
	ASSERT_EQ(f.encoding & EVHDR_ENC_MASK, EVHDR_ENC_VALUE32, "field n encoding");
	ASSERT_EQ(f.format, EVHDR_FMT_UNSIGNED, "field n format");
	ASSERT_EQ(f.tag, 7, "field n tag");
	ASSERT_EQ(evhdr__meta_next(&it, &f), 1, "field c");
	ASSERT_EQ(f.array_len, 3, "field c constant array");
	ASSERT_EQ(evhdr__meta_next(&it, &f), 0, "end");

	/* Each cut of the field list inside a definition is refused. */
	for (uint32_t cut = 9; cut < 19; cut++) {
		int r = 0;

		ASSERT_OK(evhdr__meta_name(ev.meta, cut, true, &name, &len, &it), "name");
		while ((r = evhdr__meta_next(&it, &f)) == 1)
			;
		ASSERT_EQ(r, cut == 14 ? 0 : -EBADMSG, "cut field list");
	}
	ASSERT_EQ(evhdr__meta_name(ev.meta, 7, true, &name, &len, &it), -EBADMSG, "no NUL");
	ASSERT_EQ(evhdr__meta_name(ev.meta, 0, true, &name, &len, &it), -EBADMSG, "empty");
}

static void test_big_endian(void)
{
	uint8_t b[16] = {EVHDR_F_EXT,	0, 0x12, 0x34, 0, 1,
			 EVHDR_OP_STOP, 5, 0,	 16,   0, EVHDR_EXT_ACTIVITY};
	struct evhdr_event ev;
	const char *why = NULL;

	ASSERT_EQ(evhdr__decode(b, sizeof(b), &ev, &why), -EBADMSG, "id cut");
	ASSERT_STREQ(why, "extension data past the end", "reason");
	b[9] = 4;
	ASSERT_EQ(evhdr__decode(b, sizeof(b), &ev, &why), -EBADMSG, "4-byte id");
	ASSERT_STREQ(why, "activity id extension neither 16 nor 32 bytes", "reason");
	b[11] = 9; /* an unknown kind (9): skipped */
	ASSERT_OK(evhdr__decode(b, sizeof(b), &ev, &why), "unknown kind skipped");
	ASSERT_EQ(ev.id, 0x1234, "big-endian id");
	ASSERT_EQ(ev.tag, 1, "big-endian tag");
	ASSERT_TRUE(!ev.has_activity, "no activity id");
	ASSERT_EQ(ev.payload_len, 0, "the skipped extension ends the event");
}

static void test_malformed(void)
{
	uint8_t b[128];
	size_t n = build(b, false);
	struct evhdr_event ev;
	const char *why = NULL;
	int refused = 0;

	/* Every prefix shorter than the extensions is refused; from there on the payload is cut. */
	for (size_t cut = 0; cut < n; cut++)
		if (evhdr__decode(b, cut, &ev, &why))
			refused++;
	ASSERT_EQ(refused, n - 2, "every prefix into the extensions refused");
	ASSERT_EQ(evhdr__decode(NULL, 0, &ev, &why), -EBADMSG, "NULL");
	b[7] = 0;
	ASSERT_EQ(evhdr__decode(b, n, &ev, &why), -EBADMSG, "level 0");
	ASSERT_STREQ(why, "level 0", "level reason");
	b[7] = 4;
	b[10] = 0; /* the activity id extension's kind becomes 0 */
	ASSERT_EQ(evhdr__decode(b, n, &ev, &why), -EBADMSG, "kind 0");
	ASSERT_STREQ(why, "extension of kind 0", "kind reason");
	b[10] = EVHDR_EXT_METADATA;
	b[8] = 19; /* 16 id bytes read as metadata of 19 bytes, then the real metadata */
	ASSERT_EQ(evhdr__decode(b, n, &ev, &why), -EBADMSG, "overlapping extensions");
}

static void test_tpname(void)
{
	char prov[64];
	uint8_t level = 0;
	uint64_t kw = 0;

	ASSERT_OK(evhdr__parse_tpname("MyProvider_L4K1", prov, sizeof(prov), &level, &kw), "plain");
	ASSERT_STREQ(prov, "MyProvider", "provider");
	ASSERT_EQ(level, 4, "level");
	ASSERT_EQ(kw, 1, "keyword");
	ASSERT_OK(evhdr__parse_tpname("A_L1_Lb_L5Kff00Gmygroup", prov, sizeof(prov), &level, &kw),
		  "options, an _L inside the provider");
	ASSERT_STREQ(prov, "A_L1_Lb", "provider with _L");
	ASSERT_EQ(level, 5, "level 5");
	ASSERT_EQ(kw, 0xff00, "keyword ff00");
	static const char *const bad[] = {
	    "",
	    "Prov",
	    "Prov_L4",
	    "Prov_L4K",
	    "_L4K1",
	    "Prov_L0K1",
	    "Prov_L4K1g",
	    "Prov_LAK1",
	    "Prov_L4KZ",
	    "a b_L4K1",
	    "a:b_L4K1",
	    "Prov_L4K11111111111111111",
	    "Prov_L123K1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ASSERT_EQ(evhdr__parse_tpname(bad[i], prov, sizeof(prov), &level, &kw), -EINVAL,
			  bad[i]);
	ASSERT_EQ(evhdr__parse_tpname("Provider_L4K1", prov, 4, &level, &kw), -EINVAL,
		  "provider too long for the buffer");
}

/* A field definition into metadata m at *n: name, encoding (the chain flag added when fmt is
 * not 0), the format, and a constant array's length when the encoding says so. */
static void def(uint8_t *m, size_t *n, const char *name, uint8_t enc, uint8_t fmt, uint16_t alen)
{
	size_t l = strlen(name) + 1;

	memcpy(m + *n, name, l);
	*n += l;
	m[(*n)++] = (uint8_t)(enc | (fmt ? EVHDR_ENC_CHAIN : 0));
	if (fmt)
		m[(*n)++] = fmt;
	if (enc & EVHDR_ENC_CARRAY) {
		m[(*n)++] = (uint8_t)alen;
		m[(*n)++] = (uint8_t)(alen >> 8);
	}
}

/* An event (little-endian unless be) with metadata m (mlen bytes) and payload pl (plen) into
 * b; its length. */
static size_t event(uint8_t *b, const uint8_t *m, size_t mlen, const uint8_t *pl, size_t plen,
		    bool be)
{
	size_t n = 0;

	b[n++] = (uint8_t)((be ? 0 : EVHDR_F_LE) | EVHDR_F_EXT);
	b[n++] = 0, b[n++] = 0, b[n++] = 0, b[n++] = 0, b[n++] = 0;
	b[n++] = EVHDR_OP_INFO;
	b[n++] = 4;
	b[n++] = be ? (uint8_t)(mlen >> 8) : (uint8_t)mlen;
	b[n++] = be ? (uint8_t)mlen : (uint8_t)(mlen >> 8);
	b[n++] = be ? 0 : EVHDR_EXT_METADATA, b[n++] = be ? EVHDR_EXT_METADATA : 0;
	memcpy(b + n, m, mlen);
	n += mlen;
	if (plen)
		memcpy(b + n, pl, plen);
	return n + plen;
}

/* The metadata and payload of the event every field test decodes. */
static size_t all_fields(uint8_t *m, size_t *mlen, uint8_t *pl)
{
	static const uint8_t data[] = {
	    200,				 /* u8 */
	    0xfe, 0xff,				 /* s16 = -2 */
	    0xef, 0xbe, 0xad, 0xde,		 /* h32 */
	    0xf5, 0xff, 0xff, 0xff,		 /* errno -11 */
	    0, 0, 0, 0, 0, 1, 0, 0,		 /* u64 = 2^40 */
	    0x1f, 0x90,				 /* port 8080 */
	    'a', 'b', 'c', 0,			 /* str */
	    2, 0, 'h', 'i',			 /* cs */
	    3, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, /* arr: varray of 3 u32 */
	    7, 'x', 'y', 0,			 /* st { a u8, b zstring } */
	    1, 0, 2, 0,				 /* sa: 2 x struct { x u16 } */
	    'A', 0, 0, 0,			 /* w: zstring16 "A" */
	    9,					 /* last */
	};
	size_t n = 0;

	memcpy(m, "Ev;k=v", 7);
	n = 7;
	def(m, &n, "u8", EVHDR_ENC_VALUE8, 0, 0);
	def(m, &n, "s16", EVHDR_ENC_VALUE16, EVHDR_FMT_SIGNED, 0);
	def(m, &n, "h32", EVHDR_ENC_VALUE32, EVHDR_FMT_HEX, 0);
	def(m, &n, "e", EVHDR_ENC_VALUE32, EVHDR_FMT_ERRNO, 0);
	def(m, &n, "u64", EVHDR_ENC_VALUE64, EVHDR_FMT_UNSIGNED, 0);
	def(m, &n, "port", EVHDR_ENC_VALUE16, EVHDR_FMT_PORT, 0);
	def(m, &n, "str", EVHDR_ENC_ZSTRING8, 0, 0);
	def(m, &n, "cs;a=b", EVHDR_ENC_STRING16_8, 0, 0);
	def(m, &n, "arr", EVHDR_ENC_VALUE32 | EVHDR_ENC_VARRAY, 0, 0);
	def(m, &n, "st", EVHDR_ENC_STRUCT, 2, 0);
	def(m, &n, "a", EVHDR_ENC_VALUE8, 0, 0);
	def(m, &n, "b", EVHDR_ENC_ZSTRING8, 0, 0);
	def(m, &n, "sa", EVHDR_ENC_STRUCT | EVHDR_ENC_CARRAY, 1, 2);
	def(m, &n, "x", EVHDR_ENC_VALUE16, 0, 0);
	def(m, &n, "w", EVHDR_ENC_ZSTRING16, 0, 0);
	def(m, &n, "last", EVHDR_ENC_VALUE8, 0, 0);
	*mlen = n;
	memcpy(pl, data, sizeof(data));
	return sizeof(data);
}

/* Every field of the all_fields event, in order, with its value as text. */
static void test_fields(void)
{
	static const struct {
		const char *name, *text;
		enum evhdr_vkind kind;
		uint32_t len;
	} want[] = {
	    {"u8", "200", EVHDR_V_UINT, 1},	   {"s16", "-2", EVHDR_V_INT, 2},
	    {"h32", "0xdeadbeef", EVHDR_V_UINT, 4}, {"e", "-11", EVHDR_V_INT, 4},
	    {"u64", "1099511627776", EVHDR_V_UINT, 8}, {"port", "8080", EVHDR_V_UINT, 2},
	    {"str", "abc", EVHDR_V_STR, 3},	   {"cs", "hi", EVHDR_V_STR, 2},
	    {"arr", "?", EVHDR_V_OTHER, 14},	   {"st", "?", EVHDR_V_OTHER, 0},
	    {"a", "7", EVHDR_V_UINT, 1},	   {"b", "xy", EVHDR_V_STR, 2},
	    {"sa", "?", EVHDR_V_OTHER, 4},	   {"w", "?", EVHDR_V_OTHER, 4},
	    {"last", "9", EVHDR_V_UINT, 1},
	};
	uint8_t m[512], pl[256], b[1024];
	size_t mlen, plen = all_fields(m, &mlen, pl), n = event(b, m, mlen, pl, plen, false);
	struct evhdr_event ev;
	struct evhdr_fields it;
	struct evhdr_value v;
	const char *name;
	uint32_t nl;
	char txt[64];

	ASSERT_OK(evhdr__decode(b, n, &ev, NULL), "decodes");
	ASSERT_OK(evhdr__fields_begin(&ev, &it, &name, &nl), "fields begin");
	ASSERT_EQ(nl, 2, "event name Ev (attributes cut)");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ASSERT_EQ(evhdr__field_next(&it, &v), 1, want[i].name);
		ASSERT_EQ(v.f.name_len, strlen(want[i].name), "name length");
		ASSERT_TRUE(!memcmp(v.f.name, want[i].name, v.f.name_len), want[i].name);
		ASSERT_EQ(v.kind, want[i].kind, "kind");
		ASSERT_EQ(v.len, want[i].len, "bytes");
		evhdr__value_text(&v, txt, sizeof(txt));
		ASSERT_STREQ(txt, want[i].text, want[i].name);
	}
	ASSERT_EQ(evhdr__field_next(&it, &v), 0, "the end");
	ASSERT_TRUE(it.p == it.end, "the whole payload taken");
	/* A text buffer too short for the string: cut, NUL-terminated. */
	v.kind = EVHDR_V_STR, v.data = (const uint8_t *)"a\x01long", v.len = 6;
	evhdr__value_text(&v, txt, 4);
	ASSERT_STREQ(txt, "a?l", "string cut, unprintable as ?");
}

/* Big-endian integers. */
static void test_fields_be(void)
{
	static const uint8_t pl[] = {0xff, 0xfe, 0, 0, 1, 0};
	uint8_t m[64], b[128];
	size_t mlen = 0, n;
	struct evhdr_event ev;
	struct evhdr_fields it;
	struct evhdr_value v;
	const char *name;
	uint32_t nl;

	memcpy(m, "E", 2);
	mlen = 2;
	def(m, &mlen, "s", EVHDR_ENC_VALUE16, EVHDR_FMT_SIGNED, 0);
	def(m, &mlen, "u", EVHDR_ENC_VALUE32, 0, 0);
	n = event(b, m, mlen, pl, sizeof(pl), true);
	ASSERT_OK(evhdr__decode(b, n, &ev, NULL), "decodes");
	ASSERT_OK(evhdr__fields_begin(&ev, &it, &name, &nl), "begin");
	ASSERT_EQ(evhdr__field_next(&it, &v), 1, "s");
	ASSERT_EQ((int64_t)v.u, -2, "s = -2 big-endian");
	ASSERT_EQ(evhdr__field_next(&it, &v), 1, "u");
	ASSERT_EQ(v.u, 256, "u = 256 big-endian");
}

/* Decode every field of the event in b; the last result (0 at the end, or -EBADMSG). */
static int walk(const uint8_t *b, size_t n)
{
	struct evhdr_event ev;
	struct evhdr_fields it;
	struct evhdr_value v;
	const char *name;
	uint32_t nl;
	int e, k = 0;

	if (evhdr__decode(b, n, &ev, NULL) || evhdr__fields_begin(&ev, &it, &name, &nl))
		return -EBADMSG;
	while ((e = evhdr__field_next(&it, &v)) == 1)
		if (++k > 1000)
			return -E2BIG;
	return e;
}

/* Hostile events: every truncation of the payload, huge counts, a struct without members,
 * arrays of structs nested too deep, a string without its NUL, metadata cut inside a
 * definition. Each is refused, never read past its end (ASan in make asan). */
static void test_fields_hostile(void)
{
	uint8_t m[512], pl[256], b[1024], *exact;
	size_t mlen, plen = all_fields(m, &mlen, pl), n;
	int refused = 0;

	for (size_t cut = 0; cut < plen; cut++) {
		n = event(b, m, mlen, pl, cut, false);
		exact = malloc(n);
		memcpy(exact, b, n);
		refused += walk(exact, n) == -EBADMSG;
		free(exact);
	}
	ASSERT_EQ(refused, plen, "every truncated payload refused");
	for (size_t cut = 1; cut < mlen; cut++) {
		n = event(b, m, cut, NULL, 0, false);
		ASSERT_NE(walk(b, n), -E2BIG, "metadata cut: ends");
	}

	static const uint8_t huge[] = {0xff, 0xff, 1, 2, 3};
	size_t ml = 2;

	memcpy(m, "E", 2);
	def(m, &ml, "a", EVHDR_ENC_VALUE32 | EVHDR_ENC_VARRAY, 0, 0);
	ASSERT_EQ(walk(b, event(b, m, ml, huge, sizeof(huge), false)), -EBADMSG,
		  "varray count 65535 past the end");
	ml = 2;
	def(m, &ml, "s", EVHDR_ENC_STRING16_8, 0, 0);
	ASSERT_EQ(walk(b, event(b, m, ml, huge, sizeof(huge), false)), -EBADMSG,
		  "string count 65535 past the end");
	ml = 2;
	def(m, &ml, "s", EVHDR_ENC_STRUCT | EVHDR_ENC_CARRAY, 1, 0xffff);
	def(m, &ml, "x", EVHDR_ENC_VALUE8, 0, 0);
	ASSERT_EQ(walk(b, event(b, m, ml, huge, sizeof(huge), false)), -EBADMSG,
		  "struct array of 65535 past the end");
	ml = 2;
	def(m, &ml, "s", EVHDR_ENC_STRUCT, 0, 0);
	ASSERT_EQ(walk(b, event(b, m, ml, huge, sizeof(huge), false)), -EBADMSG,
		  "struct without members");
	ml = 2;
	for (int d = 0; d <= EVHDR_DEPTH_MAX; d++)
		def(m, &ml, "s", EVHDR_ENC_STRUCT | EVHDR_ENC_CARRAY, 1, 1);
	def(m, &ml, "x", EVHDR_ENC_VALUE8, 0, 0);
	ASSERT_EQ(walk(b, event(b, m, ml, huge, sizeof(huge), false)), -EBADMSG,
		  "arrays of structs too deep");
	ml = 2;
	def(m, &ml, "s", EVHDR_ENC_STRUCT | EVHDR_ENC_VARRAY, 1, 0);
	def(m, &ml, "x", EVHDR_ENC_VALUE8, 0, 0);
	def(m, &ml, "y", EVHDR_ENC_VALUE8, 0, 0);
	static const uint8_t empty[] = {0, 0, 5};
	ASSERT_EQ(walk(b, event(b, m, ml, empty, sizeof(empty), false)), 0,
		  "an empty struct array skips its members' definitions");
	ml = 2;
	def(m, &ml, "z", EVHDR_ENC_ZSTRING16, 0, 0);
	static const uint8_t odd[] = {'a', 0, 0};
	ASSERT_EQ(walk(b, event(b, m, ml, odd, sizeof(odd), false)), -EBADMSG,
		  "zstring16 whose NUL unit is cut");
}

int main(void)
{
	test__suite = "evhdr";
	RUN_TEST(test_decode);
	RUN_TEST(test_metadata);
	RUN_TEST(test_big_endian);
	RUN_TEST(test_malformed);
	RUN_TEST(test_tpname);
	RUN_TEST(test_fields);
	RUN_TEST(test_fields_be);
	RUN_TEST(test_fields_hostile);
	return TEST_EXIT();
}
