// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_rec_escape.c - a crafted recording whose every string (program name, type, note, map
 * name, span name and kind, counter names, host, kernel, source, notices) holds what a
 * terminal acts on (ESC ] 2 ; ... BEL sets a window title, CR LF forges a line), CSV's
 * specials (a quote, a comma) and invalid UTF-8; and a span counter ("big") above 2^53, which
 * JSON must carry with every digit.
 *
 * Without arguments: unit test (the recording keeps those strings byte for byte: escaping is
 * the writers' job, not the format's). With `--write FILE`: write the crafted recording to
 * FILE (programs, helpers and segments series, --raw events), for tests/host/t_escape.sh to
 * replay with the real binary in every output format.
 */
#include <errno.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "rec/rec.h"
#include "fixtures.h"
#include "base/jsonw.h"
#include "test.h"

/* The hostile tail every crafted string carries: a title-setting OSC, CR LF, a quoted word, a
 * comma, an invalid byte, a C1 CSI, a tab and a backslash (17 bytes, so a tag of up to 6
 * still fits a 24-byte counter name). */
#define EVIL "\x1b]2;X\x07\r\n\"q\",\xff\xc2\x9b\t\\"

static const char *const evil_prog = "P" EVIL;
static const char *const evil_type = "T" EVIL;
static const char *const evil_note = "note" EVIL;
static const char *const evil_helper = "H" EVIL;
static const char *const evil_map = "M" EVIL;
static const char *const evil_mtype = "MT" EVIL;
static const char *const evil_span = "S" EVIL;
static const char *const evil_kind = "K" EVIL;
static const char *const evil_ctr = "C" EVIL;
static const char *const evil_sctr = "SC" EVIL;

#define NIVALS 2
/* The "big" counter's rise per interval: 2^53 + 1, not a double. */
#define BIG ((1ull << 53) + 1)

/* The writer's "records" description as a cJSON item (NULL when out of memory). */
static cJSON *records_item(void)
{
	struct jsonw_mem jm;
	char *txt;
	cJSON *r;

	if (jsonw__mem_open(&jm))
		return NULL;
	rec__records_json(&jm.w);
	txt = jsonw__mem_close(&jm);
	r = txt ? cJSON_Parse(txt) : NULL;
	free(txt);
	return r;
}

/* The metadata JSON of the crafted file (caller frees). cJSON, not the recorder's writer:
 * it writes the hostile bytes raw, as a crafted file would hold them. */
static char *meta_json(uint64_t base)
{
	cJSON *o = cJSON_CreateObject();
	char *txt;

	cJSON_AddStringToObject(o, "format", "lattop recording");
	cJSON_AddStringToObject(o, "host", "host" EVIL);
	cJSON_AddStringToObject(o, "kernel", "kern" EVIL);
	cJSON_AddNumberToObject(o, "start_realtime_ns", 1.7e18);
	cJSON_AddNumberToObject(o, "start_monotonic_ns", (double)base);
	cJSON_AddNumberToObject(o, "interval_ns", 1e9);
	cJSON_AddStringToObject(o, "mode", "programs");
	cJSON_AddStringToObject(o, "filter", "");
	cJSON_AddStringToObject(o, "source", "src" EVIL);
	cJSON_AddStringToObject(o, "notice", "notice" EVIL);
	cJSON_AddStringToObject(o, "seg_notice", "segnotice" EVIL);
	cJSON_AddBoolToObject(o, "raw", true);
	cJSON_AddItemToObject(o, "records", records_item());
	txt = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return txt;
}

/* Set a series' three labels. */
static void label(struct series *s, const char *name, const char *type, const char *sub)
{
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->type, sizeof(s->type), "%s", type);
	snprintf(s->sub, sizeof(s->sub), "%s", sub);
}

