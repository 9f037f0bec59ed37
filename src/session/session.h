/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * session.h - one lattop session: sources (collector, bpf_stats sampler, demo) feeding one
 * model, and the filtered, sorted rows the views render.
 *
 * Thread use: everything here runs on the UI/main thread; the collector and demo generator
 * threads are owned and joined by session__close.
 */
#ifndef LAT_SESSION_H
#define LAT_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/clock.h"
#include "model/model.h"
#include "model/rows.h"
#include "rec/flight.h"
#include "session/opts.h"

struct collector;
struct demo;
struct kind;
struct recorder;
struct replay;
struct ehemit;

struct session;
struct series;

/* Where a session's frames come from: a live one's BPF sources (session.c) or a recording
 * (replay_src.c). The session's verbs (session__tick, __set_mode, __set_filter, __close, ...)
 * dispatch here, so the front ends never ask which one they run over; a new source is one
 * more table. Every function runs on the UI/main thread. */
struct source_ops {
	const char *name;
	/* Close the interval when due (live) or advance the replay clock; true when the
	 * model changed. */
	bool (*tick)(struct session *s, uint64_t now);
	/* Switch the view to mode: 0, or a negative errno with one sentence in err. */
	int (*set_mode)(struct session *s, enum lat_mode mode, char *err, size_t errlen);
	/* s->o's filter was replaced (validated already). */
	void (*filter_changed)(struct session *s);
	/* True when helpers mode shows program row se. */
	bool (*helpers_shown)(const struct session *s, const struct series *se);
	/* Wall-clock ns of an instant on the session's CLOCK_MONOTONIC, and that clock now. */
	uint64_t (*wall_ns)(const struct session *s, uint64_t mono_ns);
	uint64_t (*now_ns)(const struct session *s);
	/* The host and kernel release the figures come from. */
	void (*origin)(const struct session *s, const char **host, const char **kernel);
	/* Free everything (safe on a half-opened session). */
	void (*close)(struct session *s);
	bool can_record; /* -w and the w key apply */
};

/* The live source (session.c) and the replay source (replay_src.c). */
extern const struct source_ops session__live;
extern const struct source_ops session__replay_source;

struct session {
	const struct source_ops *src; /* NULL: live */
	struct opts *o;
	struct collector *col;
	struct demo *demo;
	struct recorder *rec; /* -w / the w key: recording this session, or NULL */
	struct flight *fl;    /* --flight: the flight recorder, or NULL (flight_ses.c) */
	struct flight_ses *fls;
	struct replay *rp;    /* -r: frames come from a recording (no BPF), or NULL */
	struct ehemit *ehx;   /* --eventheader: the figures as EventHeader events, or NULL */
	bool user_filter;     /* replay: -p given or the filter edited (recorded ones yield) */
	bool opened;          /* replay: opened whole (its cost is reported at close) */
	struct kind *kind; /* live: the kinds of probe it runs (session/kind.h), in order */
	size_t nkind;
	int lock_fd;
	struct model *m;
	struct prog_stat *st; /* the programs loaded (live) or recorded (replay) */
	size_t nst, stcap;
	char notice[320]; /* shown on screen: what this kernel cannot do, one sentence */
	/* Warnings, "; "-joined (session__warn): the first warn_keep bytes stand for the whole
	 * session (the device's NAPI/RPS, a gone profile worker, no kvm); the rest are transient
	 * (e.g. "name x matches 3 programs") and a filter edit replaces them. */
	char warn[768];
	size_t warn_keep;
	/* Errors the session lived through and went on (a recording that could not be written,
	 * the collector's ring_buffer__poll failing), "; "-joined (session__error): shown with
	 * the warnings, on stderr, and the run ends with exit status 1. */
	char errors[512];
	uint64_t next_close_ns;
	uint64_t harvest_ns; /* the last harvest of the in-kernel aggregates */
	uint64_t end_ns; /* -D deadline, 0 = none */
	/* Called at the end of each interval close with the model (e.g. --listen publishing its
	 * snapshot); NULL when unset. Runs on the UI thread. */
	void (*on_interval)(void *arg, const struct model *m);
	void *on_interval_arg;
};

/* Exit statuses. */
enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

/* True when this process may list programs and enable bpf_stats: CAP_SYS_ADMIN is effective
 * (uid 0 alone is not enough). */
bool session__privileged(void);

/* Take the one-live-session lock (lock.c; $LATTOP_LOCK or /run/lattop.lock): returns its fd,
 * held until closed, or a negative errno with one sentence in err (another session holds it,
 * the path is not a file lattop wrote, ...). */
