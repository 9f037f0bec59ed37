/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * model.h - the aggregated model every view renders from (live TUI, batch, replay).
 *
 * A model is a table of series (one per program, helper or segment) and session counters.
 * Sources feed it: events (per-invocation durations into histograms) and bpf_stats samples
 * (run_cnt / run_time_ns). model__close_interval turns what arrived since the last close into
 * the "interval" figures and adds them to the "cumulative" ones; views read either.
 *
 * Thread use: UI thread only.
 */
#ifndef LAT_MODEL_H
#define LAT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lattop.h"
#include "model/attr.h"
#include "model/hist.h"

enum lat_mode {
	MODE_PROGRAMS = 0,
	MODE_HELPERS = 1,
	MODE_SEGMENTS = 2,
	MODE__COUNT,
};

/* The name -m takes for a mode ("programs", "helpers", "segments"), "?" when out of range. */
const char *model__mode_name(enum lat_mode m);

/* Closed intervals whose p99 each series remembers (the detail pane's sparkline), and its
 * heat history (the heatmap: log2 counts per interval) with them. */
#define MODEL_P99_RING 60
/* Log2 rows of the heat history: row 0 holds the value 0, row r [2^(r-1), 2^r - 1] (hist.h). */
#define MODEL_HEAT_ROWS (HIST_MAX_POW2 + 1)

/* One closed interval of a series' heat history: counts of log2 rows lo .. lo + n - 1 (n = 0:
 * no runs), and the rows holding its p50 and p99. */
struct heat_slot {
	uint32_t *cnt; /* n counts (saturating), room for cap */
	uint8_t lo, n, cap, p50, p99;
};

/* Where a series' figures come from (bit set). */
enum series_src {
	SRC_STATS = 1u << 0,  /* bpf_stats run_cnt/run_time_ns: counts and averages only */
	SRC_SELF = 1u << 1,   /* the program times itself (demo programs) */
	SRC_FENTRY = 1u << 2, /* fentry/fexit probes on the program */
	SRC_PROBING = 1u << 3, /* measured per invocation now: probes attached or self-timing
				* (format 1.3; the one bit that can also turn off) */
};

/* Counts over one interval and over the session, for the figures of one series. */
struct series_counts {
	uint64_t cnt;     /* runs (stats) */
	uint64_t time_ns; /* run time (stats) */
	/* Helpers mode: what the helper probes' own programs took (bpf_stats), this program's
	 * share by its helper calls (session/kind_helpers.c). */
	uint64_t helper_ns;
};

struct series {
	uint16_t kind; /* enum lat_kind */
	uint32_t id, aux, aux2;
	char name[64];
	char type[32];
	char sub[32];   /* second label: the map name of a helper row */
	char note[160]; /* why per-invocation figures are missing, if they are */
	unsigned src;  /* enum series_src bits seen so far */
	bool gone;     /* the program was unloaded */
	bool seen;     /* seen by the current stats scan */
	uint64_t first_ns, gone_ns;

	/* bpf_stats: absolute values at the last scan, and the derived deltas. */
	bool stats_primed;
	uint64_t run_cnt, run_time_ns, recursion_misses;
	/* The kernel's recursion_misses at the first reading (rm_primed): its growth since then is
	 * the program's named loss counter MODEL_RECURSION_MISSES. */
	bool rm_primed;
	uint64_t rm_base;
	struct series_counts st_open; /* accumulating for the open interval */
	struct series_counts st_last; /* the last closed interval */
	struct series_counts st_cum;  /* since start or the last reset */

	/* Per-invocation measurement (probes attached, or the program times itself): in a window
	 * where it was on, even for a moment, count and percentiles come from the events alone and
	 * the bpf_stats delta never stands in for them (the same runs would be counted twice when
	 * their events arrive in the next interval). "On now" is src's SRC_PROBING (the session
	 * sets it); meas_*: on at some time in the open / last closed / cumulative window. */
	bool meas_open, meas_last, meas_cum;
	/* Watched in turns (--budget): in_turns now (the session sets it), samp_*: in turns at
	 * some time in the window. Such a window's count comes from bpf_stats (exact) and its
	 * percentiles from the runs timed, a sample (row.timed says what share). */
	bool in_turns, samp_open, samp_last, samp_cum;
	/* What the probes' own programs took per run of this program while it was watched, from
	 * bpf_stats (0: not measured): the cost counts the larger of it and the run cost
	 * measured at start-up, since runs far apart cost more than the start-up's tight loop. */
	uint64_t probe_ns;
	/* Helpers mode: what the helper probes took per run of this program (its share of their
	 * bpf_stats run time by its helper calls, over its runs) in the last interval where it
	 * ran; it adds to probe_ns in the plan and the cost (0: not measured). */
	uint64_t helper_ns;
	/* Who holds the program and where it is attached (a program series on a live host or
	 * from a recording; NULL when not known). attr_gen grows with every change. */
	struct prog_attr *attr;
	uint32_t attr_gen;
	/* Split by CPU (a program): from split_ns on, each CPU's share of its measured runs also
	 * goes to a series (LAT_EV_PROG_CPU, id, cpu), whose figures add up exactly to the
	 * program's timed runs over the same windows. 0: not split. */
	uint64_t split_ns;
	bool cpu_rows; /* its CPU series are shown under it (the TUI's C key) */
	bool grp_hidden; /* a span's breakdown groups are not shown under it (the TUI's k key) */

