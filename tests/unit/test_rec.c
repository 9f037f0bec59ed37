// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_rec.c - the recording format: encode intervals of a model, scan them back into a fresh
 * model with the same rows; truncation at every byte; bad magic; newer version; unknown record
 * types skipped; a flipped bit ends the readable data at that record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rec/codec.h"
#include "rec/rec.h"
#include "fixtures.h"
#include "test.h"


/* Record three intervals of a model with two programs (one self-timed) into b; the live model
 * is returned for comparison. Record boundaries go to bounds (count in *nb). */
static struct model *record(struct rec_buf *b, size_t *bounds, size_t *nb)
{
	struct model *m = model__new(0);
	struct rec_enc *e = rec_enc__new();
	struct prog_stat st[2] = { ps(10, "a", 100, 1000), ps(11, "b", 5, 50) };
	struct series *a;

	rec__header(b, "{\"host\":\"t\",\"interval_ns\":1000000000}");
	*nb = 0;
	model__apply_stats(m, st, 2, 0);
	for (int k = 1; k <= 3; k++) {
		size_t before = b->len;

		st[0] = ps(10, "a", 100 + 1000 * k, 1000 + 77777 * k);
		if (k == 3)
			model__apply_stats(m, st, 1, k * S); /* b is unloaded */
		else
			model__apply_stats(m, st, 2, k * S);
		for (int i = 0; i < 500 * k; i++) {
			struct lat_event ev = { .kind = LAT_EV_PROG, .id = 10,
						.dur_ns = 100 + (uint64_t)i * i * 7 };

			model__add_event(m, &ev, SRC_SELF);
		}
		model__set_losses(m, &(struct model_losses){ .rb_drops = k, .queue_drops = 2 * k });
		/* Named counters: a session-wide loss growing 3, 9, 15; a tally; a series loss
		 * that grows only in interval 2. */
		model__set_counter(m, "fifo_overflow", 3ull * k * k);
		model__set_tally(m, "pkts_matched", 100ull * k);
		a = model__find(m, LAT_EV_PROG, 10, 0, 0);
		if (ASSERT_NONNULL(a, "series 10 recorded")) /* NULL: the session's counter */
			model__set_series_counter(m, a, "unmatched", true, k >= 2 ? 5 : 0);
		/* Who and where: known from interval 1, a second owner in interval 2. */
		if (a && k <= 2)
			model__set_attr(m, a, &(struct prog_attr){
				.id = 10, .uid = 0, .load_time_s = 1700000000, .tag = "0123456789abcdef",
				.verified_insns = 42, .nowners = (uint32_t)k, .owners_total = 5,
				.owners = { { 77, "\x1b[2Jevil\n" }, { 78, "agent" } },
				.cgroup = "/system.slice/docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope",
				.container = "docker:0123456789ab", .unit = "",
				.npoints = 1, .points_total = 1,
				.points = { { "xdp", "ifb0 generic", 9 } } });
		model__close_interval(m, k * S);
		rec_enc__interval(e, m, k == 2 ? "10" : "", 0, b);
		/* Record boundaries: walk the records this frame added. */
		for (size_t off = before; off < b->len;) {
			uint32_t len = b->p[off + 4] | b->p[off + 5] << 8 | b->p[off + 6] << 16 |
				       (uint32_t)b->p[off + 7] << 24;

			off += 12 + len;
			bounds[(*nb)++] = off;
		}
	}
	rec_enc__free(e);
	return m;
}

/* Replay every good record of f into a fresh model. */
static struct model *replay_all(const struct rec_file *f)
{
	struct model *m = model__new(0);

	for (size_t i = 0; i < f->nrecs; i++)
		rec__apply(f, i, m, NULL, 0);
	return m;
}

/* Do two models show the same last-interval and cumulative rows for program id? */
static bool same_rows(struct model *a, struct model *b, uint32_t id)
{
	struct series *sa = model__find(a, LAT_EV_PROG, id, 0, 0);
	struct series *sb = model__find(b, LAT_EV_PROG, id, 0, 0);
	struct row ra, rb;

	if (!sa || !sb)
		return false;
	for (int cum = 0; cum < 2; cum++) {
		model__row(a, sa, cum, &ra);
		model__row(b, sb, cum, &rb);
		if (ra.count != rb.count || ra.p50 != rb.p50 || ra.p99 != rb.p99 ||
		    ra.p999 != rb.p999 || ra.max != rb.max || ra.avg_ns != rb.avg_ns ||
		    ra.rate != rb.rate || ra.cpu_pct != rb.cpu_pct || ra.total_runs != rb.total_runs ||
		    ra.has_dist != rb.has_dist || sa->gone != sb->gone || strcmp(sa->name, sb->name))
			return false;
	}
	return true;
}

