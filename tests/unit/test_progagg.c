// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_progagg.c - the harvest of in-kernel aggregates (collect/progagg.c) and its merge into
 * the model, on aggregates in plain memory filled the way bpf/progtrace.bpf.c's agg_add fills
 * them; and the memory cap's arithmetic.
 *
 * The reference for every histogram is hist__add of the same durations (the user-side path
 * that ring-buffer events take), so an aggregated session must show what an event-by-event one
 * would: the same buckets, count, sum, min and max, and the same percentiles.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "collect/aggset.h"
#include "collect/progagg.h"
#include "model/model.h"
#include "aggsim.h"
#include "test.h"

#define NCPU 4

/* A spread of durations: exact buckets, every power of two up to 2^36 and values between. */
static uint64_t dur_of(unsigned i)
{
	uint64_t base = 1ull << (i % 37);

	return base + (i * 7919ull) % base;
}

/* A harvest over CPUs holds what hist__add of the same runs holds, bucket by bucket; the
 * model's row shows the same count and percentiles as an event-by-event series. */
static void test_harvest_matches_events(void)
{
	struct lat_agg *mem = calloc(NCPU, sizeof(*mem));
	struct progagg_delta *d = calloc(1, sizeof(*d));
	struct progagg *pa = progagg__wrap(mem, NCPU);
	struct model *ma = model__new(0), *me = model__new(0);
	struct hist ref;
	uint64_t sum = 0;
	struct row ra, re;

	if (!ASSERT_NONNULL(pa, "wrap") || !ASSERT_NONNULL(d, "scratch") ||
	    !ASSERT_NONNULL(ma, "model") || !ASSERT_NONNULL(me, "model") ||
	    !ASSERT_OK(hist__init(&ref), "ref"))
		goto out;
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t v = dur_of(i);
		struct lat_event e = { .kind = LAT_EV_PROG, .id = 7, .dur_ns = v };

		aggsim_add(&mem[i % NCPU], v);
		hist__add(&ref, v);
		model__add_event(me, &e, SRC_FENTRY);
		sum += v;
	}
	ASSERT_EQ(progagg__total(pa), 100000, "kernel counts");
	ASSERT_EQ(progagg__harvest(pa, false, d), 100000, "runs harvested");
	ASSERT_EQ(d->d.count, ref.count, "count");
	ASSERT_EQ(d->d.sum, sum, "sum");
	ASSERT_EQ(d->d.min, ref.min, "min");
	ASSERT_EQ(d->d.max, ref.max, "max");
	for (size_t k = 0; k < d->n; k++)
		if (!ASSERT_EQ(d->cnt[k], hist__at(&ref, d->idx[k]), "bucket count"))
			break;
	for (size_t k = 1; k < d->n; k++)
		if (!ASSERT_LT(d->idx[k - 1], d->idx[k], "ascending"))
			break;
	for (int c = 0; c < NCPU; c++) {
		ASSERT_EQ(mem[c].sum + mem[c].max + mem[c].min_inv, 0, "taken out");
		ASSERT_EQ(mem[c].count, 25000, "count stays");
	}
	ASSERT_OK(model__add_agg(ma, model__series(ma, LAT_EV_PROG, 7, 0, 0), d->idx, d->cnt,
				 d->n, &d->d, SRC_FENTRY),
		  "add_agg");
	model__close_interval(ma, 1000000000);
	model__close_interval(me, 1000000000);
	model__row(ma, model__find(ma, LAT_EV_PROG, 7, 0, 0), false, &ra);
	model__row(me, model__find(me, LAT_EV_PROG, 7, 0, 0), false, &re);
	ASSERT_EQ(ra.count, 100000, "row count");
	ASSERT_STREQ(ra.source, "events", "row source");
	ASSERT_EQ(ra.p50, re.p50, "p50");
	ASSERT_EQ(ra.p99, re.p99, "p99");
	ASSERT_EQ(ra.p999, re.p999, "p99.9");
	ASSERT_EQ(ra.max, re.max, "max");
	ASSERT_EQ(ma->c_last.events, 100000, "events counter");
out:
	hist__fini(&ref);
	model__free(ma);
	model__free(me);
	progagg__free(pa);
	free(d);
	free(mem);
}

/* Each harvest takes only what came since the last; a CPU with nothing new is skipped, and
 * the forced harvest of a detach also finds a run whose count has not landed yet. */