	/* Events: histograms (empty ones hold no memory) since the first event. */
	bool has_hist;
	struct hist h_open, h_last, h_cum;

	/* p99 of the last MODEL_P99_RING closed intervals (series with a histogram), a ring:
	 * the newest at p99_head - 1. Intervals closed while the series was idle are zeros not
	 * written yet: m->intervals - p99_ival of them follow the newest. */
	uint64_t p99_ring[MODEL_P99_RING];
	uint32_t p99_head, p99_n;
	uint64_t p99_ival;
	/* The heat history, a ring parallel to p99_ring: NULL until a closed interval has runs,
	 * then MODEL_P99_RING slots (960 bytes) and each slot's counts of the rows its runs span
	 * (4 bytes a row): at most 960 + 60 x 41 x 4 = 10,800 bytes a series, ~1.2 KB for a
	 * series whose runs stay within two powers of two. */
	struct heat_slot *heat;

	/* Closing (model.c): a series is on the model's active list while it has figures in the
	 * open or the last interval, so a close costs what changed, not the number of series. */
	uint64_t act_until; /* closed while m->intervals < act_until */
	bool listed;        /* on the active list */
	uint32_t ctr_head, ctr_tail; /* its named counters: positions in m->ctr + 1, 0 = none */
};

/* Session-wide counters (interval = last closed interval, total = since start/reset). */
struct model_counters {
	uint64_t events, rb_drops, queue_drops;
	uint64_t recursion; /* the kernel's recursion_misses of our tracing programs */
	uint64_t nest;      /* nesting-stack misses: missed entries/exits and overflow */
};

/* Absolute loss counters as the sources report them (deltas are taken at close). */
struct model_losses {
	uint64_t rb_drops, queue_drops, recursion, nest;
};

/* A named counter from a source: session-wide (the vhost chain's fifo_overflow, pkts_matched,
 * ...) or of one series (a span's unmatched, evicted, ...). Sources give absolute values; the
 * growth lands in the open interval like the loss counters above. */
#define MODEL_CTR_NAME 24
/* A program's counter of the runs the kernel skipped (bpf_prog_info's recursion_misses: a
 * tracing program entered again on a CPU where it was running). */
#define MODEL_RECURSION_MISSES "recursion_misses"
struct model_counter {
	char name[MODEL_CTR_NAME];
	int32_t series; /* position in model.s, -1 = session-wide */
	bool loss;      /* something was lost or uncorrelated (warning colour when it grows) */
	uint64_t abs;   /* the source's last absolute value */
	uint64_t open, last, cum;
	uint32_t next;      /* the next counter of the same series: position + 1, 0 = none */
	uint64_t act_until; /* closed while m->intervals < act_until (as a series') */
	bool listed;
};

/* What a model has cost so far: memory it holds and work its closes did (the replay tests
 * bound these by the size of the recording). */
struct model_cost {
	size_t bytes;       /* heap bytes held: tables, indexes and histogram buckets */
	size_t hist_bytes;  /* of which histogram buckets */
	uint64_t visits;    /* series and counters visited by interval closes */
};