static void test_round_trip(void)
{
	struct rec_buf b = { 0 };
	size_t bounds[64], nb;
	struct model *live = record(&b, bounds, &nb), *rep = NULL;
	struct series *a;
	struct rec_file f;
	char err[256];

	if (!ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), 0, "scan"))
		goto out;
	ASSERT_STREQ(f.damage, "", "no damage");
	ASSERT_EQ(f.nivals, 3, "three intervals");
	rep = replay_all(&f);
	ASSERT_TRUE(same_rows(live, rep, 10), "program a rows equal");
	ASSERT_TRUE(same_rows(live, rep, 11), "program b rows equal (gone)");
	ASSERT_EQ(rep->c_last.rb_drops, live->c_last.rb_drops, "rb drops");
	ASSERT_EQ(rep->c_cum.queue_drops, live->c_cum.queue_drops, "queue drops total");
	ASSERT_EQ(rep->c_cum.events, live->c_cum.events, "events total");
	ASSERT_EQ(rep->last_end_ns, live->last_end_ns, "interval end");
	ASSERT_EQ(model__counter(rep, NULL, "fifo_overflow", false), 15, "counter last interval");
	ASSERT_EQ(model__counter(rep, NULL, "fifo_overflow", true), 27, "counter since start");
	ASSERT_EQ(model__counter(rep, NULL, "pkts_matched", true), 300, "tally since start");
	ASSERT_TRUE(model__counters_lost(rep, NULL), "a session loss in the last interval");
	/* (a NULL series would ask for the session-wide counter instead) */
	a = model__find(rep, LAT_EV_PROG, 10, 0, 0);
	if (ASSERT_NONNULL(a, "replayed series 10")) {
		ASSERT_EQ(model__counter(rep, a, "unmatched", false), 0,
			  "series counter: nothing in interval 3");
		ASSERT_EQ(model__counter(rep, a, "unmatched", true), 5, "series counter since start");
		ASSERT_TRUE(!model__counters_lost(rep, a), "no series loss in the last interval");
	}
	if (a && ASSERT_NONNULL(a->attr, "replayed attr")) {
		struct series *la = model__find(live, LAT_EV_PROG, 10, 0, 0);

		ASSERT_TRUE(la && la->attr && !memcmp(la->attr, a->attr, sizeof(*a->attr)),
			    "attr replays byte for byte (second owner, crafted comm)");
		ASSERT_EQ(a->attr->nowners, 2, "two owners kept");
		ASSERT_EQ(a->attr->owners_total, 5, "owners total");
		ASSERT_STREQ(a->attr->owners[0].comm, "\x1b[2Jevil\n", "comm bytes as recorded");
		ASSERT_STREQ(a->attr->points[0].where, "ifb0 generic", "attach point");
	}
	ASSERT_STREQ(rec__meta_str(&f, "host"), "t", "metadata");
	rec__fini(&f);
out:
	model__free(rep);
	model__free(live);
	rec_buf__fini(&b);
}

static void test_truncation_every_byte(void)
{
	struct rec_buf b = { 0 };
	size_t bounds[64], nb, hdr, bad = 0;
	struct model *live = record(&b, bounds, &nb);
	char err[256];

	hdr = REC_HDR_LEN + (b.p[16] | b.p[17] << 8 | b.p[18] << 16 | (size_t)b.p[19] << 24);
	for (size_t cut = hdr; cut <= b.len; cut++) {
		struct rec_file f;
		size_t good = 0, last = hdr;

		for (size_t i = 0; i < nb; i++)
			if (bounds[i] <= cut) {
				good = i + 1;
				last = bounds[i];
			}
		if (rec__scan(&f, b.p, cut, err, sizeof(err))) {
			bad++;
			continue;
		}
		if (f.nrecs != good)
			bad++;
		if (cut == last && f.damage[0])
			bad++;
		if (cut != last) {
			char want[64];

			snprintf(want, sizeof(want), "at byte %zu:", last);
			if (!strstr(f.damage, want))
				bad++;
		}
		struct model *m = replay_all(&f);

		model__free(m);
		rec__fini(&f);
	}
	ASSERT_EQ(bad, 0, "every cut reads the records before it and names the offset");
	model__free(live);
	rec_buf__fini(&b);
}

