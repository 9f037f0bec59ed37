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

#include "hist_bucket.h" /* LAT_HIST_NBUCKETS: struct lat_agg holds one histogram */

/* Every per-CPU structure (lat_agg records, the lat_nest/lat_hnest CPU entries, lat_drops, the
 * vhost chain's vcpu) is an array map that user space sizes from the machine's possible CPUs
 * before load, and every BPF index into one is the CPU id itself, bounds-checked by the map's
 * lookup: no CPU shares another's slot whatever its id. LAT_CPUS_LIMIT is only the most
 * lattop agrees to size for: NR_CPUS of x86's MAXSMP (Debian's amd64 kernels), the largest any
 * Debian kernel is built with; past it lattop refuses to start (collector__new). */
#define LAT_CPUS_LIMIT 8192

/* Ring buffer size: 4 MiB holds ~87k events, over 80 ms of a 1 M/s stream. */
#define LAT_RINGBUF_BYTES (4u << 20)

/* Depth of the per-CPU stack of program entries (nesting: task, softirq, hardirq, NMI), and of
 * a task slot's (programs nested in one task's context). */
#define LAT_NEST_MAX 8

/* Task slots (bpf/nest.bpf.h): where a task keeps the starts of the watched programs it runs in
 * task context, so that tasks preempting each other on one CPU never share a stack. They are
 * the first LAT_TASK_SLOTS entries of the lat_nest and lat_hnest arrays, and CPU c's entry is
 * LAT_NEST_CPU0 + c after them (user space sizes both arrays to LAT_TASK_SLOTS + the possible
 * CPUs); a task's slot is found from a hash of its task_struct's address, trying
 * LAT_TASK_PROBES slots from there. */
#define LAT_TASK_SLOTS 1024
#define LAT_TASK_PROBES 4
#define LAT_NEST_CPU0 LAT_TASK_SLOTS
#define LAT_NEST_ENTRIES(ncpu) (LAT_TASK_SLOTS + (ncpu))
/* A task slot's owner word: the task_struct's address (64-byte aligned) | the slot's depth. */
#define LAT_TASK_DEPTH_MASK 0xfull

/* What an event measures. */
enum lat_kind {
	LAT_EV_PROG = 1,   /* one invocation of a BPF program: id = prog id */
	LAT_EV_HELPER = 2, /* one helper call inside a program: id = prog id, aux = helper, aux2 = map id */
	LAT_EV_SEG = 3,    /* one segment/span sample: id = segment or span index */
	LAT_EV_BENCH = 4,  /* benchmark producer record: id = sequence */
	/* Never in an event: the model's share of one program's runs taken on one CPU (a
	 * program split by CPU: --per-cpu, the TUI's C key): id = prog id, aux = cpu. */
	LAT_EV_PROG_CPU = 5,
	/* A split span's part (enum lat_span_part, not the wall time): id = span index, aux =
	 * the part. */
	LAT_EV_SPAN_PART = 6,
	/* Never in an event: one group of a span broken down by key (--by, "breakdown"): id =
	 * span index, aux = the group's slot (0 .. groups - 1, groups = "other"). */
	LAT_EV_SPAN_GRP = 7,
};

/* lat_event.flags */
#define LAT_EVF_SELF 0x1 /* timed by the program itself (demo), not by a probe */

/* The interrupt-context bits of the kernel's preempt_count (include/linux/preempt.h): NMI
 * (0x00f00000), hardirq (0x000f0000) and SOFTIRQ_OFFSET (0x100, set only while serving
 * softirqs). Not the rest of SOFTIRQ_MASK: local_bh_disable() adds 2 * SOFTIRQ_OFFSET, so the
 * bh-disable depth lives in bits 9-15 and may change inside one program without any other
 * program running (a helper disabling bh); nor the preemption depth (0xff), which the map
 * functions themselves change. Two code paths with different values of these bits are
 * different contexts: one interrupted the other. */
#define LAT_CTX_NMI_MASK 0x00f00000u
#define LAT_CTX_HARDIRQ_MASK 0x000f0000u
#define LAT_CTX_SOFTIRQ_OFFSET 0x00000100u
#define LAT_CTX_MASK (LAT_CTX_NMI_MASK | LAT_CTX_HARDIRQ_MASK | LAT_CTX_SOFTIRQ_OFFSET)
/* What entering an NMI adds (NMI_OFFSET + HARDIRQ_OFFSET): also what an int3 kprobe sees. */
#define LAT_CTX_INT3 0x00110000u

