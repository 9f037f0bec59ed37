/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * span.bpf.h - the pairing of span starts and ends, shared by spans.bpf.c (uprobes, kprobes,
 * tracepoints) and spanfn.bpf.c (one fentry/fexit copy per kernel function).
 *
 * A start stores bpf_ktime_get_ns() in the pending table under (span, key); the matching end
 * takes it out and, with span_agg_ncpu set (the default), adds the duration to the span's
 * per-CPU aggregate (agg.bpf.h's lat_agg, entry span * span_agg_ncpu + cpu), which user space
 * reads through mmap at each interval close (collect/aggset.c); without it (a consumer needs
 * every sample: --raw recordings, LATTOP_PATH=ring, or the aggregates' budget is spent) it
 * emits one LAT_EV_SEG event (id = span index) into the shared ring buffer. A span on a hot
 * tracepoint or kernel function can end millions of times a second, more than one shared
 * ring buffer and its one consumer take. User space creates `pending`, `span_loss` and
 * `lat_agg` with the first (spans) object and every fentry copy reuses them
 * (bpf_map__reuse_fd), so a span whose start is a uprobe and whose end is an fexit pairs in
 * one table, aggregates in one record per CPU and counts its losses in one place.
 *
 * The pending table is a BPF_MAP_TYPE_HASH keyed by (span, key). lattop's other objects avoid
 * hash maps because helpers mode traces the kernel's hash-map functions; these probes are not
 * on a traced path of helpers mode (they run in user functions, kernel functions and
 * tracepoints, never inside a watched BPF program), so any htab call of theirs that a helper
 * probe sees is counted there as "outside any watched program", not attributed.
 *
 * Function spans (nest = 1) keep a stack of LAT_SPAN_DEPTH starts per key, so recursion and
 * re-entry pair innermost first; other spans keep one start per key and count a start that
 * replaces a pending one as a collision. Every loss is counted in span_loss, never silent.
 */
#ifndef LATTOP_SPAN_BPF_H
#define LATTOP_SPAN_BPF_H

#include "agg.bpf.h"
#include "emit.bpf.h"

/* CPUs each span has a record for in lat_agg (user space sets it, and lat_agg's max_entries
 * to the spans times it, before load); 0: every sample goes through the ring buffer. */
const volatile __u32 span_agg_ncpu = 0;

/* Pending starts; sized for LAT_SPAN_PENDING keys in flight (threads inside a function,
 * woken tasks not yet running, requests in flight). A full table refuses a new key: counted
 * as an evicted start. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LAT_SPAN_PENDING);
	__type(key, struct lat_span_key);
	__type(value, struct lat_span_pending);
} pending SEC(".maps");

/* Split spans' task clocks (struct lat_task_clock): made by a split span's start in its task,
 * kept while a split span is open there by the sched_switch and sched_wakeup programs
 * (spans.bpf.c), which every other task costs one storage lookup that finds nothing. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lat_task_clock);
} span_task SEC(".maps");

/* Tasks with a split span open (entry 0), shared with the fentry/fexit copies: while it is 0
 * the sched programs return at once, without looking up the two tasks' clocks. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} span_split_open SEC(".maps");

/* Count a task's first open split span (delta 1) or its last one closing (-1). */
static __always_inline void split_tasks_add(__s64 delta)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&span_split_open, &zero);

	if (n)
		__sync_fetch_and_add(n, delta);
}

/* A new key's first pending entry is built here, not on the stack (392 bytes: with a caller's
 * frame, past the 512 the verifier allows). Per CPU; a probe nested on this CPU between the
 * fill and the insert could overwrite it, which costs that one start its right time. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct lat_span_pending);
} span_init SEC(".maps");

/* Spans in the session: a split span's part p aggregates in slot span + p * span_nspans. */
const volatile __u32 span_nspans = 0;

/* span_start's and span_end's flags: the span's conf. */
#define SPAN_F_NEST 1u
#define SPAN_F_SPLIT 2u

/* Loss counters, one entry per span (an array: its lookup is inlined by the verifier). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAT_SPAN_MAX);
	__type(key, __u32);
	__type(value, struct lat_span_loss);
} span_loss SEC(".maps");

/* Breakdown by key: (span, value) -> group slot, first come first served (at most
 * conf.groups per span; the rest go to the span's "other" slot), and each slot's value for
 * user space's labels. Both sized for every span's every slot. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LAT_SPAN_MAX * LAT_SPAN_GROUPS);
	__type(key, struct lat_span_gkey);
	__type(value, __u32);
} span_grp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAT_SPAN_MAX * LAT_SPAN_GROUPS);
	__type(key, __u32);
	__type(value, struct lat_span_gval);
} span_gval SEC(".maps");

/* Counter field of struct lat_span_loss, by name. */
#define span_count(span, fld)                                                                \
	({                                                                                   \
		__u32 __s = (span) & (LAT_SPAN_MAX - 1);                                     \
		struct lat_span_loss *__l = bpf_map_lookup_elem(&span_loss, &__s);           \
		if (__l)                                                                     \
			__sync_fetch_and_add(&__l->fld, 1);                                  \
	})