static void test_bad_magic_and_version(void)
{
	struct rec_buf b = { 0 };
	size_t bounds[64], nb;
	struct model *live = record(&b, bounds, &nb);
	struct rec_file f;
	char err[256];

	b.p[0] = 'X';
	ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), -EINVAL, "bad magic refused");
	ASSERT_TRUE(strstr(err, "bad magic") != NULL, "bad magic message");
	b.p[0] = 'L';
	b.p[14] = 2; /* major 2, minor 1 */
	b.p[12] = 1;
	ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), -EPROTO, "newer major refused");
	ASSERT_TRUE(strstr(err, "format version 2.1, newer") != NULL, "version message");
	b.p[14] = 1;
	b.p[12] = 9; /* minor 9: read */
	ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), 0, "newer minor read");
	rec__fini(&f);
	ASSERT_EQ(rec__scan(&f, b.p, 5, err, sizeof(err)), -EINVAL, "short header refused");
	model__free(live);
	rec_buf__fini(&b);
}

static void test_unknown_type_and_crc(void)
{
	struct rec_buf b = { 0 };
	size_t bounds[64], nb;
	struct model *live = record(&b, bounds, &nb);
	struct rec_buf u = { 0 };
	struct rec_file f;
	char err[256];
	uint32_t crc;
	uint8_t rec[12 + 3] = { 99, 0, 0, 0, 3, 0, 0, 0, 'x', 'y', 'z' };

	/* An unknown record type between two known ones is skipped by length. */
	crc = rec__crc32(0, rec, 11);
	memcpy(rec + 11, &crc, 4);
	u.p = malloc(b.len + sizeof(rec));
	memcpy(u.p, b.p, bounds[0]);
	memcpy(u.p + bounds[0], rec, sizeof(rec));
	memcpy(u.p + bounds[0] + sizeof(rec), b.p + bounds[0], b.len - bounds[0]);
	u.len = b.len + sizeof(rec);
	if (ASSERT_EQ(rec__scan(&f, u.p, u.len, err, sizeof(err)), 0, "scan with unknown")) {
		struct model *m = replay_all(&f);

		ASSERT_EQ(f.nivals, 3, "all intervals despite the unknown record");
		ASSERT_STREQ(f.damage, "", "unknown type is no damage");
		ASSERT_TRUE(same_rows(live, m, 10), "rows equal");
		model__free(m);
		rec__fini(&f);
	}
	/* A flipped bit in the second interval's records: everything before it is read. */
	b.p[bounds[nb - 1] - 20] ^= 0x10;
	if (ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), 0, "scan flipped")) {
		ASSERT_EQ(f.nivals, 2, "two intervals before the damage");
		ASSERT_TRUE(strstr(f.damage, "CRC mismatch") != NULL, "CRC named");
		rec__fini(&f);
	}
	rec_buf__fini(&u);
	model__free(live);
	rec_buf__fini(&b);
}

/* Append a framed record (type, payload, CRC) to b. */
static void put_rec(struct rec_buf *b, uint32_t type, const uint8_t *p, uint32_t len)
{
	uint8_t *r = malloc(12 + (size_t)len);
	uint32_t crc;

	memcpy(r, &type, 4);
	memcpy(r + 4, &len, 4);
	memcpy(r + 8, p, len);
	crc = rec__crc32(0, r, 8 + (size_t)len);
	memcpy(r + 8 + len, &crc, 4);
	b->p = realloc(b->p, b->len + 12 + len);
	memcpy(b->p + b->len, r, 12 + (size_t)len);
	b->len += 12 + len;
	free(r);
}

/* An interval entry whose bucket count doubles past 2^32 (0x80000003: 2 * nb wraps to 6, which
 * six one-byte varints satisfied) is damage, not ~2^31 loop turns in the applier (found by the
 * fuzzer once it got past the CRC). */