/* Longest run a program or map call is believed to take: an entry older than this when a probe
 * looks at it is stale (its exit never came) and is reclaimed, never paired into a sample. A
 * BPF program runs under RCU and, outside PREEMPT_RT, without preemption; a run of 10 s would
 * already have stalled RCU (Debian: 21 s stall warnings), so only a program preempted for that
 * long on PREEMPT_RT, or a sleepable one, loses a real sample to it (counted as stale). */
#define LAT_RUN_MAX_NS (10ull * 1000000000ull)

/* A task's kernel stack is THREAD_SIZE bytes aligned to THREAD_SIZE (x86-64: 16 KiB, 32 KiB with
 * KASAN; vmalloc'ed with that alignment under VMAP_STACK, whole pages of that order otherwise),
 * so in task context a frame's address shifted right by log2(THREAD_SIZE) names the stack, and
 * with it the thread, without asking the kernel (a helper call). The probes take the shift from
 * their rodata (lat_stack_shift): this, or 15 where the kernel has KASAN. A shift below the
 * kernel's only splits one stack in two (a stale rule or an attribution missed, counted), never
 * joins two. */
#define LAT_STACK_SHIFT 14

/* Per-CPU stack of programs running on that CPU (one entry of the lat_nest array map, indexed
 * by CPU). fentry pushes, fexit pops its own entry (found by program ID and the probe's frame,
 * the trampoline's argument area, the same address for one call's fentry and fexit);
 * helper probes read the top to attribute calls, and only when they run in the interrupt
 * context the top program entered in (ctx). An entry whose exit never came (a probe attached
 * or detached mid-call, a recursion miss) is reclaimed as stale by the next probe that can
 * tell: see bpf/progtrace.bpf.c. */
struct lat_nest {
	__u32 depth;    /* entries on the stack, at most LAT_NEST_MAX */
	__u32 pad;
	__u32 ids[LAT_NEST_MAX];
	__u32 ctx[LAT_NEST_MAX]; /* preempt_count & LAT_CTX_MASK at entry (0 where unreadable) */
	__u64 tag[LAT_NEST_MAX]; /* the entry probe's frame: its exit's ctx pointer is the same;
				  * in task context it also names the thread (LAT_STACK_SHIFT) */
	__u64 start_ns[LAT_NEST_MAX];
	__u64 overflow; /* pushes on a full stack (not stored; their exits find nothing) */
	__u64 stale;    /* entries reclaimed: their exit never came (loss counter prog_stale) */
	__u64 unpaired; /* exits that found no entry of theirs: the entry probe was not attached
			 * yet (attach/detach), overflowed, or missed (counted as recursion) */
	__u64 owner;    /* task slots: the owner word (LAT_TASK_DEPTH_MASK); CPUs: unused */
	__u64 popped;   /* with probe copies: the frame the last exit popped here */
	__u64 pad2[2];  /* to whole cache lines: no two CPUs' stacks share one (below) */
};

/* Whole 64-byte cache lines, in a page-aligned (BPF_F_MMAPABLE) array: every CPU writes its own
 * lines only (a plain array's values start 16 bytes past a line). Same for lat_hnest. */
_Static_assert(sizeof(struct lat_nest) == 8 + 8 * LAT_NEST_MAX + 16 * LAT_NEST_MAX + 24 + 32 &&
		       sizeof(struct lat_nest) % 64 == 0,
	       "lat_nest layout changed");

/* Per-CPU helper-call slots, one per program nesting depth (an entry of the lat_hnest array
 * map, indexed by CPU): the map-operation probe's entry stores its start, its exit emits. A
 * slot lives no longer than the program entry at its depth: the program probes reclaim a slot
 * still in flight when that entry is pushed or popped (stale: the call's exit never came). */
struct lat_hnest {
	__u64 start_ns[LAT_NEST_MAX]; /* 0 = no call in flight at that depth */
	__u32 func[LAT_NEST_MAX];     /* which traced function owns the slot */
	__u32 map_id[LAT_NEST_MAX];   /* the call's map, read at entry (a kretprobe has no args) */
	__u64 busy;                   /* calls skipped: a traced call inside a traced call */
	__u64 outside;                /* calls seen outside any watched program */
	__u64 foreign;                /* calls from another interrupt context than the top
				       * program's (a program interrupting it): not attributed */
	__u64 stale;                  /* slots reclaimed by the program probes (helper_stale) */
	__u64 frame[LAT_NEST_MAX];    /* the fentry probe's frame: its fexit's ctx is the same */
	__u64 lost;                   /* with probe copies: a task's own calls whose exit found
				       * no slot taken (both entry copies missed) */
	__u64 pad[3];                 /* to whole cache lines (see lat_nest) */
};

