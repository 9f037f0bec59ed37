// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_compare.c - the A/B comparison (model/compare.c): matching across program IDs,
 * verdicts, changes within the bucket error, the bootstrap's noise, determinism, the heatmap.
 */
#include <math.h>
#include <string.h>

#include "model/compare.h"
#include "fixtures.h"
#include "test.h"

#define NIV 20 /* intervals per side */

/* One program's runs in one interval: n runs of v ns (v 0: none). */
struct plan {
	uint16_t kind;
	uint32_t id, aux, aux2;
	const char *name, *type, *sub;
	uint64_t (*v)(int k); /* the value in interval k */
	uint32_t n;
};

/* Per-interval values of the test programs. */
static uint64_t v_same(int k)
{
	return k % 2 ? 1000 : 1100;
}

static uint64_t v_slow_a(int k)
{
	return 2000 + (uint64_t)(k % 3) * 20;
}

static uint64_t v_slow_b(int k)
{
	return 2 * v_slow_a(k);
}

static uint64_t v_bimodal_a(int k)
{
	return k % 2 ? 1000 : 10000;
}

static uint64_t v_bimodal_b(int k)
{
	return v_bimodal_a(k) * 105 / 100; /* +5%: beyond the bucket error, not the noise */
}

/* Record NIV intervals of the plans into a side, programs attached where attach[i] says
 * ("kind where"; attach or attach[i] NULL: not known); returns it (NULL on failure). */
static struct cmp_side *side_at(const struct plan *p, size_t np, const char *const *attach)
{
	struct model *m = model__new(0);
	struct cmp_side *sd = cmp_side__new(NIV);

	if (!m || !sd)
		goto fail;
	for (int k = 0; k < NIV; k++) {
		for (size_t i = 0; i < np; i++) {
			struct lat_event e = { .kind = p[i].kind, .id = p[i].id, .aux = p[i].aux,
					       .aux2 = p[i].aux2 };
			struct series *se = model__series(m, e.kind, e.id, e.aux, e.aux2);

			if (!se)
				goto fail;
			snprintf(se->name, sizeof(se->name), "%s", p[i].name);
			snprintf(se->type, sizeof(se->type), "%s", p[i].type ? p[i].type : "");
			snprintf(se->sub, sizeof(se->sub), "%s", p[i].sub ? p[i].sub : "");
			if (attach && attach[i] && !se->attr) {
				struct prog_attr at = { .id = p[i].id, .npoints = 1, .points_total = 1 };
				const char *sp = strchr(attach[i], ' ');

				snprintf(at.points[0].kind, sizeof(at.points[0].kind), "%.*s",
					 (int)(sp - attach[i]), attach[i]);
				snprintf(at.points[0].where, sizeof(at.points[0].where), "%s", sp + 1);
				model__set_attr(m, se, &at);
			}
			e.dur_ns = p[i].v(k);
			for (uint32_t j = 0; j < p[i].n; j++)
				model__add_event(m, &e, SRC_FENTRY);
		}
		model__close_interval(m, (uint64_t)(k + 1) * S);
		if (cmp_side__add_interval(sd, m))
			goto fail;
	}
	if (cmp_side__finish(sd))
		goto fail;
	model__free(m);
	return sd;
fail:
	model__free(m);
	cmp_side__free(sd);
	return NULL;
}

/* The same without attach points. */
static struct cmp_side *side_of(const struct plan *p, size_t np)
{
	return side_at(p, np, NULL);
}