static void test_bucket_count_wrap(void)
{
	struct rec_buf b = { 0 };
	uint8_t p[REC_INTERVAL_FIXED + REC_ENTRY_FIXED + 6] = { 0 };
	uint32_t one = 1, nb = 0x80000003u, blen = 6;
	uint16_t kind = LAT_EV_PROG, flags = 1;
	struct rec_file f;
	char err[256];

	rec__header(&b, "{}");
	memcpy(p + 20, &one, 4); /* nentries */
	memcpy(p + REC_INTERVAL_FIXED, &kind, 2);
	memcpy(p + REC_INTERVAL_FIXED + 2, &flags, 2);
	memcpy(p + REC_INTERVAL_FIXED + 80, &nb, 4);
	memcpy(p + REC_INTERVAL_FIXED + 84, &blen, 4);
	memset(p + REC_INTERVAL_FIXED + REC_ENTRY_FIXED, 1, 6);
	put_rec(&b, REC_INTERVAL, p, sizeof(p));
	if (ASSERT_OK(rec__scan(&f, b.p, b.len, err, sizeof(err)), "scan")) {
		ASSERT_EQ(f.nivals, 0, "the record is not indexed");
		ASSERT_TRUE(strstr(f.damage, "at byte 22: interval record buckets are malformed") !=
				    NULL,
			    "damage named");
		rec__fini(&f);
	}
	rec_buf__fini(&b);
}

/* model__add_hist restores count, sum, min and max exactly; model__set_stats the deltas. */
static void test_model_replay_functions(void)
{
	struct model *m = model__new(0);
	struct series *s = model__series(m, LAT_EV_PROG, 7, 0, 0);
	uint32_t idx[2] = { hist__bucket(1000), hist__bucket(5000) };
	uint64_t cnt[2] = { 3, 1 };
	struct hist_delta d = { .count = 4, .sum = 8000, .min = 990, .max = 5010 };
	struct row r;

	s->src = SRC_SELF | SRC_STATS;
	ASSERT_EQ(model__add_hist(m, s, idx, cnt, 2, &d), 0, "add_hist");
	model__set_stats(m, s, 40, 4000, 1234);
	model__set_measured(m, s);
	model__close_interval(m, S);
	model__row(m, s, false, &r);
	ASSERT_EQ(r.count, 4, "count");
	ASSERT_EQ(r.max, 5010, "max exact");
	ASSERT_EQ((long long)r.avg_ns, 2000, "avg from the exact sum");
	ASSERT_EQ(r.total_runs, 1234, "absolute run count");
	ASSERT_EQ(s->st_last.cnt, 40, "stats delta");
	ASSERT_EQ(m->c_last.events, 0, "events come from the recorded counters, not buckets");
	model__free(m);
}

/* A probed program's boundary interval (runs seen by bpf_stats, no event yet) replays as it
 * showed live: count 0 from events, the next interval the events, and a program probed from
 * the second interval on stats then events. A format 1.2 file keeps the old rule. */