static void test_harvest_deltas(void)
{
	struct lat_agg *mem = calloc(NCPU, sizeof(*mem));
	struct progagg_delta *d = calloc(1, sizeof(*d));
	struct progagg *pa = progagg__wrap(mem, NCPU);

	if (!ASSERT_NONNULL(pa, "wrap") || !ASSERT_NONNULL(d, "scratch"))
		goto out;
	aggsim_add(&mem[1], 500);
	aggsim_add(&mem[1], 500);
	ASSERT_EQ(progagg__harvest(pa, false, d), 2, "first");
	ASSERT_EQ(d->n, 1, "one bucket");
	ASSERT_EQ(progagg__harvest(pa, false, d), 0, "nothing new");
	aggsim_add(&mem[3], 90);
	ASSERT_EQ(progagg__harvest(pa, false, d), 1, "second");
	ASSERT_EQ(d->d.sum, 90, "second sum");
	ASSERT_EQ(d->d.min, 90, "second min");
	ASSERT_EQ(d->d.max, 90, "second max");
	/* A run in flight: its bucket is in, its count not yet. */
	mem[2].buckets[lat_hist_bucket(1000)]++;
	ASSERT_EQ(progagg__harvest(pa, false, d), 0, "count not landed: skipped");
	ASSERT_EQ(progagg__harvest(pa, true, d), 1, "forced harvest takes it");
	ASSERT_EQ(progagg__harvest(pa, true, d), 0, "and only once");
out:
	progagg__free(pa);
	free(d);
	free(mem);
}

/* A run's sum and max taken before its bucket wait for it; max and min stay within reach of
 * the buckets a harvest took. */
static void test_harvest_carry(void)
{
	struct lat_agg *mem = calloc(NCPU, sizeof(*mem));
	struct progagg_delta *d = calloc(1, sizeof(*d));
	struct progagg *pa = progagg__wrap(mem, NCPU);
	uint32_t b = lat_hist_bucket(100000);

	if (!ASSERT_NONNULL(pa, "wrap") || !ASSERT_NONNULL(d, "scratch"))
		goto out;
	mem[0].sum = 100000;
	mem[0].max = 100000;
	mem[0].min_inv = ~100000ull;
	mem[0].count = 1;
	ASSERT_EQ(progagg__harvest(pa, false, d), 0, "no bucket yet");
	mem[0].buckets[b] = 1;
	mem[0].count = 2;
	ASSERT_EQ(progagg__harvest(pa, false, d), 1, "bucket now");
	ASSERT_EQ(d->d.sum, 100000, "carried sum");
	ASSERT_EQ(d->d.max, 100000, "carried max");
	ASSERT_EQ(d->d.min, 100000, "carried min");
	/* A bucket without its max and min (they went with the previous harvest). */
	mem[0].buckets[b] = 1;
	mem[0].count = 3;
	ASSERT_EQ(progagg__harvest(pa, false, d), 1, "bucket alone");
	ASSERT_EQ(d->d.max, lat_hist_bucket_hi(b), "max widened to the bucket");
	ASSERT_EQ(d->d.min, lat_hist_bucket_lo(b), "min widened to the bucket");
out:
	progagg__free(pa);
	free(d);
	free(mem);
}

/* What a split harvest handed out: each CPU's share once. */
struct shares {
	uint64_t count[NCPU], sum[NCPU], max[NCPU];
	int calls[NCPU], bad_cpu;
};

static void on_share(void *arg, int cpu, const struct progagg_delta *d)
{
	struct shares *sh = arg;

	if (cpu < 0 || cpu >= NCPU) {
		sh->bad_cpu++;
		return;
	}
	sh->calls[cpu]++;
	sh->count[cpu] += d->d.count;
	sh->sum[cpu] += d->d.sum;
	sh->max[cpu] = d->d.max > sh->max[cpu] ? d->d.max : sh->max[cpu];
}

/* A split harvest: each CPU's share holds exactly that CPU's runs (count, sum, max), the
 * shares add up to the merged delta, a CPU without runs gets no call, and a CPU whose sum came
 * before its bucket (a run in flight) gets it with that bucket, in its own share. */
