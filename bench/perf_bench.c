// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf_bench.c - how fast `lattop -r FILE` reads a perf.data file of EventHeader activities
 * (what LinuxTracepoints' perf-collect writes: samples of IDENTIFIER, TID, TIME, CPU and RAW),
 * in MB/s of the file, against a plain read of the same file in the same run.
 *
 * The file: ACTS activities of one tracepoint from 8 threads on 4 CPUs, each a start (with the
 * metadata naming it) and a stop, every CPU's events of a 10 ms round written together (so
 * the file is out of time order across CPUs, as perf-collect's is). Baseline: the file read
 * whole into memory (replay__read, what lattop -r does first). Measured: the same read, then
 * the conversion into a recording of 1 s intervals (session/perf_src.c: the reader, the sort
 * by time, the pairing, the model, the encoder), then that recording scanned as the replay
 * scans it. The file sits in /tmp (the page cache after the first round). Times are the
 * thread's CPU time (user and system), so that other processes' load does not count; rounds
 * alternate sides; medians are reported with the ratio.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rec/rec.h"
#include "rec/replay.h"
#include "session/perf_src.h"
#include "benchutil.h"

#define ACTS 400000
#define ROUNDS 5
#define NCPU 4

/* A growable buffer of the file being written. */
struct out {
	uint8_t *p;
	size_t len, cap;
};

/* Append n bytes. */
static void put(struct out *o, const void *v, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2;
		o->p = realloc(o->p, o->cap);
		if (!o->p)
			exit(1);
	}
	memcpy(o->p + o->len, v, n);
	o->len += n;
}

static void put32(struct out *o, uint32_t v)
{
	put(o, &v, 4);
}

static void put64(struct out *o, uint64_t v)
{
	put(o, &v, 8);
}

/* One sample: id, pid/tid, time, cpu, raw (common fields + an EventHeader event). */
static void sample(struct out *o, uint32_t cpu, uint32_t tid, uint64_t t, int op, uint64_t act)
{
	uint8_t ev[64];
	size_t n = 0, raw, pad;

	memset(ev, 0, sizeof(ev));
	ev[n++] = 0x07, ev[n++] = 0, ev[n++] = 7, ev[n++] = 0, n += 2;
	ev[n++] = (uint8_t)op, ev[n++] = 4;
	ev[n++] = 16, ev[n++] = 0, ev[n++] = 2, ev[n++] = op == 1 ? 0x80 : 0;
	memcpy(ev + n, &act, 8);
	n += 16;
	if (op == 1) {
		ev[n++] = 8, ev[n++] = 0, ev[n++] = 1, ev[n++] = 0;
		memcpy(ev + n, "Request", 8);
		n += 8;
	}
	raw = 8 + n;
	pad = (8 - (raw + 4) % 8) % 8;
	put32(o, 9);
	put32(o, (uint32_t)((8 + 8 + 8 + 8 + 8 + 4 + raw + pad) << 16));
	put64(o, 100 + cpu);
	put32(o, tid), put32(o, tid);
	put64(o, t);
	put32(o, cpu), put32(o, 0);
	put32(o, (uint32_t)(raw + pad));
	put64(o, 1234); /* common fields: type 1234, flags, preempt count, pid 0 */
	put(o, ev, n);
	put(o, "\0\0\0\0\0\0\0", pad);
}

/* The data section: per 10 ms round, each CPU's starts and stops in time order. */
static void data_section(struct out *o)
{
	const uint64_t t0 = 1000000000ull, per_round = 1000;

	for (uint64_t r = 0; r * per_round < ACTS; r++)
		for (uint32_t cpu = 0; cpu < NCPU; cpu++)
			for (uint64_t i = r * per_round; i < (r + 1) * per_round && i < ACTS; i++) {
				uint64_t start = t0 + i * 10000, stop = start + 3000 + i % 50000;

				if (i % NCPU == cpu)
					sample(o, cpu, 1000 + i % 8, start, 1, i + 1);
				if ((i + 1) % NCPU == cpu)
					sample(o, cpu, 1000 + i % 8, stop, 2, i + 1);
			}
}

/* The whole file: header, data, the EVENT_DESC feature, one attr and its ids. */
static struct out make_file(void)
{
	struct out o = { 0 };
	uint8_t attr[128] = { 0 };
	uint64_t st = 0x10486, cfg = 1234, data_end, desc_off, desc_len, attrs_off;
	uint32_t type = 2, size = 128;