struct model {
	struct series *s;
	size_t n, cap;
	uint32_t *index;   /* open-addressing hash of series keys -> position + 1 (0 = empty) */
	size_t index_cap;  /* power of two, at least 2 * cap */
	size_t last_hit;   /* position of the last series an event went to (events come in runs) */
	uint64_t start_ns;        /* CLOCK_MONOTONIC at model__new */
	uint64_t open_start_ns;   /* start of the open interval */
	uint64_t last_start_ns;   /* the last closed interval: [last_start_ns, last_end_ns) */
	uint64_t last_end_ns;
	uint64_t cum_start_ns;    /* start of the cumulative figures (start or reset) */
	uint64_t intervals;       /* closed intervals so far */
	enum lat_mode mode;
	char source[32];          /* "stats", "stats+self", "fentry", ... */
	char notice[320];         /* one sentence about what the kernel cannot do, or "" */
	char seg_notice[320];     /* the same for segments mode (the chain's warnings), or "" */
	struct model_counters c_open, c_last, c_cum;
	int probed;               /* programs with per-invocation probes attached */
	uint64_t floor_ns;        /* probe floor: what the probes report for an empty program */
	uint64_t run_cost_ns;     /* what the probes add to each run here, measured (0: not) */
	/* The CPU budget of the program probes (--budget): % of the machine, -1 for max, and
	 * what the plan did at the last sync. ncpu: the machine's online CPUs (0: not known,
	 * a recording from before the budget). */
	bool has_budget;          /* budget_pct is known (a live session, a recording saying it) */
	double budget_pct;
	int ncpu;
	int unprobeable;          /* programs wanted that the probes cannot watch (reason in note) */
	int watch_want;           /* programs the budget had to share out (0: no plan yet) */
	bool turns;               /* the budget does not cover them all: watched in turns */
	uint64_t switch_ns;       /* CPU time one attach or detach took here (moving average) */
	uint64_t turn_ns;         /* the current turn's length (0: no turns) */
	/* Absolute counters from the sources, to turn into deltas at close. */
	struct model_losses abs;
	struct model_counter *ctr; /* named counters, in the order they first appeared */
	size_t nctr, ctrcap;
	uint32_t *ctr_index;      /* open-addressing hash of (series, name) -> position + 1 */
	size_t ctr_index_cap;     /* power of two, at least 2 * ctrcap */
	uint32_t ctr_head, ctr_tail; /* the session-wide counters' chain (positions + 1) */
	uint32_t *act, *ctr_act;  /* active series and counters (positions; room for all) */
	size_t nact, nctr_act;
	uint64_t visits;          /* series and counters visited by closes (model__cost) */
	/* A recording older than format 1.3 does not say per interval whether a series was
	 * measured per invocation: rows then follow the old rule (a histogram wins). */
	bool legacy_rows;
	/* A live session without bpf_stats (--no-stats): scans list programs (names, types,
	 * unloads) but their run_cnt/run_time_ns are not read, and no series gets SRC_STATS:
	 * a program without probes has no figures ("-"), never zeros. */
	bool no_stats;
	/* --per-cpu: every program is split by CPU from its first appearance, its CPU rows shown
	 * (live); every program's CPU series are shown under it (a replay's model). */
	bool split_all, cpu_rows_all;
};

/* Create an empty model starting at now_ns; NULL + errno on failure. */
struct model *model__new(uint64_t now_ns);
/* Free a model (NULL is a no-op). */
void model__free(struct model *m);
/* Find a series, or add an empty one; NULL on allocation failure. */
struct series *model__series(struct model *m, uint16_t kind, uint32_t id, uint32_t aux,
			     uint32_t aux2);
/* The name of a split span's part (enum lat_span_part): "wall", "oncpu", "runq", "sleep"
 * ("?" out of range). */
const char *model__part_name(unsigned part);
/* The series of part part (LAT_PART_ONCPU..SLEEP) of span series s, or NULL when the span is
 * not split (s is not a span, or its start and end need not run in one task). */
const struct series *model__span_part(const struct model *m, const struct series *s,
				      unsigned part);
/* Find a series without adding; NULL when absent. */
struct series *model__find(struct model *m, uint16_t kind, uint32_t id, uint32_t aux,
			   uint32_t aux2);
/* What the model holds and has done (walks every series: not for a hot path). */
void model__cost(const struct model *m, struct model_cost *c);
/* Account one event into the open interval (src says which source produced it). */
int model__add_event(struct model *m, const struct lat_event *e, unsigned src);
/* Account n events of one series at once as histogram bucket counts (replay). */
int model__add_bucket(struct model *m, struct series *s, uint32_t bucket, uint64_t n);

/* A recorded histogram delta's exact summary (the buckets travel as sparse pairs). */
struct hist_delta {
	uint64_t count, sum, min, max, clamped;
};
/* Replay: add a recorded histogram delta (n sparse buckets idx[i] += cnt[i], idx ascending,
 * plus the exact summary d) to a series' open interval; gives the series its histograms even
 * when empty. Unknown bucket indexes are ignored. Returns 0 or -ENOMEM. */
