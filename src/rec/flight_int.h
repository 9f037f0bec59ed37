/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flight_int.h - the flight recorder's insides, shared by flight.c (the ring, UI thread),
 * flight_base.c (the state of evicted intervals) and flight_dump.c (the dump thread).
 *
 * Private to src/rec/.
 */
#ifndef LAT_FLIGHT_INT_H
#define LAT_FLIGHT_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec/flight.h"
#include "rec/rec.h"

/* Dump file names: FLIGHT_PREFIX, the time, the trigger, ".lrec" (a -N suffix when taken). */
#define FLIGHT_PREFIX "lattop-flight-"

/* One closed interval's encoded records. Immutable once in the ring; freed by the last of the
 * ring and the dumps holding it (ref: atomic, acq_rel on the way down). */
struct flight_frame {
	atomic_int ref;
	uint64_t start_ns, end_ns;
	size_t len;
	uint8_t data[];
};

/* A series, the filter or a counter name as the evicted frames last said it (UI thread). */
struct base_series {
	uint32_t key[4]; /* kind, id, aux, aux2 */
	uint8_t *rec;	 /* the whole framed record */
	size_t len;
};
struct base_counter {
	uint32_t key[4];
	uint16_t flags;
	char name[32];
};
struct flight_base {
	struct base_series *s;
	size_t ns, scap;
	struct base_counter *c;
	size_t nc, ccap;
	uint8_t *filter; /* the last filter record, framed */
	size_t filter_len;
	uint64_t bytes; /* counted against the cap */
};

/* Take the series, filter and counter names of an evicted frame into the base. */
void flight_base__fold(struct flight_base *b, const uint8_t *p, size_t len);
/* Append the base's records (series, filter, every counter at a zero delta) to out. */
void flight_base__write(const struct flight_base *b, struct rec_buf *out);
/* Append the state records of a frame left out of a dump's window to out: series and filter
 * records as they are, counters with zero deltas (their interval is not in the dump). */
void flight_base__state(struct rec_buf *out, const uint8_t *p, size_t len);
/* Free the base. */
void flight_base__fini(struct flight_base *b);

/* A dump waiting for, or being written by, the dump thread. */
struct flight_job {
	struct rec_buf head; /* header, base and state records */
	struct flight_frame **fr;
	size_t n;
	enum flight_trigger trigger;
	char stem[96];
	struct flight_job *next;
};

/* What a dump's "dump" metadata object says (flight.c's why_json). */
struct flight_dump_meta {
	struct flight_why why;
	uint64_t start_ns, end_ns, n, keep_ns;
};

/* A file the dump thread wrote (for --flight-files). */
struct flight_file {
	char name[160];
	uint64_t dev, ino;
};

struct flight {
	struct flight_cfg cfg;
	char dir[4096];
	/* UI thread: the encoder, its scratch buffer, the ring (oldest at head) and the base. */
	struct rec_enc *enc;
	struct rec_buf scratch;
	struct flight_frame **ring;
	size_t cap, head, n;
	uint64_t ring_bytes;
	uint64_t skipped; /* intervals not kept: bigger than the cap, or no room while dumping */
	struct flight_base base;
	/* Frames out of the ring that a dump still holds (both threads, relaxed). */
	atomic_uint_fast64_t zombie_bytes;
	/* A request from another thread: trigger + 1 (release/acquire) and its window. */
	atomic_int req;
	atomic_uint_fast64_t req_last_ns;
	/* Counters the dump thread writes and the UI thread reads (relaxed). */
	atomic_uint_fast64_t dumps[FT__COUNT], errors, pending, last_dump_ns, last_dump_bytes;
	/* The dump thread: jobs and messages under mu (held for list moves only). */
	pthread_t thr;
	bool started, stop;
	pthread_mutex_t mu;
	pthread_cond_t cv, idle;
	struct flight_job *q, **qtail;
	char msgs[4][640]; /* messages for flight__poll, oldest first */
	bool msg_failed[4];
	unsigned nmsgs;
	/* Dump thread only: the files written, oldest first. */
	struct flight_file *files;
	size_t nfiles;
};

/* Drop one reference on a frame (any thread). */
void flight_frame__unref(struct flight *f, struct flight_frame *fr);
/* Free a job and its references (NULL is a no-op). */
void flight_job__free(struct flight *f, struct flight_job *j);
/* Start / stop the dump thread (stop writes what is queued first). 0 or a negative errno. */
int flight_dump__start(struct flight *f);
void flight_dump__stop(struct flight *f);
/* Hand a job to the dump thread. */
void flight_dump__queue(struct flight *f, struct flight_job *j);

#endif /* LAT_FLIGHT_INT_H */
