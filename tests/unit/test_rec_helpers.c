// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_rec_helpers.c - helpers-mode recordings, which the development kernel cannot make (no
 * fentry): a generated model with two programs and three helper series (map names, a helper
 * silent in one interval, a named counter) is recorded and read back.
 *
 * Without arguments: unit tests (helper rows and map names survive the round trip, a dropped
 * frame's series are re-sent, lost writer frames are read back). With `--write FILE`: record the
 * generated session to FILE through the real writer (recorder.c) and print, per interval, one
 * JSON line {"rows": [...]} holding the helper rows as `-b -o json` prints them, so a shell
 * test can replay FILE with the real binary and compare (tests/host/t_replay_helpers.sh).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fixtures.h"
#include "rec/rec.h"
#include "rec/recorder.h"
#include "output/record.h"
#include "session/session.h"
#include "test.h"
#include "ui/columns.h"

#define NIVALS 3

/* The generated helper series: program, helper id, map id, helper, map type, map name. */
static const struct gen_helper {
	uint32_t prog, helper, map;
	const char *name, *type, *sub;
} gen_helpers[] = {
	{ 10, 1, 5, "map_lookup_elem", "hash", "flows" },
	{ 10, 2, 5, "map_update_elem", "hash", "flows" },
	{ 11, 1, 7, "map_lookup_elem", "array", "cfg" },
};
#define NHELPERS (sizeof(gen_helpers) / sizeof(gen_helpers[0]))

/* A model in helpers mode with the programs and helper series of the generated session. */
static struct model *gen_model(uint64_t base)
{
	struct model *m = model__new(base);
	struct prog_stat st[2] = { ps(10, "xdp_fw", 0, 0), ps(11, "tc_nat", 0, 0) };

	if (!m)
		return NULL;
	snprintf(st[1].type_name, sizeof(st[1].type_name), "sched_cls");
	model__apply_stats(m, st, 2, base);
	m->mode = MODE_HELPERS;
	snprintf(m->source, sizeof(m->source), "fentry");
	m->probed = 2;
	for (size_t j = 0; j < NHELPERS; j++) {
		const struct gen_helper *g = &gen_helpers[j];
		struct series *h = model__series(m, LAT_EV_HELPER, g->prog, g->helper, g->map);

		if (!h) {
			model__free(m);
			return NULL;
		}
		h->src |= SRC_FENTRY;
		snprintf(h->name, sizeof(h->name), "%s", g->name);
		snprintf(h->type, sizeof(h->type), "%s", g->type);
		snprintf(h->sub, sizeof(h->sub), "%s", g->sub);
	}
	return m;
}

/* Feed interval k (1-based) of the generated session into m and close it at base + k s:
 * program and helper events with spread-out durations (helper 2 is silent in interval 2),
 * stats, and a named counter. */
static void gen_interval(struct model *m, uint64_t base, int k)
{
	struct prog_stat st[2] = { ps(10, "xdp_fw", 1000ull * k, 900000ull * k),
				   ps(11, "tc_nat", 300ull * k, 150000ull * k) };

	snprintf(st[1].type_name, sizeof(st[1].type_name), "sched_cls");
	model__apply_stats(m, st, 2, base + k * S);
	for (int i = 0; i < 400 * k; i++) {
		struct lat_event e = { .kind = LAT_EV_PROG, .id = 10 + i % 2,
				       .dur_ns = 300 + (uint64_t)(i * 53 % 2000) };

		model__add_event(m, &e, SRC_FENTRY);
	}
	for (size_t j = 0; j < NHELPERS; j++) {
		const struct gen_helper *g = &gen_helpers[j];

		if (j == 2 && k == 2)
			continue;
		for (uint64_t i = 0; i < 100 * (j + 1) * k; i++) {
			struct lat_event e = { .kind = LAT_EV_HELPER, .id = g->prog,
					       .aux = g->helper, .aux2 = g->map,
					       .dur_ns = 20 + (i * 37 % 900) * (j + 1) + 7 * k };

			model__add_event(m, &e, SRC_FENTRY);
		}
	}
	model__set_tally(m, "gen_ticks", 10ull * k);
	model__close_interval(m, base + k * S);
}

/* Print the helper rows of m's last interval as `-b -o json` prints them (one JSON line). */
static void print_rows(struct model *m, FILE *out)
{
	cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "rows");
	char *txt;

	for (size_t i = 0; i < m->n; i++) {
		const struct series *se = &m->s[i];
		const struct series *p = model__find(m, LAT_EV_PROG, se->id, 0, 0);
		cJSON *o;
		struct row r;

		if (se->kind != LAT_EV_HELPER)
			continue;
		model__row(m, se, false, &r);
		r.prog_name = p ? p->name : NULL;
		o = cJSON_CreateObject();
		for (int c = 0; c < helper_ncolumns; c++) {
			struct cell cell;
			cJSON *v;

			helper_columns[c].get(&r, &cell);
			switch (cell.t) {
			case CELL_U64:
				v = cJSON_CreateNumber((double)cell.u);
				break;
			case CELL_STR:
				v = cJSON_CreateString(cell.s);
				break;
			case CELL_NS:
				v = cJSON_CreateNumber(cell.d < 0 ? 0
								   : (double)(uint64_t)(cell.d + 0.5));
				break;
			case CELL_DBL:
			case CELL_PCT:
				v = cJSON_CreateNumber(cell.d);
				break;
			default:
				v = cJSON_CreateNull();
			}
			cJSON_AddItemToObject(o, helper_columns[c].key, v);
		}
		cJSON_AddItemToArray(arr, o);
	}
	txt = cJSON_PrintUnformatted(root);
	fprintf(out, "%s\n", txt ? txt : "{}");
	free(txt);
	cJSON_Delete(root);
}

