// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * collector_bench.c - collector throughput against a bare libbpf consumer, same run.
 *
 * Producer: bpf/target.bpf.c target_emit, driven by bpf_prog_test_run from a producer thread,
 * emits records into a ring buffer. Baseline: a bare ring_buffer__consume loop that only counts.
 * lattop: the collector thread -> per-CPU SPSC queues -> a UI thread draining into the model's
 * histograms (the real path). Each side consumes the same number of produced records; events/s
 * is what reached the end of the pipeline per second of wall time. Rounds alternate to spread
 * noise; the report gives the median of each and the ratio.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect/collector.h"
#include "model/model.h"
#include "target.skel.h"

#define PER_RUN 500     /* records per test run (bpf_loop in target_emit) */
#define RUNS 4000       /* test runs per round: 2 M records */
#define ROUNDS 5

struct producer {
	int prog_fd;
	atomic_bool done;
};

/* Monotonic time in seconds. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Producer thread: RUNS test runs of PER_RUN records, in batches of 10 runs. */
static void *produce(void *arg)
{
	struct producer *p = arg;
	unsigned char pkt[64] = { [12] = 0x08 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 10);

	for (int i = 0; i < RUNS / 10; i++)
		bpf_prog_test_run_opts(p->prog_fd, &opts);
	atomic_store(&p->done, true);
	return NULL;
}

static uint64_t bare_count;

/* Baseline callback: count only. */
static int bare_cb(void *ctx, void *data, size_t size)
{
	(void)ctx;
	(void)data;
	(void)size;
	bare_count++;
	return 0;
}

/* Load the producer, sharing c's maps when c is set. */
static struct target_bpf *load_producer(struct collector *c)
{
	struct target_bpf *skel = target_bpf__open();

	if (!skel)
		return NULL;
	if ((c && collector__share(c, skel->obj)) || target_bpf__load(skel)) {
		target_bpf__destroy(skel);
		return NULL;
	}
	skel->data->emit_n = PER_RUN;
	return skel;
}

/* One baseline round; returns events/s. */
static double round_bare(uint64_t *drops)
{
	struct target_bpf *skel = load_producer(NULL);
	struct producer p = { 0 };
	struct ring_buffer *rb;
	pthread_t th;
	double t0, t1;
	uint64_t produced = (uint64_t)PER_RUN * RUNS;

	if (!skel)
		return -1;
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), bare_cb, NULL, NULL);
	bare_count = 0;
	p.prog_fd = bpf_program__fd(skel->progs.target_emit);
	t0 = now_s();
	pthread_create(&th, NULL, produce, &p);
	for (;;) {
		ring_buffer__consume(rb);
		if (atomic_load(&p.done)) {
			ring_buffer__consume(rb);
			break;
		}
	}
	t1 = now_s();
	pthread_join(th, NULL);
	{
		__u32 zero = 0;
		struct lat_drops ld;

		*drops = 0;
		if (!bpf_map_lookup_elem(bpf_map__fd(skel->maps.lat_drops), &zero, &ld))
			for (int i = 0; i < LAT_MAX_CPUS; i++)
				*drops += ld.rb[i];
	}
	if (bare_count + *drops != produced)
		fprintf(stderr, "bare: accounted %llu of %llu\n",
			(unsigned long long)(bare_count + *drops), (unsigned long long)produced);
	ring_buffer__free(rb);
	target_bpf__destroy(skel);
	return bare_count / (t1 - t0);
}

struct agg {
	struct model *m;
	uint64_t n;
};

/* lattop drain callback: the model's real aggregation. */
static void agg_cb(const struct lat_event *e, void *arg)
{
	struct agg *a = arg;

	model__add_event(a->m, e, SRC_FENTRY);
	a->n++;
}

/* One lattop round; returns events/s. */
static double round_lattop(uint64_t *drops)
{
	struct collector *c = collector__new(65536);
	struct target_bpf *skel = c ? load_producer(c) : NULL;
	struct agg a = { .m = model__new(0) };
	struct producer p = { 0 };
	uint64_t produced = (uint64_t)PER_RUN * RUNS;
	pthread_t th;
	double t0, t1;

	if (!skel || !a.m)
		return -1;
	collector__start(c);
	p.prog_fd = bpf_program__fd(skel->progs.target_emit);
	t0 = now_s();
	pthread_create(&th, NULL, produce, &p);
	while (a.n + collector__queue_drops(c) + collector__rb_drops(c) < produced) {
		if (!collector__drain(c, agg_cb, &a) && atomic_load(&p.done) &&
		    now_s() - t0 > 60)
			break;
	}
	t1 = now_s();
	pthread_join(th, NULL);
	*drops = collector__queue_drops(c) + collector__rb_drops(c);
	collector__free(c);
	target_bpf__destroy(skel);
	model__free(a.m);
	return a.n / (t1 - t0);
}

/* Median of n doubles (sorts in place). */
static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return v[n / 2];
}

int main(void)
{
	double bare[ROUNDS], lat[ROUNDS];
	uint64_t bd, ld, bdt = 0, ldt = 0;

	libbpf_set_print(NULL);
	for (int r = 0; r < ROUNDS; r++) {
		bare[r] = round_bare(&bd);
		lat[r] = round_lattop(&ld);
		bdt += bd;
		ldt += ld;
		if (bare[r] < 0 || lat[r] < 0) {
			fprintf(stderr, "bench: cannot load the producer (root and BPF needed)\n");
			return 1;
		}
	}
	double b = median(bare, ROUNDS), l = median(lat, ROUNDS);

	printf("collector throughput, %d rounds of %d records (median):\n", ROUNDS, PER_RUN * RUNS);
	printf("  bare ring_buffer__consume : %10.0f events/s  (drops %llu)\n", b,
	       (unsigned long long)bdt);
	printf("  lattop collector+queues+model: %7.0f events/s  (drops %llu)\n", l,
	       (unsigned long long)ldt);
	printf("  ratio lattop/bare: %.2fx (goal >= 0.90x)\n", l / b);
	return 0;
}