_Static_assert(sizeof(struct lat_hnest) == 8 * LAT_NEST_MAX + 8 * LAT_NEST_MAX + 64 +
						 8 * LAT_NEST_MAX &&
		       sizeof(struct lat_hnest) % 64 == 0,
	       "lat_hnest layout changed");

/* One watched program's in-kernel aggregate on one CPU: an entry of its copy's lat_agg array
 * map (BPF_F_MMAPABLE, one entry per possible CPU, indexed by CPU). Only that CPU's probes add
 * to it, with atomic adds (a program nested on the same CPU, between a load and a store of the
 * interrupted exit, cannot lose an increment); max and min_inv rise by compare-and-swap (or,
 * on kernels without it, see agg.bpf.h). The
 * collector reads it through mmap once per interval and takes what it harvests out with an
 * atomic exchange (buckets, sum, max, min_inv), so nothing is counted twice or lost; count only
 * grows (a cheap "anything new on this CPU?" test). A bucket holds at most 2^32 - 1 runs of one
 * CPU between two harvests (4.3 G: ~43 s at 100 M runs/s on one CPU). 9,024 bytes, a multiple
 * of the 64-byte cache line: entries in the page-aligned mmapable array never share a line. */
struct lat_agg {
	__u64 count;   /* runs aggregated so far (never reset) */
	__u64 sum;     /* sum of durations since the last harvest */
	__u64 max;     /* largest duration since the last harvest (0: none) */
	__u64 min_inv; /* ~smallest duration since the last harvest (0: none) */
	__u32 buckets[LAT_HIST_NBUCKETS]; /* hist_bucket.h layout, since the last harvest */
	/* Objects built for kernels without compare-and-swap (LAT_COMPAT, agg.bpf.h): how many
	 * max/min updates are in progress on this CPU, and the max and ~min of runs whose update
	 * began inside another's (taken out by the harvest like max and min_inv; 0 elsewhere). */
	__u32 nest;
	__u32 pad0;
	__u64 max_n;
	__u64 min_inv_n;
	__u8 pad[8];
};

_Static_assert(sizeof(struct lat_agg) == 9024 && sizeof(struct lat_agg) % 64 == 0,
	       "lat_agg layout changed");

/* Memory the in-kernel aggregates of one session may take, all watched programs together:
 * 64 MiB, i.e. 9,024 B x CPUs per program: 256 programs up to 29 CPUs, 116 programs at 64.
 * A program past it is measured through the ring buffer instead (counted: agg_over_budget). */
#define LAT_AGG_BUDGET (64ull << 20)

/* Helper sites one helper probe copy (one kernel function) aggregates in the kernel: (program,
 * map) pairs, looked up by a bounded linear search in its rodata; a call of any other pair is
 * sent as an event. */
#define LAT_HAGG_SITES 32

struct lat_hagg_site {
	__u32 prog_id;
	__u32 map_id;
};

_Static_assert(sizeof(struct lat_hagg_site) == 8, "lat_hagg_site layout changed");

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

/* One CPU's entry of the lat_drops array map (one per possible CPU, key = CPU id): the ring
 * buffer reserve failures on that CPU, and its records since the last forced wake-up
 * (bpf/emit.bpf.h). A whole cache line: no two CPUs write one. */
struct lat_drops {
	__u64 rb;           /* reserve failures: BPF adds atomically, the collector sums */
	__u32 since_wakeup; /* records submitted without a wake-up */
	__u32 pad;
	__u64 pad2[6];
};

_Static_assert(sizeof(struct lat_drops) == 64, "lat_drops layout changed");

/* One record of the progrefs iterator: a program and its reference count. */
struct lat_prog_ref {
	__u32 id;
	__u32 pad;
	__s64 refcnt;
};

_Static_assert(sizeof(struct lat_prog_ref) == 16, "lat_prog_ref layout changed");

/* One record of the owners iterator (owners.bpf.c): a thread-group leader holding a program fd
 * or a link fd of program prog_id. */
struct lat_owner_rec {
	__u32 tgid;
	__u32 prog_id;
	char comm[16];
	__u32 fd;   /* the file's descriptor in tgid */
	__u32 perf; /* 1: a perf event running the program (kprobe, uprobe, tracepoint) */
};

