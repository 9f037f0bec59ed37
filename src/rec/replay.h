/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * replay.h - a recording as a session's source: intervals are fed from the file into a fresh
 * model, so the TUI and batch views render replay exactly as they render a live session.
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

struct session;
struct opts;
struct replay;

/* Open path as the source of session s (s is zeroed first). Returns an exit status
 * (EXIT_RUNTIME for unreadable files, with one sentence naming the file in err). A damaged
 * tail is not an error: replay__damage says what was wrong. */
int replay__open(struct session *s, struct opts *o, const char *path, char *err,
		 size_t errlen);
/* Free the replay and the session's model. */
void replay__close(struct session *s);
/* Advance with the replay clock (speed, pause); true when an interval was applied. */
bool replay__tick(struct session *s, uint64_t now);
/* Rebuild the model so that intervals [0, k) are applied (k clamped to the recording). */
int replay__seek(struct session *s, size_t k);
/* Intervals applied, and in the recording. */
size_t replay__pos(const struct replay *r);
size_t replay__count(const struct replay *r);
/* The user edited the filter (f, +, -): recorded filter changes and seeks no longer replace
 * it. */
void replay__keep_filter(struct replay *r);
/* Switch the view to mode (p/h/s, -m): it then stays over the recorded mode. Returns 0, or
 * -ENOENT with one sentence in err when the recording holds no series of that mode. */
int replay__set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen);
/* Apply every record (intervals and trailing series records) for reports. */
int replay__seek_all(struct session *s);
/* Playback controls: pause toggle, speed up/down (x0.25 .. x64), step +1/-1 interval,
 * jump to a time ("+SECS" or "SECS" from the start, or "HH:MM:SS" wall clock). */
void replay__toggle_pause(struct replay *r);
void replay__speed(struct replay *r, int dir);
int replay__step(struct session *s, int dir);
int replay__jump(struct session *s, const char *when, char *err, size_t errlen);
/* "REPLAY <file> <time> <speed>[ PAUSED|END][  frames lost N]" for the header (N: frames the
 * recorder dropped before the current interval). */
void replay__status(const struct session *s, char *buf, size_t len);
/* Wall-clock ns of a recorded CLOCK_MONOTONIC instant. */
uint64_t replay__wall_ns(const struct replay *r, uint64_t mono_ns);
/* The scanned file, its name, and the damage sentence ("" when the file is whole). */
const struct rec_file *replay__file(const struct replay *r);
const char *replay__path(const struct replay *r);
const char *replay__damage(const struct replay *r);
/* Recorded host and kernel release. */
const char *replay__host(const struct replay *r);
const char *replay__kernel(const struct replay *r);

#endif /* LAT_REPLAY_H */
