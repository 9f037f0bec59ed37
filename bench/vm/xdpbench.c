// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * xdpbench.c - the VM benchmark's driver: loads two XDP programs (xdpbench_target.bpf.c:
 * bench_empty, empty; bench_update, one hash-map update per run) and runs one of them with
 * bpf_prog_test_run under each observer, on command (bench/vm/guest/x_vmbench.sh drives it).
 *
 * Prints "id ID" (bench_empty), "id_update ID" (bench_update) and "ready", then reads commands
 * from stdin:
 *   prog empty|update  the program the next runs drive (bench_empty at start); prints "ok"
 *   run T C R      T threads, thread i pinned to CPU i, each making C bpf_prog_test_run calls
 *                  of R repeats, all starting together; prints "ran runs=N med=M min=A max=B"
 *                  over the T*C calls' per-run averages (ns, the kernel's own timing of the
 *                  loop, observers included)
 *   stats on|off   bpf_enable_stats(BPF_STATS_RUN_TIME) through an fd, closed by off
 *   ref on|off     the reference probe (xdpbench_probe.bpf.c ref_*) attached / detached; off
 *                  prints "ref count N": every CPU's histogram slots summed
 *   agg on|off     the in-kernel aggregation prototype (agg_*); off prints "agg count N
 *                  buckets B overflow O": the count, the buckets summed, nesting overflows
 *   agg plain      the prototype with plain adds instead of atomic ones (off as above)
 *   href on|off    the helpers-mode reference: one instance of ref_* on bench_update, another
 *                  on the kernel function htab_map_update_elem (what its map update calls);
 *                  off prints "href count N M": the program's runs and the function's calls
 *                  seen (each instance's histogram summed)
 *   quit (or EOF)  exit
 * Errors: "error WHAT: why" lines; the command is not done.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdpbench_probe.skel.h"
#include "xdpbench_target.skel.h"

#define MAX_THREADS 64
#define MAX_CALLS 1000

static struct xdpbench_target_bpf *tgt;
static struct bpf_program *driven; /* what run drives: bench_empty or bench_update */
static pthread_barrier_t start_line;

/* One driving thread's job and results. */
struct driver {
	pthread_t th;
	int cpu;
	unsigned calls, repeat;
	unsigned avg_ns[MAX_CALLS];
	int err;
};

/* Pin to the driver's CPU, wait for the others, then make the calls. */
static void *drive(void *arg)
{
	struct driver *d = arg;
	unsigned char pkt[64] = {[12] = 0x08};
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(d->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		d->err = errno;
	pthread_barrier_wait(&start_line);
	for (unsigned i = 0; i < d->calls && !d->err; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
			    .repeat = d->repeat);

		if (bpf_prog_test_run_opts(bpf_program__fd(driven), &opts))
			d->err = errno;
		d->avg_ns[i] = opts.duration;
	}
	return NULL;
}

/* Ascending order of unsigned values (qsort). */
static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* run T C R: drive from T threads at once; print the median, min and max call average. */
static void cmd_run(unsigned t, unsigned c, unsigned r)
{
	static struct driver d[MAX_THREADS];
	static unsigned all[MAX_THREADS * MAX_CALLS];
	unsigned n = 0;
	int err = 0;

	if (!t || t > MAX_THREADS || !c || c > MAX_CALLS || !r) {
		printf("error run: T 1..%d, C 1..%d, R > 0\n", MAX_THREADS, MAX_CALLS);
		return;
	}
	pthread_barrier_init(&start_line, NULL, t);
	for (unsigned i = 0; i < t; i++) {
		d[i] = (struct driver){.cpu = (int)i, .calls = c, .repeat = r};
		pthread_create(&d[i].th, NULL, drive, &d[i]);
	}
	for (unsigned i = 0; i < t; i++) {
		pthread_join(d[i].th, NULL);
		err = err ? err : d[i].err;
		for (unsigned k = 0; k < c; k++)
			all[n++] = d[i].avg_ns[k];
	}
	pthread_barrier_destroy(&start_line);
	if (err) {
		printf("error run: %s\n", strerror(err));
		return;
	}
	qsort(all, n, sizeof(all[0]), cmp_uint);
	printf("ran runs=%llu med=%u min=%u max=%u\n", (unsigned long long)t * c * r, all[n / 2],
	       all[0], all[n - 1]);
}

/* Open the probe object with only the two programs of one observer, aimed at the function
 * name of program fd (fd 0: name is a kernel function). */
static struct xdpbench_probe_bpf *probe_open_at(bool ref, bool atomic, int fd, const char *name)
{
	struct xdpbench_probe_bpf *p = xdpbench_probe_bpf__open();

	if (!p)
		return NULL;
	p->rodata->agg_atomic = atomic;
	bpf_program__set_autoload(p->progs.ref_entry, ref);
	bpf_program__set_autoload(p->progs.ref_exit, ref);
	bpf_program__set_autoload(p->progs.agg_entry, !ref);
	bpf_program__set_autoload(p->progs.agg_exit, !ref);
	if (bpf_program__set_attach_target(ref ? p->progs.ref_entry : p->progs.agg_entry, fd,
					   name) ||
	    bpf_program__set_attach_target(ref ? p->progs.ref_exit : p->progs.agg_exit, fd, name) ||
	    xdpbench_probe_bpf__load(p) || xdpbench_probe_bpf__attach(p)) {
		int err = errno;

		xdpbench_probe_bpf__destroy(p);
		errno = err;
		return NULL;
	}
	return p;
}

/* The same, aimed at bench_empty (the observers of the empty program). */
static struct xdpbench_probe_bpf *probe_open(bool ref, bool atomic)
{
	return probe_open_at(ref, atomic, bpf_program__fd(tgt->progs.bench_empty), "bench_empty");
}

/* Every CPU's values of one u64 per-CPU array entry, summed. */
static unsigned long long percpu_sum(int map_fd, __u32 key, size_t value_size, size_t off)
{
	int ncpu = libbpf_num_possible_cpus();
	size_t stride = (value_size + 7) / 8 * 8;
	unsigned char *buf = calloc((size_t)ncpu, stride);
	unsigned long long s = 0;

	if (buf && !bpf_map_lookup_elem(map_fd, &key, buf))
		for (int i = 0; i < ncpu; i++)
			s += *(unsigned long long *)(buf + (size_t)i * stride + off);
	free(buf);
	return s;
}

/* The reference probe's total: every slot of every CPU. */
static unsigned long long ref_total(struct xdpbench_probe_bpf *p)
{
	unsigned long long s = 0;

	for (__u32 k = 0; k < 64; k++)
		s += percpu_sum(bpf_map__fd(p->maps.ref_hist), k, 8, 0);
	return s;
}

/* The prototype's count, its buckets summed, and its nesting overflows. */
static void agg_report(struct xdpbench_probe_bpf *p)
{
	size_t vs = bpf_map__value_size(p->maps.agg), ns = bpf_map__value_size(p->maps.agg_stack);
	unsigned long long count = percpu_sum(bpf_map__fd(p->maps.agg), 0, vs, 0), buckets = 0;
	int ncpu = libbpf_num_possible_cpus();
	size_t stride = (vs + 7) / 8 * 8;
	unsigned char *buf = calloc((size_t)ncpu, stride);
	__u32 zero = 0;

	if (buf && !bpf_map_lookup_elem(bpf_map__fd(p->maps.agg), &zero, buf))
		for (int i = 0; i < ncpu; i++)
			for (size_t b = 3; b < vs / 8; b++)
				buckets += ((unsigned long long *)(buf + (size_t)i * stride))[b];
	free(buf);
	printf("agg count %llu buckets %llu overflow %llu bytes_per_cpu %zu\n", count, buckets,
	       percpu_sum(bpf_map__fd(p->maps.agg_stack), 0, ns, ns - 8), vs);
}

/* The helpers-mode reference: ref_* on bench_update and on htab_map_update_elem. */
static struct xdpbench_probe_bpf *href_prog, *href_fn;

/* href on|off: attach both instances, or print both counts and detach. */
static void cmd_href(bool on)
{
	int err;

	if (on && !href_prog) {
		href_prog = probe_open_at(true, true, bpf_program__fd(tgt->progs.bench_update),
					  "bench_update");
		href_fn = href_prog ? probe_open_at(true, true, 0, "htab_map_update_elem") : NULL;
		if (href_fn) {
			printf("ok\n");
			return;
		}
		err = errno;
		xdpbench_probe_bpf__destroy(href_prog);
		href_prog = NULL;
		printf("error href: %s\n", strerror(err));
	} else if (href_prog) {
		printf("href count %llu %llu\n", ref_total(href_prog), ref_total(href_fn));
		xdpbench_probe_bpf__destroy(href_prog);
		xdpbench_probe_bpf__destroy(href_fn);
		href_prog = href_fn = NULL;
	} else {
		printf("error href: not on\n");
	}
}

int main(void)
{
	struct xdpbench_probe_bpf *ref = NULL, *agg = NULL;
	char line[256], what[16];
	unsigned t, c, r;
	int stats_fd = -1;

	tgt = xdpbench_target_bpf__open_and_load();
	if (!tgt) {
		fprintf(stderr, "xdpbench: cannot load xdpbench_target.bpf.o: %s\n",
			strerror(errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	driven = tgt->progs.bench_empty;
	{
		struct bpf_prog_info info = {}, uinfo = {};
		__u32 len = sizeof(info), ulen = sizeof(uinfo);

		bpf_obj_get_info_by_fd(bpf_program__fd(tgt->progs.bench_empty), &info, &len);
		bpf_obj_get_info_by_fd(bpf_program__fd(tgt->progs.bench_update), &uinfo, &ulen);
		printf("id %u\nid_update %u\nready\n", info.id, uinfo.id);
	}
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "run %u %u %u", &t, &c, &r) == 3) {
			cmd_run(t, c, r);
		} else if (sscanf(line, "prog %15s", what) == 1) {
			if (!strcmp(what, "empty") || !strcmp(what, "update")) {
				driven = what[0] == 'e' ? tgt->progs.bench_empty
							: tgt->progs.bench_update;
				printf("ok\n");
			} else {
				printf("error prog: empty or update\n");
			}
		} else if (sscanf(line, "href %15s", what) == 1) {
			cmd_href(!strcmp(what, "on"));
		} else if (sscanf(line, "stats %15s", what) == 1) {
			if (!strcmp(what, "on") && stats_fd < 0) {
				stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
				if (stats_fd < 0)
					printf("error stats: %s\n", strerror(errno));
				else
					printf("ok\n");
			} else {
				if (stats_fd >= 0)
					close(stats_fd);
				stats_fd = -1;
				printf("ok\n");
			}
		} else if (sscanf(line, "ref %15s", what) == 1) {
			if (!strcmp(what, "on") && !ref) {
				ref = probe_open(true, true);
				if (ref)
					printf("ok\n");
				else
					printf("error ref: %s\n", strerror(errno));
			} else if (ref) {
				printf("ref count %llu\n", ref_total(ref));
				xdpbench_probe_bpf__destroy(ref);
				ref = NULL;
			} else {
				printf("error ref: not on\n");
			}
		} else if (sscanf(line, "agg %15s", what) == 1) {
			if ((!strcmp(what, "on") || !strcmp(what, "plain")) && !agg) {
				agg = probe_open(false, !strcmp(what, "on"));
				if (agg)
					printf("ok\n");
				else
					printf("error agg: %s\n", strerror(errno));
			} else if (agg) {
				agg_report(agg);
				xdpbench_probe_bpf__destroy(agg);
				agg = NULL;
			} else {
				printf("error agg: not on\n");
			}
		} else if (!strncmp(line, "quit", 4)) {
			break;
		} else {
			printf("error unknown command\n");
		}
	}
	xdpbench_probe_bpf__destroy(ref);
	xdpbench_probe_bpf__destroy(agg);
	xdpbench_probe_bpf__destroy(href_prog);
	xdpbench_probe_bpf__destroy(href_fn);
	if (stats_fd >= 0)
		close(stats_fd);
	xdpbench_target_bpf__destroy(tgt);
	return 0;
}