/* Record the generated session to path through the writer; the expected rows go to out. */
static int write_recording(const char *path, FILE *out)
{
	static struct opts o;
	struct session s = { 0 };
	uint64_t base = now_ns();
	char err[320];
	int e;

	o.interval_ns = S;
	o.batch = true;
	s.o = &o;
	s.m = gen_model(base);
	if (!s.m)
		return -ENOMEM;
	e = session__record_start(&s, path, false, err, sizeof(err));
	if (e) {
		fprintf(stderr, "test_rec_helpers: %s\n", err);
		model__free(s.m);
		return e;
	}
	for (int k = 1; k <= NIVALS; k++) {
		gen_interval(s.m, base, k);
		session__record_interval(&s);
		print_rows(s.m, out);
	}
	session__record_stop(&s);
	model__free(s.m);
	return 0;
}

/* Encode the generated session's intervals with one encoder into b (header first); lost[k]
 * is the writer's lost-frame count handed to interval k + 1. */
static struct model *encode(struct rec_buf *b, const uint32_t *lost)
{
	struct model *m = gen_model(0);
	struct rec_enc *e = rec_enc__new();

	rec__header(b, "{\"host\":\"gen\",\"mode\":\"helpers\"}");
	for (int k = 1; m && e && k <= NIVALS; k++) {
		gen_interval(m, 0, k);
		rec_enc__interval(e, m, "", lost ? lost[k - 1] : 0, b);
	}
	rec_enc__free(e);
	return m;
}

/* Replay every good record of f into a fresh model. */
static struct model *replay_all(const struct rec_file *f)
{
	struct model *m = model__new(0);

	for (size_t i = 0; m && i < f->nrecs; i++)
		rec__apply(f, i, m, NULL, 0);
	return m;
}

/* Helper series of both models agree: names, map names and types, last and total figures. */
static bool same_helpers(struct model *a, struct model *b)
{
	bool ok = true;

	for (size_t j = 0; j < NHELPERS; j++) {
		const struct gen_helper *g = &gen_helpers[j];
		struct series *sa = model__find(a, LAT_EV_HELPER, g->prog, g->helper, g->map);
		struct series *sb = model__find(b, LAT_EV_HELPER, g->prog, g->helper, g->map);
		struct row ra, rb;

		if (!ASSERT_TRUE(sa && sb, "helper series present"))
			return false;
		ok &= ASSERT_STREQ(sb->name, g->name, "helper name");
		ok &= ASSERT_STREQ(sb->type, g->type, "map type");
		ok &= ASSERT_STREQ(sb->sub, g->sub, "map name");
		for (int cum = 0; cum < 2; cum++) {
			model__row(a, sa, cum, &ra);
			model__row(b, sb, cum, &rb);
			ok &= ASSERT_EQ(rb.count, ra.count, "count");
			ok &= ASSERT_EQ(rb.p50, ra.p50, "p50");
			ok &= ASSERT_EQ(rb.p99, ra.p99, "p99");
			ok &= ASSERT_EQ(rb.max, ra.max, "max");
			ok &= ASSERT_TRUE(rb.avg_ns == ra.avg_ns, "avg");
		}
	}
	return ok;
}

