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
#include "collect/progagg.h"
#include "collect/progstats.h"
#include "collect/helpertrace.h"
#include "collect/progtrace.h"
#include "rec/recorder.h"
#include "rec/replay.h"
#include "collect/spans.h"
#include "session/ehsession.h"
#include "session/segsession.h"
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

/* Append a formatted message to the list in buf (joined with "; "; an empty message or a
 * repeat is dropped). Returns the message when it was added, else NULL. */
static const char *join_msg(char *buf, size_t cap, char *msg, const char *fmt, va_list ap)
{
	size_t len = strlen(buf);

	vsnprintf(msg, cap, fmt, ap);
	if (!msg[0] || strstr(buf, msg))
		return NULL;
	snprintf(buf + len, cap - len, "%s%s", len ? "; " : "", msg);
	return msg;
}

/* Add a warning (joined to the others with "; "; a repeat is dropped). */
void session__warn(struct session *s, const char *fmt, ...)
{
	char msg[sizeof(s->warn)];
	va_list ap;

	va_start(ap, fmt);
	join_msg(s->warn, sizeof(s->warn), msg, fmt, ap);
	va_end(ap);
}

/* Record an error the session goes on after. */
void session__error(struct session *s, const char *fmt, ...)
{
	char msg[sizeof(s->errors)];
	const char *added;
	va_list ap;

	va_start(ap, fmt);
	added = join_msg(s->errors, sizeof(s->errors), msg, fmt, ap);
	va_end(ap);
	if (added && session__no_screen(s))
		text__line(stderr, "lattop: ", msg);
}

/* True when no screen shows the session's errors (batch, --discover, --listen alone): they go
 * to stderr as they come. */
bool session__no_screen(const struct session *s)
{
	return s->o->batch || s->o->discover || (s->o->listen && !s->o->tui);
}

/* True when the series passes the -p filter. */
bool session__wanted(const struct session *s, const struct series *se)
{
	const struct opts *o = s->o;

	if (!o->nfilter)
		return true;
	for (int i = 0; i < o->nfilter; i++) {
		if (o->filter[i].id ? o->filter[i].id == se->id
				    : strcmp(o->filter[i].name, se->name) == 0)
			return true;
	}
	return false;
}

/* True when name is the name of one of the session's segments: a span, or (with --profile)
 * one of the vhost chain's S0, S1, S2, total. */
static bool span_named(const struct session *s, const char *name)
{
	for (int i = 0; i < s->o->nspans; i++)
		if (!strcmp(s->o->spans[i].name, name))
			return true;
	return s->o->profile_path && segsession__named(name);
}

/* True when span series se passes the filter: entries naming spans select those spans; a filter
 * naming no span (only programs) leaves every span shown. */
static bool span_wanted(const struct session *s, const struct series *se)
{
	bool any = false;

	for (int i = 0; i < s->o->nfilter; i++) {
		const struct filter_ent *f = &s->o->filter[i];

		if (f->id || !span_named(s, f->name))
			continue;
		if (!strcmp(f->name, se->name))
			return true;
		any = true;
	}
	return !any;
}

/* Check every -p entry against the loaded programs: unknown IDs and names are errors; a name
 * matching several programs is worth a warning. */
static int check_filter(struct session *s, const struct filter_ent *fl, int n, char *err,
			size_t errlen)
{
	for (int i = 0; i < n; i++) {
		const struct filter_ent *f = &fl[i];
		int matches = 0;

		for (size_t k = 0; k < s->nst; k++)
			if (f->id ? s->st[k].id == f->id : !strcmp(s->st[k].name, f->name))
				matches++;
		if (!matches && !f->id && span_named(s, f->name))
			continue; /* a span's name: filters segments mode */
		if (!matches && s->rp) {
			/* A replay's filter is a view of the recorded programs. */
			if (f->id)
				snprintf(err, errlen, "no recorded program has ID %u", f->id);
			else
				snprintf(err, errlen, "no recorded program is named '%s'", f->name);
			return -ENOENT;
		}
		if (!matches) {
			if (f->id)
				snprintf(err, errlen,
					 "no loaded BPF program has ID %u (see `bpftool prog list`)",
					 f->id);
			else if (s->o->nspans || s->o->profile_path)
				snprintf(err, errlen,
					 "no loaded BPF program or segment is named '%s' (see `bpftool "
					 "prog list`)",
					 f->name);
			else
				snprintf(err, errlen,
					 "no loaded BPF program is named '%s' (see `bpftool prog "
					 "list`)",
					 f->name);
			return -ENOENT;
		}
		if (!f->id && matches > 1)
			session__warn(s, "name '%s' matches %d programs", f->name, matches);
	}
	return 0;
}