static const struct plan plan_a[] = {
	{ LAT_EV_PROG, 10, 0, 0, "same_prog", "xdp", NULL, v_same, 100 },
	{ LAT_EV_PROG, 11, 0, 0, "slow_prog", "xdp", NULL, v_slow_a, 100 },
	{ LAT_EV_PROG, 12, 0, 0, "old_prog", "xdp", NULL, v_same, 10 },
	{ LAT_EV_PROG, 13, 0, 0, "bimodal", "xdp", NULL, v_bimodal_a, 100 },
	{ LAT_EV_HELPER, 11, 1, 5, "bpf_map_lookup_elem", "hash", "flows", v_same, 50 },
};
static const struct plan plan_b[] = {
	{ LAT_EV_PROG, 20, 0, 0, "same_prog", "xdp", NULL, v_same, 100 },
	{ LAT_EV_PROG, 21, 0, 0, "slow_prog", "xdp", NULL, v_slow_b, 100 },
	{ LAT_EV_PROG, 22, 0, 0, "new_prog", "xdp", NULL, v_same, 10 },
	{ LAT_EV_PROG, 23, 0, 0, "bimodal", "xdp", NULL, v_bimodal_b, 100 },
	{ LAT_EV_PROG, 24, 0, 0, "same_prog", "tc", NULL, v_same, 10 },
	{ LAT_EV_HELPER, 21, 1, 9, "bpf_map_lookup_elem", "hash", "flows", v_same, 50 },
};

/* The row of a key (kind, name, type), NULL when absent. */
static const struct cmp_row *row_of(const struct compare *c, uint16_t kind, const char *name,
				    const char *type)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->rows[i].key.kind == kind && !strcmp(c->rows[i].key.name, name) &&
		    !strcmp(c->rows[i].key.type, type))
			return &c->rows[i];
	return NULL;
}

/* Build both sides of the plans and compare them. */
static bool run(struct compare *c, struct cmp_side **a, struct cmp_side **b)
{
	*a = side_of(plan_a, sizeof(plan_a) / sizeof(plan_a[0]));
	*b = side_of(plan_b, sizeof(plan_b) / sizeof(plan_b[0]));
	return ASSERT_NONNULL(*a, "side a") && ASSERT_NONNULL(*b, "side b") &&
	       ASSERT_OK(compare__run(c, *a, *b), "compare__run");
}

/* Two programs of one name on two devices stay two rows, each matched to its own across new
 * IDs (eth1's got slower, eth0's did not); a program whose attach point one side does not
 * know (a recording before format 1.5) still pairs by name. */
static void test_match_by_attach(void)
{
	static const struct plan pa[] = {
		{ LAT_EV_PROG, 5, 0, 0, "cls_main", "sched_cls", NULL, v_slow_a, 100 },
		{ LAT_EV_PROG, 6, 0, 0, "cls_main", "sched_cls", NULL, v_slow_a, 100 },
		{ LAT_EV_PROG, 7, 0, 0, "old", "xdp", NULL, v_same, 100 },
	};
	static const char *const ata[] = { "tcx eth0 ingress", "tcx eth1 ingress", NULL };
	static const char *const atb[] = { "tcx eth1 ingress", "tcx eth0 ingress", "xdp eth0 native" };
	static const struct plan pb[] = {
		{ LAT_EV_PROG, 55, 0, 0, "cls_main", "sched_cls", NULL, v_slow_b, 100 },
		{ LAT_EV_PROG, 56, 0, 0, "cls_main", "sched_cls", NULL, v_slow_a, 100 },
		{ LAT_EV_PROG, 57, 0, 0, "old", "xdp", NULL, v_same, 100 },
	};
	struct cmp_side *a = side_at(pa, 3, ata), *b = side_at(pb, 3, atb);
	struct compare c;

	if (!ASSERT_NONNULL(a, "side a") || !ASSERT_NONNULL(b, "side b") ||
	    !ASSERT_OK(compare__run(&c, a, b), "compare__run"))
		goto out;
	ASSERT_EQ(c.n, 3, "three rows");
	for (size_t i = 0; i < c.n; i++) {
		const struct cmp_row *r = &c.rows[i];

		if (!strcmp(r->key.attach, "tcx eth0 ingress"))
			ASSERT_EQ(r->status, CMP_UNCHANGED, "eth0's unchanged");
		else if (!strcmp(r->key.attach, "tcx eth1 ingress"))
			ASSERT_EQ(r->status, CMP_SLOWER, "eth1's slower");
		else
			ASSERT_TRUE(!strcmp(r->key.name, "old") && r->sa && r->sb &&
					    !strcmp(r->key.attach, "xdp eth0 native"),
				    "old: one row, paired, the known point kept");
	}
	compare__fini(&c);
out:
	cmp_side__free(a);
	cmp_side__free(b);
}

