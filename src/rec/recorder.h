/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * recorder.h - `-w FILE` / the `w` key: encode each closed interval (and, with --raw, every
 * event) on the UI thread and hand the frames to a writer thread through a bounded queue.
 *
 * The UI thread never waits for the disk: a full queue drops the frame and counts it (the
 * count travels in the next interval record and is shown). The writer write()s each frame and
 * fdatasync()s after every interval, so a killed session leaves a file readable up to its last
 * complete record. A write error stops the recording with one sentence (session__error: on
 * stderr in batch mode, on screen in the TUI, exit status 1); the session goes on. The file is
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

struct session;
struct recorder;

/* Start recording session s to path, a file that must not exist (raw: every event too).
 * Writes the header at once. Returns 0, or -errno with one sentence in err. */
int recorder__start(struct session *s, const char *path, bool raw, char *err, size_t errlen);
/* Encode and queue the interval s->m just closed. If the writer failed, stop recording (as
 * recorder__stop does, saying why). */
void recorder__interval(struct session *s);
/* Keep one event for --raw (a memcpy; a full batch is queued). */
void recorder__event(struct recorder *r, const struct lat_event *e);
/* Flush what is queued, stop the writer, close the file, free (s->rec becomes NULL). Any
 * failed write, the last frames', the final fdatasync's and close's included, becomes one
 * sentence through session__error. */
void recorder__stop(struct session *s);
/* Toggle recording for the `w` and `W` keys: stop, or start to path (NULL: the default name
 * with the first free suffix, so a recording never replaces one made in the same second);
 * msg says what happened, one sentence. */
void recorder__toggle(struct session *s, const char *path, char *msg, size_t len);
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
