/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * lattop.h - the one definition of every record that crosses the kernel/user boundary.
 *
 * Included by bpf/ (with vmlinux.h already included) and by src/ (with <linux/types.h>).
 * Fixed-width types only, explicit padding, no pointers; each record's size is asserted.
 */
#ifndef LATTOP_H
#define LATTOP_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Highest CPU count the per-CPU arrays in BPF globals are sized for (power of two). */
#define LAT_MAX_CPUS 256
#define LAT_CPU_MASK (LAT_MAX_CPUS - 1)

/* Ring buffer size: 4 MiB holds ~87k events, over 80 ms of a 1 M/s stream. */
#define LAT_RINGBUF_BYTES (4u << 20)

/* Depth of the per-CPU stack of program entries (nesting: task, softirq, hardirq, NMI). */
#define LAT_NEST_MAX 8

/* What an event measures. */
enum lat_kind {
	LAT_EV_PROG = 1,   /* one invocation of a BPF program: id = prog id */
	LAT_EV_HELPER = 2, /* one helper call inside a program: id = prog id, aux = helper, aux2 = map id */
	LAT_EV_SEG = 3,    /* one segment/span sample: id = segment or span index */
	LAT_EV_BENCH = 4,  /* benchmark producer record: id = sequence */
};

/* lat_event.flags */
#define LAT_EVF_SELF 0x1 /* timed by the program itself (demo), not by a probe */

/* Per-CPU stack of programs running on that CPU (one entry of the lat_nest array map, indexed
 * by CPU). fentry pushes, fexit pops; helper probes read the top to attribute calls. */
struct lat_nest {
	__u32 depth;    /* entries pushed; may exceed LAT_NEST_MAX (then not stored) */
	__u32 pad;
	__u32 ids[LAT_NEST_MAX];
	__u64 start_ns[LAT_NEST_MAX];
	__u64 overflow; /* pushes beyond LAT_NEST_MAX */
	__u64 mismatch; /* pops whose top was another program (a missed entry or exit) */
	__u64 underflow; /* pops on an empty stack */
};

_Static_assert(sizeof(struct lat_nest) == 8 + 4 * LAT_NEST_MAX + 8 * LAT_NEST_MAX + 24,
	       "lat_nest layout changed");

/* Per-CPU helper-call slots, one per program nesting depth (an entry of the lat_hnest array
 * map, indexed by CPU): the map-operation probe's entry stores its start, its exit emits. */
struct lat_hnest {
	__u64 start_ns[LAT_NEST_MAX]; /* 0 = no call in flight at that depth */
	__u32 func[LAT_NEST_MAX];     /* which traced function owns the slot */
	__u64 busy;                   /* calls skipped: a traced call inside a traced call */
	__u64 outside;                /* calls seen outside any watched program */
};

_Static_assert(sizeof(struct lat_hnest) == 8 * LAT_NEST_MAX + 4 * LAT_NEST_MAX + 16,
	       "lat_hnest layout changed");

/* One latency sample (48 bytes). */
struct lat_event {
	__u16 kind;     /* enum lat_kind */
	__u16 flags;    /* kind-specific */
	__u32 cpu;      /* CPU the sample was taken on */
	__u32 id;       /* prog id, segment id, ... */
	__u32 aux;      /* helper id (BPF_FUNC_*) for LAT_EV_HELPER */
	__u32 aux2;     /* map id for LAT_EV_HELPER */
	__u32 pid;      /* tgid */
	__u32 tid;      /* kernel pid */
	__u32 pad;
	__u64 start_ns; /* bpf_ktime_get_ns() at start */
	__u64 dur_ns;   /* end - start */
};

_Static_assert(sizeof(struct lat_event) == 48, "lat_event layout changed");

/* Ring buffer reserve failures per CPU (the single value of the lat_drops array map). */
struct lat_drops {
	__u64 rb[LAT_MAX_CPUS];
};

_Static_assert(sizeof(struct lat_drops) == 8 * LAT_MAX_CPUS, "lat_drops layout changed");

/* One record of the progrefs iterator: a program and its reference count. */
struct lat_prog_ref {
	__u32 id;
	__u32 pad;
	__s64 refcnt;
};

_Static_assert(sizeof(struct lat_prog_ref) == 16, "lat_prog_ref layout changed");