static void test_helpers_round_trip(void)
{
	struct rec_buf b = { 0 };
	struct model *live = encode(&b, NULL), *rep = NULL;
	struct series *silent;
	struct row r;
	struct rec_file f;
	char err[256];

	if (!ASSERT_TRUE(live && !b.oom, "encoded"))
		goto out;
	if (!ASSERT_OK(rec__scan(&f, b.p, b.len, err, sizeof(err)), "scan"))
		goto out;
	ASSERT_STREQ(f.damage, "", "no damage");
	ASSERT_EQ(f.nivals, NIVALS, "intervals");
	ASSERT_EQ(f.version, REC_MAJOR << 16 | REC_MINOR, "version written");
	rep = replay_all(&f);
	ASSERT_EQ(rep->mode, MODE_HELPERS, "recorded mode");
	same_helpers(live, rep);
	/* The helper silent in interval 2 counts 300 + 900 calls over the recording. */
	silent = model__find(rep, LAT_EV_HELPER, 11, 1, 7);
	if (ASSERT_NONNULL(silent, "silent helper replayed")) {
		model__row(rep, silent, true, &r);
		ASSERT_EQ(r.count, 300 + 900, "silent helper total");
	}
	ASSERT_EQ(model__counter(rep, NULL, "gen_ticks", true), 30, "named counter total");
	rec__fini(&f);
out:
	model__free(rep);
	model__free(live);
	rec_buf__fini(&b);
}

/* A frame the writer dropped took the encoder's first mention of every series with it:
 * rec_enc__forget makes the next frame carry them again. */
static void test_resend_after_drop(void)
{
	struct model *m = gen_model(0), *rep = NULL;
	struct rec_enc *e = rec_enc__new();
	struct rec_buf dropped = { 0 }, b = { 0 };
	struct series *sp, *sh;
	struct rec_file f;
	char err[256];

	rec__header(&b, "{\"host\":\"gen\"}");
	gen_interval(m, 0, 1);
	rec_enc__interval(e, m, "10", 0, &dropped); /* never reaches the file */
	rec_enc__forget(e);
	gen_interval(m, 0, 2);
	rec_enc__interval(e, m, "10", 1, &b);
	if (!ASSERT_OK(rec__scan(&f, b.p, b.len, err, sizeof(err)), "scan"))
		goto out;
	ASSERT_EQ(f.nivals, 1, "one interval written");
	rep = model__new(0);
	for (size_t i = 0; i < f.nrecs; i++) {
		char filt[64] = "";

		if (rec__apply(&f, i, rep, filt, sizeof(filt)) == REC_FILTER)
			ASSERT_STREQ(filt, "10", "filter re-sent");
	}
	sp = model__find(rep, LAT_EV_PROG, 10, 0, 0);
	sh = model__find(rep, LAT_EV_HELPER, 10, 2, 5);
	if (ASSERT_NONNULL(sp, "program series"))
		ASSERT_STREQ(sp->name, "xdp_fw", "program re-sent");
	if (ASSERT_NONNULL(sh, "helper series"))
		ASSERT_STREQ(sh->sub, "flows", "helper re-sent");
	ASSERT_EQ(model__counter(rep, NULL, "gen_ticks", false), 10, "counter re-sent");
	rec__fini(&f);
out:
	model__free(rep);
	model__free(m);
	rec_enc__free(e);
	rec_buf__fini(&dropped);
	rec_buf__fini(&b);
}

/* The writer's lost-frame count (interval offset 68, absolute) reads back as the growth of a
 * "lost_frames" loss counter per interval. */
static void test_lost_frames(void)
{
	static const uint32_t lost[NIVALS] = { 0, 2, 2 };
	struct rec_buf b = { 0 };
	struct model *live = encode(&b, lost), *rep = model__new(0);
	struct rec_file f;
	char err[256];
	uint64_t per[NIVALS] = { 0 };
	size_t k = 0;

	if (!ASSERT_OK(rec__scan(&f, b.p, b.len, err, sizeof(err)), "scan"))
		goto out;
	for (size_t i = 0; i < f.nrecs; i++)
		if (rec__apply(&f, i, rep, NULL, 0) == REC_INTERVAL && k < NIVALS)
			per[k++] = model__counter(rep, NULL, "lost_frames", false);
	ASSERT_EQ(per[0], 0, "nothing lost before interval 1");
	ASSERT_EQ(per[1], 2, "two frames lost before interval 2");
	ASSERT_EQ(per[2], 0, "none more before interval 3");
	ASSERT_EQ(model__counter(rep, NULL, "lost_frames", true), 2, "lost over the recording");
	ASSERT_EQ(rec__ival_lost(&f, 2), 2, "rec__ival_lost");
	rec__fini(&f);
out:
	model__free(rep);
	model__free(live);
	rec_buf__fini(&b);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_recording(argv[2], stdout) ? 1 : 0;
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--write FILE]\n", argv[0]);
		return 2;
	}
	test__suite = "rec-helpers";
	RUN_TEST(test_helpers_round_trip);
	RUN_TEST(test_resend_after_drop);
	RUN_TEST(test_lost_frames);
	printf("rec-helpers: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
