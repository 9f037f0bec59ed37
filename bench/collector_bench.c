// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * collector_bench.c - collector throughput against a bare libbpf consumer, same run.
 *
 * Producer: bpf/target.bpf.c target_emit, driven by bpf_prog_test_run from a producer thread,
 * emits records into a ring buffer (1-in-64 wake-ups, as lattop's probes do).
 * Baseline: a bare ring_buffer__consume loop whose callback only counts; it runs until the
 * producer thread has returned (every record is then submitted or counted as a drop), consumes
 * once more and checks records + drops == produced, so it ends whatever the wake-ups do.
 * lattop: the collector thread -> per-CPU SPSC queues -> a UI thread draining into the model's
 * histograms every 5 ms (what batch mode does).
 *
 * Two figures per side: wall events/s (bounded by the producer on a small machine, so both
 * sides should match), and consumer capacity = events per CPU-second of the consuming threads
 * (thread CPU clocks), which is what limits lattop when the producers are fast. Rounds
 * alternate sides to spread noise; medians are reported, with the ratios.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect/collector.h"
#include "model/model.h"
#include "target.skel.h"

#define PER_RUN 1000 /* records per test run (bpf_loop in target_emit) */
#define RUNS 1000    /* test runs per round: 1 M records */
#define ROUNDS 5

struct producer {
	int prog_fd;
	atomic_bool done;
};

struct result {
	double wall_eps; /* events reaching the end per wall second */
	double cap_eps;  /* events per consumer CPU second */
	uint64_t drops;
};

/* A clock in seconds. */
static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Producer thread: RUNS test runs of PER_RUN records, 10 runs per call. */
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

/* Load the producer, sharing c's maps when c is set. */
static struct target_bpf *load_producer(struct collector *c)
{
	struct target_bpf *skel = target_bpf__open();

	if (!skel)
		return NULL;
	/* lat_drops has an entry per possible CPU (the collector's is so sized). */
	if ((c ? collector__share(c, skel->obj)
	       : bpf_map__set_max_entries(skel->maps.lat_drops,
					  (__u32)libbpf_num_possible_cpus())) ||
	    target_bpf__load(skel)) {
		target_bpf__destroy(skel);
		return NULL;
	}
	skel->data->emit_n = PER_RUN;
	return skel;
}

/* Ring buffer reserve failures in the mapped lat_drops array, an entry per CPU (BPF adds
 * atomically). */
static uint64_t sum_drops(const volatile struct lat_drops *d)
{
	uint64_t sum = 0;

	for (int i = 0; i < libbpf_num_possible_cpus(); i++)
		sum += d[i].rb;
	return sum;
}

/* Bytes of that mapping: whole pages. */
static size_t drops_len(void)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return ((size_t)libbpf_num_possible_cpus() * sizeof(struct lat_drops) + pg - 1) / pg * pg;
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

/* One baseline round: consume without waiting for wake-ups until the producer is done. */
static int round_bare(struct result *r)
{
	struct target_bpf *skel = load_producer(NULL);
	uint64_t produced = (uint64_t)PER_RUN * RUNS;
	/* Idle: nap 0.2 ms rather than spin, so the thread's CPU time measures consuming; the
	 * 4 MiB ring holds ~75k records, far more than arrive in 0.2 ms. */
	struct timespec nap = { 0, 200000 };
	struct producer p = { 0 };
	struct ring_buffer *rb = NULL;
	struct lat_drops *d = MAP_FAILED;
	double t0, c0;
	pthread_t th;
	int err = -1;

	if (!skel)
		return -1;
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), bare_cb, NULL, NULL);
	d = mmap(NULL, drops_len(), PROT_READ, MAP_SHARED, bpf_map__fd(skel->maps.lat_drops), 0);
	if (!rb || d == MAP_FAILED) {
		fprintf(stderr, "bench: bare consumer: %s\n", strerror(errno));
		goto cleanup;
	}
	bare_count = 0;
	p.prog_fd = bpf_program__fd(skel->progs.target_emit);
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	if (pthread_create(&th, NULL, produce, &p))
		goto cleanup;
	while (!atomic_load(&p.done))
		if (ring_buffer__consume(rb) == 0)
			nanosleep(&nap, NULL);
	/* Every test run has returned: all records are in the ring or counted as drops. */
	while (ring_buffer__consume(rb) > 0)
		;
	r->wall_eps = bare_count / (clock_s(CLOCK_MONOTONIC) - t0);
	r->cap_eps = bare_count / (clock_s(CLOCK_THREAD_CPUTIME_ID) - c0);
	r->drops = sum_drops(d);
	pthread_join(th, NULL);
	if (bare_count + r->drops != produced) {
		fprintf(stderr, "bench: bare consumer saw %llu records + %llu drops of %llu\n",
			(unsigned long long)bare_count, (unsigned long long)r->drops,
			(unsigned long long)produced);
		goto cleanup;
	}
	err = 0;