/* Heat histories of program id in two models are equal. */
static bool same_heat(struct model *a, struct model *b, uint32_t id)
{
	struct heat_slot x[MODEL_P99_RING], y[MODEL_P99_RING];
	struct series *sa = model__find(a, LAT_EV_PROG, id, 0, 0);
	struct series *sb = model__find(b, LAT_EV_PROG, id, 0, 0);
	size_t n = sa ? model__heat_history(a, sa, x, MODEL_P99_RING) : 0;

	if (!sa || !sb || model__heat_history(b, sb, y, MODEL_P99_RING) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (x[i].n != y[i].n || (x[i].n && (x[i].lo != y[i].lo || x[i].p50 != y[i].p50 ||
						    x[i].p99 != y[i].p99 ||
						    memcmp(x[i].cnt, y[i].cnt, x[i].n * 4))))
			return false;
	return true;
}

/* Apply f's records to a fresh model until k intervals are in it (as a replay seek does). */
static struct model *replay_to(const struct rec_file *f, size_t k)
{
	struct model *m = model__new(0);

	for (size_t i = 0, done = 0; i < f->nrecs && done < k; i++)
		if (rec__apply(f, i, m, NULL, 0) == REC_INTERVAL)
			done++;
	return m;
}

/* The heatmap's history comes back from a recording: a seek to interval 30 rebuilds the heat
 * ring the live model had then, and a seek to the end the one it has now (wrapped, with the
 * step from 1 us to 100 us at interval 40 in view). */
static void test_heat_seek(void)
{
	struct model *live = model__new(0), *at30 = NULL, *rep = NULL;
	struct rec_enc *e = rec_enc__new();
	struct heat_slot h[MODEL_P99_RING];
	struct rec_buf b = { 0 };
	struct rec_file f;
	char err[256];

	rec__header(&b, "{}");
	for (int k = 0; k < 80; k++) {
		for (int i = 0; k != 20 && i < 50 + k; i++) { /* interval 20 idle */
			struct lat_event ev = { .kind = LAT_EV_PROG, .id = 9,
						.dur_ns = k < 40 ? 1000 : 100000 };

			model__add_event(live, &ev, SRC_SELF);
		}
		model__close_interval(live, (k + 1) * S);
		rec_enc__interval(e, live, "", 0, &b);
		if (k == 29) {
			if (!ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), 0, "scan at 30"))
				goto out;
			at30 = replay_to(&f, 30);
			ASSERT_TRUE(same_heat(live, at30, 9), "replayed to 30 as live at 30");
			rec__fini(&f);
		}
	}
	if (!ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), 0, "scan"))
		goto out;
	rep = replay_to(&f, f.nivals);
	ASSERT_TRUE(same_heat(live, rep, 9), "replayed to the end as live");
	model__free(rep);
	rep = replay_to(&f, 30); /* a seek back rebuilds from the start */
	ASSERT_TRUE(same_heat(at30, rep, 9), "seek back to 30");
	ASSERT_EQ(model__heat_history(rep, model__find(rep, LAT_EV_PROG, 9, 0, 0), h, 60), 30,
		  "30 intervals at 30");
	ASSERT_EQ(h[29].lo, model__heat_row(1000), "1 us before the step");
	model__free(rep);
	rep = replay_to(&f, f.nivals);
	ASSERT_EQ(model__heat_history(rep, model__find(rep, LAT_EV_PROG, 9, 0, 0), h, 60), 60,
		  "a full ring at the end");
	ASSERT_TRUE(h[19].lo == model__heat_row(1000) && h[20].lo == model__heat_row(100000),
		    "the step at interval 40, 20 slots in");
	rec__fini(&f);
out:
	model__free(at30);
	model__free(rep);
	model__free(live);
	rec_enc__free(e);
	rec_buf__fini(&b);
}

static void test_probed_boundary_replays(void)
{
	struct model *live = model__new(0), *rep = NULL;
	struct rec_enc *e = rec_enc__new();
	struct prog_stat st[2] = { ps(20, "w", 1000, 0), ps(21, "late", 0, 0) };
	struct rec_buf b = { 0 };
	uint64_t want[3][2], sum = 0;
	struct rec_file f;
	struct row r;
	char err[256];

	rec__header(&b, "{}");
	model__apply_stats(live, st, 2, 0);
	model__set_probing(live, model__find(live, LAT_EV_PROG, 20, 0, 0), true);
	for (int k = 1; k <= 3; k++) {
		st[0] = ps(20, "w", 1000 + 300 * k, 0);
		st[1] = ps(21, "late", 40 * k, 0);
		model__apply_stats(live, st, 2, k * S);
		for (int i = 0; k > 1 && i < 300 + (k == 2 ? 300 : 0); i++) {
			struct lat_event ev = { .kind = LAT_EV_PROG, .id = 20, .dur_ns = 700 };

			model__add_event(live, &ev, SRC_FENTRY);
		}
		model__close_interval(live, k * S);
		rec_enc__interval(e, live, "", 0, &b);
		if (k == 2) /* "late" gets its probes after the close of interval 2, as a session
			     * attaches them */
			model__set_probing(live, model__find(live, LAT_EV_PROG, 21, 0, 0), true);
		for (int j = 0; j < 2; j++) {
			model__row(live, model__find(live, LAT_EV_PROG, 20 + j, 0, 0), false, &r);
			want[k - 1][j] = r.count;
		}
		sum += want[k - 1][0];
	}
	ASSERT_EQ(want[0][0], 0, "live: boundary interval 0");
	ASSERT_EQ(sum, 900, "live: counts add up to the runs");
	ASSERT_EQ(want[0][1], 40, "live: late is stats in interval 1");
	ASSERT_EQ(want[1][1], 40, "live: late's probes came after interval 2");
	ASSERT_EQ(want[2][1], 0, "live: late probed, no event");
	if (!ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), 0, "scan"))
		goto out;
	rep = model__new(0);
	for (size_t i = 0, k = 0; i < f.nrecs; i++)
		if (rec__apply(&f, i, rep, NULL, 0) == REC_INTERVAL) {
			for (int j = 0; j < 2; j++) {
				model__row(rep, model__find(rep, LAT_EV_PROG, 20 + j, 0, 0), false,
					   &r);
				ASSERT_EQ(r.count, want[k][j], "replayed count as live");
			}
			k++;
		}
	ASSERT_TRUE(same_rows(live, rep, 20), "rows equal");
	ASSERT_TRUE(same_rows(live, rep, 21), "late's rows equal");
	rec__fini(&f);
	/* Format 1.2 (the minor at byte 12): a histogram wins, as lattop then showed it. */
	b.p[12] = 2;
	if (ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), 0, "scan 1.2")) {
		model__free(rep);
		rep = replay_all(&f);
		model__row(rep, model__find(rep, LAT_EV_PROG, 21, 0, 0), true, &r);
		ASSERT_EQ(r.count, 120, "1.2: late has no histogram: stats since start");
		rec__fini(&f);
	}