_Static_assert(sizeof(struct lat_owner_rec) == 32, "lat_owner_rec layout changed");

/* Spans (segments you define): a start probe and an end probe paired by a key. */
#define LAT_SPAN_MAX 32     /* spans per session */
#define LAT_SPAN_PROBES 64  /* probe attachments per session (start + end per span, -u: 2) */
#define LAT_SPAN_DEPTH 16   /* pending starts per key (recursion depth of a -u function) */
/* Pending table entries: 16k keys (threads or requests in flight) x 408 bytes = ~6.5 MiB. */
#define LAT_SPAN_PENDING 16384

/* Breakdown by key: groups (slots) one span may have, first come first served; samples of a
 * value past them go to the span's "other" slot, counted as folded. Each slot costs one
 * struct lat_agg per CPU. */
#define LAT_SPAN_GROUPS 32
/* Argument / return-value conditions per span (all must hold). */
#define LAT_SPAN_FILTERS 4

/* What a span is broken down by (lat_span_conf.by). */
enum lat_span_by {
	LAT_BY_NONE = 0,
	LAT_BY_PID = 1,    /* the starting task's process (tgid) */
	LAT_BY_COMM = 2,   /* the starting task's name */
	LAT_BY_CGROUP = 3, /* the starting task's cgroup (v2 id) */
	LAT_BY_ARG = 4,    /* a function argument at the start (by_field) */
	LAT_BY_RET = 5,    /* the return value at the end */
};

/* Comparison of a filter (lat_span_filt.op), signed 64-bit. */
enum lat_span_op { LAT_OP_LT = 0, LAT_OP_LE, LAT_OP_GT, LAT_OP_GE, LAT_OP_EQ, LAT_OP_NE };

/* One condition: field (0..4 an argument, tested at the start; LAT_FIELD_RET the return
 * value, tested at the end) op val. */
struct lat_span_filt {
	__u8 field;
	__u8 op;
	__u8 pad[6];
	__s64 val;
};

_Static_assert(sizeof(struct lat_span_filt) == 16, "lat_span_filt layout changed");

/* A group's value (an entry of the span_gval array, one per group slot): a number in val[0],
 * or a task name in val's 16 bytes. */
struct lat_span_gval {
	__u64 val[2];
};

/* Key of the span_grp hash: (span, value) -> group slot. */
struct lat_span_gkey {
	__u32 span;
	__u32 pad;
	__u64 val[2];
};

_Static_assert(sizeof(struct lat_span_gkey) == 24, "lat_span_gkey layout changed");

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
	/* Breakdown by key (enum lat_span_by; by_field: the argument of LAT_BY_ARG): groups
	 * slots from lat_agg slot grp_base on, then one "other" slot. */
	__u8 by;
	__u8 by_field;
	__u8 nfilt; /* conditions in filt */
	__u8 groups;
	__u32 grp_base;
	struct lat_span_filt filt[LAT_SPAN_FILTERS];
	/* 1: split each sample into on-CPU, runnable and sleeping time (the start and the end run
	 * in the task the key names: keyed by thread, or by process on one thread); 0: wall only */
	__u32 split;
	__u32 pad;
};

_Static_assert(sizeof(struct lat_span_conf) == 40 + 16 * LAT_SPAN_FILTERS,
	       "lat_span_conf layout changed");

/* The parts of a split span's sample: its wall time, and the wall time's on-CPU, runnable
 * (waiting for a CPU) and sleeping (blocked: the rest) shares. A part p > 0 of span i is the
 * series (LAT_EV_SPAN_PART, i, p); in lat_agg its records follow the wall times', slot
 * i + p * (the number of spans). */
enum lat_span_part {
	LAT_PART_WALL = 0,
	LAT_PART_ONCPU = 1,
	LAT_PART_RUNQ = 2,
	LAT_PART_SLEEP = 3,
	LAT_PART__COUNT,
};

/* What a task with a split span open was doing since last_ns (struct lat_task_clock.state). */
enum lat_task_state {
	LAT_TS_RUNNING = 0,  /* on a CPU */
	LAT_TS_RUNNABLE = 1, /* preempted or woken, waiting for a CPU */
	LAT_TS_SLEEPING = 2, /* blocked */
};

