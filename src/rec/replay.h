/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * replay.h - a recording as a source of frames: the replay clock feeds intervals from the file
 * into a model it owns, so the TUI and batch views render replay exactly as they render a live
 * session (session/replay_src.c plugs it into a session).
 * No privilege check, no lock, no BPF on this path.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_REPLAY_H
#define LAT_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rec/rec.h"

struct model;
struct replay;

/* Read and scan the recording at path; the model starts empty (no interval applied). Returns
 * NULL with one sentence naming the file in err when it cannot be read or is no recording. A
 * damaged tail is not an error: replay__damage says what was wrong. */
struct replay *replay__new(const char *path, char *err, size_t errlen);
/* Read the regular file path whole into *data (malloc'd), *size bytes. 0, or a negative errno
 * with one sentence naming the file in err (a FIFO or a device is refused, never read). */
int replay__read(const char *path, uint8_t **data, size_t *size, char *err, size_t errlen);
/* As replay__new, from the recording data[size] read from path (malloc'd: the replay owns it,
 * freed on failure too). The perf.data reader (session/perf_src.c) hands its recording so. */
struct replay *replay__new_data(const char *path, uint8_t *data, size_t size, char *err,
				size_t errlen);
/* Free the replay and its model (NULL is a no-op). */
void replay__free(struct replay *r);
/* The model of the intervals applied so far. A seek backwards replaces it: read it again after
 * replay__seek, replay__rewind, replay__step and replay__jump. */
struct model *replay__model(const struct replay *r);
/* The recorded -p list as of the current position (the header's, then filter records). */
const char *replay__filter(const struct replay *r);
/* The recorded interval (-d) in ns, or 0 when the file does not say. */
uint64_t replay__interval_ns(const struct replay *r);
/* Advance with the replay clock (speed, pause); true when an interval was applied. */
bool replay__tick(struct replay *r, uint64_t now);
/* Rebuild the model so that intervals [0, k) are applied (k clamped to the recording). */
int replay__seek(struct replay *r, size_t k);
/* Apply every record (intervals and trailing series records) for reports. */
int replay__seek_all(struct replay *r);
/* Start over with a fresh model (no interval applied). */
int replay__rewind(struct replay *r);
/* Intervals applied, and in the recording. */
size_t replay__pos(const struct replay *r);
size_t replay__count(const struct replay *r);
/* Switch the view to mode (p/h/s, -m): it then stays over the recorded mode. Returns 0, or
 * -ENOENT with one sentence in err when the recording holds no series of that mode. */
int replay__set_mode(struct replay *r, enum lat_mode mode, char *err, size_t errlen);
/* Playback controls: pause toggle, speed up/down (x0.25 .. x64), step +1/-1 interval,
 * jump to a time ("+SECS" or "SECS" from the start, or "HH:MM:SS" wall clock). */
void replay__toggle_pause(struct replay *r);
void replay__speed(struct replay *r, int dir);
int replay__step(struct replay *r, int dir);
int replay__jump(struct replay *r, const char *when, char *err, size_t errlen);
/* "REPLAY <file> <time> <speed>[ PAUSED|END][  frames lost N]" for the header (N: frames the
 * recorder dropped before the current interval). */
void replay__status(const struct replay *r, char *buf, size_t len);
/* Wall-clock ns of a recorded CLOCK_MONOTONIC instant. */
uint64_t replay__wall_ns(const struct replay *r, uint64_t mono_ns);
/* A flight dump's sentence saying why it was written (trigger, value, instant) into buf;
 * false when the recording is no dump. */
bool replay__dump_line(const struct replay *r, char *buf, size_t len);
/* The scanned file, its name, and the damage sentence ("" when the file is whole). */
const struct rec_file *replay__file(const struct replay *r);
const char *replay__path(const struct replay *r);
const char *replay__damage(const struct replay *r);
/* Recorded host and kernel release. */
const char *replay__host(const struct replay *r);
const char *replay__kernel(const struct replay *r);

#endif /* LAT_REPLAY_H */
