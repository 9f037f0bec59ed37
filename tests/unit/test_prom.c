// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_prom.c - the Prometheus exposition without HTTP: classic and native buckets from a
 * histogram, the exporter's totals (cumulative across `z`, gone programs dropped after the
 * keep time), Accept negotiation and the three renderings.
 */
#include <math.h>
#include <stdlib.h>

#include "fixtures.h"
#include "io/prometheus/client/metrics.pb-c.h"
#include "model/promhist.h"
#include "test.h"
#include "ui/prom/prom_fmt.h"
#include "ui/prom/prom_snap.h"

/* Classic buckets count the runs shorter than each 2^k ns edge; +Inf is the count. */
static void test_classic_edges(void)
{
	struct hist h;
	uint64_t cum[PROMHIST_LE_N];

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	hist__add(&h, 31);
	hist__add(&h, 32);
	hist__add(&h, 63);
	hist__add(&h, 1000);
	hist__add(&h, 1ull << 50); /* beyond the last edge and lattop's range */
	promhist__classic(&h, cum);
	ASSERT_EQ(promhist__le_ns(0), 32, "first edge");
	ASSERT_EQ(promhist__le_ns(PROMHIST_LE_N - 1), 1ull << PROMHIST_LE_MAX_POW2, "last edge");
	ASSERT_EQ(cum[0], 1, "le 32 ns: 31");
	ASSERT_EQ(cum[1], 3, "le 64 ns: 32 and 63 too");
	ASSERT_EQ(cum[5], 4, "le 1024 ns");
	ASSERT_EQ(cum[PROMHIST_LE_N - 1], 4, "the clamped run only in +Inf");
	hist__fini(&h);
}

/* Native buckets in order: the index of the bucket holding rank r, or INT32_MIN. */
static int32_t native_at(const struct promhist_native *n, uint64_t rank)
{
	uint64_t seen = n->zero_count, c = 0;
	uint32_t d = 0;
	int32_t idx = 0;

	if (seen >= rank)
		return INT32_MIN + 1; /* the zero bucket */
	for (uint32_t s = 0; s < n->nspans; s++) {
		idx += n->spans[s].offset;
		for (uint32_t k = 0; k < n->spans[s].length; k++, idx++) {
			c += (uint64_t)n->deltas[d++];
			seen += c;
			if (seen >= rank)
				return idx;
		}
	}
	return INT32_MIN;
}

/* Every percentile lattop reports lies in the native bucket holding its rank, so the two
 * agree within one native bucket (0.54%); the buckets add up to the count. */
static void test_native_agrees(void)
{
	static const double qs[] = {0.01, 0.5, 0.9, 0.99, 0.999};
	struct promhist_native n;
	struct hist h;
	uint64_t total = 0, c = 0;
	uint32_t d = 0;

	if (!ASSERT_OK(hist__init(&h), "init"))
		return;
	srand(7);
	for (int i = 0; i < 100000; i++)
		hist__add(&h,
			  (uint64_t)(exp((double)rand() / RAND_MAX * 16) * 20)); /* 20 ns..177 us */
	hist__add(&h, 0);
	if (!ASSERT_OK(promhist__native(&h, &n), "native"))
		goto out;
	ASSERT_EQ(n.zero_count, 1, "zero bucket");
	for (uint32_t s = 0; s < n.nspans; s++)
		for (uint32_t k = 0; k < n.spans[s].length; k++) {
			c += (uint64_t)n.deltas[d++];
			total += c;
		}
	ASSERT_EQ(d, n.ndeltas, "deltas = span lengths");
	ASSERT_EQ(total + n.zero_count, h.count, "buckets add up");
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		uint64_t v = hist__percentile(&h, qs[i]);
		int32_t idx = native_at(&n, (uint64_t)ceil(qs[i] * (double)h.count));
		double vs = (double)v * 1e-9;

		ASSERT_TRUE(promhist__native_upper(idx - 1) < vs * (1 + 1e-12) &&
				vs <= promhist__native_upper(idx) * (1 + 1e-12),
			    "lattop's percentile in the native bucket of its rank");
		ASSERT_LE(promhist__native_upper(idx) / promhist__native_upper(idx - 1) - 1, 0.0055,
			  "native bucket width");
	}
	promhist__native_fini(&n);
out:
	hist__fini(&h);
}

/* Program id ran n times, dur_ns each, in m's open interval (self-timed). */
static void runs(struct model *m, uint32_t id, int n, uint64_t dur_ns)
{
	struct lat_event e = {.kind = LAT_EV_PROG, .id = id, .dur_ns = dur_ns};

	for (int i = 0; i < n; i++)
		model__add_event(m, &e, SRC_SELF);
}

/* The sample of family f whose prog_id label is id, or NULL. */
static const struct prom_sample *find(const struct prom_snap *s, enum prom_family f, uint32_t id)
{
	char want[16];

	snprintf(want, sizeof(want), "%u", id);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].family == f && s->v[i].nlabels && !strcmp(s->v[i].label[0].value, want))
			return &s->v[i];
	return NULL;
}