static void test_harvest_split(void)
{
	struct lat_agg *mem = calloc(NCPU, sizeof(*mem));
	struct progagg_delta *d = calloc(1, sizeof(*d));
	struct progagg *pa = progagg__wrap(mem, NCPU);
	struct shares sh = { 0 };
	uint64_t want[NCPU] = { 0 }, wsum[NCPU] = { 0 }, total = 0, got = 0;
	uint32_t b = lat_hist_bucket(5000);

	if (!ASSERT_NONNULL(pa, "wrap") || !ASSERT_NONNULL(d, "scratch"))
		goto out;
	for (unsigned i = 0; i < 30000; i++) {
		int cpu = i % 7 == 0 ? 2 : i % 2; /* CPU 3 never runs it */
		uint64_t v = dur_of(i);

		aggsim_add(&mem[cpu], v);
		want[cpu]++;
		wsum[cpu] += v;
		total++;
	}
	ASSERT_EQ(progagg__harvest_split(pa, false, d, on_share, &sh), total, "merged count");
	for (int c = 0; c < NCPU; c++) {
		ASSERT_EQ(sh.count[c], want[c], "CPU's count");
		ASSERT_EQ(sh.sum[c], wsum[c], "CPU's sum");
		got += sh.count[c];
	}
	ASSERT_EQ(got, d->d.count, "the shares add up to the merged count");
	ASSERT_EQ(sh.calls[3], 0, "no call for a CPU without runs");
	ASSERT_EQ(sh.bad_cpu, 0, "CPUs in range");
	/* A run in flight on CPU 1: its sum and max now, its bucket at the next harvest. */
	memset(&sh, 0, sizeof(sh));
	mem[1].sum = 5000;
	mem[1].max = 5000;
	mem[1].count++;
	ASSERT_EQ(progagg__harvest_split(pa, false, d, on_share, &sh), 0, "no bucket yet");
	ASSERT_EQ(sh.calls[1], 0, "no share without a bucket");
	mem[1].buckets[b] = 1;
	mem[1].count++;
	aggsim_add(&mem[0], 7000);
	ASSERT_EQ(progagg__harvest_split(pa, false, d, on_share, &sh), 2, "two runs");
	ASSERT_EQ(sh.count[1], 1, "CPU 1's run");
	ASSERT_EQ(sh.sum[1], 5000, "its sum carried in its own share");
	ASSERT_EQ(sh.max[1], 5000, "its max carried");
	ASSERT_EQ(sh.sum[0], 7000, "CPU 0's share holds CPU 0's run alone");
	ASSERT_EQ(d->d.sum, 12000, "merged sum");
out:
	progagg__free(pa);
	free(d);
	free(mem);
}

/* The cap: 9,024 bytes per program and CPU in whole pages; 64 MiB holds 116 programs on 64
 * CPUs and 256 on 29; one more than fits is refused at the boundary. */
static void test_budget(void)
{
	size_t one = progagg__bytes(64);

	ASSERT_EQ(sizeof(struct lat_agg), 9024, "record size");
	ASSERT_EQ(one, 9024 * 64, "64 CPUs: 141 whole pages");
	ASSERT_EQ(progagg__bytes(1), 12288, "1 CPU: three pages");
	ASSERT_EQ(progagg__max_programs(64, LAT_AGG_BUDGET), 116, "64 CPUs");
	ASSERT_EQ(progagg__max_programs(29, LAT_AGG_BUDGET), 256, "29 CPUs");
	ASSERT_TRUE(progagg__fits(115 * one, 64, LAT_AGG_BUDGET), "the 116th fits");
	ASSERT_TRUE(!progagg__fits(116 * one, 64, LAT_AGG_BUDGET), "the 117th does not");
	ASSERT_TRUE(!progagg__fits(LAT_AGG_BUDGET + 1, 64, LAT_AGG_BUDGET), "over already");
	ASSERT_TRUE(!progagg__fits(0, 2, 0), "no budget");
}

/* What a sink was handed: one line per series. */
struct got {
	int n;
	uint16_t kind[8];
	uint32_t id[8], aux[8], aux2[8];
	uint64_t count[8], sum[8];
};

/* A sink that notes what it is handed. */
static void note(void *arg, uint16_t kind, uint32_t id, uint32_t aux, uint32_t aux2,
		 const struct progagg_delta *d)
{
	struct got *g = arg;

	if (g->n == 8)
		return;
	g->kind[g->n] = kind;
	g->id[g->n] = id;
	g->aux[g->n] = aux;
	g->aux2[g->n] = aux2;
	g->count[g->n] = d->d.count;
	g->sum[g->n++] = d->d.sum;
}

/* A helper probe's map holds site k's record of CPU c at k * ncpu + c: each site's harvest is
 * its own calls, handed on as (helper, program, helper id, map id). The map is a memfd here,
 * mapped by aggset and by the test (the probes' side). */