/* True when something consumes every run's event, so the program probes and the spans send
 * one per run through the ring buffer instead of aggregating in the kernel: a --raw recording
 * (its events are read back one by one: --events, -o trace), or LATTOP_PATH=ring (a knob for
 * benchmarks and tests comparing the two paths). Nothing else reads span events one by one:
 * the model, recordings without --raw, the reports and --listen take the aggregated series. */
static bool needs_events(const struct opts *o)
{
	const char *v = getenv("LATTOP_PATH");

	return o->raw || (v && !strcmp(v, "ring"));
}

/* Whether the spans aggregate in the kernel: unless every event is needed, and when their
 * aggregates fit in the budget (opened first, the spans take it before any program); past it
 * their samples go through the ring buffer, counted in agg_over_budget as a program's would. */
static bool spans_agg(struct session *s)
{
	if (needs_events(s->o))
		return false;
	if (spans__agg_bytes(s->o->nspans) <= progagg__budget())
		return true;
	s->span_over_budget = 1;
	return false;
}

/* Whether the vhost chain's segments aggregate in the kernel: unless every event is needed
 * (needs_events, or --details, whose per-packet lines pair each packet's four events by its
 * sequence number), and when their records fit in what the spans left of the budget; past it
 * their samples go through the ring buffer, counted in agg_over_budget. */
static bool seg_agg(struct session *s)
{
	if (needs_events(s->o) || s->o->details)
		return false;
	if (segsession__agg_bytes() <= progagg__budget() - spans__agg_mem(s->sp))
		return true;
	s->seg_over_budget = 1;
	return false;
}

/* Load and attach the spans and give each its (empty) series: a span that never fires still
 * shows, with a count of 0. Returns 0 or a negative errno (errno set) with err. */
static int open_spans(struct session *s, char *err, size_t errlen)
{
	s->sp = spans__new(s->col, s->o->spans, s->o->nspans, spans_agg(s), err, errlen);
	if (!s->sp)
		return -errno;
	for (int i = 0; i < s->o->nspans; i++) {
		struct series *se = model__series(s->m, LAT_EV_SEG, i, 0, 0);
		const struct hist_delta none = {};

		if (!se || model__add_hist(s->m, se, NULL, NULL, 0, &none)) {
			snprintf(err, errlen, "out of memory");
			errno = ENOMEM;
			return -ENOMEM;
		}
		se->src |= SRC_FENTRY;
		snprintf(se->name, sizeof(se->name), "%s", s->o->spans[i].name);
		snprintf(se->type, sizeof(se->type), "%s", s->o->spans[i].kind);
	}
	return 0;
}

/* Hand the spans' loss counters to their series (growth per interval). */
static void span_losses(struct session *s)
{
	for (int i = 0; s->sp && i < s->o->nspans; i++) {
		struct series *se = model__find(s->m, LAT_EV_SEG, i, 0, 0);
		struct lat_span_loss l;

		if (!se)
			continue;
		spans__loss(s->sp, i, &l);
		model__set_series_counter(s->m, se, "unmatched", true, l.unmatched);
		model__set_series_counter(s->m, se, "evicted", true, l.evicted);
		model__set_series_counter(s->m, se, "collided", true, l.collided);
		model__set_series_counter(s->m, se, "overflow", true, l.overflow);
	}
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
	return EXIT_OK;
}

/* Open phase 3, segments: spans (-u, --spans) and the vhost chain (--profile, --discover). */
static int open_segments(struct session *s, char *err, size_t errlen)
{
	int e;

	/* Spans: a missing symbol is the user's to fix (status 2). */
	if (s->o->nspans && open_spans(s, err, errlen))
		return errno == ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	/* EventHeader activities (ehsession.c). */
	e = ehsession__open(s, err, errlen);
	if (e != EXIT_OK)
		return e;
	/* The vhost chain: its own checks and sentences. */
	if (s->o->profile_path || s->o->discover) {
		e = segsession__open(&s->seg, s->o, s->col, s->m, seg_agg(s), err, errlen);
		for (int i = 0; segsession__warning(s->seg, i); i++)
			session__warn(s, "%s", segsession__warning(s->seg, i));
		if (e != EXIT_OK)
			return e;
	}
	/* What the chain found about the device and profile stays through filter edits. */
	s->warn_keep = strlen(s->warn);
	return EXIT_OK;
}