/* Totals survive the TUI's reset; a gone program is exported for the keep time only; a
 * reloaded program (new ID) is a new series. */
static void test_totals_and_gone(void)
{
	const uint64_t keep = 5 * S;
	struct model *m = model__new(0);
	struct prom_state *st = prom_state__new(keep);
	struct prog_stat a[1] = {ps(10, "p", 0, 0)}, b[1] = {ps(11, "p", 0, 0)};
	struct prom_snap *snap;
	const struct prom_sample *p;

	if (!ASSERT_TRUE(m && st, "new"))
		goto out;
	model__apply_stats(m, a, 1, 0);
	runs(m, 10, 100, 500);
	model__close_interval(m, S);
	prom_state__update(st, m, 1000.0, 0);
	model__reset(m, S); /* `z` */
	runs(m, 10, 50, 5000);
	a[0].run_cnt = 150;
	a[0].run_time_ns = 300000;
	model__apply_stats(m, a, 1, 2 * S);
	model__close_interval(m, 2 * S);
	prom_state__update(st, m, 1001.0, 0);
	snap = prom_state__snapshot(st, m, 2 * S);
	p = snap ? find(snap, PF_PROG_LAT, 10) : NULL;
	if (ASSERT_TRUE(p, "program histogram")) {
		ASSERT_EQ(p->count, 150, "count across the reset");
		ASSERT_LE(fabs(p->sum_s - 300e-6), 1e-12, "sum");
		ASSERT_EQ(p->classic[4], 100, "le 512 ns");
		ASSERT_EQ(p->classic[8], 150, "le 8192 ns");
		ASSERT_STREQ(p->label[1].value, "p", "prog_name");
		ASSERT_LE(fabs(p->created_s - 1000.0), 1e-9, "created at first sight");
	}
	p = snap ? find(snap, PF_PROG_RUNS, 10) : NULL;
	ASSERT_TRUE(p && p->value == 150, "bpf_stats runs since first sight");
	prom_snap__unref(snap);

	/* Program 10 unloaded at 3 s, reloaded as 11. */
	model__apply_stats(m, b, 1, 3 * S);
	runs(m, 11, 7, 100);
	model__close_interval(m, 3 * S);
	prom_state__update(st, m, 1002.0, 0);
	snap = prom_state__snapshot(st, m, 3 * S + keep);
	ASSERT_TRUE(snap && find(snap, PF_PROG_LAT, 10), "gone: still exported within keep");
	ASSERT_TRUE(snap && find(snap, PF_PROG_LAT, 11) && find(snap, PF_PROG_LAT, 11)->count == 7,
		    "reloaded: a new series");
	prom_snap__unref(snap);
	snap = prom_state__snapshot(st, m, 3 * S + keep + 1);
	ASSERT_TRUE(snap && !find(snap, PF_PROG_LAT, 10) && !find(snap, PF_PROG_RUNS, 10),
		    "gone: dropped after keep");
	ASSERT_TRUE(snap && find(snap, PF_PROG_LAT, 11), "the new one stays");
	prom_snap__unref(snap);
out:
	prom_state__free(st);
	model__free(m);
}