cleanup:
	if (d != MAP_FAILED)
		munmap(d, drops_len());
	ring_buffer__free(rb);
	target_bpf__destroy(skel);
	return err;
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

/* One lattop round. */
static int round_lattop(struct result *r)
{
	struct collector *c = collector__new(65536);
	struct target_bpf *skel = c ? load_producer(c) : NULL;
	struct agg a = { .m = model__new(0) };
	uint64_t produced = (uint64_t)PER_RUN * RUNS;
	struct timespec nap = { 0, 5000000 };
	struct producer p = { 0 };
	double t0, c0, ui_cpu;
	pthread_t th;

	if (!skel || !a.m)
		return -1;
	collector__start(c);
	p.prog_fd = bpf_program__fd(skel->progs.target_emit);
	t0 = clock_s(CLOCK_MONOTONIC);
	c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	pthread_create(&th, NULL, produce, &p);
	while (a.n + collector__queue_drops(c) + collector__rb_drops(c) < produced)
		if (!collector__drain(c, agg_cb, &a))
			nanosleep(&nap, NULL);
	r->wall_eps = a.n / (clock_s(CLOCK_MONOTONIC) - t0);
	ui_cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
	r->cap_eps = a.n / (ui_cpu + collector__cpu_ns(c) / 1e9);
	r->drops = collector__queue_drops(c) + collector__rb_drops(c);
	pthread_join(th, NULL);
	collector__free(c);
	target_bpf__destroy(skel);
	model__free(a.m);
	return 0;
}

/* qsort comparison of doubles. */
static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of n doubles (sorts in place). */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return v[n / 2];
}

int main(void)
{
	double bw[ROUNDS], bc[ROUNDS], lw[ROUNDS], lc[ROUNDS];
	uint64_t bd = 0, ld = 0;

	libbpf_set_print(NULL);
	for (int i = 0; i < ROUNDS; i++) {
		struct result b, l;

		if (round_bare(&b) || round_lattop(&l)) {
			fprintf(stderr, "bench: a round failed (root and BPF needed)\n");
			return 1;
		}
		bw[i] = b.wall_eps;
		bc[i] = b.cap_eps;
		lw[i] = l.wall_eps;
		lc[i] = l.cap_eps;
		bd += b.drops;
		ld += l.drops;
	}
	double mbw = median(bw, ROUNDS), mbc = median(bc, ROUNDS);
	double mlw = median(lw, ROUNDS), mlc = median(lc, ROUNDS);

	printf("collector benchmark: %d rounds x %d records, medians\n", ROUNDS, PER_RUN * RUNS);
	printf("  %-34s %12s %22s %8s\n", "", "wall ev/s", "ev per consumer CPU-s", "drops");
	printf("  %-34s %12.0f %22.0f %8llu\n", "bare libbpf ring_buffer__consume", mbw, mbc,
	       (unsigned long long)bd);
	printf("  %-34s %12.0f %22.0f %8llu\n", "lattop collector+queues+model", mlw, mlc,
	       (unsigned long long)ld);
	printf("  ratio lattop/bare: wall %.2fx, capacity %.2fx (goal >= 0.90x)\n", mlw / mbw,
	       mlc / mbc);
	return 0;
}
