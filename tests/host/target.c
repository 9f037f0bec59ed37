// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * target.c - test fixture: loads bpf/target.bpf.c and runs its programs on command.
 *
 * Prints "light ID", "heavy ID", "emit ID", "maps ID", "maps2 ID", "tracing ID", "heavy2 ID",
 * "ready", then reads commands from stdin:
 *   run light|heavy|heavy2|emit|maps|maps2 N
 *                            run the program N times (bpf_prog_test_run repeat=N);
 *                            prints "ran N avg_ns A" (the kernel's average run time)
 *   spin light|heavy|heavy2|emit|maps|maps2 MS
 *                            run the program once per bpf_prog_test_run call, call after
 *                            call, for MS milliseconds; prints "ran N" (the runs made)
 *   par light|heavy|heavy2|emit|maps|maps2 T N
 *                            run the program N times in each of T threads at once (thread i
 *                            pinned to CPU i modulo the CPUs); prints "ran T*N"
 *   on light|heavy|heavy2|emit|maps|maps2 N CPU[,CPU...]
 *                            run the program N times in one thread per CPU listed, each
 *                            pinned to its CPU (any CPU id: a guest's 256 and 0 at once);
 *                            prints "ran CPUS*N", or an error if a thread could not be pinned
 *   stats light|heavy|heavy2|emit|maps|maps2
 *                            prints "run_cnt C run_time_ns T", the program's bpf_stats
 *                            counters (they grow only while BPF run-time stats are on)
 *   loops L                  set target_heavy's bpf_loop iterations
 *   loops2 L                 set target_heavy2's bpf_loop iterations
 *   emit K                   set target_emit's events per run
 *   unload                   destroy the programs, prints "unloaded"
 *   quit (or EOF)            exit
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect/compat.h"
#include "target.skel.h"
#include "target_compat.skel.h"

/* Program ID of a loaded program. */
static unsigned prog_id(const struct bpf_program *p)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len) ? 0 : info.id;
}

/* Run prog n times; print the kernel's average duration. */
static int run(const struct bpf_program *p, unsigned n)
{
	unsigned char pkt[64] = { [12] = 0x08 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = n);
	int err = bpf_prog_test_run_opts(bpf_program__fd(p), &opts);

	if (err) {
		printf("error %s\n", strerror(errno));
		return err;
	}
	printf("ran %u avg_ns %u\n", n, opts.duration);
	return 0;
}

/* Monotonic milliseconds. */
static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/* Run prog once per call, call after call, for ms milliseconds: a steady stream whose
 * records are always partly in flight (the ring buffer wakes its reader every 64), so every
 * interval boundary it crosses has runs bpf_stats counted before their events arrived. */
static int spin(const struct bpf_program *p, unsigned ms)
{
	unsigned char pkt[64] = { [12] = 0x08 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);
	unsigned long long end = now_ms() + ms, n = 0;

	while (now_ms() < end) {
		if (bpf_prog_test_run_opts(bpf_program__fd(p), &opts)) {
			printf("error %s after %llu runs\n", strerror(errno), n);
			return -errno;
		}
		n++;
	}
	printf("ran %llu\n", n);
	return 0;
}

/* One thread of `par`: its program, CPU, repeats and outcome. */
struct par_job {
	pthread_t th;
	const struct bpf_program *p;
	int cpu;
	unsigned n;
	int err;
	int strict; /* `on`: a thread that cannot be pinned fails instead of running elsewhere */
};

/* Run one `par` thread: pinned to its CPU, one test run of n repeats. */
static void *par_run(void *arg)
{
	struct par_job *j = arg;
	unsigned char pkt[64] = { [12] = 0x08 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = j->n);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(j->cpu, &set);
	/* best effort for `par` (its counts do not depend on it); `on` needs it */
	if (sched_setaffinity(0, sizeof(set), &set) && j->strict) {
		j->err = errno;
		return NULL;
	}
	if (bpf_prog_test_run_opts(bpf_program__fd(j->p), &opts))
		j->err = errno;
	return NULL;
}

/* Start the t jobs (n runs each), wait for them all, and print "ran TOTAL", or "error WHY
 * after RUNS runs" when a thread could not start or a job failed (none: an error too). */
static int run_jobs(struct par_job *jobs, unsigned t, unsigned n)
{
	unsigned long long ran = 0;
	unsigned started = 0;
	int err = 0;

	for (; started < t; started++)
		if (pthread_create(&jobs[started].th, NULL, par_run, &jobs[started]))
			break;
	for (unsigned i = 0; i < started; i++) {
		pthread_join(jobs[i].th, NULL);
		if (jobs[i].err)
			err = jobs[i].err;
		else
			ran += n;
	}
	if (err || started < t || !t)
		printf("error %s after %llu runs\n", strerror(err ? err : EAGAIN), ran);
	else
		printf("ran %llu\n", ran);
	return err ? -err : 0;
}