out:
	model__free(rep);
	model__free(live);
	rec_enc__free(e);
	rec_buf__fini(&b);
}

/* An attr record whose owners or points run past its end is damage at that record, and what
 * came before it replays; one that adds up is applied (more owners than the model keeps are
 * counted, not kept). */
static void test_attr_hostile(void)
{
	struct rec_buf b = { 0 };
	struct rec_file f;
	char err[256];
	size_t at;

	rec__header(&b, "{}");
	/* 1: well formed, 6 owners of which the model keeps ATTR_OWNERS, 0 points */
	at = rec_begin(&b, REC_ATTR);
	put16(&b, LAT_EV_PROG), put16(&b, 0), put32(&b, 7), put32(&b, 0), put32(&b, 0);
	put32(&b, 0), put32(&b, 1), put64(&b, 1), put32(&b, 6), put32(&b, 0);
	put16(&b, 6), put16(&b, 0), put(&b, "ffffffffffffffff", 16);
	put16(&b, 1), put16(&b, 0), put16(&b, 0), put16(&b, 0), put(&b, "/", 1);
	for (int i = 0; i < 6; i++)
		put32(&b, (uint32_t)(100 + i)), put16(&b, 2), put(&b, "ab", 2);
	rec_end(&b, at);
	/* 2: says 3 owners, holds one */
	at = rec_begin(&b, REC_ATTR);
	put16(&b, LAT_EV_PROG), put16(&b, 0), put32(&b, 8), put32(&b, 0), put32(&b, 0);
	put32(&b, 0), put32(&b, 1), put64(&b, 1), put32(&b, 3), put32(&b, 0);
	put16(&b, 3), put16(&b, 0), put(&b, "ffffffffffffffff", 16);
	put16(&b, 0), put16(&b, 0), put16(&b, 0), put16(&b, 0);
	put32(&b, 100), put16(&b, 60000), put(&b, "ab", 2);
	rec_end(&b, at);
	if (!ASSERT_EQ(rec__scan(&f, b.p, b.len, err, sizeof(err)), 0, "scan"))
		goto out;
	ASSERT_EQ(f.nrecs, 1, "the good record before the bad one");
	ASSERT_TRUE(strstr(f.damage, "attr record owners run past its end") != NULL,
		    "damage named");
	{
		struct model *m = replay_all(&f);
		struct series *s = model__find(m, LAT_EV_PROG, 7, 0, 0);

		if (ASSERT_NONNULL(s, "series of the good record") && ASSERT_NONNULL(s->attr, "attr")) {
			ASSERT_EQ(s->attr->nowners, ATTR_OWNERS, "owners kept: as many as fit");
			ASSERT_EQ(s->attr->owners_total, 6, "owners counted");
			ASSERT_EQ(s->attr->owners[3].pid, 103, "fourth owner");
		}
		model__free(m);
	}
	rec__fini(&f);
out:
	rec_buf__fini(&b);
}

int main(void)
{
	test__suite = "rec";
	RUN_TEST(test_round_trip);
	RUN_TEST(test_probed_boundary_replays);
	RUN_TEST(test_heat_seek);
	RUN_TEST(test_truncation_every_byte);
	RUN_TEST(test_bad_magic_and_version);
	RUN_TEST(test_unknown_type_and_crc);
	RUN_TEST(test_model_replay_functions);
	RUN_TEST(test_bucket_count_wrap);
	RUN_TEST(test_attr_hostile);
	printf("rec: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