/* True when the current task passes the span's pid/comm filter c. */
static __always_inline bool span_wanted(const volatile struct lat_span_conf *c, __u64 pid_tgid)
{
	char comm[16];

	if (c->pid && c->pid != (__u32)(pid_tgid >> 32))
		return false;
	if (!c->comm[0])
		return true;
	bpf_get_current_comm(comm, sizeof(comm));
	for (int i = 0; i < 16; i++) {
		if (comm[i] != c->comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

/* The current task's clock read at now into snap (it is running: the stretch since its last
 * switch counts as on-CPU); created with create. A clock no split span holds open restarts:
 * the sched programs leave it alone then. NULL: no clock (the storage is busy, or no memory). */
static __always_inline struct lat_task_clock *split_read(__u64 now, bool create,
							 struct lat_span_snap *snap)
{
	struct lat_task_clock *c;

	c = bpf_task_storage_get(&span_task, bpf_get_current_task_btf(), 0,
				 create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!c)
		return NULL;
	if (!c->open) {
		c->state = LAT_TS_RUNNING;
		c->last_ns = now;
	}
	snap->on_ns = c->on_ns;
	if (c->state == LAT_TS_RUNNING && now > c->last_ns)
		snap->on_ns += now - c->last_ns;
	snap->rq_ns = c->rq_ns;
	return c;
}

/* Store a start at depth d of p: its time, its group (breakdown) and, for a split span, its
 * task's clock. */
static __always_inline void start_store(struct lat_span_pending *p, __u32 d, __u64 now,
					 const struct lat_span_snap *snap, __u32 grp)
{
	p->start_ns[d & (LAT_SPAN_DEPTH - 1)] = now;
	p->grp[d & (LAT_SPAN_DEPTH - 1)] = (__u8)grp;
	p->snap[d & (LAT_SPAN_DEPTH - 1)] = *snap;
	p->tid = (__u32)bpf_get_current_pid_tgid();
}

/* A start: push now on (span, key)'s pending stack (nest), or replace its slot. A
 * subprogram, not inlined: the tracepoint programs call it from a loop over the probe table. */
static __noinline int span_start(__u32 span, __u32 flags, __u64 key, __u64 now, __u32 grp)
{
	struct lat_span_key k = { .span = span & (LAT_SPAN_MAX - 1), .key = key };
	struct lat_span_pending *p, *init;
	struct lat_task_clock *c = NULL;
	struct lat_span_snap snap = {};
	__u32 d, zero = 0;

	if (flags & SPAN_F_SPLIT)
		c = split_read(now, true, &snap);
	p = bpf_map_lookup_elem(&pending, &k);
	init = p ? NULL : bpf_map_lookup_elem(&span_init, &zero);
	if (init) { /* only depth 1 is read before it is written again */
		init->depth = 1;
		start_store(init, 0, now, &snap, grp);
		if (bpf_map_update_elem(&pending, &k, init, BPF_NOEXIST) == 0)
			goto stored;
		p = bpf_map_lookup_elem(&pending, &k); /* raced with another CPU, or full */
		if (!p) {
			span_count(k.span, evicted);
			return 0;
		}
	}
	if (!p)
		return 0; /* no scratch entry: cannot happen (a one-entry array) */
	if (!(flags & SPAN_F_NEST)) {
		if (p->depth)
			span_count(k.span, collided);
		start_store(p, 0, now, &snap, grp);
		p->depth = 1;
		goto stored;
	}
	d = p->depth;
	p->depth = d + 1;
	if (d >= LAT_SPAN_DEPTH) {
		span_count(k.span, overflow);
		return 0;
	}
	start_store(p, d, now, &snap, grp);
stored:
	if (c && !c->open++) /* the sched programs keep its clock from now on */
		split_tasks_add(1);
	return 0;
}

/* Add a sample of dur ns to slot's record of this CPU: true when added (aggregation on). */
static __always_inline bool span_agg(__u32 slot, __u64 dur)
{
	/* Off (span_agg_ncpu 0), or no record (cannot happen): the event carries the sample. */
	return span_agg_ncpu && agg_add_at(slot, span_agg_ncpu, bpf_get_smp_processor_id(), dur);
}

/* One part of a split sample: aggregated, or an event. */
static __always_inline void part_add(__u32 span, __u32 part, __u64 start, __u64 dur)
{
	if (!span_agg(span + part * span_nspans, dur))
		emit_event(LAT_EV_SPAN_PART, 0, span, part, 0, start, dur);
}

/* A split sample's end in the task that started it (a process-keyed span's end in another
 * thread has no split): the span closes in the task's clock (it stops when none is open) and,
 * when the sample is kept (keep: not filtered), its parts are the clock now less the start's
 * (snap). */
static __always_inline void split_end(__u32 span, const struct lat_span_snap *snap, __u32 tid,
				      __u64 start, __u64 now, bool keep)
{
	struct lat_span_snap cur;
	struct lat_task_clock *c;
	__u64 wall = now - start, on, rq;

	if (tid != (__u32)bpf_get_current_pid_tgid())
		return;
	c = split_read(now, false, &cur);
	if (!c)
		return;
	if (c->open && !--c->open)
		split_tasks_add(-1);
	if (!keep)
		return;
	on = cur.on_ns - snap->on_ns;
	rq = cur.rq_ns - snap->rq_ns;
	if (on > wall)
		on = wall;
	if (rq > wall - on)
		rq = wall - on;
	part_add(span, LAT_PART_ONCPU, start, on);
	part_add(span, LAT_PART_RUNQ, start, rq);
	part_add(span, LAT_PART_SLEEP, start, wall - on - rq);
}

/* An end: pop (span, key)'s newest start into *start (its task clock into *snap, the thread of
 * the latest start into *tid). Returns its group (lat_span_pending.grp), or -1 when there is no
 * sample (no start, or one pushed beyond the stack). */
static __noinline int span_pop(__u32 span, __u64 key, __u64 *start, struct lat_span_snap *snap,
			       __u32 *tid)
{
	struct lat_span_key k = { .span = span & (LAT_SPAN_MAX - 1), .key = key };
	struct lat_span_pending *p;
	int grp;
	__u32 d;

	p = bpf_map_lookup_elem(&pending, &k);
	if (!p || !p->depth) {
		span_count(k.span, unmatched);
		return -1;
	}
	d = p->depth - 1;
	p->depth = d;
	if (d >= LAT_SPAN_DEPTH)
		return -1; /* pushed beyond the stack: counted as overflow at the start */
	*start = p->start_ns[d & (LAT_SPAN_DEPTH - 1)];
	*snap = p->snap[d & (LAT_SPAN_DEPTH - 1)];
	*tid = p->tid;
	grp = p->grp[d & (LAT_SPAN_DEPTH - 1)];
	if (!d)
		bpf_map_delete_elem(&pending, &k); /* keep the table to keys in flight */
	return grp;
}

/* True when v passes condition f. */
static __always_inline bool span_cond(const volatile struct lat_span_filt *f, __u64 v)
{
	__s64 x = (__s64)v, y = f->val;

	switch (f->op) {
	case LAT_OP_LT:
		return x < y;
	case LAT_OP_LE:
		return x <= y;
	case LAT_OP_GT:
		return x > y;
	case LAT_OP_GE:
		return x >= y;
	case LAT_OP_EQ:
		return x == y;
	}
	return x != y;
}

/* True when the call passes c's conditions on the values av holds (the arguments at a start,
 * end: the return value at an end; av NULL: no values, nothing to test). */
static __always_inline bool span_pass(const volatile struct lat_span_conf *c, const __u64 *av,
				      bool end)
{
	for (int i = 0; i < LAT_SPAN_FILTERS; i++) {
		__u32 f = c->filt[i].field;

		if (i >= c->nfilt || !av)
			break;
		if ((f == LAT_FIELD_RET) != end)
			continue;
		if (!span_cond(&c->filt[i], av[f > LAT_FIELD_RET ? LAT_FIELD_RET : f]))
			return false;
	}
	return true;
}

/* The group slot of value (v0, v1) of span (c its settings): its slot, a new one while the
 * span has slots left, else c->groups ("other", counted as folded). */
static __always_inline __u32 span_group(__u32 span, const volatile struct lat_span_conf *c,
					__u64 v0, __u64 v1)
{
	struct lat_span_gkey k = { .span = span & (LAT_SPAN_MAX - 1), .val = { v0, v1 } };
	struct lat_span_loss *l;
	struct lat_span_gval *gv;
	__u32 *p, g, at;

	p = bpf_map_lookup_elem(&span_grp, &k);
	if (p)
		return *p < c->groups ? *p : c->groups;
	l = bpf_map_lookup_elem(&span_loss, &k.span);
	if (!l)
		return c->groups;
	if (l->groups >= c->groups) /* full: no atomic add for every later new value */
		goto other;
	g = (__u32)__sync_fetch_and_add(&l->groups, 1);
	if (g >= c->groups)
		goto other;
	/* The value first, then the mapping: a sample in the slot always has its label. */
	at = k.span * LAT_SPAN_GROUPS + (g & (LAT_SPAN_GROUPS - 1));
	gv = bpf_map_lookup_elem(&span_gval, &at);
	if (gv) {
		gv->val[0] = v0;
		gv->val[1] = v1;
	}
	if (bpf_map_update_elem(&span_grp, &k, &g, BPF_NOEXIST) == 0)
		return g;
	p = bpf_map_lookup_elem(&span_grp, &k); /* another CPU mapped it first: its slot */
	if (p)
		return *p < c->groups ? *p : c->groups;
other:
	return c->groups; /* counted as folded when its sample lands there */
}

/* The group of a call by what c breaks it down by and what is known now (av: the function's
 * arguments, or its return value at an end; NULL: none). */
static __always_inline __u32 span_group_of(__u32 span, const volatile struct lat_span_conf *c,
					   const __u64 *av, __u64 pid_tgid)
{
	__u32 f = c->by_field; /* one read of the rodata, then bounded */
	__u64 v[2] = {};

	switch (c->by) {
	case LAT_BY_PID:
		v[0] = pid_tgid >> 32;
		break;
	case LAT_BY_COMM:
		bpf_get_current_comm(v, sizeof(v));
		break;
	case LAT_BY_CGROUP:
		v[0] = bpf_get_current_cgroup_id();
		break;
	case LAT_BY_ARG:
		if (av)
			v[0] = av[f > 4 ? 4 : f];
		break;
	case LAT_BY_RET:
		if (av)
			v[0] = av[LAT_FIELD_RET];
		break;
	}
	return span_group(span, c, v[0], v[1]);
}

/* An end: pop the start, apply the return-value filter and breakdown, and aggregate or emit
 * the span's duration (and its group's; split: its parts). */
static __always_inline int span_end(__u32 span, const volatile struct lat_span_conf *c,
				    __u32 flags, __u64 key, __u64 now, const __u64 *av,
				    __u64 pid_tgid)
{
	struct lat_span_snap snap = {};
	__u64 start = 0;
	__u32 tid = 0;
	int grp = span_pop(span, key, &start, &snap, &tid);
	__u32 s = span & (LAT_SPAN_MAX - 1);
	bool keep;

	if (grp < 0)
		return 0;
	keep = grp != LAT_GRP_DROP && span_pass(c, av, true);
	/* A split span closes in its task's clock whether or not its sample is kept. */
	if (flags & SPAN_F_SPLIT)
		split_end(s, &snap, tid, start, now, keep);
	if (grp == LAT_GRP_DROP)
		return 0; /* counted as filtered at its start */
	if (!keep) {
		span_count(s, filtered);
		return 0;
	}
	if (c->by == LAT_BY_RET)
		grp = span_group_of(s, c, av, pid_tgid);
	if (!span_agg(s, now - start)) {
		emit_event(LAT_EV_SEG, 0, s, 0, 0, start, now - start);
		return 0;
	}
	if (!c->by || grp > c->groups)
		return 0;
	if (grp == c->groups)
		span_count(s, folded);
	span_agg(c->grp_base + grp, now - start);
	return 0;
}

/* One hit of probe pr (of a span configured by c): find the key the probe asks for (field:
 * the probe's key field, already read) and start or end its span. av: the function's
 * arguments and return value (LAT_FIELD_RET + 1 values) for the filter and the breakdown, or
 * NULL (a tracepoint; a span without either). */
static __always_inline int span_probe_hit(const volatile struct lat_span_probe *pr,
					  const volatile struct lat_span_conf *c, __u64 field,
					  __u64 now, const __u64 *av)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 span = pr->span, grp = LAT_GRP_LATER;
	__u32 flags = (c->nest ? SPAN_F_NEST : 0) | (c->split ? SPAN_F_SPLIT : 0);
	__u64 key;

	if (pr->keysel == LAT_KEY_TID)
		key = (__u32)pid_tgid;
	else if (pr->keysel == LAT_KEY_PID)
		key = pid_tgid >> 32;
	else
		key = field;
	/* The pid/comm filter names the task hitting the start probe. An end keyed by tid or pid
	 * runs in that same task, so filter it too: another task's return is not a miss of this
	 * span. (Ends keyed by a field may run anywhere: a completion in an interrupt.) */
	if (pr->end) {
		if (pr->keysel != LAT_KEY_FIELD && !span_wanted(c, pid_tgid))
			return 0;
		return span_end(span, c, flags, key, now, av, pid_tgid);
	}
	if (!span_wanted(c, pid_tgid))
		return 0;
	/* The argument filter drops the call here; its start is still pushed (marked), so that
	 * its end pairs with it and not with an outer call's start. */
	if (!span_pass(c, av, false)) {
		span_count(span, filtered);
		grp = LAT_GRP_DROP;
	} else if (c->by && c->by != LAT_BY_RET) {
		grp = span_group_of(span, c, av, pid_tgid);
	}
	return span_start(span, flags, key, now, grp);
}

#endif /* LATTOP_SPAN_BPF_H */
