/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * recorder.h - `-w FILE` / the `w` key: encode each closed interval (and, with --raw, every
 * event) on the UI thread and hand the frames to a writer thread through a bounded queue.
 *
 * The UI thread never waits for the disk: a full queue drops the frame and counts it (the
 * count travels in the next interval record and is shown). The writer write()s each frame and
 * fdatasync()s after every interval, so a killed session leaves a file readable up to its last
 * complete record. A write error stops the recording with one sentence returned to the session
 * (session/record.c says it: on stderr in batch mode, on screen in the TUI, exit status 1);
 * the session goes on. The file is
 * created as outfile.h says: never through a symlink, never over an existing file, mode 0600.
 *
 * Thread use: every function here is called by the UI/main thread only.
 */
#ifndef LAT_RECORDER_H
#define LAT_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lattop.h"

struct jsonw;
struct model;
struct recorder;

/* What a recording's header says about the session that writes it. */
struct rec_meta {
	const struct model *m; /* mode, source, notices and probe floor at the start */
	const char *mode_name; /* the name -m takes for m's mode */
	const char *filter;    /* the -p list */
	uint64_t interval_ns;  /* -d */
	bool raw;              /* --raw: every event too */
	/* What the recording was made from, when not this machine now (a perf.data file read
	 * offline): its host and kernel (NULL: uname's) and one instant on the wall clock and
	 * on the recording's clock (both 0: now). */
	const char *host, *kernel;
	uint64_t realtime_ns, monotonic_ns;
	/* Called before the "records" object to add fields of the caller's (a flight dump's
	 * "dump" object); NULL for none. */
	void (*extra)(struct jsonw *w, const void *arg);
	const void *extra_arg;
};

/* The metadata JSON text of a recording of meta started now (malloc'd), or NULL when out of
 * memory (a flight dump's header is made with it too). */
char *recorder__meta_json(const struct rec_meta *meta);

/* Start recording to path, a file that must not exist (NULL: the default name with the first
 * free suffix, so a recording never replaces one made in the same second). Writes the header
 * at once. Returns the recorder, or NULL with errno set and one sentence in err. */
struct recorder *recorder__new(const char *path, const struct rec_meta *meta, char *err,
			       size_t errlen);
/* Encode and queue the interval m just closed, filter the -p list then. Returns 0, or the
 * negative errno a write of the writer thread failed with (the caller then stops recording:
 * recorder__free says why). */
int recorder__interval(struct recorder *r, const struct model *m, const char *filter);
/* Keep one event for --raw (a memcpy; a full batch is queued). */
void recorder__event(struct recorder *r, const struct lat_event *e);
/* Flush what is queued, stop the writer, close the file, free (NULL is a no-op). Returns 0, or
 * a negative errno with one sentence in err when any write failed, the last frames', the final
 * fdatasync's and close's included. */
int recorder__free(struct recorder *r, char *err, size_t errlen);
/* The default file name of a recording started now: lattop-YYYYMMDD-HHMMSS.lrec, or with
 * -2, -3 ... before .lrec when that name is taken. */
void recorder__default_name(char *buf, size_t len);
/* Frames dropped because the writer's queue was full, and bytes written so far. */
uint64_t recorder__lost(const struct recorder *r);
/* --raw events dropped with their frames (a subset of what recorder__lost counts). */
uint64_t recorder__lost_events(const struct recorder *r);
uint64_t recorder__bytes(const struct recorder *r);
/* The file being written. */
const char *recorder__path(const struct recorder *r);

#endif /* LAT_RECORDER_H */
