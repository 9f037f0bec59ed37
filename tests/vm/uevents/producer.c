// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * producer.c - an application instrumented with Microsoft's reference TraceLogging API
 * (LinuxTracepoints' TraceLoggingProvider.h, built by tests/vm/uevents/run.sh), for lattop's
 * --activities tests. Provider LatTestProvider, level 4, keyword 1: tracepoint
 * user_events:LatTestProvider_L4K1.
 *
 *   producer acts THREADS PER_THREAD OUT   THREADS threads each run PER_THREAD "Request"
 *       activities of 1..8 ms (sleeps), every fourth with a nested "Inner" activity of 1 ms;
 *       OUT gets one line per activity: "NAME INNER_NS OUTER_NS", INNER from just after the
 *       start event was written to just before the stop, OUTER from just before the start to
 *       just after the stop: the kernel's timestamps of the two events lie in between.
 *   producer wrong STOPS ORPHANS MALFORMED
 *       STOPS stops of activities never started, ORPHANS starts never stopped, and MALFORMED
 *       rounds of raw events written through user_events_data: 3 malformed (an extension
 *       past the end, a 5-byte activity id, a start without an activity id) and 2 that are
 *       not EventHeader (level 5 on the level-4 tracepoint, undefined flag bits).
 *   producer flood THREADS PER_THREAD       start/stop pairs as fast as they go; prints
 *       "flood N pairs in NS ns".
 *   producer cost N                          N writes (N/2 "Inner" start/stop pairs) from
 *       one thread, timed; prints "cost N writes in NS ns listened=0|1".
 *   producer wait                            waits until someone listens (lattop's perf
 *       rings enable the tracepoint); prints "listening".
 *   producer fields N LATE                   once someone listens to level 4 keyword 1 (30 s at
 *       most), N "Request" activities from one thread, in
 *       order i = 0..N-1: a start with the field size = 100 * (1 + i % 4) (u32), children
 *       "Inner" (related id: the Request's) of 1 ms, two when i % 4 == 0, one when i % 4 == 2,
 *       and a stop with the field status = -5 when i % 5 == 0, else 0 (i32, signed); after
 *       each, a plain event "Tick" (field n = i, u32), and "Tock" when i % 3 == 0. Then it
 *       registers a second provider handle of the same provider whose events are at level 5,
 *       keyword 2 (tracepoint LatTestProvider_L5K2, new), waits (30 s at most) until someone
 *       listens to it, and writes LATE plain events "Late" and LATE activities "LateAct".
 *       Prints "late listening" or "late nobody" ("late none" when LATE is 0: no second
 *       handle registered).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <eventheader/TraceLoggingProvider.h>

TRACELOGGING_DEFINE_PROVIDER(LatTest, "LatTestProvider",
			     (0x4c617454, 0x6573, 0x7450, 0x72, 0x6f, 0x76, 0x69, 0x64, 0x65, 0x72,
			      0x31));

/* The same provider, registered late (producer fields): its own tracepoint, level 5 keyword 2. */
TRACELOGGING_DEFINE_PROVIDER(LatLate, "LatTestProvider",
			     (0x4c617454, 0x6573, 0x7450, 0x72, 0x6f, 0x76, 0x69, 0x64, 0x65, 0x72,
			      0x31));

#define LEVEL 4
#define KEYWORD 1

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A unique activity id: thread, sequence and a kind tag. */
static void make_id(uint8_t id[16], uint32_t thread, uint32_t seq, uint32_t kind)
{
	memset(id, 0, 16);
	memcpy(id, &thread, 4);
	memcpy(id + 4, &seq, 4);
	memcpy(id + 8, &kind, 4);
	id[15] = 0x5a;
}

static void start_ev(const uint8_t id[16], const uint8_t *parent, int inner)
{
	if (inner)
		TraceLoggingWriteActivity(LatTest, "Inner", id, parent,
					  TraceLoggingOpcode(event_opcode_activity_start),
					  TraceLoggingLevel(LEVEL), TraceLoggingKeyword(KEYWORD));
	else
		TraceLoggingWriteActivity(LatTest, "Request", id, parent,
					  TraceLoggingOpcode(event_opcode_activity_start),
					  TraceLoggingLevel(LEVEL), TraceLoggingKeyword(KEYWORD),
					  TraceLoggingUInt32(7, "size"));
}

static void stop_ev(const uint8_t id[16])
{
	TraceLoggingWriteActivity(LatTest, "Stop", id, NULL,
				  TraceLoggingOpcode(event_opcode_activity_stop),
				  TraceLoggingLevel(LEVEL), TraceLoggingKeyword(KEYWORD));
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

struct job {
	uint32_t thread, n;
	FILE *out;
	pthread_mutex_t *mu;
};

/* One activity: start, work (with a nested one when asked), stop; its two measurements. */
static void one(struct job *j, uint32_t i)
{
	uint8_t id[16], cid[16];
	uint64_t o0, i0, i1, o1, ci0 = 0, ci1 = 0, co0 = 0, co1 = 0;

	make_id(id, j->thread, i, 1);
	o0 = now_ns();
	start_ev(id, NULL, 0);
	i0 = now_ns();
	sleep_ns((1 + i % 8) * 1000000ull);
	if (i % 4 == 0) {
		make_id(cid, j->thread, i, 2);
		co0 = now_ns();
		start_ev(cid, id, 1);
		ci0 = now_ns();
		sleep_ns(1000000ull);
		ci1 = now_ns();
		stop_ev(cid);
		co1 = now_ns();
	}
	i1 = now_ns();
	stop_ev(id);
	o1 = now_ns();
	pthread_mutex_lock(j->mu);
	fprintf(j->out, "Request %llu %llu\n", (unsigned long long)(i1 - i0),
		(unsigned long long)(o1 - o0));
	if (i % 4 == 0)
		fprintf(j->out, "Inner %llu %llu\n", (unsigned long long)(ci1 - ci0),
			(unsigned long long)(co1 - co0));
	pthread_mutex_unlock(j->mu);
}

static void *acts_thread(void *arg)
{
	struct job *j = arg;

	for (uint32_t i = 0; i < j->n; i++)
		one(j, i);
	return NULL;
}

static void *flood_thread(void *arg)
{
	struct job *j = arg;
	uint8_t id[16];

	for (uint32_t i = 0; i < j->n; i++) {
		make_id(id, j->thread, i, 3);
		start_ev(id, NULL, 1);
		stop_ev(id);
	}
	return NULL;
}

/* Run nthreads threads of fn, n each. */
static void run_threads(void *(*fn)(void *), uint32_t nthreads, uint32_t n, FILE *out)
{
	pthread_t th[64];
	struct job jobs[64];
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

	for (uint32_t t = 0; t < nthreads && t < 64; t++) {
		jobs[t] = (struct job){t + 1, n, out, &mu};
		pthread_create(&th[t], NULL, fn, &jobs[t]);
	}
	for (uint32_t t = 0; t < nthreads && t < 64; t++)
		pthread_join(th[t], NULL);
}

/* The kernel's user_events registration (include/uapi/linux/user_events.h, 6.4 and later). */
struct ue_reg {
	uint32_t size;
	uint8_t enable_bit;
	uint8_t enable_size;
	uint16_t flags;
	uint64_t enable_addr;
	uint64_t name_args;
	uint32_t write_index;
} __attribute__((__packed__));

/* Write the raw bad events, rounds times. */
static int write_raw(int rounds)
{
	static uint32_t enabled;
	const char *cmd = "LatTestProvider_L4K1 u8 eventheader_flags; u8 version; u16 id; "
			  "u16 tag; u8 opcode; u8 level";
	struct ue_reg r = {.size = sizeof(r), .enable_size = 4};
	/* flags 0x07 = ptr64|LE|extension. */
	static const uint8_t past_end[] = {7, 0, 0, 0, 0, 0, 1, 4, 40, 0, 2, 0, 1, 2, 3, 4};
	static const uint8_t short_id[] = {7, 0, 0, 0, 0, 0, 1, 4, 5, 0, 2, 0, 1, 2, 3, 4, 5};
	static const uint8_t no_id[] = {3, 0, 0, 0, 0, 0, 1, 4};
	static const uint8_t level5[] = {3, 0, 0, 0, 0, 0, 1, 5};
	static const uint8_t flags[] = {0xf3, 0, 0, 0, 0, 0, 1, 4};
	const uint8_t *evs[] = {past_end, short_id, no_id, level5, flags};
	size_t lens[] = {sizeof(past_end), sizeof(short_id), sizeof(no_id), sizeof(level5),
			 sizeof(flags)};
	int fd;

	if (!rounds)
		return 0;
	fd = open("/sys/kernel/tracing/user_events_data", O_RDWR);
	if (fd < 0)
		return -1;
	r.enable_addr = (uint64_t)(uintptr_t)&enabled;
	r.name_args = (uint64_t)(uintptr_t)cmd;
	if (ioctl(fd, _IOWR('*', 0, struct ue_reg *), &r)) {
		perror("DIAG_IOCSREG");
		return -1;
	}
	for (int k = 0; k < rounds; k++)
		for (int e = 0; e < 5; e++) {
			struct iovec io[2] = {{&r.write_index, 4}, {(void *)evs[e], lens[e]}};

			if (writev(fd, io, 2) < 0) {
				perror("writev");
				return -1;
			}
		}
	close(fd);
	return 0;
}

/* Stops without starts, starts without stops, raw bad events. */
static int wrong(int stops, int orphans, int malformed)
{
	uint8_t id[16];

	for (int i = 0; i < stops; i++) {
		make_id(id, 999, (uint32_t)i, 7);
		stop_ev(id);
	}
	for (int i = 0; i < orphans; i++) {
		make_id(id, 998, (uint32_t)i, 8);
		start_ev(id, NULL, 0);
	}
	return write_raw(malformed);
}

/* One Request of the fields mode, number i. */
static void fields_one(uint32_t i)
{
	uint8_t id[16], cid[16];
	uint32_t size = 100 * (1 + i % 4), nchild = i % 4 == 0 ? 2 : i % 4 == 2 ? 1 : 0;
	int32_t status = i % 5 == 0 ? -5 : 0;

	make_id(id, 500, i, 1);
	TraceLoggingWriteActivity(LatTest, "Request", id, NULL,
				  TraceLoggingOpcode(event_opcode_activity_start),
				  TraceLoggingLevel(LEVEL), TraceLoggingKeyword(KEYWORD),
				  TraceLoggingUInt32(size, "size"));
	sleep_ns(500000ull);
	for (uint32_t c = 0; c < nchild; c++) {
		make_id(cid, 501, i * 4 + c, 2);
		start_ev(cid, id, 1);
		sleep_ns(1000000ull);
		stop_ev(cid);
	}
	TraceLoggingWriteActivity(LatTest, "Stop", id, NULL,
				  TraceLoggingOpcode(event_opcode_activity_stop),
				  TraceLoggingLevel(LEVEL), TraceLoggingKeyword(KEYWORD),
				  TraceLoggingInt32(status, "status"));
	TraceLoggingWrite(LatTest, "Tick", TraceLoggingLevel(LEVEL), TraceLoggingKeyword(KEYWORD),
			  TraceLoggingUInt32(i, "n"));
	if (i % 3 == 0)
		TraceLoggingWrite(LatTest, "Tock", TraceLoggingLevel(LEVEL),
				  TraceLoggingKeyword(KEYWORD));
}

/* The fields mode: N Requests, then the late provider's events. */
static int fields(uint32_t n, uint32_t late)
{
	uint8_t id[16];
	int i;

	for (i = 0; i < 600 && !TraceLoggingProviderEnabled(LatTest, LEVEL, KEYWORD); i++)
		sleep_ns(50000000ull);
	for (uint32_t k = 0; k < n; k++)
		fields_one(k);
	if (!late) {
		printf("late none\n");
		return 0;
	}
	TraceLoggingRegister(LatLate);
	for (i = 0; i < 300 && !TraceLoggingProviderEnabled(LatLate, 5, 2); i++)
		sleep_ns(100000000ull);
	if (!TraceLoggingProviderEnabled(LatLate, 5, 2)) {
		printf("late nobody\n");
		TraceLoggingUnregister(LatLate);
		return 1;
	}
	for (uint32_t k = 0; k < late; k++) {
		TraceLoggingWrite(LatLate, "Late", TraceLoggingLevel(5), TraceLoggingKeyword(2));
		make_id(id, 502, k, 3);
		TraceLoggingWriteActivity(LatLate, "LateAct", id, NULL,
					  TraceLoggingOpcode(event_opcode_activity_start),
					  TraceLoggingLevel(5), TraceLoggingKeyword(2));
		TraceLoggingWriteActivity(LatLate, "Stop", id, NULL,
					  TraceLoggingOpcode(event_opcode_activity_stop),
					  TraceLoggingLevel(5), TraceLoggingKeyword(2));
	}
	printf("late listening\n");
	TraceLoggingUnregister(LatLate);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	TraceLoggingRegister(LatTest);
	if (argc == 5 && !strcmp(argv[1], "acts")) {
		FILE *out = fopen(argv[4], "w");

		if (!out)
			return 1;
		run_threads(acts_thread, (uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]), out);
		fclose(out);
	} else if (argc == 5 && !strcmp(argv[1], "wrong")) {
		rc = wrong(atoi(argv[2]), atoi(argv[3]), atoi(argv[4])) ? 1 : 0;
	} else if (argc == 4 && !strcmp(argv[1], "flood")) {
		uint32_t t = (uint32_t)atoi(argv[2]), n = (uint32_t)atoi(argv[3]);
		uint64_t t0 = now_ns();

		run_threads(flood_thread, t, n, NULL);
		printf("flood %u pairs in %llu ns\n", t * n, (unsigned long long)(now_ns() - t0));
	} else if (argc == 3 && !strcmp(argv[1], "cost")) {
		long n = atol(argv[2]);
		uint8_t id[16];
		int on = TraceLoggingProviderEnabled(LatTest, LEVEL, KEYWORD);
		uint64_t t0 = now_ns();

		for (long i = 0; i + 1 < n; i += 2) {
			make_id(id, 997, (uint32_t)i, 9);
			start_ev(id, NULL, 1);
			stop_ev(id);
		}
		printf("cost %ld writes in %llu ns listened=%d\n", n,
		       (unsigned long long)(now_ns() - t0), on);
	} else if (argc == 4 && !strcmp(argv[1], "fields")) {
		rc = fields((uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]));
	} else if (argc == 2 && !strcmp(argv[1], "wait")) {
		for (int i = 0; i < 600 && !TraceLoggingProviderEnabled(LatTest, LEVEL, KEYWORD);
		     i++)
			sleep_ns(100000000ull);
		printf("%s\n", TraceLoggingProviderEnabled(LatTest, LEVEL, KEYWORD) ? "listening"
										    : "nobody");
	} else {
		fprintf(stderr, "usage: producer acts|wrong|flood|cost|wait|fields ...\n");
		rc = 2;
	}
	TraceLoggingUnregister(LatTest);
	return rc;
}