static void test_match_and_verdicts(void)
{
	struct cmp_side *a = NULL, *b = NULL;
	struct compare c = { 0 };
	const struct cmp_row *r;

	if (!run(&c, &a, &b))
		goto out;
	ASSERT_EQ(c.n, 7, "rows: 5 programs (one of two types), a helper");
	r = row_of(&c, LAT_EV_PROG, "same_prog", "xdp");
	if (ASSERT_NONNULL(r, "same_prog")) {
		ASSERT_STREQ(compare__status_name(r->status), "unchanged", "same verdict");
		ASSERT_EQ(r->count_a, 2000, "same count a");
		ASSERT_EQ(r->count_b, 2000, "same count b");
		ASSERT_TRUE(r->f[CMP_P50].change_pct == 0, "same p50 change 0");
		ASSERT_TRUE(r->f[CMP_RATE].has_change && r->f[CMP_RATE].change_pct == 0, "rate 0");
		ASSERT_TRUE(!r->f[CMP_MAX].significant, "same max not significant");
	}
	r = row_of(&c, LAT_EV_PROG, "slow_prog", "xdp");
	if (ASSERT_NONNULL(r, "slow_prog")) {
		ASSERT_STREQ(compare__status_name(r->status), "slower", "slow verdict");
		for (int st = CMP_P50; st < CMP__NSTAT; st++) {
			ASSERT_TRUE(fabs(r->f[st].change_pct - 100) <= c.bucket_err_pct,
				    "2x within the bucket error");
			ASSERT_TRUE(r->f[st].significant == (st != CMP_MAX),
				    "2x significant (the max never is)");
		}
		ASSERT_TRUE(!r->f[CMP_RATE].significant, "slow rate unchanged");
	}
	r = row_of(&c, LAT_EV_PROG, "old_prog", "xdp");
	ASSERT_TRUE(r && r->status == CMP_ONLY_A && !r->sb && r->count_a == 200, "only in A");
	r = row_of(&c, LAT_EV_PROG, "new_prog", "xdp");
	ASSERT_TRUE(r && r->status == CMP_ONLY_B && !r->sa && r->count_b == 200, "only in B");
	r = row_of(&c, LAT_EV_PROG, "same_prog", "tc");
	ASSERT_TRUE(r && r->status == CMP_ONLY_B, "another type is another program");
	r = row_of(&c, LAT_EV_HELPER, "bpf_map_lookup_elem", "");
	if (ASSERT_NONNULL(r, "helper matched across program and map IDs")) {
		ASSERT_STREQ(r->key.prog, "slow_prog", "helper's program");
		ASSERT_STREQ(r->key.sub, "flows", "helper's map");
		ASSERT_TRUE(r->sa && r->sb && r->status == CMP_UNCHANGED, "helper unchanged");
	}
out:
	compare__fini(&c);
	cmp_side__free(a);
	cmp_side__free(b);
}

/* A program with no source in its recording (--no-stats, no probes: no runs, not measured):
 * its count and rate are missing on that side, not 0; a measured program that did not run is
 * 0. */