int model__add_hist(struct model *m, struct series *s, const uint32_t *idx, const uint64_t *cnt,
		    size_t n, const struct hist_delta *d);
/* Live: add a histogram delta harvested from in-kernel aggregates (as model__add_hist) and
 * count it as d->count events of source src, as model__add_event would one by one. Returns 0
 * or -ENOMEM. */
int model__add_agg(struct model *m, struct series *s, const uint32_t *idx, const uint64_t *cnt,
		   size_t n, const struct hist_delta *d, unsigned src);
/* Live: add one CPU's share of program prog_id's harvest (as model__add_agg, but not counted
 * as events again: the program's own delta counts them) to its CPU series, made on first use
 * with the program's name and type and sub "cpu N". Returns 0 or -ENOMEM. */
int model__add_cpu_share(struct model *m, uint32_t prog_id, uint32_t cpu, const uint32_t *idx,
			 const uint64_t *cnt, size_t n, const struct hist_delta *d, unsigned src);
/* Split program series s by CPU from now_ns on, for the rest of the session (its CPU series
 * then take each CPU's share of what it measures). Not a program, or split already: nothing. */
void model__split(struct series *s, uint64_t now_ns);
/* Whether program prog_id is split by CPU now. */
bool model__is_split(const struct model *m, uint32_t prog_id);
/* Say whether series s is measured per invocation from now on (probes attached, or the program
 * times itself). Turning it on marks the open interval as measured. */
void model__set_probing(struct model *m, struct series *s, bool on);
/* Replay: the recorded interval measured series s per invocation. */
void model__set_measured(struct model *m, struct series *s);
/* Say whether a series is watched in turns from now on (--budget). */
void model__set_turns(struct model *m, struct series *s, bool on);
/* The recorded interval watched a series in turns. */
void model__set_sampled(struct model *m, struct series *s);
/* A replay's turns and unprobeable from its series (the live session sets them): turns when a
 * program was watched in turns in the last interval, unprobeable the programs still loaded
 * whose note says why the probes cannot watch them. */
void model__derive_watch(struct model *m);
/* The short word for a series note's reason (no-btf, tracing, extension, ...), "" when none:
 * the TUI's and the reports' column. */
const char *model__note_word(const char *note);
/* The probes' cost in the window as a share of the whole machine (%): their runs times the
 * run cost over the window and the online CPUs; -1 when the CPUs are not known. */
double model__probe_machine_pct(const struct model *m, bool cumulative);
/* Set (a NULL a: forget) what is known of who holds series s's program and where it is
 * attached; a copy is kept, and attr_gen grows only when it changed. Returns 0 or -ENOMEM. */
int model__set_attr(struct model *m, struct series *s, const struct prog_attr *a);
/* Replay: set a series' stats deltas for the open interval and its absolute run count. */
void model__set_stats(struct model *m, struct series *s, uint64_t cnt, uint64_t time_ns,
		      uint64_t run_cnt);

/* One bpf_stats reading for a program. */
struct prog_stat {
	uint32_t id;
	uint32_t type;
	char name[64];
	char type_name[32];
	uint64_t run_cnt, run_time_ns, recursion_misses;
};
/* Add ns of helper-probe time (this program's share) to series s's open interval. */
void model__add_helper_cost(struct model *m, struct series *s, uint64_t ns);
/* Apply a complete scan of loaded programs: new ones appear, missing ones are marked gone;
 * their counters are taken unless m->no_stats. */
void model__apply_stats(struct model *m, const struct prog_stat *st, size_t n, uint64_t now_ns);
/* Set the sources' absolute loss counters; what grew since the last call is added to the open
 * interval (a counter that went down, e.g. a detached probe's, restarts from its new value). */
void model__set_losses(struct model *m, const struct model_losses *l);
/* The source and notice views show for the current mode: segments mode names its series'
 * kinds ("uprobe+tp_btf", "vhost") and has its own notice. */
const char *model__source(const struct model *m, char *buf, size_t len);
const char *model__notice(const struct model *m);
/* Named counters (struct model_counter), created on first use. set: the source's absolute
 * value, its growth goes into the open interval; add: a recorded delta (replay). se = NULL for a
 * session-wide counter; loss says whether growth is a loss (warning colour). The short forms:
 * model__set_counter for a session-wide loss counter (fifo_overflow, s0_miss, ...),
 * model__set_tally for a session-wide count that is not a loss (pkts_seen, pkts_matched).
 * All return 0 or -ENOMEM. */
