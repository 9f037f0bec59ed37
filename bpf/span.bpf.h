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

/* Loss counters, one entry per span (an array: its lookup is inlined by the verifier). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAT_SPAN_MAX);
	__type(key, __u32);
	__type(value, struct lat_span_loss);
} span_loss SEC(".maps");

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

/* A start: push now on (span, key)'s pending stack (nest), or replace its slot. A
 * subprogram, not inlined: the tracepoint programs call it from a loop over the probe table. */
static __noinline int span_start(__u32 span, __u32 nest, __u64 key, __u64 now)
{
	struct lat_span_key k = { .span = span & (LAT_SPAN_MAX - 1), .key = key };
	struct lat_span_pending *p, init = { .depth = 1 };
	__u32 d;

	p = bpf_map_lookup_elem(&pending, &k);
	if (!p) {
		init.start_ns[0] = now;
		if (bpf_map_update_elem(&pending, &k, &init, BPF_NOEXIST) == 0)
			return 0;
		p = bpf_map_lookup_elem(&pending, &k); /* raced with another CPU, or full */
		if (!p) {
			span_count(k.span, evicted);
			return 0;
		}
	}
	if (!nest) {
		if (p->depth)
			span_count(k.span, collided);
		p->start_ns[0] = now;
		p->depth = 1;
		return 0;
	}
	d = p->depth;
	p->depth = d + 1;
	if (d >= LAT_SPAN_DEPTH) {
		span_count(k.span, overflow);
		return 0;
	}
	p->start_ns[d & (LAT_SPAN_DEPTH - 1)] = now;
	return 0;
}

/* Add a sample of dur ns to span's record of this CPU: true when added (aggregation on). */
static __always_inline bool span_agg(__u32 span, __u64 dur)
{
	/* Off (span_agg_ncpu 0), or no record (cannot happen): the event carries the sample. */
	return span_agg_ncpu && agg_add_at(span, span_agg_ncpu, bpf_get_smp_processor_id(), dur);
}

/* An end: pop (span, key)'s newest start and aggregate or emit the span's duration. */
static __noinline int span_end(__u32 span, __u64 key, __u64 now)
{
	struct lat_span_key k = { .span = span & (LAT_SPAN_MAX - 1), .key = key };
	struct lat_span_pending *p;
	__u64 start;
	__u32 d;

	p = bpf_map_lookup_elem(&pending, &k);
	if (!p || !p->depth) {
		span_count(k.span, unmatched);
		return 0;
	}
	d = p->depth - 1;
	p->depth = d;
	if (d >= LAT_SPAN_DEPTH)
		return 0; /* pushed beyond the stack: counted as overflow at the start */
	start = p->start_ns[d & (LAT_SPAN_DEPTH - 1)];
	if (!d)
		bpf_map_delete_elem(&pending, &k); /* keep the table to keys in flight */
	if (!span_agg(k.span, now - start))
		emit_event(LAT_EV_SEG, 0, k.span, 0, 0, start, now - start);
	return 0;
}

/* One hit of probe pr (of a span configured by c): find the key the probe asks for (field:
 * the probe's key field, already read) and start or end its span. */
static __always_inline int span_probe_hit(const volatile struct lat_span_probe *pr,
					  const volatile struct lat_span_conf *c, __u64 field,
					  __u64 now)
{
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 span = pr->span;
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
		return span_end(span, key, now);
	}
	if (!span_wanted(c, pid_tgid))
		return 0;
	return span_start(span, c->nest, key, now);
}

#endif /* LATTOP_SPAN_BPF_H */