/* Run prog n times in each of t threads at once, thread i on CPU i modulo the CPUs online:
 * every CPU drives the program at the rate it can. Prints the runs made. */
static int par(const struct bpf_program *p, unsigned t, unsigned n)
{
	struct par_job jobs[64] = {};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (t < 1 || t > 64) {
		printf("error threads must be 1..64\n");
		return -EINVAL;
	}
	for (unsigned i = 0; i < t; i++)
		jobs[i] = (struct par_job){ .p = p, .n = n, .cpu = (int)(i % (ncpu > 0 ? ncpu : 1)) };
	return run_jobs(jobs, t, n);
}

/* Run prog n times in one thread per CPU of the list "C1,C2,...", each pinned to its CPU.
 * Prints the runs made. */
static int on_cpus(const struct bpf_program *p, unsigned n, const char *list)
{
	struct par_job jobs[64] = {};
	unsigned t = 0;

	for (const char *c = list; *c && t < 64; t++) {
		char *end;
		long cpu = strtol(c, &end, 10);

		if (end == c || cpu < 0 || cpu >= CPU_SETSIZE || (*end && *end != ',')) {
			printf("error bad CPU list %s\n", list);
			return -EINVAL;
		}
		jobs[t] = (struct par_job){ .p = p, .n = n, .cpu = (int)cpu, .strict = 1 };
		c = *end ? end + 1 : end;
	}
	return run_jobs(jobs, t, n);
}

/* Print prog's bpf_stats counters. */
static int stats(const struct bpf_program *p)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len)) {
		printf("error %s\n", strerror(errno));
		return -errno;
	}
	printf("run_cnt %llu run_time_ns %llu\n", (unsigned long long)info.run_cnt,
	       (unsigned long long)info.run_time_ns);
	return 0;
}

/* The program a command names (target_emit for any other name). */
static const struct bpf_program *named(struct target_bpf *skel, const char *what)
{
	return !strcmp(what, "light")  ? skel->progs.target_light
	     : !strcmp(what, "heavy")  ? skel->progs.target_heavy
	     : !strcmp(what, "heavy2") ? skel->progs.target_heavy2
	     : !strcmp(what, "maps")   ? skel->progs.target_maps
	     : !strcmp(what, "maps2")  ? skel->progs.target_maps2
				       : skel->progs.target_emit;
}

int main(void)
{
	/* Kernels without bpf_loop (5.17) or compare-and-swap take the plain-loop build. */
	struct target_bpf *skel = COMPAT_OPEN_IF(target, compat__no_loop());
	char line[256], what[32], list[128];
	unsigned n, t;

	if (skel && target_bpf__load(skel)) {
		target_bpf__destroy(skel);
		skel = NULL;
	}
	if (!skel) {
		fprintf(stderr, "target: cannot load target.bpf.o: %s\n", strerror(errno));
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The tracing program only needs to be loaded (attaching is not needed to watch it). */
	printf("light %u\nheavy %u\nemit %u\nmaps %u\nmaps2 %u\ntracing %u\nheavy2 %u\nready\n",
	       prog_id(skel->progs.target_light), prog_id(skel->progs.target_heavy),
	       prog_id(skel->progs.target_emit), prog_id(skel->progs.target_maps),
	       prog_id(skel->progs.target_maps2), prog_id(skel->progs.target_tracing),
	       prog_id(skel->progs.target_heavy2));
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "par %31s %u %u", what, &t, &n) == 3) {
			par(named(skel, what), t, n);
		} else if (sscanf(line, "on %31s %u %127s", what, &n, list) == 3) {
			on_cpus(named(skel, what), n, list);
		} else if (sscanf(line, "run %31s %u", what, &n) == 2) {
			run(named(skel, what), n);
		} else if (sscanf(line, "spin %31s %u", what, &n) == 2) {
			spin(named(skel, what), n);
		} else if (sscanf(line, "stats %31s", what) == 1) {
			stats(named(skel, what));
		} else if (sscanf(line, "loops2 %u", &n) == 1) { /* before "loops %u": it would read 2 */
			skel->data->heavy2_loops = n;
			printf("ok\n");
		} else if (sscanf(line, "loops %u", &n) == 1) {
			skel->data->heavy_loops = n;
			printf("ok\n");
		} else if (sscanf(line, "emit %u", &n) == 1) {
			skel->data->emit_n = n;
			printf("ok\n");
		} else if (!strncmp(line, "unload", 6)) {
			target_bpf__destroy(skel);
			skel = NULL;
			printf("unloaded\n");
			break;
		} else if (!strncmp(line, "quit", 4)) {
			break;
		} else {
			printf("error unknown command\n");
		}
	}
	/* After unload, wait for quit/EOF so the test controls the process lifetime. */
	if (!skel)
		while (fgets(line, sizeof(line), stdin) && strncmp(line, "quit", 4))
			;
	target_bpf__destroy(skel);
	return 0;
}