/* Harvest sink: what a watched program's in-kernel aggregates gained goes into its series'
 * open interval, as its events would have. */
static void on_agg(void *arg, uint16_t kind, uint32_t id, uint32_t aux, uint32_t aux2,
		   const struct progagg_delta *d)
{
	struct session *s = arg;
	struct series *se = model__series(s->m, kind, id, aux, aux2);

	if (!se || model__add_agg(s->m, se, d->idx, d->cnt, d->n, &d->d, SRC_FENTRY))
		session__error(s, "out of memory: a harvest of %s %u's runs is missing",
			       kind != LAT_EV_SEG ? "program"
			       : id < LAT_SPAN_MAX ? "span" : "vhost segment",
			       kind == LAT_EV_SEG && id >= LAT_SPAN_MAX ? id - LAT_SPAN_MAX : id);
}

/* Bytes of the cap the spans' and the vhost segments' aggregates took (0 on the ring). */
static size_t segments_agg_mem(const struct session *s)
{
	return spans__agg_mem(s->sp) + segsession__agg_mem(s->seg);
}

/* bpf_stats for the session, on exactly as long as its fd is open; with --no-stats no fd is
 * taken and the model reads no counters (stats someone else turned on stay on: a warning says
 * so, since every program pays for them anyway). */
static int open_stats(struct session *s, char *err, size_t errlen)
{
	if (s->o->no_stats) {
		s->m->no_stats = true;
		if (progstats__on_now() > 0)
			session__warn(s, "bpf_stats is on already (the kernel.bpf_stats_enabled "
					 "sysctl or another tool): every BPF program pays for it "
					 "anyway; --no-stats leaves it on and shows none of its "
					 "figures");
		/* A fact of the machine, not of the filter: it stays through filter edits. */
		s->warn_keep = strlen(s->warn);
		return EXIT_OK;
	}
	s->stats_fd = progstats__enable();
	if (s->stats_fd < 0) {
		snprintf(err, errlen,
			 "cannot enable BPF run-time statistics (bpf_enable_stats: %s); "
			 "run counts and times would all read zero",
			 strerror(-s->stats_fd));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* The program probes, where this kernel can trace BPF programs (tried on a program of our
 * own). Returns 0, or a negative errno with why (and the probes freed). */
static int open_probes(struct session *s, char *why, size_t len)
{
	int e;

	why[0] = '\0';
	s->pt = progtrace__new(s->col);
	if (!s->pt) {
		e = -errno;
		snprintf(why, len, "cannot create the nesting map (%s)", strerror(-e));
		return e;
	}
	progtrace__set_agg(s->pt, !needs_events(s->o));
	progtrace__set_sink(s->pt, on_agg, s);
	/* The spans' and the vhost segments' aggregates (loaded already) count against the
	 * same cap. */
	if (segments_agg_mem(s))
		progtrace__agg_reserve(s->pt, segments_agg_mem(s));
	e = progtrace__probe(s->pt, why, len);
	if (e) {
		if (!why[0])
			snprintf(why, len, "%s", strerror(-e));
		progtrace__free(s->pt);
		s->pt = NULL;
	}
	return e;
}

/* Open phase 4, sources of figures: bpf_stats (unless --no-stats), the program probes, and the
 * demo, which self-times only where fentry cannot measure it. With --no-stats and no probes
 * nothing is left to measure unless segments are (spans, the vhost chain). */
static int open_sources(struct session *s, char *err, size_t errlen)
{
	char why[160];
	int e;

	e = open_stats(s, err, errlen);
	if (e != EXIT_OK)
		return e;
	if (open_probes(s, why, sizeof(why)) && s->o->no_stats) {
		if (!s->o->nspans && !s->o->profile_path && !s->o->discover) {
			snprintf(err, errlen,
				 "--no-stats needs per-invocation probes and there are none here "
				 "(%s): drop --no-stats for bpf_stats counts and averages",
				 why);
			return EXIT_USAGE;
		}
		snprintf(s->notice, sizeof(s->notice),
			 "no per-invocation latency for programs: %s; with --no-stats (bpf_stats "
			 "off) programs show no figures",
			 why);
	} else if (!s->pt) {
		snprintf(s->notice, sizeof(s->notice),
			 "no per-invocation latency: %s; showing bpf_stats counts and averages%s",
			 why, s->o->demo ? " (demo programs time themselves)" : "");
	}
	if (s->o->demo) {
		s->demo = demo__start(s->col, s->pt == NULL, err, errlen);
		if (!s->demo)
			return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Open phase 5, the first scan: the stats baseline, and -p checked against it. */
static int open_scan(struct session *s, char *err, size_t errlen)
{
	int e = progstats__scan(&s->st, &s->nst, &s->stcap);

	if (e) {
		snprintf(err, errlen, "cannot list BPF programs: %s", strerror(-e));
		return EXIT_RUNTIME;
	}
	if (check_filter(s, s->o->filter, s->o->nfilter, err, errlen))
		return EXIT_USAGE;
	model__apply_stats(s->m, s->st, s->nst, now_ns());
	return EXIT_OK;
}

/* The notice of a session with program probes: which path their runs take and its cost. */
static void path_notice(struct session *s)
{
	unsigned long long floor = progtrace__floor_ns(s->pt);
	struct progtrace_mem mem;

	progtrace__agg_mem(s->pt, &mem);
	if (!progtrace__agg(s->pt)) {
		snprintf(s->notice, sizeof(s->notice),
			 "fentry/fexit, an event per run through the ring buffer%s: probe floor %llu "
			 "ns per invocation (the latency our probes report for an empty program)",
			 s->o->raw ? " (--raw)" : "", floor);
		return;
	}
	snprintf(s->notice, sizeof(s->notice),
		 "fentry/fexit, runs aggregated in the kernel (%zu KiB per program, cap %zu MiB: "
		 "%zu programs; more go through the ring buffer): probe floor %llu ns per "
		 "invocation (the latency our probes report for an empty program)",
		 mem.per_program >> 10, mem.budget >> 20,
		 progagg__max_programs(mem.ncpu, mem.budget - segments_agg_mem(s)), floor);
}

/* Put text before the notice (what does not fit of the notice's end is cut). */
static void notice_first(struct session *s, const char *text)
{
	size_t t = strlen(text), n = strlen(s->notice);

	if (t >= sizeof(s->notice))
		t = sizeof(s->notice) - 1;
	if (t + n >= sizeof(s->notice))
		n = sizeof(s->notice) - 1 - t;
	memmove(s->notice + t, s->notice, n);
	memcpy(s->notice, text, t);
	s->notice[t + n] = '\0';
}

/* Open phase 6, the view: where figures come from, probes for the watched programs, the mode
 * asked for (one this kernel cannot give degrades to the overview, saying why). */
static void open_view(struct session *s)
{
	char why[160];

	if (s->pt) {
		snprintf(s->m->source, sizeof(s->m->source), "fentry");
		s->m->floor_ns = progtrace__floor_ns(s->pt);
		path_notice(s);
		if (s->o->no_stats)
			notice_first(s, "bpf_stats off (--no-stats): programs without probes show "
					"no figures; ");
	} else {
		snprintf(s->m->source, sizeof(s->m->source), "%s",
			 s->o->no_stats ? "none" : s->o->demo ? "stats+self" : "stats");
	}
	session__sync_watch(s);
	if (s->o->mode != MODE_PROGRAMS &&
	    session__set_mode(s, s->o->mode, why, sizeof(why)))
		snprintf(s->notice, sizeof(s->notice), "%s", why);
	snprintf(s->m->notice, sizeof(s->m->notice), "%s", s->notice);
}

/* Open phase 7, the collector thread, and the interval and -D clocks. */
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
	s->stats_fd = -1;
	s->lock_fd = -1;
	if ((ret = open_access(s, err, errlen)) || (ret = open_shared(s, err, errlen)) ||
	    (ret = open_segments(s, err, errlen)) || (ret = open_sources(s, err, errlen)) ||
	    (ret = open_scan(s, err, errlen)))
		return ret;
	open_view(s);
	return open_start(s, err, errlen);
}

/* Stop threads, destroy links, free everything. */
static void live_close(struct session *s)
{
	session__record_stop(s);
	collector__stop(s->col);
	spans__free(s->sp);
	s->sp = NULL;
	ehsession__free(s);
	segsession__free(s->seg);
	s->seg = NULL;
	helpertrace__free(s->ht);
	s->ht = NULL;
	progtrace__free(s->pt);
	s->pt = NULL;
	demo__free(s->demo);
	s->demo = NULL;
	collector__free(s->col);
	s->col = NULL;
	if (s->stats_fd >= 0)
		close(s->stats_fd);
	s->stats_fd = -1;
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

	if (s->seg && segsession__event(s->seg, e)) {
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
	if (s->pt)
		progtrace__harvest(s->pt);
	if (s->ht)
		helpertrace__harvest(s->ht, false);
	spans__harvest(s->sp, true, on_agg, s);
	segsession__harvest(s->seg, true, on_agg, s);
	ehsession__flush(s);
}

/* Move queued events into the model. */
void session__drain(struct session *s)
{
	if (s->col)
		collector__drain(s->col, on_event, s);
	ehsession__drain(s);
}

/* Nesting-stack losses of the program probes: pushes on a full stack. (An exit without its
 * entry loses nothing: the call began before the entry probe was attached, or its entry was
 * a recursion miss, counted as such; stale entries have their own named counters.) */
static uint64_t nest_misses(const struct progtrace *pt)
{
	struct progtrace_nest n;

	progtrace__nest(pt, &n);
	return n.overflow;
}

/* Stale program entries and helper slots the probes reclaimed (their exit never came): named
 * loss counters, from the first time a program probe was attached (or anything went stale). */
static void stale_counters(struct session *s)
{
	struct progtrace_nest n;

	if (!s->pt)
		return;
	progtrace__nest(s->pt, &n);
	if (progtrace__count(s->pt))
		s->probes_used = true;
	if (!s->probes_used && !n.stale && !n.helper_stale)
		return;
	model__set_counter(s->m, "prog_stale", n.stale);
	model__set_counter(s->m, "helper_stale", n.helper_stale);
}

/* Watched programs (and the spans, as one, and the vhost segments, as one) put on the ring
 * buffer because the aggregates' budget was spent: a named count (not a loss: their runs
 * arrive as events), from the first one on. */
static void agg_counters(struct session *s)
{
	struct progtrace_mem mem = {};
	uint64_t n;

	if (s->pt)
		progtrace__agg_mem(s->pt, &mem);
	n = mem.over_budget + s->span_over_budget + s->seg_over_budget;
	if (n)
		model__set_tally(s->m, "agg_over_budget", n);
}

/* Release programs their owners unloaded (our links alone keep them alive): note why, and
 * never re-attach them. */
static void reap_orphans(struct session *s)
{
	uint32_t ids[64];
	int n = s->pt ? progtrace__reap(s->pt, ids, 64) : 0;

	for (int i = 0; i < n; i++) {
		struct series *se = model__find(s->m, LAT_EV_PROG, ids[i], 0, 0);

		if (se)
			snprintf(se->note, sizeof(se->note),
				 "unloaded by its owner: probes released");
	}
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
	spans__harvest(s->sp, false, on_agg, s);
	segsession__harvest(s->seg, false, on_agg, s);
	s->harvest_ns = now;
	if (!s->pt)
		return;
	progtrace__harvest(s->pt);
	if (s->ht)
		helpertrace__harvest(s->ht, false);
}

/* Sample stats and close the interval. */
void session__close_interval(struct session *s, uint64_t now)
{
	bool scanned;

	session__drain(s);
	/* The aggregates just before the stats scan: only runs in between count in the stats
	 * delta now and in the next interval's aggregates (as events still in the ring would). */
	harvest(s, now);
	reap_orphans(s);
	span_losses(s);
	scanned = progstats__scan(&s->st, &s->nst, &s->stcap) == 0;
	if (scanned)
		model__apply_stats(s->m, s->st, s->nst, now);
	model__set_losses(s->m, &(struct model_losses){
					.rb_drops = collector__rb_drops(s->col),
					.queue_drops = collector__queue_drops(s->col),
					.recursion = (s->pt ? progtrace__recursion_misses(s->pt) : 0) +
						     (s->ht ? helpertrace__recursion_misses(s->ht) : 0),
					.nest = s->pt ? nest_misses(s->pt) : 0,
				});
	/* Helper calls lost to a traced call already in flight: a named loss counter, from the
	 * first time helpers mode ran (it keeps its total across leaving and re-entering). */
	if (s->ht || s->helper_busy_retired)
		model__set_counter(s->m, "helper_busy",
				   s->helper_busy_retired + (s->ht ? helpertrace__busy(s->ht) : 0));
	/* Calls from a program that interrupted a watched one (hardirq, softirq, NMI): not
	 * attributed to it, counted the same way. */
	if (s->ht || s->helper_foreign_retired)
		model__set_counter(s->m, "helper_foreign",
				   s->helper_foreign_retired +
					   (s->ht ? helpertrace__foreign(s->ht) : 0));
	collector_errors(s);
	stale_counters(s);
	agg_counters(s);
	segsession__interval(s->seg);
	ehsession__interval(s);
	model__close_interval(s->m, now);
	ehsession__closed(s);
	session__record_interval(s);
	if (s->on_interval)
		s->on_interval(s->on_interval_arg, s->m);
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

/* Switch the view to mode: attach or detach what it needs. */
static int live_set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen)
{
	if (mode == s->m->mode)
		return 0;
	if (mode == MODE_SEGMENTS && !s->sp && !s->eh && !segsession__ready(s->seg)) {
		if (s->seg)
			snprintf(err, errlen, "%s", segsession__why(s->seg));
		else
			snprintf(err, errlen,
				 "segments mode needs spans or a profile: give -u, --spans or "
				 "--profile");
		return -ENOTSUP;
	}
	if (mode == MODE_HELPERS) {
		if (!s->pt) {
			snprintf(err, errlen,
				 "helpers mode needs fentry/fexit, which this kernel refuses: "
				 "staying in programs mode");
			return -ENOTSUP;
		}
		if (!s->ht) {
			s->ht = helpertrace__new(s->col, progtrace__nest_fd(s->pt),
						  progtrace__hnest_fd(s->pt));
			if (s->ht)
				helpertrace__set_agg(s->ht, s->pt);
		}
		if (!s->ht) {
			snprintf(err, errlen, "cannot create the helper probes' state: %s",
				 strerror(errno));
			return -errno;
		}
		s->m->mode = mode;
		session__note_ctx(s);
		session__sync_helpers(s);
		return 0;
	}
	/* Leaving helpers mode: nothing of it stays attached. */
	if (s->ht) {
		s->helper_busy_retired += helpertrace__busy(s->ht);
		s->helper_foreign_retired += helpertrace__foreign(s->ht);
	}
	helpertrace__free(s->ht);
	s->ht = NULL;
	s->helpers_key = 0;
	s->m->mode = mode;
	return 0;
}

/* True when program id should carry per-invocation probes: it passes the filter (the demo's
 * programs are the default watch set of --demo; without -p or --demo nothing is probed). */
static bool watched(const struct session *s, const struct series *se)
{
	if (se->gone)
		return false;
	if (s->o->nfilter)
		return session__wanted(s, se);
	if (s->demo) {
		uint32_t ids[DEMO_NPROGS];
		int n = demo__prog_ids(s->demo, ids, DEMO_NPROGS);

		for (int i = 0; i < n; i++)
			if (ids[i] == se->id)
				return true;
	}
	return false;
}

/* Without program probes, the demo's programs time themselves: they are measured per
 * invocation for as long as they are loaded. */
static void mark_self_timed(struct session *s)
{
	uint32_t ids[DEMO_NPROGS];
	int n;

	if (!s->demo)
		return; /* and a replay's recorded state stays as it is */
	n = demo__prog_ids(s->demo, ids, DEMO_NPROGS);
	for (size_t i = 0; i < s->m->n; i++) {
		struct series *se = &s->m->s[i];
		bool self = false;

		for (int j = 0; j < n && se->kind == LAT_EV_PROG && !self; j++)
			self = ids[j] == se->id;
		if (!(se->src & SRC_PROBING) != !(self && !se->gone))
			model__set_probing(s->m, se, self && !se->gone);
	}
}

/* Attach or detach probes so they match the watch set, and tell the model which programs are
 * measured per invocation. */
void session__sync_watch(struct session *s)
{
	char why[160];

	if (!s->pt) {
		mark_self_timed(s);
		return;
	}
	for (size_t i = 0; i < s->m->n; i++) {
		struct series *se = &s->m->s[i];
		bool want, have;

		if (se->kind != LAT_EV_PROG)
			continue;
		want = watched(s, se);
		have = progtrace__attached(s->pt, se->id);
		if (want && !have) {
			if (se->note[0])
				continue; /* tried and refused: the reason stays on the row */
			if (progtrace__attach(s->pt, se->id, why, sizeof(why)))
				snprintf(se->note, sizeof(se->note), "%s", why);
		} else if (!want && have) {
			progtrace__detach(s->pt, se->id);
		}
		if (!want && !se->gone && !strstr(se->note, "unloaded by its owner"))
			se->note[0] = '\0';
		model__set_probing(s->m, se, progtrace__attached(s->pt, se->id));
		/* Loading a copy takes a while (the verifier): keep the queues from filling
		 * meanwhile. This may add series (moving the array): se is not used after it. */
		if (want != have)
			session__drain(s);
	}
	s->m->probed = progtrace__count(s->pt);
	if (s->m->mode == MODE_HELPERS)
		session__sync_helpers(s);
}

/* Format the current filter as a -p list. */
int session__filter_str(const struct session *s, char *buf, size_t len)
{
	return opts__filter_str(s->o, buf, len);
}

/* Replace the filter with a new list (validated against loaded programs first). */
int session__set_filter(struct session *s, const char *list, char *err, size_t errlen)
{
	/* The new list is parsed into a copy of the options (too big for the stack) and
	 * checked before it replaces the old one. */
	struct opts *trial = malloc(sizeof(*trial));
	int e = 0;

	if (!trial) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*trial = *s->o;
	trial->nfilter = 0;
	/* The new filter's warnings replace the old filter's; the session's stay. */
	s->warn[s->warn_keep] = '\0';
	if (*list)
		e = opts__parse_filter(trial, list, err, errlen);
	if (!e)
		e = check_filter(s, trial->filter, trial->nfilter, err, errlen);
	if (!e) {
		memcpy(s->o->filter, trial->filter, sizeof(trial->filter));
		s->o->nfilter = trial->nfilter;
		source_of(s)->filter_changed(s);
	}
	free(trial);
	return e;
}

/* True when helpers mode shows program se: live, when its helper probes are attached; in a
 * replay, when helper rows of it were recorded (nothing is attached there). */
static bool live_helpers_shown(const struct session *s, const struct series *se)
{
	return s->ht && progtrace__attached(s->pt, se->id);
}

/* Fill rows for the current mode, filtered and sorted. In helpers mode each watched program's
 * row comes first, as context, followed by its helper rows (both sorted by the column). */
size_t session__rows(const struct session *s, bool cumulative, const struct row_order *ord,
		     struct row *rows, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->m->n && n < max; i++) {
		const struct series *se = &s->m->s[i];

		if (s->m->mode == MODE_SEGMENTS) {
			if (se->kind == LAT_EV_SEG && span_wanted(s, se))
				model__row(s->m, se, cumulative, &rows[n++]);
			continue;
		}
		if (se->kind != LAT_EV_PROG || !session__wanted(s, se))
			continue;
		if (s->m->mode == MODE_HELPERS && !source_of(s)->helpers_shown(s, se))
			continue;
		model__row(s->m, se, cumulative, &rows[n++]);
	}
	rows__sort(rows, n, ord);
	if (s->m->mode != MODE_HELPERS)
		return n;
	return rows__with_helpers(s->m, cumulative, ord, rows, n, max);
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

/* The source of s (a session never opened is a live one). */
const struct source_ops *source_of(const struct session *s)
{
	return s->src ? s->src : &session__live;
}

/* Close the interval when it is due (live), or advance the replay clock. */
bool session__tick(struct session *s, uint64_t now)
{
	return source_of(s)->tick(s, now);
}

/* Switch the view to mode. */
int session__set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen)
{
	return source_of(s)->set_mode(s, mode, err, errlen);
}

/* Close the source and free everything (safe on a half-opened session). */
void session__close(struct session *s)
{
	source_of(s)->close(s);
}

/* Wall-clock ns of an instant on the session's clock. */
uint64_t session__wall_ns(const struct session *s, uint64_t mono_ns)
{
	return source_of(s)->wall_ns(s, mono_ns);
}

/* The session's clock now (a replay's: the end of the interval shown). */
uint64_t session__now_ns(const struct session *s)
{
	return source_of(s)->now_ns(s);
}

/* The host and kernel the figures come from. */
void session__origin(const struct session *s, const char **host, const char **kernel)
{
	source_of(s)->origin(s, host, kernel);
}

/* True when this session can be recorded (a live one). */
bool session__can_record(const struct session *s)
{
	return source_of(s)->can_record;
}

/* The recording a replay plays, or NULL. */
struct replay *session__replay(const struct session *s)
{
	return s->rp;
}