static void test_helper_sites(void)
{
	const struct agg_key sites[3] = { { LAT_EV_HELPER, 11, 2, 101 },
					  { LAT_EV_HELPER, 11, 2, 102 },
					  { LAT_EV_HELPER, 12, 2, 101 } };
	size_t len = aggset__bytes(2, 3);
	int fd = memfd_create("agg", 0);
	struct progagg_delta *d = calloc(1, sizeof(*d));
	struct lat_agg *mem = MAP_FAILED;
	struct aggset *ha = NULL;
	struct got g = {};

	ASSERT_EQ(len, 14 * 4096, "3 sites x 2 CPUs x 9,024 B in whole pages");
	if (!ASSERT_GE(fd, 0, "memfd") || !ASSERT_OK(ftruncate(fd, (off_t)len), "size") ||
	    !ASSERT_NONNULL(d, "scratch"))
		goto out;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ha = aggset__open(fd, 2, sites, 3); /* helper 2: BPF_FUNC_map_update_elem */
	if (!ASSERT_TRUE(mem != MAP_FAILED, "map") || !ASSERT_NONNULL(ha, "open"))
		goto out;
	aggsim_add(&mem[0 * 2 + 1], 300); /* site 0, CPU 1 */
	aggsim_add(&mem[2 * 2 + 0], 700); /* site 2, CPU 0 */
	aggsim_add(&mem[2 * 2 + 1], 700); /* site 2, CPU 1 */
	aggset__harvest(ha, false, d, note, &g);
	if (!ASSERT_EQ(g.n, 2, "two sites gained"))
		goto out;
	ASSERT_EQ(g.kind[0], LAT_EV_HELPER, "kind");
	ASSERT_EQ(g.id[0], 11, "site 0 program");
	ASSERT_EQ(g.aux[0], 2, "helper id");
	ASSERT_EQ(g.aux2[0], 101, "site 0 map");
	ASSERT_EQ(g.count[0], 1, "site 0 count");
	ASSERT_EQ(g.sum[0], 300, "site 0 sum");
	ASSERT_EQ(g.id[1], 12, "site 2 program");
	ASSERT_EQ(g.aux2[1], 101, "site 2 map");
	ASSERT_EQ(g.count[1], 2, "site 2 count, both CPUs");
	ASSERT_EQ(g.sum[1], 1400, "site 2 sum");
	g.n = 0;
	aggset__harvest(ha, true, d, note, &g);
	ASSERT_EQ(g.n, 0, "nothing twice");
out:
	aggset__free(ha);
	if (mem != MAP_FAILED)
		munmap(mem, len);
	if (fd >= 0)
		close(fd);
	free(d);
}

/* The objects built without compare-and-swap (bpf/agg.bpf.h, LAT_COMPAT) keep the max and min
 * of runs that ended inside another's update in max_n and min_inv_n: the harvest takes them
 * out with the others, and the extremes are theirs when they are the larger and smaller. */
static void test_harvest_nested_minmax(void)
{
	struct lat_agg *mem = calloc(NCPU, sizeof(*mem));
	struct progagg_delta *d = calloc(1, sizeof(*d));
	struct progagg *pa = progagg__wrap(mem, NCPU);

	if (!ASSERT_NONNULL(pa, "wrap") || !ASSERT_NONNULL(d, "scratch"))
		goto out;
	aggsim_add(&mem[1], 1000);
	aggsim_add(&mem[1], 2000);
	/* Two runs that ended nested in an update on CPU 1: buckets as usual, extremes apart. */
	mem[1].buckets[lat_hist_bucket(5000)]++;
	mem[1].buckets[lat_hist_bucket(300)]++;
	mem[1].count += 2;
	mem[1].sum += 5300;
	mem[1].max_n = 5000;
	mem[1].min_inv_n = ~300ull;
	ASSERT_EQ(progagg__harvest(pa, false, d), 4, "runs harvested");
	ASSERT_EQ(d->d.max, 5000, "max: the nested run's");
	ASSERT_EQ(d->d.min, 300, "min: the nested run's");
	ASSERT_EQ(d->d.sum, 8300, "sum");
	ASSERT_EQ(mem[1].max_n + mem[1].min_inv_n, 0, "nested extremes taken out");
	/* Nested extremes inside the outer ones change nothing. */
	aggsim_add(&mem[2], 100);
	aggsim_add(&mem[2], 9000);
	mem[2].buckets[lat_hist_bucket(500)]++;
	mem[2].count++;
	mem[2].sum += 500;
	mem[2].max_n = 500;
	mem[2].min_inv_n = ~500ull;
	ASSERT_EQ(progagg__harvest(pa, false, d), 3, "runs harvested");
	ASSERT_EQ(d->d.max, 9000, "max: the outer run's");
	ASSERT_EQ(d->d.min, 100, "min: the outer run's");
out:
	progagg__free(pa);
	free(d);
	free(mem);
}

int main(void)
{
	test__suite = "progagg";
	RUN_TEST(test_harvest_matches_events);
	RUN_TEST(test_harvest_deltas);
	RUN_TEST(test_harvest_carry);
	RUN_TEST(test_harvest_split);
	RUN_TEST(test_harvest_nested_minmax);
	RUN_TEST(test_budget);
	RUN_TEST(test_helper_sites);
	printf("progagg: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
