/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * session.h - one lattop session: sources (collector, bpf_stats sampler, demo) feeding one
 * model. The live session (session.c), the verbs the front ends use over any source
 * (source.c), and what the session says (warn.c); the filter and rows are filter.h's, a
 * replay's clock replay_src.h's, the outputs output.h's.
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
#include "cli/opts.h"

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

/* Move queued events into the model (call often). */
void session__drain(struct session *s);
/* If the interval has elapsed, sample stats, close it and return true. */
bool session__tick(struct session *s, uint64_t now);
/* Close the interval now (end of run, or a forced refresh). */
void session__close_interval(struct session *s, uint64_t now);
/* True when no screen shows the session's errors (batch, --discover, --listen alone). */
bool session__no_screen(const struct session *s);

#endif /* LAT_SESSION_H */