/* Spans (segments you define): a start probe and an end probe paired by a key. */
#define LAT_SPAN_MAX 32     /* spans per session */
#define LAT_SPAN_PROBES 64  /* probe attachments per session (start + end per span, -u: 2) */
#define LAT_SPAN_DEPTH 16   /* pending starts per key (recursion depth of a -u function) */
/* Pending table entries: 16k keys (threads or requests in flight) x 136 bytes = ~2.2 MiB. */
#define LAT_SPAN_PENDING 16384

/* How a probe finds its correlation key. */
enum lat_span_keysel {
	LAT_KEY_TID = 0,   /* the current thread */
	LAT_KEY_PID = 1,   /* the current process (tgid) */
	LAT_KEY_FIELD = 2, /* a tracepoint field, or a function's argument (lat_span_probe.field) */
};

/* Tracepoints the spans object carries a BTF (tp_btf) program for. */
enum lat_span_tp {
	LAT_TP_NONE = 0,          /* any other probe: the link cookie (or rodata) names the probe */
	LAT_TP_SCHED_WAKEUP,      /* fields: 0 = pid (p->pid) */
	LAT_TP_SCHED_WAKEUP_NEW,  /* fields: 0 = pid (p->pid) */
	LAT_TP_SCHED_SWITCH,      /* fields: 0 = next_pid, 1 = prev_pid */
	LAT_TP_BLOCK_RQ_ISSUE,    /* fields: 0 = rq (request pointer), 1 = sector ^ dev << 40 */
	LAT_TP_BLOCK_RQ_COMPLETE, /* fields: 0 = rq, 1 = sector ^ dev << 40 */
	LAT_TP__COUNT,            /* this and up: the session's generic tracepoints, numbered */
};

/* Function key fields (uprobes, kprobes, fentry/fexit): 0..4 = the function's first five
 * arguments, LAT_FIELD_RET = the return value (uretprobe, kretprobe, fexit). */
#define LAT_FIELD_RET 6

/* One probe of a span (rodata, indexed by attachment). */
struct lat_span_probe {
	__u32 span;   /* span index */
	__u32 end;    /* 0 = start probe, 1 = end probe */
	__u32 keysel; /* enum lat_span_keysel */
	__u32 field;  /* LAT_KEY_FIELD: tp_btf field number (enum lat_span_tp) or argument */
	__u32 tp;     /* enum lat_span_tp */
	/* LAT_KEY_FIELD on a generic tracepoint: where the key lies in the tracepoint's record,
	 * as its tracefs format file says (fld_size 0 for every other probe). */
	__u16 fld_off;
	__u8 fld_size;   /* 1, 2, 4 or 8 bytes */
	__u8 fld_signed; /* 1: sign-extend */
};

_Static_assert(sizeof(struct lat_span_probe) == 24, "lat_span_probe layout changed");

/* One span's settings (rodata). */
struct lat_span_conf {
	__u32 nest;    /* 1: a stack of starts per key (function entry/return); 0: one slot */
	__u32 pid;     /* filter: only starts hit by this process (tgid), 0 = any */
	char comm[16]; /* filter: only starts hit by a task of this name, "" = any */
};

_Static_assert(sizeof(struct lat_span_conf) == 24, "lat_span_conf layout changed");

/* One span's loss counters (an entry of the span_loss array map, shared by every spans
 * object; atomic adds, read by user space). */
struct lat_span_loss {
	__u64 unmatched; /* ends with no pending start */
	__u64 evicted;   /* starts not stored: the pending table was full */
	__u64 collided;  /* slot spans: a start replaced a pending start of the same key */
	__u64 overflow;  /* nested spans: starts beyond LAT_SPAN_DEPTH on one key */
};

_Static_assert(sizeof(struct lat_span_loss) == 32, "lat_span_loss layout changed");

/* Pending-table key and value. */
struct lat_span_key {
	__u32 span;
	__u32 pad;
	__u64 key;
};

struct lat_span_pending {
	__u32 depth; /* starts pushed; may exceed LAT_SPAN_DEPTH (then not stored) */
	__u32 pad;
	__u64 start_ns[LAT_SPAN_DEPTH];
};

_Static_assert(sizeof(struct lat_span_pending) == 8 + 8 * LAT_SPAN_DEPTH,
	       "lat_span_pending layout changed");

/* Demo program tuning, shared with the demo loader: how many work items per run at most. */
#define LAT_DEMO_MAX_WORK 64

#endif /* LATTOP_H */