static void test_no_count(void)
{
	static const struct plan pa[] = {
		{ LAT_EV_PROG, 10, 0, 0, "unmeasured", "xdp", NULL, v_same, 0 },
		{ LAT_EV_PROG, 11, 0, 0, "measured", "xdp", NULL, v_same, 10 },
	};
	static const struct plan pb[] = {
		{ LAT_EV_PROG, 20, 0, 0, "unmeasured", "xdp", NULL, v_same, 0 },
		{ LAT_EV_PROG, 21, 0, 0, "measured", "xdp", NULL, v_same, 10 },
	};
	struct cmp_side *a = side_of(pa, 2), *b = side_of(pb, 2);
	struct compare c = { 0 };
	const struct cmp_row *r;

	if (!ASSERT_NONNULL(a, "side a") || !ASSERT_NONNULL(b, "side b") ||
	    !ASSERT_OK(compare__run(&c, a, b), "compare__run"))
		goto out;
	r = row_of(&c, LAT_EV_PROG, "unmeasured", "xdp");
	if (ASSERT_NONNULL(r, "unmeasured row")) {
		ASSERT_TRUE(r->sa && r->sb, "present on both sides");
		ASSERT_TRUE(!r->has_count_a && !r->has_count_b, "no count on either side");
		ASSERT_TRUE(!r->f[CMP_RATE].has_a && !r->f[CMP_RATE].has_b, "no rate");
		ASSERT_TRUE(!r->f[CMP_RATE].has_change, "no rate change");
	}
	r = row_of(&c, LAT_EV_PROG, "measured", "xdp");
	if (ASSERT_NONNULL(r, "measured row")) {
		ASSERT_TRUE(r->has_count_a && r->has_count_b, "counts");
		ASSERT_EQ(r->count_a, 200, "count a");
		ASSERT_TRUE(r->f[CMP_RATE].has_a && r->f[CMP_RATE].has_b, "rates");
	}
out:
	compare__fini(&c);
	cmp_side__free(a);
	cmp_side__free(b);
}

static void test_noise(void)
{
	struct cmp_side *a = NULL, *b = NULL;
	struct compare c = { 0 }, c2 = { 0 };
	const struct cmp_row *r, *r2;

	if (!run(&c, &a, &b))
		goto out;
	ASSERT_TRUE(fabs(c.bucket_err_pct - 1.5748) < 0.001, "bucket error (1+e)/(1-e)-1");
	r = row_of(&c, LAT_EV_PROG, "bimodal", "xdp");
	if (!ASSERT_NONNULL(r, "bimodal"))
		goto out;
	/* p50 sits between the modes: a draw with more slow intervals moves it 10x. */
	ASSERT_TRUE(r->f[CMP_P95].change_pct > c.bucket_err_pct, "p95 moved beyond the buckets");
	ASSERT_TRUE(r->f[CMP_P50].noise_pct > 50, "p50's noise is large");
	ASSERT_TRUE(!r->f[CMP_P50].significant, "within the noise: not significant");
	ASSERT_TRUE(r->f[CMP_RATE].noise_pct == 0, "equal counts every interval: no rate noise");
	/* The same inputs give the same draws. */
	if (!ASSERT_OK(compare__run(&c2, a, b), "again"))
		goto out;
	r2 = row_of(&c2, LAT_EV_PROG, "bimodal", "xdp");
	for (int st = 0; st < CMP__NSTAT; st++)
		ASSERT_TRUE(r2 && r2->f[st].noise_pct == r->f[st].noise_pct, "deterministic");
out:
	compare__fini(&c);
	compare__fini(&c2);
	cmp_side__free(a);
	cmp_side__free(b);
}

static void test_heat(void)
{
	struct cmp_side *a = NULL, *b = NULL;
	struct compare c = { 0 };
	struct heat_slot slots[8];
	uint32_t cnt[8 * MODEL_HEAT_ROWS];
	const struct cmp_row *r;
	size_t n;

	if (!run(&c, &a, &b))
		goto out;
	r = row_of(&c, LAT_EV_PROG, "slow_prog", "xdp");
	if (!ASSERT_NONNULL(r, "slow_prog"))
		goto out;
	n = compare__heat(b, r->sb, 8, slots, cnt);
	ASSERT_EQ(n, 8, "8 columns of 20 intervals");
	/* 4000..4080 ns: the row [2048, 4095] or [4096, 8191]; every column has runs. */
	for (size_t i = 0; i < n; i++)
		ASSERT_TRUE(slots[i].n >= 1 && slots[i].lo >= 12 && slots[i].lo + slots[i].n <= 14,
			    "B's runs in their log2 rows");
	n = compare__heat(a, r->sa, 0, slots, cnt);
	ASSERT_EQ(n, 0, "no room, no columns");
out:
	compare__fini(&c);
	cmp_side__free(a);
	cmp_side__free(b);
}

