// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * collector_test.c - the collector thread and per-CPU queues against a real BPF producer.
 *
 * target_emit (bpf/target.bpf.c) emits K records per run with a global sequence number; the
 * collector thread moves them into queues while this (UI) thread drains concurrently. Every
 * record is accounted for exactly: received + ringbuf drops == produced, drained + queue drops
 * == received, and within one CPU's queue sequence numbers strictly increase. Run under TSan too.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect/collector.h"
#include "target.skel.h"
#include "../unit/test.h"

struct producer {
	int fd;
	unsigned runs;
	int err;
	atomic_bool done;
};

/* Producer thread: test runs in batches of 10, so the ring never holds more than 10 runs. */
static void *produce(void *arg)
{
	struct producer *p = arg;
	unsigned char pkt[64] = { [12] = 0x08 };

	for (unsigned done = 0; done < p->runs && !p->err; done += 10) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
			    .repeat = p->runs - done < 10 ? p->runs - done : 10);

		p->err = bpf_prog_test_run_opts(p->fd, &opts);
	}
	atomic_store(&p->done, true);
	return NULL;
}

struct drain_state {
	uint64_t n, bench, out_of_order;
	uint64_t last_seq[LAT_CPUS_LIMIT];
	bool seen[LAT_CPUS_LIMIT];
	uint64_t bad_cpu; /* records naming a CPU id that is not possible */
};

/* Drain callback: count, check per-CPU order. */
static void on_ev(const struct lat_event *e, void *arg)
{
	struct drain_state *d = arg;

	d->n++;
	if (e->kind != LAT_EV_BENCH)
		return;
	d->bench++;
	if (e->cpu >= (unsigned)libbpf_num_possible_cpus()) {
		d->bad_cpu++;
		return;
	}
	if (d->seen[e->cpu] && e->start_ns <= d->last_seq[e->cpu])
		d->out_of_order++;
	d->seen[e->cpu] = true;
	d->last_seq[e->cpu] = e->start_ns;
}

/* Produce runs*per_run records, draining concurrently; check the accounting. */
static void produce_and_check(size_t qcap, unsigned per_run, unsigned runs, bool expect_qdrops)
{
	static struct drain_state d;
	struct producer p = { .runs = runs };
	pthread_t th;
	struct collector *c = collector__new(qcap);
	struct target_bpf *skel = NULL;
	uint64_t produced = (uint64_t)per_run * runs, deadline;

	memset(&d, 0, sizeof(d));
	if (!ASSERT_TRUE(c != NULL, "collector__new"))
		return;
	skel = target_bpf__open();
	if (!ASSERT_TRUE(skel != NULL, "open"))
		goto cleanup;
	if (!ASSERT_OK(collector__share(c, skel->obj), "share"))
		goto cleanup;
	if (!ASSERT_OK(target_bpf__load(skel), "load"))
		goto cleanup;
	skel->data->emit_n = per_run;
	if (!ASSERT_OK(collector__start(c), "start"))
		goto cleanup;
	p.fd = bpf_program__fd(skel->progs.target_emit);
	if (!ASSERT_OK(pthread_create(&th, NULL, produce, &p), "producer"))
		goto cleanup;
	/* Everything produced must arrive within a few poll periods. */
	deadline = (uint64_t)time(NULL) + 10;
	while (collector__received(c) + collector__rb_drops(c) < produced &&
	       (uint64_t)time(NULL) < deadline) {
		if (!expect_qdrops)
			collector__drain(c, on_ev, &d);
		else {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
		}
	}
	pthread_join(th, NULL);
	ASSERT_OK(p.err, "test_run");
	collector__stop(c);
	collector__drain(c, on_ev, &d);
	ASSERT_EQ(collector__received(c) + collector__rb_drops(c), produced, "produced accounted");
	ASSERT_EQ(d.n + collector__queue_drops(c), collector__received(c), "received accounted");
	ASSERT_EQ(d.bench, d.n, "all records are bench records");
	ASSERT_EQ(d.out_of_order, 0, "per-CPU order");
	ASSERT_EQ(d.bad_cpu, 0, "every record names a possible CPU");
	ASSERT_EQ(collector__bad_records(c), 0, "bad records");
	if (expect_qdrops)
		ASSERT_TRUE(collector__queue_drops(c) > 0, "a tiny queue drops");
	else
		ASSERT_EQ(collector__queue_drops(c), 0, "no queue drops");
	printf("  produced %llu received %llu rb_drops %llu queue_drops %llu drained %llu\n",
	       (unsigned long long)produced, (unsigned long long)collector__received(c),
	       (unsigned long long)collector__rb_drops(c),
	       (unsigned long long)collector__queue_drops(c), (unsigned long long)d.n);
cleanup:
	collector__free(c);
	target_bpf__destroy(skel);
}

static void test_all_delivered(void)
{
	produce_and_check(65536, 100, 2000, false);
}

static void test_queue_full_counts(void)
{
	/* A 64-record queue with no draining until the end: most records are queue drops. */
	produce_and_check(64, 100, 200, true);
}

/* Overflow the 4 MiB ring buffer in one test run: reserve failures are counted. */
static void test_ringbuf_drops_counted(void)
{
	unsigned char pkt[64] = { [12] = 0x08 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	struct collector *c = collector__new(1024);
	struct target_bpf *skel = target_bpf__open();
	/* 4 MiB / (48 + 8 header) bytes = 74898 records fit; emit 200000 without consuming. */
	unsigned n = 200000;

	if (!ASSERT_TRUE(c && skel, "setup"))
		goto cleanup;
	if (!ASSERT_OK(collector__share(c, skel->obj), "share") ||
	    !ASSERT_OK(target_bpf__load(skel), "load"))
		goto cleanup;
	skel->data->emit_n = n;
	/* Not started: nothing consumes while the program runs. */
	bpf_prog_test_run_opts(bpf_program__fd(skel->progs.target_emit), &opts);
	ASSERT_EQ(collector__rb_drops(c), n - LAT_RINGBUF_BYTES / 56, "ringbuf drops");
cleanup:
	collector__free(c);
	target_bpf__destroy(skel);
}

int main(void)
{
	test__suite = "collector";
	libbpf_set_print(NULL);
	RUN_TEST(test_all_delivered);
	RUN_TEST(test_queue_full_counts);
	RUN_TEST(test_ringbuf_drops_counted);
	printf("collector: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