int session__lock(char *err, size_t errlen);
/* Add a warning to s->warn ("; " between warnings; one already there is not repeated). */
void session__warn(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Record an error the session goes on after (one sentence, a repeat is dropped): on stderr at
 * once in batch and discover runs (the TUI shows it and main prints it after the screen is
 * restored); the exit status becomes 1. */
void session__error(struct session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Start a session: load the demo if asked, enable stats, validate the filter against loaded
 * programs, start the collector. On failure returns an exit status and err holds one sentence.
 */
int session__open(struct session *s, struct opts *o, char *err, size_t errlen);
/* Stop threads, destroy links, free everything (safe on a half-opened session). */
void session__close(struct session *s);
/* Attach or detach every kind's probes so they match the filter and the programs loaded
 * (programs that cannot be traced get the reason in their series note). Called at open, after
 * each stats scan and after the filter changes. */
void session__sync_watch(struct session *s);
/* Switch the view to mode: helpers mode attaches the helper probes of every watched program,
 * leaving it detaches them all; in a replay it is a view of the recorded series. Returns 0, or
 * a negative errno with one sentence in err (the mode stays as it was). */
int session__set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen);
/* Check every -p entry of fl (n of them) against the programs in s->st (and the segments'
 * names): 0, or -ENOENT with one sentence in err; a name matching several programs is worth
 * a warning. */
int session__check_filter(struct session *s, const struct filter_ent *fl, int n, char *err,
			  size_t errlen);
/* Replace the filter with a new -p style list. Returns 0, or -EINVAL/-ENOENT with one
 * sentence in err (the old filter stays). */
int session__set_filter(struct session *s, const char *list, char *err, size_t errlen);
/* Format the current filter as a -p list into buf (FILTER_STR_MAX always holds it). Returns
 * 0, or -ENOSPC when buf is shorter and held only the whole entries that fit. */
int session__filter_str(const struct session *s, char *buf, size_t len);
/* Stop the collector after a last pass over the ring buffer, so a final report holds every
 * event produced before it (end of a batch run). */
void session__flush(struct session *s);
/* The source's verbs (struct source_ops) for the front ends. */
uint64_t session__wall_ns(const struct session *s, uint64_t mono_ns);
uint64_t session__now_ns(const struct session *s);
void session__origin(const struct session *s, const char **host, const char **kernel);
bool session__can_record(const struct session *s);
/* The source of s (session.c and replay_src.c only). */
const struct source_ops *source_of(const struct session *s);
/* The recording a replay plays, or NULL: only for what is replay's alone (the word REPLAY and
 * its status, the replay keys, the recording's own reports). */
struct replay *session__replay(const struct session *s);

/* Replay (replay_src.c). Open o->replay as the source of s (s is zeroed first): -p and -m are
 * checked against what was recorded. Returns an exit status with one sentence in err. */
int session__open_replay(struct session *s, struct opts *o, char *err, size_t errlen);
/* Show intervals [0, k) of the recording, all of it (reports), one interval more or less
 * (pausing), or the interval holding a time (replay__jump's forms). 0 or a negative errno
 * (-ENOTSUP on a live session; jump: -EINVAL with one sentence in err). */
int session__seek(struct session *s, size_t k);
int session__seek_all(struct session *s);
int session__step(struct session *s, int dir);
int session__jump(struct session *s, const char *when, char *err, size_t errlen);

/* A/B comparison (compare_src.c). Open o->compare as a replay into b (with ob, a copy of a's
 * options naming it) and check the pair: whole recordings, with intervals, of one mode.
 * Returns an exit status (EXIT_USAGE for a bad pair) with one sentence in err. */
int session__open_compare(struct session *a, struct session *b, struct opts *ob, char *err,
			  size_t errlen);
struct cmp_side;
/* Walk replay s from its first interval to its last into a new comparison side (*out, the
 * caller frees it; the model ends with every record applied). Returns 0 or a negative errno. */
int session__compare_side(struct session *s, struct cmp_side **out);

/* --discover (discover.c): watch the vhost chain for -D seconds or until *stop, then write the
 * profile. Returns an exit status. */
int session__discover(struct session *s, volatile sig_atomic_t *stop);
/* --discover, once the watch is over (kind_vhost.c): the chain writes the profile. Returns an
 * exit status. */
int session__discover_profile(struct session *s);

/* Move queued events into the model (call often). */
void session__drain(struct session *s);
/* If the interval has elapsed, sample stats, close it and return true. */
bool session__tick(struct session *s, uint64_t now);
/* Close the interval now (end of run, or a forced refresh). */
void session__close_interval(struct session *s, uint64_t now);
/* True when no screen shows the session's errors (batch, --discover, --listen alone). */
bool session__no_screen(const struct session *s);
/* True when the series passes the -p filter (always true without one). */
bool session__wanted(const struct session *s, const struct series *se);

/* Recording (record.c). Start recording s to path, a file that must not exist (raw: every
 * event too); the header is written at once. Returns 0, or -errno with one sentence in err. */
int session__record_start(struct session *s, const char *path, bool raw, char *err,
			  size_t errlen);
/* Encode and queue the interval s->m just closed (a failed writer stops the recording). */
void session__record_interval(struct session *s);
/* Flush and stop recording (no-op when not recording); a failed write is a session error. */
void session__record_stop(struct session *s);
/* Toggle recording for the `w` and `W` keys: stop, or start to path (NULL: the default name
 * with the first free suffix); msg says what happened, one sentence. */
void session__record_toggle(struct session *s, const char *path, char *msg, size_t len);

/* The flight recorder (flight_ses.c), all no-ops without --flight. Start it (after
 * session__open; SIGUSR2 dumps from then on): 0 or -ENOMEM with one sentence in err. */
int session__flight_start(struct session *s, char *err, size_t errlen);
/* Keep the interval s->m just closed, write the threshold dumps due, evaluate the triggers. */
void session__flight_interval(struct session *s);
/* Take SIGUSR2 and POST /dump requests and say what the dump thread did (every tick). */
void session__flight_tick(struct session *s);
/* Dump now for trigger t (the D key), of the last last_ns (0: everything held). */
void session__flight_dump(struct session *s, enum flight_trigger t, uint64_t last_ns);
/* The header's words about the flight recorder ("" when off); brief: its memory alone. */
void session__flight_line(const struct session *s, bool brief, char *buf, size_t len);
/* Write the threshold dumps still due, wait for the dump thread, free the flight recorder. */
void session__flight_stop(struct session *s);

/* Fill rows (at most max) for the current mode, filtered, sorted by ord (model/rows.h; the
 * views pass a column's order, columns__order). Returns the number of rows. */
size_t session__rows(const struct session *s, bool cumulative, const struct row_order *ord,
		     struct row *rows, size_t max);

#endif /* LAT_SESSION_H */
