/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * spans.h - segments you define: span specifications (from -u and --spans FILE) and the BPF
 * object that times them (bpf/spans.bpf.c).
 *
 * A span has a start probe and an end probe paired by a key (thread, process, or a tracepoint
 * field). Parsing has no side effects beyond reading the spans file; spans__new loads one BPF
 * object for all spans, sharing the collector's ring buffer, and attaches every probe.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SPANS_H
#define LAT_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "lattop.h"

struct collector;
struct spans;

/* Probe kinds a spans file may name (only some are offered; see spans__parse_file). */
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
	char func[128];  /* uprobes: the function; tracepoints: "category:name" */
	int pid;         /* uprobes: only this process (-u PID:func), -1 = any */
	uint32_t keysel; /* enum lat_span_keysel */
	uint32_t field;  /* LAT_KEY_FIELD: field number of tp */
	uint32_t tp;     /* enum lat_span_tp (LAT_TP_NONE for uprobes) */
};

/* One span. */
struct span_spec {
	char name[64];
	char kind[16]; /* shown in the KIND column: "uprobe", "tp_btf", "tracepoint", ... */
	struct span_probe_spec start, end;
	uint32_t nest;       /* a stack of starts per key (function entry/return) */
	uint32_t filter_pid; /* 0 = any */
	char filter_comm[16];
};

/* Parse a -u argument ("/path/bin:func", "lib.so:func" or "PID:func") into sp. Checks the file
 * exists; the symbol is checked at attach. Returns 0 or -EINVAL/-ENOENT with one sentence. */
int spans__parse_func(struct span_spec *sp, const char *arg, char *err, size_t errlen);
/* Parse a spans file into out[*n...max). Returns 0, or -EINVAL/-ENOENT with one sentence naming
 * the file and the key (or the span and the probe). */
int spans__parse_file(const char *path, struct span_spec *out, int max, int *n, char *err,
		      size_t errlen);

/* Load and attach every span; NULL + errno with one sentence in err (-ENOENT: a missing file or
 * symbol, the user's to fix). */
struct spans *spans__new(struct collector *c, const struct span_spec *sp, int n, char *err,
			 size_t errlen);
/* Detach and free (NULL is a no-op). */
void spans__free(struct spans *s);
/* Loss counters of span i since start. */
void spans__loss(const struct spans *s, int i, struct lat_span_loss *out);

#endif /* LAT_SPANS_H */