/* A task's clock (task storage, made by the first split span that starts in the task; kept
 * by the sched_switch and sched_wakeup programs while open > 0): on-CPU and runnable time so
 * far, and since when it is in state. */
struct lat_task_clock {
	__u64 on_ns, rq_ns, last_ns;
	__u32 state; /* enum lat_task_state */
	__u32 open;  /* split spans open in the task */
};

/* A split span's start: the task's clock then. */
struct lat_span_snap {
	__u64 on_ns, rq_ns;
};

/* One span's loss counters (an entry of the span_loss array map, shared by every spans
 * object; atomic adds, read by user space). */
struct lat_span_loss {
	__u64 unmatched; /* ends with no pending start */
	__u64 evicted;   /* starts not stored: the pending table was full */
	__u64 collided;  /* slot spans: a start replaced a pending start of the same key */
	__u64 overflow;  /* nested spans: starts beyond LAT_SPAN_DEPTH on one key */
	__u64 filtered;  /* calls the argument / return-value filter dropped */
	__u64 folded;    /* breakdown: samples of values past the group slots ("other") */
	__u64 groups;    /* breakdown: slots asked for (min(groups, conf.groups) are taken) */
	__u64 pad;
};

_Static_assert(sizeof(struct lat_span_loss) == 64, "lat_span_loss layout changed");

/* Pending-table key and value. */
struct lat_span_key {
	__u32 span;
	__u32 pad;
	__u64 key;
};

struct lat_span_pending {
	__u32 depth; /* starts pushed; may exceed LAT_SPAN_DEPTH (then not stored) */
	__u32 tid;   /* split spans: the thread of the latest start */
	__u64 start_ns[LAT_SPAN_DEPTH];
	struct lat_span_snap snap[LAT_SPAN_DEPTH]; /* split spans: each start's task clock */
	/* Breakdown: each start's group slot (LAT_GRP_* below the span's groups) */
	__u8 grp[LAT_SPAN_DEPTH];
};

/* lat_span_pending.grp values past any slot: no group (no breakdown, or decided at the end by
 * the return value) and a call the filter dropped at its start. */
#define LAT_GRP_LATER 0xfe
#define LAT_GRP_DROP 0xff

_Static_assert(sizeof(struct lat_span_pending) == 8 + 25 * LAT_SPAN_DEPTH,
	       "lat_span_pending layout changed");

/* Segments of the KVM -> vhost-net -> TUN transmit path (bpf/vhost.bpf.c): LAT_EV_SEG events
 * with id LAT_SEG_VHOST + enum lat_vhost_seg (span ids stay below LAT_SPAN_MAX), aux = the
 * kick eventfd's index in the profile (its queue), aux2 = the packet's sequence number, the
 * same in the four samples of one packet. */
#define LAT_SEG_VHOST 1000
enum lat_vhost_seg {
	LAT_VSEG_S0 = 0,    /* kick (ioeventfd_write / eventfd_write) -> handle_tx_kick */
	LAT_VSEG_S1 = 1,    /* handle_tx_kick -> first tun_sendmsg of the run */
	LAT_VSEG_S2 = 2,    /* tun_sendmsg -> netif_receive_skb of this packet */
	LAT_VSEG_TOTAL = 3, /* S0 + S1 + S2 */
	LAT_VSEG__COUNT,
};

/* Largest FIFOs (the design's sizes); --fifo-slots may shrink both (rodata) to test overflow. */
#define LAT_VHOST_S0_SLOTS 1024 /* pending kick times per eventfd */
#define LAT_VHOST_S2_SLOTS 2048 /* pending tun_sendmsg times per worker thread */
#define LAT_VHOST_MAX_CTX 16    /* profile eventfds filtered on */
#define LAT_VHOST_MAX_TID 16    /* profile worker threads filtered on */
#define LAT_VHOST_BATCH 64      /* most packets one tun_sendmsg carries (VHOST_NET_BATCH) */

/* The target flow: zero fields match anything. Addresses and ports in network byte order. */
struct lat_flow {
	__u8 family;    /* 0 any, 4, 6 */
	__u8 proto;     /* 0 any, 6 TCP, 17 UDP */
	__u8 has_src;
	__u8 has_dst;
	__u16 sport;    /* 0 = any */
	__u16 dport;
	__u8 src[16];   /* IPv4: first 4 bytes */
	__u8 dst[16];
};

_Static_assert(sizeof(struct lat_flow) == 40, "lat_flow layout changed");

