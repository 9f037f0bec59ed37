/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * spans.h - segments you define: span specifications (from -u and --spans FILE) and the BPF
 * objects that time them (bpf/spans.bpf.c, and bpf/spanfn.bpf.c per fentry/fexit probe).
 *
 * A span has a start probe and an end probe paired by a key (thread, process, a tracepoint
 * field or a function argument). Parsing reads the spans file and, for generic tracepoints,
 * their tracefs format files (mounting tracefs if nothing has); spans__new loads one BPF
 * object for all spans plus one copy per fentry/fexit probe, all sharing the collector's ring
 * buffer and one pending table, attaches every probe, and starts the pending-table sweeper
 * (spanage.h).
 *
 * Thread use: UI/main thread only (the sweeper is spanage's own thread).
 */
#ifndef LAT_SPANS_H
#define LAT_SPANS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/progagg.h"
#include "lattop.h"

struct collector;
struct spans;

/* Probe kinds a spans file may name (kprobes only where the kernel has them). */
enum span_probe_kind {
	SPK_UPROBE = 0,
	SPK_URETPROBE,
	SPK_TRACEPOINT,
	SPK_TP_BTF,
	SPK_FENTRY,
	SPK_FEXIT,
	SPK_KPROBE,
	SPK_KRETPROBE,
};

/* One probe of a span. */
struct span_probe_spec {
	enum span_probe_kind kind;
	char path[256];  /* uprobes: the binary or library (as given) */
	char func[128];  /* functions: the function; tracepoints: "category:name" */
	int pid;         /* uprobes: only this process (-u PID:func), -1 = any */
	uint32_t keysel; /* enum lat_span_keysel */
	uint32_t field;  /* LAT_KEY_FIELD: field number of tp, or argument (LAT_FIELD_RET) */
	uint32_t tp;     /* enum lat_span_tp (LAT_TP_NONE but for tp_btf) */
	/* LAT_KEY_FIELD on a generic tracepoint: the key field, from its format file. */
	uint16_t fld_off;
	uint8_t fld_size, fld_signed;
};

/* One span. */
struct span_spec {
	char name[64];
	char kind[16]; /* shown in the KIND column: "uprobe", "tp_btf", "tracepoint", ... */
	struct span_probe_spec start, end;
	uint32_t nest;          /* a stack of starts per key (function entry/return) */
	uint64_t timeout_ns;    /* a start pending longer is dropped, counted as evicted */
	uint32_t timeout_given; /* the spans file set it (--span-timeout leaves it alone) */
	uint32_t filter_pid;    /* 0 = any */
	uint32_t no_split;      /* the spans file said "split": false */
	char filter_comm[16];
	/* Breakdown by key (--by, "breakdown"): enum lat_span_by, the argument of LAT_BY_ARG,
	 * and the groups it keeps (the rest go to "other"). */
	uint8_t by, by_field, groups;
	/* Conditions on arguments and the return value (--where, "filter"). */
	uint8_t nfilt;
	struct lat_span_filt filt[LAT_SPAN_FILTERS];
};

/* Default groups of a breakdown that names none. */
#define SPAN_GROUPS_DEFAULT 8

/* Parse a -u argument ("/path/bin:func", "lib.so:func" or "PID:func") into sp, named after the
 * function (S0, S1, S2 and total, the vhost chain's rows, are refused). Checks the file
 * exists; the symbol is checked at attach. Returns 0 or -EINVAL/-ENOENT with one sentence. */
int spans__parse_func(struct span_spec *sp, const char *arg, char *err, size_t errlen);
/* Parse a breakdown key "pid", "comm", "cgroup", "argN" (N 0..4) or "ret", with ":K" (the
 * groups, 1..LAT_SPAN_GROUPS) when colon_groups, into sp (what names it: "--by", or a file's
 * span). Returns 0 or -EINVAL with one sentence. */
int spans__parse_by(struct span_spec *sp, const char *v, bool colon_groups, const char *what,
		    char *err, size_t errlen);
/* Parse one condition "FIELD OP NUMBER" (FIELD argN or ret; OP <, <=, >, >=, == or !=;
 * spaces optional) into sp's filter; field: the field when given apart (a file's key), or
 * NULL. Returns 0 or -EINVAL with one sentence. */
int spans__parse_cond(struct span_spec *sp, const char *field, const char *v, const char *what,
		      char *err, size_t errlen);
/* Check a span's breakdown and conditions against its probes: arguments need a function start
 * (uprobe, kprobe, fentry), ret a function end (uretprobe, kretprobe, fexit). Returns 0 or
 * -EINVAL with one sentence. */
int spans__check_by(const struct span_spec *sp, char *err, size_t errlen);
/* The label of a breakdown group: by's value (v from the kernel's span_gval) in words, e.g.
 * "pid 1234", "comm sshd", "arg1=4096", "ret=-2", "cgroup 42" (raw bytes of a task name are
 * left to the views to escape). */
void spans__group_label(uint8_t by, uint8_t by_field, const uint64_t v[2], char *buf,
			size_t len);

/* Check that the n spans' names are unique (-u spans and every file's together). Returns 0,
 * or -EINVAL with one sentence naming the name. */
int spans__check_names(const struct span_spec *sp, int n, char *err, size_t errlen);
/* A spans file's whole text, NUL-terminated (at most 1 MiB), to free(); NULL with errno (EFBIG
 * when larger). */
char *spans__read_file(const char *path);

/* Parse a spans file into out[*n...max). Generic tracepoints are checked against tracefs
 * (mounted when nothing is) and their key field located there. Returns 0, or
 * -EINVAL/-ENOENT/-ENOTSUP with one sentence naming the file and the key (or the span and the
 * probe), or -EFBIG for a file over 1 MiB. Numbers are range-checked (base/jnum.h). */
int spans__parse_file(const char *path, struct span_spec *out, int max, int *n, char *err,
		      size_t errlen);

/* Load and attach every span; NULL + errno with one sentence in err. errno ENOENT means the
 * user's to fix (exit status 2): a missing file, symbol or kernel function, an argument the
 * function lacks, or a kernel that cannot load fentry/fexit programs for the span that asks.
 * agg: aggregate each span's samples in the kernel (per span and CPU, spans__agg_bytes of
 * kernel memory; read by spans__harvest); false: one ring-buffer event per sample, for
 * consumers of every sample (--raw recordings). */
struct spans *spans__new(struct collector *c, const struct span_spec *sp, int n, bool agg,
			 char *err, size_t errlen);
/* Bytes the in-kernel aggregates of the n spans sp take (whole pages), for the session's
 * budget: per span and CPU one record, four when a span is split (its parts), plus groups + 1
 * per span broken down. */
size_t spans__agg_bytes(const struct span_spec *sp, int n);
/* The group slots' value of span i's group g (g < its groups): 0 with v, -ENOENT when the
 * kernel has not taken that slot yet. */
int spans__group_value(const struct spans *s, int i, uint32_t g, uint64_t v[2]);
/* Whether span sp's samples are split into on-CPU, runnable and sleeping time: its start and
 * end are keyed by thread, or by process on a slot span (not nested), so both run in the task
 * whose time is measured. A span keyed by a field (a request completed in an interrupt) is not
 * split, nor one whose spans file says "split": false. (A process-keyed span's end in another
 * thread than its start has no split.) */
bool spans__split(const struct span_spec *sp);
/* Bytes the aggregates of s take now (0 when its samples go through the ring buffer). */
size_t spans__agg_mem(const struct spans *s);
/* Hand what each span's aggregates gained since the last harvest to sink, as (LAT_EV_SEG,
 * span index, 0, 0); force: look at every CPU (the last harvest). A no-op on the ring path. */
void spans__harvest(struct spans *s, bool force, progagg_sink sink, void *arg);
/* Detach and free (NULL is a no-op). */
void spans__free(struct spans *s);
/* Default span timeout: a start whose end has not come in 10 s is dropped from the pending
 * table (counted as evicted) rather than holding its key for ever. */
#define SPAN_TIMEOUT_NS 10000000000ull

/* Loss counters of span i since start (evicted includes starts dropped by the timeout). */
void spans__loss(const struct spans *s, int i, struct lat_span_loss *out);

#endif /* LAT_SPANS_H */