	memcpy(attr, &type, 4);
	memcpy(attr + 4, &size, 4);
	memcpy(attr + 8, &cfg, 8);
	memcpy(attr + 24, &st, 8);
	put(&o, "PERFILE2", 8);
	for (int i = 0; i < 12; i++)
		put64(&o, 0);
	data_section(&o);
	data_end = o.len;
	desc_off = data_end + 16;
	desc_len = 8 + 128 + 8 + 24 + NCPU * 8;
	put64(&o, desc_off), put64(&o, desc_len);
	put32(&o, 1), put32(&o, 128);
	put(&o, attr, 128);
	put32(&o, NCPU), put32(&o, 24);
	put(&o, "user_events:B_L4K1\0\0\0\0\0", 24);
	for (uint64_t c = 0; c < NCPU; c++)
		put64(&o, 100 + c);
	attrs_off = o.len;
	put(&o, attr, 128);
	put64(&o, attrs_off + 144), put64(&o, NCPU * 8);
	for (uint64_t c = 0; c < NCPU; c++)
		put64(&o, 100 + c);
	/* The header: size, attr size, attrs, data, event_types, features (bit 12). */
	uint64_t h[12] = { 104, 144, attrs_off, 144, 104, data_end - 104, 0, 0, 1ull << 12 };

	memcpy(o.p + 8, h, sizeof(h));
	return o;
}

/* The file read whole: ns. */
static uint64_t plain(const char *path)
{
	uint64_t t = thread_ns();
	uint8_t *d;
	size_t n;
	char err[256];

	if (replay__read(path, &d, &n, err, sizeof(err)))
		exit(1);
	free(d);
	return thread_ns() - t;
}

/* Read, convert, scan: ns; the recording's size in *rec_len. */
static uint64_t offline(const char *path, size_t *rec_len)
{
	uint64_t t = thread_ns();
	uint8_t *d, *rec;
	size_t n;
	char err[320];
	struct rec_file f;

	if (replay__read(path, &d, &n, err, sizeof(err)) ||
	    perf_src__convert(d, n, 1000000000ull, 10000000000ull, &rec, rec_len, err,
			      sizeof(err))) {
		fprintf(stderr, "perf_bench: %s\n", err);
		exit(1);
	}
	free(d);
	if (rec__scan(&f, rec, *rec_len, err, sizeof(err)))
		exit(1);
	rec__fini(&f);
	free(rec);
	return thread_ns() - t;
}

int main(void)
{
	char path[] = "/tmp/lattop-perf-bench-XXXXXX";
	struct out o = make_file();
	uint64_t base[ROUNDS], conv[ROUNDS];
	size_t rec_len = 0;
	int fd = mkstemp(path);
	double mb = (double)o.len / 1e6;

	if (fd < 0 || write(fd, o.p, o.len) != (ssize_t)o.len)
		return 1;
	close(fd);
	for (int r = 0; r < ROUNDS; r++) {
		base[r] = plain(path);
		conv[r] = offline(path, &rec_len);
	}
	if (!getenv("PERF_BENCH_KEEP"))
		unlink(path);
	else
		printf("  file kept: %s\n", path);
	qsort(base, ROUNDS, sizeof(base[0]), bench_cmp_u64);
	qsort(conv, ROUNDS, sizeof(conv[0]), bench_cmp_u64);
	printf("perf.data offline read: %d activities (%d samples), %.1f MB, %d rounds, medians of "
	       "CPU time\n",
	       ACTS, 2 * ACTS, mb, ROUNDS);
	printf("  plain read of the file          %9.1f MB/s\n",
	       mb / ((double)base[ROUNDS / 2] / 1e9));
	printf("  lattop -r: read, pair, record   %9.1f MB/s  (%.0f ns/sample, recording %zu "
	       "bytes)\n",
	       mb / ((double)conv[ROUNDS / 2] / 1e9), (double)conv[ROUNDS / 2] / (2.0 * ACTS),
	       rec_len);
	printf("  ratio lattop -r / plain read: %.2fx the time\n",
	       (double)conv[ROUNDS / 2] / (double)base[ROUNDS / 2]);
	free(o.p);
	return 0;
}
