/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rec.h - the recording format: encode what the model holds per closed interval (writer.c),
 * scan a file back into an index of good records and apply records to a fresh model
 * (reader.c), both over one framing (codec.h, codec.c).
 *
 * File: "LATTOPREC" + 3 zero bytes, u32 version (major << 16 | minor), u32 meta_len, meta_len
 * bytes of JSON metadata (written once, never rewritten), then records, each
 * { u32 type, u32 len, payload[len], u32 crc32(type, len, payload) }, little-endian. The
 * metadata's "records" object names every record type's fields (name, type, offset) so a
 * reader can skip types it does not know ("strict write, read any"). A record that is cut
 * short or whose CRC fails ends the readable data; everything before it replays.
 *
 * Thread use: an encoder and a reader each belong to one thread (the UI thread).
 */
#ifndef LAT_REC_H
#define LAT_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define REC_MAGIC "LATTOPREC"
#define REC_MAGIC_LEN 12 /* "LATTOPREC" and three zero bytes */
#define REC_MAJOR 1
/* 1.6: series of kind LAT_EV_SPAN_PART (a split span's on-CPU, runnable and sleeping parts,
 * id = span, aux = part); no new record or field, readers before 1.6 keep them off their
 * tables (they show the kinds they know). */
#define REC_MINOR 6
#define REC_HDR_LEN 20 /* magic, version, meta_len */

enum rec_type {
	REC_SERIES = 1,   /* a series appeared or its name/type/sub/src/gone/note changed */
	REC_INTERVAL = 2, /* one closed interval: counters and per-series deltas */
	REC_FILTER = 3,   /* the mode and the -p filter (at start and when they change) */
	REC_EVENTS = 4,   /* --raw: a batch of struct lat_event */
	REC_COUNTERS = 5, /* named counters' deltas of the interval that follows (format 1.1) */
	REC_ATTR = 6,     /* who holds a program and where it is attached, when that changed (1.5) */
};

/* Longest -p list a filter record carries with its NUL: FILTER_MAX entries of 63-character
 * names and commas (opts.h's FILTER_STR_MAX; recorder.c asserts they agree). */
#define REC_FILTER_MAX 16384

/* Fixed sizes of the payload parts (see writer.c's field tables). */
#define REC_SERIES_FIXED 28
#define REC_INTERVAL_FIXED 72
#define REC_ENTRY_FIXED 88
#define REC_FILTER_FIXED 8
#define REC_EVENTS_FIXED 8
#define REC_EVENT_SIZE 48
#define REC_COUNTERS_FIXED 8
#define REC_CTR_FIXED 28
#define REC_ATTR_FIXED 68
#define REC_OWNER_FIXED 6
#define REC_POINT_FIXED 8

/* An interval entry's flags. */
#define REC_ENTRY_HIST 1u     /* a histogram delta follows */
#define REC_ENTRY_MEASURED 2u /* measured per invocation in the interval (format 1.3) */
#define REC_ENTRY_SAMPLED 4u  /* watched in turns in the interval (--budget; format 1.4) */

/* A growable byte buffer; oom is sticky. */
struct rec_buf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

/* Release a buffer's memory. */
void rec_buf__fini(struct rec_buf *b);
/* Make room for n more bytes (the capacity doubles from 4 KiB); false, and oom set for good,
 * when that fails. */
bool rec_buf__room(struct rec_buf *b, size_t n);
/* CRC-32 (IEEE, as zlib) of len bytes, continuing from crc (start with 0). */
uint32_t rec__crc32(uint32_t crc, const void *p, size_t len);

/* Encoder: remembers what it already wrote per series so only changes are written. */
struct rec_enc;
/* Create an encoder; NULL + errno on failure. */
struct rec_enc *rec_enc__new(void);
/* Free an encoder (NULL is a no-op). */
void rec_enc__free(struct rec_enc *e);
/* Forget what was written, so the next interval re-sends every series, the filter and the
 * counters' names: call it when a frame encoded by this encoder was dropped. */
void rec_enc__forget(struct rec_enc *e);
/* Append the file header (magic, version, metadata JSON text) to b. */
void rec__header(struct rec_buf *b, const char *meta_json);
struct jsonw;
/* Write the metadata's "records" object (each record type's fields) as the next value of w. */
void rec__records_json(struct jsonw *w);
/* Append the records of the interval m just closed (series changes, filter change, the
 * interval) to b; filter is the -p list now, lost the frames the writer dropped so far. */
void rec_enc__interval(struct rec_enc *e, const struct model *m, const char *filter,
		       uint32_t lost, struct rec_buf *b);
/* Append one record of events (n of them) to b. */
void rec__events(struct rec_buf *b, const struct lat_event *ev, uint32_t n);

/* One good record of a scanned file. */
struct rec_ref {
	uint32_t type, len;
	size_t off; /* of the payload */
};

/* A scanned file (the caller keeps data alive while this is used). */
struct rec_file {
	const uint8_t *data;
	size_t size;
	uint32_t version;
	void *meta; /* cJSON object */
	struct rec_ref *recs;
	size_t nrecs;
	size_t *ivals; /* positions in recs of the REC_INTERVAL records */
	size_t nivals;
	uint64_t nevents; /* events in REC_EVENTS records */
	uint32_t kinds;   /* 1u << kind of every series the good records name */
	char damage[256]; /* "truncated/corrupt record at byte N: what", or "" */
};

/* Scan a whole file in memory. Returns 0 (damage may be set: the good prefix is indexed),
 * -EINVAL (not a recording: bad magic or header), -EPROTO (newer major version) or -ENOMEM,
 * with one sentence in err (without the file name). */
int rec__scan(struct rec_file *f, const uint8_t *data, size_t size, char *err, size_t errlen);
/* Release what rec__scan allocated. */
void rec__fini(struct rec_file *f);
/* Apply record i (a series, filter or interval record) to m; filter receives a REC_FILTER's
 * list (may be NULL). Returns the record type applied, or 0 when skipped, -ENOMEM. */
int rec__apply(const struct rec_file *f, size_t i, struct model *m, char *filter,
	       size_t filterlen);
/* Event j of record i (a REC_EVENTS record) into ev; count in *n when ev is NULL. */
void rec__event(const struct rec_file *f, size_t i, uint32_t j, struct lat_event *ev,
		uint32_t *n);
/* Start and end (CLOCK_MONOTONIC ns) of interval k (0-based, k < nivals). */
uint64_t rec__ival_start(const struct rec_file *f, size_t k);
uint64_t rec__ival_end(const struct rec_file *f, size_t k);
/* Frames the writer had dropped (queue full) when interval k was written: absolute. Applying
 * an interval turns its growth into the session-wide loss counter REC_LOST_FRAMES. */
uint32_t rec__ival_lost(const struct rec_file *f, size_t k);
#define REC_LOST_FRAMES "lost_frames"
/* Metadata helpers: a string or a number field ("" / 0 when absent). */
const char *rec__meta_str(const struct rec_file *f, const char *key);
double rec__meta_num(const struct rec_file *f, const char *key);

#endif /* LAT_REC_H */