/* Correlation counters of the vhost chain (.bss, atomic adds, read by user space). */
struct lat_vhost_counters {
	__u64 fifo_overflow;     /* pushes that dropped the oldest slot (S0 or S2 FIFO full) */
	__u64 fifo_underflow;    /* netif_receive_skb on an active worker with no S2 slot */
	__u64 s0_miss;           /* handle_tx_kick with no pending kick on its eventfd */
	__u64 s1_miss;           /* tun_sendmsg on no active handle_tx_kick */
	__u64 work_eventfd_miss; /* handle_tx_kick whose work was never woken by a kick */
	__u64 pkts_seen;         /* packets on the device, received by an active worker */
	__u64 pkts_matched;      /* of those, the target flow's */
	__u64 s2_leftover;       /* S2 slots still queued when handle_tx_kick returned */
	__u64 kicks;             /* TX kicks pushed on an eventfd's FIFO */
	__u64 kicks_filtered;    /* TX kicks on an eventfd outside the profile */
	__u64 coalesced;         /* kicks served by the run of an earlier kick */
	__u64 runs;              /* handle_tx_kick runs on a profile worker */
};

_Static_assert(sizeof(struct lat_vhost_counters) == 12 * 8, "lat_vhost_counters layout changed");

/* The vhost chain's state (BPF-only; in lat_vhost_cpu_counters below). A kick
 * in progress on a CPU: set at the kick's entry, cleared at its exit. */
struct lat_vhost_kick {
	__u64 start_ns;
	__u64 ctx;     /* struct eventfd_ctx address, 0 until known */
	__u32 tid;     /* the kicking thread */
	__u32 active;
};

_Static_assert(sizeof(struct lat_vhost_kick) == 24, "lat_vhost_kick layout changed");

/* One CPU's entry of the vhost chain's vcpu array map (bpf/vhost.bpf.c; one per possible CPU,
 * user space sums the counters): its counters and its kick in progress. 128 bytes, so that, in
 * the page-aligned (BPF_F_MMAPABLE) array, no two CPUs' entries share a cache line. */
struct lat_vhost_cpu_counters {
	struct lat_vhost_counters c;
	struct lat_vhost_kick kick; /* this CPU's kick in progress */
	__u64 pad;
};

_Static_assert(sizeof(struct lat_vhost_cpu_counters) == 128,
	       "lat_vhost_cpu_counters layout changed");

/* Discover: what one (worker thread, eventfd) pair carried (the assoc hash map). */
struct lat_vhost_assoc_key {
	__u32 tid;
	__u32 pad;
	__u64 ctx; /* struct eventfd_ctx address */
};

struct lat_vhost_assoc {
	__u64 packets; /* target-flow packets */
	__u64 runs;    /* handle_tx_kick runs */
	__u32 pid;     /* worker's tgid */
	__u32 pad;
	char comm[16];
};

_Static_assert(sizeof(struct lat_vhost_assoc_key) == 16, "lat_vhost_assoc_key layout changed");
_Static_assert(sizeof(struct lat_vhost_assoc) == 40, "lat_vhost_assoc layout changed");

/* Pending kick times of one eventfd (a value of the s0fifo hash map). */
struct lat_vhost_s0fifo {
	__u32 head, tail; /* free-running; tail - head slots are pending */
	__u64 slot[LAT_VHOST_S0_SLOTS];
};

_Static_assert(sizeof(struct lat_vhost_s0fifo) == 8 + 8 * LAT_VHOST_S0_SLOTS,
	       "lat_vhost_s0fifo layout changed");

/* One vhost worker thread: its current run and its pending tun_sendmsg times. */
struct lat_vhost_worker {
	__u64 run_ns;  /* handle_tx_kick entry */
	__u64 kick_ns; /* the run's oldest pending kick, 0 = unknown (s0 miss) */
	__u64 s1_ns;   /* the run's first tun_sendmsg, 0 until then */
	__u64 ctx;     /* the run's eventfd */
	__u32 active;  /* inside handle_tx_kick */
	__u32 queue;   /* the eventfd's index in the profile */
	__u32 head, tail;
	__u64 slot[LAT_VHOST_S2_SLOTS];
};

_Static_assert(sizeof(struct lat_vhost_worker) == 48 + 8 * LAT_VHOST_S2_SLOTS,
	       "lat_vhost_worker layout changed");

/* Demo program tuning, shared with the demo loader: how many work items per run at most. */
#define LAT_DEMO_MAX_WORK 64

#endif /* LATTOP_H */
