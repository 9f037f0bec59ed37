// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * session.c - wire sources into the model; filter and sort rows for the views.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "base/text.h"
#include "collect/collector.h"
#include "collect/demo.h"
#include "rec/recorder.h"
#include "rec/replay.h"
#include "session/filter.h"
#include "session/kind.h"
#include "session/lock.h"
#include "session/output.h"
#include "session/session.h"

/* The in-kernel aggregates are read at each interval close, and within a long interval at
 * least this often: a u32 bucket of one CPU then holds any rate a CPU can drive (2^32 runs in
 * 10 s is 430 M runs/s). Reading them more often would cost the UI thread a scan of 9 KiB per
 * busy (program, CPU) each time, for nothing a closed interval shows. */
#define HARVEST_NS (10 * 1000000000ull)

/* Per-CPU queue depth: 64k records (3 MiB) per CPU absorbs ~60 ms of 1 M/s per CPU. */
#define QUEUE_RECORDS 65536

/* True when this process may list programs and enable bpf_stats: both need CAP_SYS_ADMIN
 * (BPF_PROG_GET_NEXT_ID, BPF_PROG_GET_FD_BY_ID, BPF_ENABLE_STATS), which also covers what
 * CAP_BPF and CAP_PERFMON grant; uid 0 without it (a dropped capability) is not enough. */
bool session__privileged(void)
{
	unsigned long long eff = 0;
	char line[256];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/status", "r");
	if (!f)
		return geteuid() == 0; /* no /proc: trust uid 0, the kernel has the last word */
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	return eff & (1ull << 21); /* CAP_SYS_ADMIN */
}

/* libbpf's messages go nowhere while curses owns the screen; warnings are kept for errors.
 * LATTOP_LIBBPF_LOG=1 (a debug knob for tests: a verifier log from a VM) sends them to
 * stderr instead. */
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	static int on = -1;

	(void)level;
	if (on < 0)
		on = getenv("LATTOP_LIBBPF_LOG") && !strcmp(getenv("LATTOP_LIBBPF_LOG"), "1");
	return on ? vfprintf(stderr, fmt, ap) : 0;
}

/* Open phase 1, access: root, the live-session lock, libbpf's messages kept off the screen. */
static int open_access(struct session *s, char *err, size_t errlen)
{
	if (!session__privileged()) {
		snprintf(err, errlen,
			 "a live session needs root (CAP_SYS_ADMIN) to list BPF programs and "
			 "enable their run-time stats: run it with sudo");
		return EXIT_RUNTIME;
	}
	s->lock_fd = session__lock(err, errlen);
	if (s->lock_fd < 0)
		return EXIT_RUNTIME;
	libbpf_set_print(libbpf_quiet);
	return EXIT_OK;
}

/* Open phase 2, shared maps and queues first (every BPF object loaded later reuses them),
 * and the model. */