/* Accept negotiation, with the headers Prometheus 2.42 sends. */
static void test_negotiate(void)
{
	ASSERT_EQ(prom_fmt__negotiate(NULL), PROM_FMT_TEXT, "none");
	ASSERT_EQ(prom_fmt__negotiate(""), PROM_FMT_TEXT, "empty");
	ASSERT_EQ(prom_fmt__negotiate("*/*"), PROM_FMT_TEXT, "any");
	ASSERT_EQ(prom_fmt__negotiate("application/json"), PROM_FMT_TEXT, "unknown");
	ASSERT_EQ(prom_fmt__negotiate("application/openmetrics-text;version=1.0.0,application/"
				      "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0."
				      "0.4;q=0.5,*/*;q=0.1"),
		  PROM_FMT_OPENMETRICS, "prometheus classic");
	ASSERT_EQ(
	    prom_fmt__negotiate("application/vnd.google.protobuf;proto=io.prometheus.client."
				"MetricFamily;encoding=delimited,application/openmetrics-"
				"text;version=1.0.0;q=0.8,application/openmetrics-text;"
				"version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
	    PROM_FMT_PROTOBUF, "prometheus native");
	ASSERT_EQ(prom_fmt__negotiate("application/vnd.google.protobuf;proto=io.prometheus.client."
				      "MetricFamily;encoding=text"),
		  PROM_FMT_TEXT, "protobuf text encoding is not served");
	ASSERT_EQ(prom_fmt__negotiate("text/plain;q=0.9, application/openmetrics-text ; q=0.2"),
		  PROM_FMT_TEXT, "q values");
	ASSERT_EQ(prom_fmt__negotiate("application/openmetrics-text;version=2.0.0"), PROM_FMT_TEXT,
		  "unknown version");
}

/* The three renderings of one snapshot. */
static void test_render(void)
{
	struct model *m = model__new(0);
	struct prom_state *st = prom_state__new(S);
	Io__Prometheus__Client__MetricFamily *mf;
	struct prom_snap *snap = NULL;
	char *out = NULL;
	size_t len = 0;
	uint64_t n;

	for (int f = 0; f < PF__COUNT; f++)
		ASSERT_TRUE(prom_families[f].name && prom_families[f].help,
			    "every family described");
	if (!ASSERT_TRUE(m && st, "new"))
		goto out;
	runs(m, 10, 3, 700);
	{
		/* Who holds it (a crafted comm) and the runs the kernel skipped. */
		struct series *se = model__find(m, LAT_EV_PROG, 10, 0, 0);

		if (ASSERT_NONNULL(se, "series 10")) {
			model__set_attr(m, se, &(struct prog_attr){
				.nowners = 1, .owners = { { 5, "a\x1b\"q\"" } },
				.container = "docker:abc", .npoints = 1,
				.points = { { "xdp", "eth0 native", 1 } } });
			model__set_series_counter(m, se, MODEL_RECURSION_MISSES, true, 2);
		}
	}
	model__close_interval(m, S);
	prom_state__update(st, m, 1000.5, 1.25);
	snap = prom_state__snapshot(st, m, S);
	if (!ASSERT_TRUE(snap, "snapshot"))
		goto out;
	if (ASSERT_OK(prom_fmt__render(snap, PROM_FMT_TEXT, &out, &len), "text")) {
		ASSERT_TRUE(memmem(out, len,
				   "\nlattop_program_latency_seconds_bucket{prog_id=\"10\","
				   "prog_name=\"10\",prog_type=\"\",le=\"1.024e-06\"} 3\n",
				   92),
			    "bucket line");
		ASSERT_TRUE(memmem(out, len, "# TYPE lattop_lost_events_total counter\n", 40),
			    "counter family");
		ASSERT_TRUE(memmem(out, len, "\nlattop_process_cpu_seconds_total 1.25\n", 38),
			    "cpu seconds");
		ASSERT_TRUE(!memmem(out, len, "_created", 8), "no _created in 0.0.4");
		{
			const char *info = "\nlattop_program_info{prog_id=\"10\",prog_name=\"10\","
					   "prog_type=\"\",owner_comm=\"a\\\\x1b\\\"q\\\"\","
					   "owner_pid=\"5\",container=\"docker:abc\","
					   "attach=\"xdp eth0 native\"} 1\n";
			const char *rm = "\nlattop_lost_events_total{reason=\"recursion_misses\","
					 "prog_id=\"10\",prog_name=\"10\"} 2\n";

			ASSERT_TRUE(memmem(out, len, info, strlen(info)) != NULL,
				    "info line, the comm visible and escaped");
			ASSERT_TRUE(memmem(out, len, rm, strlen(rm)) != NULL,
				    "recursion misses by program");
		}
		free(out);
	}
	if (ASSERT_OK(prom_fmt__render(snap, PROM_FMT_OPENMETRICS, &out, &len), "om")) {
		ASSERT_TRUE(len > 6 && !strcmp(out + len - 6, "# EOF\n"), "# EOF last");
		ASSERT_TRUE(memmem(out, len, "# TYPE lattop_lost_events counter\n", 34),
			    "family named without _total");
		ASSERT_TRUE(memmem(out, len, "lattop_intervals_created 1000.5\n", 32), "_created");
		free(out);
	}
	if (ASSERT_OK(prom_fmt__render(snap, PROM_FMT_PROTOBUF, &out, &len), "protobuf")) {
		size_t at = 0;

		n = 0; /* the first family's length, a varint */
		for (int sh = 0; at < len; sh += 7) {
			n |= (uint64_t)(out[at] & 0x7f) << sh;
			if (!(out[at++] & 0x80))
				break;
		}
		mf = io__prometheus__client__metric_family__unpack(NULL, n, (uint8_t *)out + at);
		if (ASSERT_TRUE(mf, "unpack")) {
			ASSERT_STREQ(mf->name, "lattop_program_latency_seconds", "name");
			ASSERT_EQ(mf->metric[0]->histogram->sample_count, 3, "count");
			ASSERT_EQ(mf->metric[0]->histogram->schema, PROMHIST_SCHEMA, "schema");
			ASSERT_EQ(mf->metric[0]->histogram->n_positive_span, 1, "one span");
			ASSERT_EQ(mf->metric[0]->histogram->positive_delta[0], 3,
				  "one bucket of 3");
			io__prometheus__client__metric_family__free_unpacked(mf, NULL);
		}
		free(out);
	}
out:
	prom_snap__unref(snap);
	prom_state__free(st);
	model__free(m);
}

int main(void)
{
	test__suite = "prom";
	RUN_TEST(test_classic_edges);
	RUN_TEST(test_native_agrees);
	RUN_TEST(test_totals_and_gone);
	RUN_TEST(test_negotiate);
	RUN_TEST(test_render);
	printf("prom: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