/* Encode the crafted session into b: header, NIVALS intervals, one record of events. */
static int encode(struct rec_buf *b)
{
	uint64_t base = 1000 * S;
	struct model *m = model__new(base);
	struct rec_enc *e = rec_enc__new();
	struct lat_event ev[3];
	struct series *p, *h, *sp;
	char *meta = meta_json(base);
	int ret = -ENOMEM;

	if (!m || !e || !meta)
		goto out;
	rec__header(b, meta);
	p = model__series(m, LAT_EV_PROG, 42, 0, 0);
	h = model__series(m, LAT_EV_HELPER, 42, 1, 7);
	sp = model__series(m, LAT_EV_SEG, 3, 0, 0);
	if (!p || !h || !sp)
		goto out;
	label(p, evil_prog, evil_type, "");
	snprintf(p->note, sizeof(p->note), "%s", evil_note);
	{
		/* Who and where, every string crafted (the comm cut to what a comm holds). */
		struct prog_attr a = { .id = 42, .nowners = 1, .owners_total = 1, .npoints = 1,
				       .points_total = 1, .tag = "0123456789abcdef" };

		a.owners[0].pid = 7;
		/* (a comm holds 15 bytes: the title OSC, CR LF and the quoted word) */
		memcpy(a.owners[0].comm, "O\x1b]2;X\x07\r\n\"q\"", 12);
		snprintf(a.cgroup, sizeof(a.cgroup), "/G%s", EVIL);
		snprintf(a.container, sizeof(a.container), "D%s", EVIL);
		snprintf(a.unit, sizeof(a.unit), "U%s", EVIL);
		snprintf(a.points[0].kind, sizeof(a.points[0].kind), "xdp");
		snprintf(a.points[0].where, sizeof(a.points[0].where), "W%s", EVIL);
		model__set_attr(m, p, &a);
	}
	label(h, evil_helper, evil_mtype, evil_map);
	label(sp, evil_span, evil_kind, "");
	snprintf(m->source, sizeof(m->source), "src" EVIL);
	for (int k = 1; k <= NIVALS; k++) {
		for (int i = 0; i < 100; i++) {
			struct lat_event pe = { .kind = LAT_EV_PROG, .id = 42, .dur_ns = 100 + i };
			struct lat_event he = { .kind = LAT_EV_HELPER, .id = 42, .aux = 1, .aux2 = 7,
						.dur_ns = 20 + i };
			struct lat_event se = { .kind = LAT_EV_SEG, .id = 3, .dur_ns = 1000 + i };

			model__add_event(m, &pe, SRC_FENTRY);
			model__add_event(m, &he, SRC_FENTRY);
			model__add_event(m, &se, SRC_FENTRY);
		}
		model__set_counter(m, evil_ctr, 5ull * k);
		model__set_series_counter(m, sp, evil_sctr, true, 2ull * k);
		model__set_series_counter(m, sp, "big", true, k * BIG);
		model__close_interval(m, base + k * S);
		rec_enc__interval(e, m, "", 0, b);
	}
	ev[0] = (struct lat_event){ .kind = LAT_EV_PROG, .id = 42, .cpu = 1, .pid = 9, .tid = 9,
				    .start_ns = base + S / 2, .dur_ns = 150 };
	ev[1] = (struct lat_event){ .kind = LAT_EV_HELPER, .id = 42, .aux = 1, .aux2 = 7,
				    .start_ns = base + S / 2 + 10, .dur_ns = 30 };
	ev[2] = (struct lat_event){ .kind = LAT_EV_SEG, .id = 3, .start_ns = base + S,
				    .dur_ns = 1050 };
	rec__events(b, ev, 3);
	ret = b->oom ? -ENOMEM : 0;
out:
	free(meta);
	rec_enc__free(e);
	model__free(m);
	return ret;
}

/* The crafted strings come back from the file byte for byte. */
static void test_strings_kept(void)
{
	struct rec_buf b = { 0 };
	struct rec_file f = { 0 };
	struct model *m = model__new(0);
	struct series *s;
	char err[256];

	if (!ASSERT_OK(encode(&b), "encode") || !m)
		goto out;
	if (!ASSERT_OK(rec__scan(&f, b.p, b.len, err, sizeof(err)), "scan"))
		goto out;
	ASSERT_STREQ(f.damage, "", "no damage");
	ASSERT_EQ(f.nevents, 3, "events");
	ASSERT_STREQ(rec__meta_str(&f, "host"), "host" EVIL, "host");
	ASSERT_STREQ(rec__meta_str(&f, "notice"), "notice" EVIL, "notice");
	for (size_t i = 0; i < f.nrecs; i++)
		rec__apply(&f, i, m, NULL, 0);
	s = model__find(m, LAT_EV_PROG, 42, 0, 0);
	if (ASSERT_TRUE(s != NULL, "program")) {
		ASSERT_STREQ(s->name, evil_prog, "program name");
		ASSERT_STREQ(s->type, evil_type, "program type");
		ASSERT_STREQ(s->note, evil_note, "note");
		if (ASSERT_TRUE(s->attr != NULL, "attr")) {
			ASSERT_STREQ(s->attr->container, "D" EVIL, "container");
			ASSERT_STREQ(s->attr->points[0].where, "W" EVIL, "attach point");
			ASSERT_STREQ(s->attr->owners[0].comm, "O\x1b]2;X\x07\r\n\"q\"", "comm");
		}
	}
	s = model__find(m, LAT_EV_HELPER, 42, 1, 7);
	if (ASSERT_TRUE(s != NULL, "helper")) {
		ASSERT_STREQ(s->name, evil_helper, "helper name");
		ASSERT_STREQ(s->sub, evil_map, "map name");
	}
	ASSERT_EQ(model__counter(m, NULL, evil_ctr, true), 10, "counter by its crafted name");
	rec__fini(&f);
out:
	model__free(m);
	rec_buf__fini(&b);
}

/* Write the crafted recording to path. */
static int write_file(const char *path)
{
	struct rec_buf b = { 0 };
	FILE *f;
	int e = encode(&b);

	if (e)
		return e;
	f = fopen(path, "w");
	if (!f || fwrite(b.p, 1, b.len, f) != b.len)
		e = -EIO;
	if (f && fclose(f))
		e = -EIO;
	rec_buf__fini(&b);
	return e;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_file(argv[2]) ? 1 : 0;
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--write FILE]\n", argv[0]);
		return 2;
	}
	test__suite = "rec-escape";
	RUN_TEST(test_strings_kept);
	return TEST_EXIT();
}
