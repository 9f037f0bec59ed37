// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_evhdr.c - the EventHeader decoder (base/evhdr.c): header fields in both byte orders,
 * the activity id extension (16 and 32 bytes), metadata (event name, attributes, fields with
 * format, tag and constant-array length), unknown extension kinds skipped, and every way an
 * event can be malformed refused at the exact byte that makes it so; tracepoint names.
 */
#include <errno.h>
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

int main(void)
{
	test__suite = "evhdr";
	RUN_TEST(test_decode);
	RUN_TEST(test_metadata);
	RUN_TEST(test_big_endian);
	RUN_TEST(test_malformed);
	RUN_TEST(test_tpname);
	return TEST_EXIT();
}
