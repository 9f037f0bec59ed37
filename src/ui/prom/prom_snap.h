/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom_snap.h - what a Prometheus scrape sees: an immutable snapshot of the exported metric
 * families, built by the UI thread from the model at each interval close.
 *
 * The exporter keeps its own totals since start (struct prom_state), fed with each closed
 * interval's figures, so the TUI's `z` (which resets the model's cumulative figures) never
 * makes a counter go down. A program gone for longer than the state's keep time stops being
 * exported; a program reloaded under a new ID is a new series (its prog_id label differs).
 *
 * Thread use: prom_state__* on the UI thread only. A snapshot is never changed after
 * prom_state__snapshot returns it: any thread may read it while it holds a reference
 * (prom_snap__ref / prom_snap__unref; the last unref frees it).
 */
#ifndef LAT_PROM_SNAP_H
#define LAT_PROM_SNAP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/promhist.h"
#include "rec/flight.h"

/* The exported families, in exposition order. */
enum prom_family {
	PF_PROG_LAT = 0, /* lattop_program_latency_seconds (histogram) */
	PF_PROG_CPU_LAT, /* lattop_program_cpu_latency_seconds{cpu} (histogram; --per-cpu) */
	PF_HELPER_LAT,	 /* lattop_helper_latency_seconds (histogram) */
	PF_SPAN_LAT,	 /* lattop_span_latency_seconds (histogram) */
	PF_SPAN_GRP_LAT, /* lattop_span_group_latency_seconds{span,group} (histogram; --by) */
	PF_SPAN_PART_LAT, /* lattop_span_part_seconds{span,part} (histogram; split spans) */
	PF_SEG_LAT,	 /* lattop_segment_latency_seconds (histogram) */
	PF_PROG_RUNS,	 /* lattop_program_runs_total (counter) */
	PF_PROG_RUNTIME, /* lattop_program_run_time_seconds_total (counter) */
	PF_PROG_INFO,	 /* lattop_program_info (gauge, 1: owner, container, attach point) */
	PF_LOST,	 /* lattop_lost_events_total (counter) */
	PF_EVENTS,	 /* lattop_events_total (counter) */
	PF_INTERVALS,	 /* lattop_intervals_total (counter) */
	PF_CPU,		 /* lattop_process_cpu_seconds_total (counter) */
	PF_FLOOR,	 /* lattop_probe_floor_seconds (gauge) */
	PF_RUN_COST,	 /* lattop_probe_run_cost_seconds (gauge) */
	PF_PROBE_CPU,	 /* lattop_probe_cpu_ratio (gauge) */
	PF_PROBED,	 /* lattop_probed_programs (gauge) */
	PF_PROBE_MACHINE, /* lattop_probe_machine_ratio (gauge; with a budget, as the three below) */
	PF_BUDGET,	 /* lattop_probe_budget_ratio (gauge; not with --budget max) */
	PF_TURNS,	 /* lattop_probe_turns (gauge: 1 while programs are watched in turns) */
	PF_UNWATCHABLE,	 /* lattop_unwatchable_programs (gauge) */
	PF_PUBLISH,	 /* lattop_publish_seconds (gauge) */
	PF_FLIGHT_BYTES, /* lattop_flight_bytes (gauge; --flight only, as the three below) */
	PF_FLIGHT_IVALS, /* lattop_flight_intervals (gauge) */
	PF_FLIGHT_DUMPS, /* lattop_flight_dumps_total{trigger} (counter) */
	PF_FLIGHT_ERRS,	 /* lattop_flight_dump_errors_total (counter) */
	PF__COUNT,
};

enum prom_type { PT_COUNTER, PT_GAUGE, PT_HISTOGRAM };

/* A family's name (counters without the _total suffix: OpenMetrics names them so), type and
 * help. */
struct prom_family_desc {
	const char *name;
	enum prom_type type;
	const char *help;
};
extern const struct prom_family_desc prom_families[PF__COUNT];

#define PROM_LABELS_MAX 7

struct prom_label {
	const char *name; /* a static string */
	char value[64];
};

/* One series of a family. */
struct prom_sample {
	uint8_t family; /* enum prom_family */
	uint8_t nlabels;
	struct prom_label label[PROM_LABELS_MAX];
	double created_s; /* wall-clock time lattop first exported it (OpenMetrics _created) */
	double value;	  /* counters and gauges */
	/* Histograms: count, sum, classic cumulative buckets and the native buckets (whose
	 * arrays live in the snapshot's memory). */
	uint64_t count;
	double sum_s;
	uint64_t classic[PROMHIST_LE_N];
	struct promhist_native nat;
};

struct prom_snap {
	atomic_int ref;
	size_t n;
	struct prom_sample *v; /* grouped by family, families in enum order */
};

/* Take a reference on s (any thread). */
void prom_snap__ref(struct prom_snap *s);
/* Drop a reference; the last frees s (NULL is a no-op). */
void prom_snap__unref(struct prom_snap *s);

struct prom_state;
/* A state whose gone programs stay exported for keep_ns after they went; NULL + errno. */
struct prom_state *prom_state__new(uint64_t keep_ns);
/* Free a state (NULL is a no-op). */
void prom_state__free(struct prom_state *st);
/* Add the interval m just closed to the totals (call once per close, after
 * model__close_interval). wall_s is the wall-clock time of the close; cpu_s lattop's process
 * CPU time. Returns 0 or -ENOMEM (the totals then miss part of this interval). */
int prom_state__update(struct prom_state *st, const struct model *m, double wall_s, double cpu_s);
/* Record how long the last publish took on the UI thread (exported with the next snapshot). */
void prom_state__set_publish_ns(struct prom_state *st, uint64_t ns);
/* Record the flight recorder's figures (exported with the next snapshot; never called without
 * --flight, so its families stay absent then). */
void prom_state__set_flight(struct prom_state *st, const struct flight_stats *fs);
/* A new snapshot of the totals, with one reference for the caller; NULL + errno. now_ns
 * (CLOCK_MONOTONIC, as the model's gone_ns) decides which gone programs are still exported. */
struct prom_snap *prom_state__snapshot(struct prom_state *st, const struct model *m,
				       uint64_t now_ns);

#endif /* LAT_PROM_SNAP_H */