static int open_shared(struct session *s, char *err, size_t errlen)
{
	s->col = collector__new(QUEUE_RECORDS);
	if (!s->col && errno == E2BIG) {
		snprintf(err, errlen,
			 "this machine has %d possible CPUs, more than the %d lattop sizes its "
			 "per-CPU maps for",
			 libbpf_num_possible_cpus(), LAT_CPUS_LIMIT);
		return EXIT_RUNTIME;
	}
	if (!s->col) {
		snprintf(err, errlen, "cannot create the event ring buffer: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	s->m = model__new(now_ns());
	if (!s->m) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	s->m->mode = MODE_PROGRAMS; /* other modes are entered once probes exist */
	s->m->split_all = s->o->per_cpu; /* each program shows its CPU rows from the start */
	return EXIT_OK;
}

/* Open phase 3, the kinds of probe (session/kind.h) in the list's order, the budget shared
 * out as they go; the outputs that open with the session (session/output.h: --eventheader);
 * then the demo, which self-times only where no kind
 * measures its programs per invocation. */
static int open_kinds(struct session *s, char *err, size_t errlen)
{
	int e = kinds__open(s, err, errlen);

	if (e != EXIT_OK)
		return e;
	e = outputs__open(s, err, errlen);
	if (e != EXIT_OK)
		return e;
	/* What the kinds found about the machine (the device and profile, bpf_stats on
	 * already) stays through filter edits. */
	s->warn_keep = strlen(s->warn);
	if (s->o->demo) {
		s->demo = demo__start(s->col, !kinds__per_run(s), err, errlen);
		if (!s->demo)
			return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Open phase 4, the first scan: the program list, and -p checked against it. */
static int open_scan(struct session *s, char *err, size_t errlen)
{
	char why[160];
	uint64_t t = now_ns();

	/* The first interval, and -D, start here, at the first scan (the baseline of every
	 * bpf_stats row): the loads and attaches before it, long on a loaded host or with many
	 * programs, would otherwise use up a short first interval with nothing seen in it. */
	s->m->start_ns = s->m->open_start_ns = s->m->cum_start_ns = t;
	if (kinds__scan(s, t, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		return EXIT_RUNTIME;
	}
	if (session__check_filter(s, s->o->filter, s->o->nfilter, err, errlen))
		return EXIT_USAGE;
	return EXIT_OK;
}

/* Open phase 5, the view: where figures come from, probes for the watched programs, the mode
 * asked for (one this kernel cannot give degrades to the overview, saying why). */
static void open_view(struct session *s)
{
	char why[160];

	kinds__notice(s);
	session__sync_watch(s);
	if (s->o->mode != MODE_PROGRAMS &&
	    session__set_mode(s, s->o->mode, why, sizeof(why)))
		snprintf(s->notice, sizeof(s->notice), "%s", why);
	snprintf(s->m->notice, sizeof(s->m->notice), "%s", s->notice);
}

/* Open phase 6, the collector thread, and the interval and -D clocks. */
static int open_start(struct session *s, char *err, size_t errlen)
{
	int e = collector__start(s->col);

	if (e) {
		snprintf(err, errlen, "cannot start the collector thread: %s", strerror(-e));
		return EXIT_RUNTIME;
	}
	s->next_close_ns = s->m->open_start_ns + s->o->interval_ns;
	if (s->o->duration_ns)
		s->end_ns = s->m->open_start_ns + s->o->duration_ns;
	return EXIT_OK;
}

/* Start a session: each phase returns an exit status (EXIT_OK = 0), err naming the failure. */
int session__open(struct session *s, struct opts *o, char *err, size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->src = &session__live;
	s->o = o;
	s->lock_fd = -1;
	if ((ret = open_access(s, err, errlen)) || (ret = open_shared(s, err, errlen)) ||
	    (ret = open_kinds(s, err, errlen)) || (ret = open_scan(s, err, errlen)))
		return ret;
	open_view(s);
	return open_start(s, err, errlen);
}

/* Stop threads, destroy links, free everything. */
static void live_close(struct session *s)
{
	outputs__stop(s);
	collector__stop(s->col);
	kinds__free(s);
	demo__free(s->demo);
	s->demo = NULL;
	collector__free(s->col);
	s->col = NULL;
	model__free(s->m);
	s->m = NULL;
	free(s->st);
	s->st = NULL;
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	s->lock_fd = -1;
}

/* Collector drain callback: account one event. */
static void on_event(const struct lat_event *e, void *arg)
{
	struct session *s = arg;

	if (kinds__event(s, e)) {
		if (s->rec)
			recorder__event(s->rec, e);
		return;
	}
	model__add_event(s->m, e, (e->flags & LAT_EVF_SELF) ? SRC_SELF : SRC_FENTRY);
	if (s->rec)
		recorder__event(s->rec, e);
}

/* Stop the collector after a last pass over the ring buffer, and take the aggregates. */
void session__flush(struct session *s)
{
	if (s->col)
		collector__stop(s->col);
	kinds__harvest(s, true);
}

/* Move queued events into the model. */
void session__drain(struct session *s)
{
	if (s->col)
		collector__drain(s->col, on_event, s);
	kinds__drain(s);
}

/* A failed ring_buffer__poll: a loss counter from the first failure on, and one sentence (the
 * collector reads the ring on a timer meanwhile, so the counts stay whole). */
static void collector_errors(struct session *s)
{
	uint64_t n = s->col ? collector__poll_errors(s->col) : 0;

	if (!n)
		return;
	model__set_counter(s->m, "collector_errors", n);
	session__error(s,
		       "reading the BPF ring buffer failed (ring_buffer__poll: %s): events are now "
		       "read every 20 ms instead; failures counted in collector_errors",
		       strerror(collector__poll_errno(s->col)));
}

/* Take the in-kernel aggregates into the open interval. */
static void harvest(struct session *s, uint64_t now)
{
	kinds__harvest(s, false);
	s->harvest_ns = now;
}

/* The interval is closed (s->m's last interval): hand it to the outputs (session/output.h:
 * EventHeader events, the recording, the flight recorder), then on. */
static void interval_closed(struct session *s)
{
	outputs__interval(s);
	if (s->on_interval)
		s->on_interval(s->on_interval_arg, s->m);
}

/* Close the interval: each step runs over every kind of probe in the list's order
 * (session/kind.h), the order of the harvests and of the counters' first appearance (which
 * recordings keep) being the one below. */
void session__close_interval(struct session *s, uint64_t now)
{
	struct model_losses l = {};
	char why[160];
	bool scanned;

	session__drain(s);
	/* The aggregates just before the stats scan: only runs in between count in the stats
	 * delta now and in the next interval's aggregates (as events still in the ring would). */
	harvest(s, now);
	kinds__prune(s);
	scanned = kinds__scan(s, now, why, sizeof(why)) == 0;
	l.rb_drops = collector__rb_drops(s->col);
	l.queue_drops = collector__queue_drops(s->col);
	kinds__losses(s, &l);
	model__set_losses(s->m, &l);
	collector_errors(s);
	kinds__counters(s);
	kinds__budget_tally(s);
	kinds__closing(s);
	model__close_interval(s->m, now);
	interval_closed(s);
	/* Attach and detach after the close: the stats delta just closed counts runs from before
	 * any new probe, and the interval a probe first measures is the one opening now. */
	if (scanned)
		session__sync_watch(s);
}

/* If the interval has elapsed, close it; within a long one, take the aggregates every
 * HARVEST_NS. */
static bool live_tick(struct session *s, uint64_t now)
{
	session__drain(s);
	if (now < s->next_close_ns) {
		if (now - s->harvest_ns >= HARVEST_NS)
			harvest(s, now);
		return false;
	}
	session__close_interval(s, now);
	/* Keep a steady cadence; after a stall, restart from now rather than bursting. */
	s->next_close_ns += s->o->interval_ns;
	if (s->next_close_ns <= now)
		s->next_close_ns = now + s->o->interval_ns;
	return true;
}

/* Switch the view to mode: the kinds attach or detach what it needs. */
static int live_set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen)
{
	if (mode == s->m->mode)
		return 0;
	return kinds__set_mode(s, mode, err, errlen);
}

/* Attach or detach every kind's probes so they match the filter and the programs loaded. */
void session__sync_watch(struct session *s)
{
	kinds__sync(s);
}

/* True when helpers mode shows program se: live, when its helper probes are attached; in a
 * replay, when helper rows of it were recorded (nothing is attached there). */
static bool live_helpers_shown(const struct session *s, const struct series *se)
{
	return kinds__shows(s, se);
}

/* Wall-clock ns of an instant on the session's clock: now, less how long ago it was. */
static uint64_t live_wall_ns(const struct session *s, uint64_t mono_ns)
{
	struct timespec ts;

	(void)s;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec - (now_ns() - mono_ns);
}

/* The session's clock now. */
static uint64_t live_now(const struct session *s)
{
	(void)s;
	return now_ns();
}

/* Where the session runs: this host. */
static void live_origin(const struct session *s, const char **host, const char **kernel)
{
	static struct utsname u;

	(void)s;
	if (uname(&u)) {
		*host = *kernel = "";
		return;
	}
	*host = u.nodename;
	*kernel = u.release;
}

/* A live session: BPF sources on this host. */
const struct source_ops session__live = {
	.name = "live",
	.tick = live_tick,
	.set_mode = live_set_mode,
	.filter_changed = session__sync_watch,
	.helpers_shown = live_helpers_shown,
	.wall_ns = live_wall_ns,
	.now_ns = live_now,
	.origin = live_origin,
	.close = live_close,
	.can_record = true,
};