/* A long recording: 600 intervals in 200 blocks of 3 (CMP_MAX_BLOCKS 256), runs and time
 * summed per block, the whole-recording figures unchanged by the grouping. */
static void test_blocks(void)
{
	struct model *m = model__new(0);
	struct cmp_side *sd = cmp_side__new(600);
	struct lat_event e = { .kind = LAT_EV_PROG, .id = 1 };
	struct series *se = m ? model__series(m, LAT_EV_PROG, 1, 0, 0) : NULL;
	uint64_t runs = 0;
	struct hist h;

	if (!ASSERT_NONNULL(sd, "side") || !ASSERT_NONNULL(se, "series"))
		goto out;
	ASSERT_EQ(sd->per_block, 3, "3 intervals a block");
	ASSERT_EQ(sd->nblocks, 200, "200 blocks");
	snprintf(se->name, sizeof(se->name), "p");
	for (int k = 0; k < 600; k++) {
		e.dur_ns = 1000 + (uint64_t)k;
		for (int j = 0; j < k % 4; j++) /* intervals with 0 .. 3 runs */
			model__add_event(m, &e, SRC_FENTRY);
		model__close_interval(m, (uint64_t)(k + 1) * S);
		if (!ASSERT_OK(cmp_side__add_interval(sd, m), "add"))
			goto out;
	}
	if (!ASSERT_OK(cmp_side__finish(sd), "finish") || !ASSERT_EQ(sd->n, 1, "one series"))
		goto out;
	for (size_t i = 0; i < sd->s[0].nb; i++)
		runs += sd->s[0].b[i].count;
	ASSERT_EQ(runs, 900, "runs over the blocks: 150 x (0 + 1 + 2 + 3)");
	ASSERT_EQ(sd->s[0].count, 900, "runs in all");
	ASSERT_EQ(sd->s[0].nb, 200, "every block has runs");
	ASSERT_EQ(sd->block_ns[199], 3 * S, "a block lasts its 3 intervals");
	ASSERT_EQ(sd->dur_ns, 600 * S, "600 s in all");
	ASSERT_EQ(sd->s[0].h.max, 1599, "the largest value");
	ASSERT_EQ(sd->s[0].b[0].max, 1002, "the first block's largest");
	/* A block's histogram: intervals 597 .. 599 ran 1 x 1597, 2 x 1598, 3 x 1599. */
	hist__init_empty(&h);
	if (ASSERT_OK(cmp_series__block_hist(&sd->s[0], 199, &h), "block hist")) {
		ASSERT_EQ(h.count, 6, "the last block's runs");
		ASSERT_EQ(h.min, 1597, "its smallest");
		ASSERT_EQ(h.max, 1599, "its largest");
		ASSERT_EQ(hist__percentile(&h, 0.99), 1597, "its p99: the bucket 1584 .. 1599 clamped to the min");
		ASSERT_EQ(hist__percentile(&h, 1.0), 1599, "its max");
	}
	if (ASSERT_OK(cmp_series__block_hist(&sd->s[0], 0, &h), "first block hist")) {
		ASSERT_EQ(h.count, 3, "the first block's runs, none left from the last");
		ASSERT_EQ(hist__percentile(&h, 0.0), 1001, "its min");
	}
	hist__fini(&h);
out:
	cmp_side__free(sd);
	model__free(m);
}

int main(void)
{
	RUN_TEST(test_match_by_attach);
	test__suite = "compare";
	RUN_TEST(test_match_and_verdicts);
	RUN_TEST(test_noise);
	RUN_TEST(test_heat);
	RUN_TEST(test_blocks);
	RUN_TEST(test_no_count);
	return TEST_EXIT();
}
