/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flight.h - `--flight DURATION`: the flight recorder. Each closed interval is encoded as a
 * recording frame (rec.h's records, by an encoder of its own) and kept in memory; the oldest
 * whole interval goes when the frames span more than DURATION or hold more than the byte cap.
 * A dump writes the header (the dump's reason in its metadata), the series, filter and
 * counter records the evicted frames carried (the "base"), then the frames: an ordinary
 * recording.
 *
 * Memory: the bytes counted (flight__stats) are each frame's encoded bytes plus its
 * bookkeeping (FLIGHT_FRAME_OVERHEAD), the base's bytes, and the frames a dump in progress
 * still holds after they left the ring; eviction keeps that sum under the cap, so the cap
 * holds whatever the number of series (a single interval bigger than the cap is not kept).
 *
 * Dumps never stall the interval close: the UI thread takes a reference on each frame (an
 * atomic increment) and copies the small base; the dump thread drops each reference once that
 * frame is written (an interval evicted meanwhile is freed then); it creates the file
 * in the dump directory (O_EXCL | O_NOFOLLOW, mode 0600, through a directory fd opened with
 * O_NOFOLLOW), writes, fdatasyncs and closes it, and keeps at most max_files of the files it
 * wrote, deleting the oldest of them (never another file). A failure (full disk, an
 * unwritable or symlinked directory) removes the partial file, is counted and comes back as
 * one sentence from flight__poll.
 *
 * Thread use: everything on the UI/main thread, except flight__request (any thread but a
 * signal handler) and the dump thread's own work.
 */
#ifndef LAT_FLIGHT_H
#define LAT_FLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct model;
struct rec_meta;
struct flight;

/* Bytes of bookkeeping counted per interval held, beside its encoded frame. */
#define FLIGHT_FRAME_OVERHEAD 48
/* Dumps waiting for the dump thread at most (more are refused and counted as errors). */
#define FLIGHT_QUEUE 8

/* What made a dump: the label of lattop_flight_dumps_total and part of the file name. */
enum flight_trigger {
	FT_SIGNAL = 0, /* SIGUSR2 */
	FT_KEY,	       /* the TUI's D key */
	FT_HTTP,       /* POST /dump (--flight-http) */
	FT_THRESHOLD,  /* a --trigger expression */
	FT__COUNT,
};

/* The name of a trigger kind ("signal", "key", "http", "threshold"). */
const char *flight__trigger_name(enum flight_trigger t);

struct flight_cfg {
	uint64_t keep_ns;   /* --flight */
	uint64_t max_bytes; /* --flight-max */
	const char *dir;    /* --flight-dir (copied) */
	unsigned max_files; /* --flight-files, 0 = no limit */
};

/* Why a dump was written, for its metadata's "dump" object. */
struct flight_why {
	enum flight_trigger trigger;
	char expr[160];	 /* the --trigger expression, or "" */
	char series[64]; /* the series that crossed it, or "" */
	char metric[32]; /* "p99", "rate", ... or "" */
	double value;	 /* what the series had (ns for latencies), threshold what it crossed */
	double threshold;
	uint64_t fired_ns; /* CLOCK_MONOTONIC instant it fired (the close, or the request) */
	uint64_t after_ns; /* --trigger-after kept after firing */
	uint64_t last_ns;  /* the window asked for (POST ?last=), 0 = all held */
};

/* What the flight holds and did (UI thread). */
struct flight_stats {
	uint64_t bytes, intervals, max_bytes, keep_ns;
	uint64_t dumps[FT__COUNT]; /* dumps written, per trigger */
	uint64_t errors;	   /* dumps that failed or were refused */
	uint64_t pending;	   /* queued or being written */
	uint64_t last_dump_ns;	   /* how long the last dump written took (create to close) */
	uint64_t last_dump_bytes;  /* and its size */
	uint64_t skipped;	   /* intervals not kept (see flight__interval) */
};

/* Create a flight recorder (its dump thread starts now); NULL + errno. */
struct flight *flight__new(const struct flight_cfg *cfg);
/* Finish the dumps queued, stop the thread, free everything (NULL is a no-op). */
void flight__free(struct flight *f);
/* Encode the interval m just closed (filter: the -p list now) and keep it, evicting the
 * oldest intervals past the duration or the cap. An interval bigger than the cap, or one that
 * finds the cap taken by intervals a dump has not written yet (a disk slower than the data),
 * is not kept and counted in skipped. Returns 0 or -ENOMEM (the interval is then not kept);
 * after an interval not kept the next one carries every series again. */
int flight__interval(struct flight *f, const struct model *m, const char *filter);
/* Queue a dump of the intervals held (of the last why->last_ns when set) with meta (why is
 * written into its "dump" object); the file is written by the dump thread. Returns 0, or
 * -ENODATA (nothing held yet), -EBUSY (FLIGHT_QUEUE dumps waiting), -ENOMEM; a refusal is
 * counted as an error, with one sentence in err. */
int flight__dump(struct flight *f, const struct rec_meta *meta, const struct flight_why *why,
		 char *err, size_t errlen);
/* Ask for a dump from any thread (the HTTP server): the UI thread takes it with
 * flight__take_request. last_ns 0 = everything held. */
void flight__request(struct flight *f, enum flight_trigger t, uint64_t last_ns);
/* Take the pending request, if any (UI thread): true with its trigger and window. */
bool flight__take_request(struct flight *f, enum flight_trigger *t, uint64_t *last_ns);
/* The next message of the dump thread (a file written, or one sentence saying why not) into
 * msg; *failed says which. Returns false when there is none. */
bool flight__poll(struct flight *f, char *msg, size_t len, bool *failed);
/* Figures for the header and the Prometheus gauges. */
void flight__stats(const struct flight *f, struct flight_stats *st);
/* Wait until no dump is queued or being written (tests, benchmarks, the end of a run). */
void flight__drain(struct flight *f);

/* The reading side (flight_meta.c): what a dump's metadata says, for replay and reports. */
struct rec_file;
struct rec_dump {
	char trigger[16], expr[160], series[64], metric[32];
	double value, threshold; /* ns for latency metrics */
	bool duration;		 /* value and threshold are durations */
	uint64_t fired_ns;	 /* CLOCK_MONOTONIC of the recording */
	uint64_t after_ns;
	size_t ival; /* the interval holding the instant (its end at or after it); nivals: none */
};
/* True when f is a flight dump, with what its "dump" object says in d. */
bool rec__dump(const struct rec_file *f, struct rec_dump *d);
/* One sentence saying why the dump was written, the instant given as wall-clock ns. */
void rec__dump_sentence(const struct rec_dump *d, uint64_t fired_wall_ns, char *buf, size_t len);

#endif /* LAT_FLIGHT_H */