int model__set_series_counter(struct model *m, const struct series *se, const char *name,
			      bool loss, uint64_t abs);
int model__set_counter(struct model *m, const char *name, uint64_t abs);
int model__set_tally(struct model *m, const char *name, uint64_t abs);
int model__add_counter(struct model *m, const struct series *se, const char *name, bool loss,
		       uint64_t delta);
/* A counter's last-interval or cumulative value (0 when it does not exist). */
uint64_t model__counter(const struct model *m, const struct series *se, const char *name,
			bool cumulative);
/* True when a loss counter grew in the last closed interval (se = NULL: session-wide ones). */
bool model__counters_lost(const struct model *m, const struct series *se);
/* The named counters of series se (NULL: the session-wide ones) in the order they appeared:
 * pass c = NULL for the first; NULL after the last. */
const struct model_counter *model__counter_next(const struct model *m, const struct series *se,
						const struct model_counter *c);
/* Close the open interval at now_ns: open -> last, last added to cumulative. Costs the series
 * and counters that changed in the last two intervals. Returns 0, or -ENOMEM when a
 * cumulative histogram could not grow (its interval is then missing from it). */
int model__close_interval(struct model *m, uint64_t now_ns);
/* Copy series s's p99 history, oldest first, into out (at most max); returns the count. */
size_t model__p99_history(const struct model *m, const struct series *s, uint64_t *out,
			  size_t max);
/* Point out[] at series s's heat history, oldest first (at most max, the same intervals as
 * model__p99_history; idle ones have n = 0); returns the count. The counts stay valid until
 * the next close. */
size_t model__heat_history(const struct model *m, const struct series *s, struct heat_slot *out,
			   size_t max);
/* Log2 row of the heat history a value falls in. */
int model__heat_row(uint64_t v);
/* Forget cumulative figures (the `z` key); the series stay. */
void model__reset(struct model *m, uint64_t now_ns);

/* The figures of one series as views show them. NAN-free: has_dist says whether the
 * percentile fields are meaningful, has_rate whether count/rate/avg are. */
struct row {
	const struct series *s;
	bool has_rate, has_dist;
	uint64_t count;
	double rate;   /* per second */
	double avg_ns;
	uint64_t p50, p95, p99, p999, max;
	double cpu_pct; /* run time / wall time * 100 (one CPU = 100), stats only; <0 if unknown */
	uint64_t total_runs; /* absolute run_cnt from bpf_stats (0 if none) */
	const char *prog_name; /* helper rows: the calling program's name */
	/* Where count and percentiles come from: "events" (per-invocation probes), "self" (the
	 * program times itself), "stats" (bpf_stats: counts and averages only) or "-" (neither:
	 * --no-stats and no probes, so no figures). */
	const char *source;
	/* Share of the window's runs that were timed (0..1), < 0 when not known (no bpf_stats,
	 * or not measured per invocation); sampled: watched in turns in the window, so its
	 * percentiles are of the timed runs and its count is bpf_stats'. */
	double timed;
	bool sampled;
	const struct model *m; /* the model and figures the row came from (named counters) */
	bool cumulative;
	/* Who and where, in words ("" when not known): the first owner "comm[pid]" (" +N" for
	 * N more), its container or else its systemd unit, the first attach point "kind where"
	 * (" +N"). Raw bytes from the kernel: views show them in their visible form. */
	char owner[40];
	char container[80];
	char attach[144];
	char label[40]; /* a CPU row (LAT_EV_PROG_CPU): "  cpu N", its name under its program;
			 * a span's group (LAT_EV_SPAN_GRP): "  arg1=4096", "  other", ... */
	uint8_t depth;	/* an EventHeader child activity row: how deep under its top row */
};
/* The owner and attach summaries of a row (struct row's owner and attach) from a. */
void model__attr_owner(const struct prog_attr *a, char *buf, size_t len);
void model__attr_attach(const struct prog_attr *a, char *buf, size_t len);
/* CPU cost of the attached probes in the last interval (or cumulative), in percent of one
 * CPU: probed runs per second x what a probed run costs (model.c says which figure), plus the
 * helper probes' measured time in helpers mode. */
double model__probe_cost_pct(const struct model *m, bool cumulative);
/* Compute a row for series s from the last interval or the cumulative figures. */
void model__row(const struct model *m, const struct series *s, bool cumulative, struct row *r);
/* The histogram behind a row's distribution (interval or cumulative, as the row was
 * computed), or NULL when the row has none. */
const struct hist *model__row_hist(const struct row *r);

#endif /* LAT_MODEL_H */
