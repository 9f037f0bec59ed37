// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * demo.c - load the demo programs and run them continuously with bpf_prog_test_run_opts.
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
#include "collect/demo.h"
#include "collect/progstats.h"
#include "demo.skel.h"

/* Generator ticks per second; each tick runs every program a rate-dependent number of times. */
#define DEMO_TICKS_PER_S 50

struct demo_prog {
	struct bpf_program *prog;
	uint32_t id;
	unsigned rate; /* target runs per second */
};

struct demo {
	struct demo_bpf *skel;
	struct demo_prog p[DEMO_NPROGS];
	pthread_t thread;
	bool started;
	atomic_bool stop;            /* written by demo__free, read by the generator: relaxed */
	atomic_uint_fast64_t runs;   /* written by the generator only: relaxed */
};

/* One test run batch of prog: repeat runs over a minimal Ethernet frame. */
static int run_batch(const struct demo_prog *p, unsigned repeat)
{
	unsigned char pkt[64] = { [12] = 0x08 }; /* an IPv4 EtherType, zero payload */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = repeat);

	return bpf_prog_test_run_opts(bpf_program__fd(p->prog), &opts);
}

/* Generator thread: each tick, run every program about rate/ticks times, with jitter. */
static void *demo_main(void *arg)
{
	struct demo *d = arg;
	struct timespec next;
	unsigned seed = 12345;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load_explicit(&d->stop, memory_order_relaxed)) {
		for (int i = 0; i < DEMO_NPROGS; i++) {
			unsigned base = d->p[i].rate / DEMO_TICKS_PER_S;
			unsigned repeat;

			seed = seed * 1103515245u + 12345u;
			/* +-50% jitter so rates wander like real traffic. */
			repeat = base / 2 + (seed >> 8) % (base + 1);
			if (repeat && run_batch(&d->p[i], repeat) == 0)
				atomic_fetch_add_explicit(&d->runs, repeat, memory_order_relaxed);
		}
		next.tv_nsec += 1000000000L / DEMO_TICKS_PER_S;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return NULL;
}

/* Load the demo programs and start the generator. */
struct demo *demo__start(struct collector *c, bool self_time, char *err, size_t errlen)
{
	struct demo *d = calloc(1, sizeof(*d));
	int e;

	if (!d)
		return NULL;
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_XDP, BPF_FUNC_loop, NULL) == 0) {
		e = -ENOTSUP;
		snprintf(err, errlen, "the demo's programs need bpf_loop (Linux 5.17), which this kernel "
				      "lacks: no demo here");
		goto fail;
	}
	d->skel = demo_bpf__open();
	if (!d->skel) {
		e = -errno;
		snprintf(err, errlen, "cannot open the demo BPF object: %s", strerror(-e));
		goto fail;
	}
	e = collector__share(c, d->skel->obj);
	if (!e)
		e = demo_bpf__load(d->skel);
	if (e) {
		snprintf(err, errlen, "cannot load the demo BPF programs: %s", strerror(-e));
		goto fail;
	}
	d->p[0] = (struct demo_prog){ d->skel->progs.demo_xdp_hash, 0, 12000 };
	d->p[1] = (struct demo_prog){ d->skel->progs.demo_xdp_array, 0, 25000 };
	d->p[2] = (struct demo_prog){ d->skel->progs.demo_sk_queue, 0, 5000 };
	d->p[3] = (struct demo_prog){ d->skel->progs.demo_xdp_lru, 0, 8000 };
	for (int i = 0; i < DEMO_NPROGS; i++)
		d->p[i].id = progstats__prog_id(bpf_program__fd(d->p[i].prog));
	d->skel->data->id_hash = d->p[0].id;
	d->skel->data->id_array = d->p[1].id;
	d->skel->data->id_queue = d->p[2].id;
	d->skel->data->id_lru = d->p[3].id;
	d->skel->data->self_time = self_time;
	e = pthread_create(&d->thread, NULL, demo_main, d);
	if (e) {
		e = -e;
		snprintf(err, errlen, "cannot start the demo generator: %s", strerror(-e));
		goto fail;
	}
	d->started = true;
	return d;
fail:
	demo__free(d);
	errno = -e;
	return NULL;
}

/* Stop the generator and unload the programs. */
void demo__free(struct demo *d)
{
	if (!d)
		return;
	if (d->started) {
		atomic_store_explicit(&d->stop, true, memory_order_relaxed);
		pthread_join(d->thread, NULL);
	}
	demo_bpf__destroy(d->skel);
	free(d);
}

/* IDs of the loaded demo programs. */
int demo__prog_ids(const struct demo *d, uint32_t *ids, int max)
{
	int n = max < DEMO_NPROGS ? max : DEMO_NPROGS;

	for (int i = 0; i < n; i++)
		ids[i] = d->p[i].id;
	return n;
}

/* Turn self-timing events on or off. */
void demo__set_self_time(struct demo *d, bool on)
{
	/* A plain store into the mmapped .data: BPF reads it on the next run. */
	__atomic_store_n(&d->skel->data->self_time, on ? 1 : 0, __ATOMIC_RELAXED);
}

/* Total test runs completed. */
uint64_t demo__runs(const struct demo *d)
{
	return atomic_load_explicit(&d->runs, memory_order_relaxed);
}
