// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spans.bpf.c - segments you define: a start probe and an end probe paired by a key.
 *
 * User space fills `probes` and `confs` (rodata) before load and attaches:
 * - lat_span_uprobe once per uprobe/uretprobe, the link cookie being the probe's index;
 * - the tp_btf program of each tracepoint a span uses (the others are not loaded); it walks
 *   `probes` for the entries of its tracepoint.
 * A start stores bpf_ktime_get_ns() in the pending table under (span, key); the matching end
 * takes it out and emits one LAT_EV_SEG event (id = span index) into the shared ring buffer.
 *
 * The pending table is a BPF_MAP_TYPE_HASH keyed by (span, key). lattop's other objects avoid
 * hash maps because helpers mode traces the kernel's hash-map functions; these probes are not
 * on a traced path of helpers mode (they run in user functions and scheduler/block
 * tracepoints, never inside a watched BPF program), so any htab call of theirs that a helper
 * probe sees is counted there as "outside any watched program", not attributed.
 *
 * Function spans (nest = 1) keep a stack of LAT_SPAN_DEPTH starts per key, so recursion and
 * re-entry pair innermost first; other spans keep one start per key and count a start that
 * replaces a pending one as a collision. Every loss is counted in span_loss, never silent.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "emit.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile struct lat_span_probe probes[LAT_SPAN_PROBES] = {};
const volatile struct lat_span_conf confs[LAT_SPAN_MAX] = {};
const volatile __u32 nprobes = 0;

struct lat_span_loss span_loss[LAT_SPAN_MAX] SEC(".bss");

/* Pending starts; sized for LAT_SPAN_PENDING keys in flight (threads inside a function,
 * woken tasks not yet running, requests in flight). A full table refuses a new key: counted
 * as an evicted start. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LAT_SPAN_PENDING);
	__type(key, struct lat_span_key);
	__type(value, struct lat_span_pending);
} pending SEC(".maps");

/* True when the current task passes span's pid/comm filter. */
static __always_inline bool span_wanted(__u32 span, __u64 pid_tgid)
{
	const volatile struct lat_span_conf *c = &confs[span & (LAT_SPAN_MAX - 1)];
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

/* A start: push now on (span, key)'s pending stack, or replace its slot. A subprogram, not
 * inlined: the tracepoint programs call it from a loop over the probe table. */
static __noinline int span_start(__u32 span, __u64 key, __u64 now)
{
	struct lat_span_key k = { .span = span & (LAT_SPAN_MAX - 1), .key = key };
	struct lat_span_loss *loss = &span_loss[span & (LAT_SPAN_MAX - 1)];
	struct lat_span_pending *p, init = { .depth = 1 };
	__u32 d;

	p = bpf_map_lookup_elem(&pending, &k);
	if (!p) {
		init.start_ns[0] = now;
		if (bpf_map_update_elem(&pending, &k, &init, BPF_NOEXIST) == 0)
			return 0;
		p = bpf_map_lookup_elem(&pending, &k); /* raced with another CPU, or full */
		if (!p) {
			__sync_fetch_and_add(&loss->evicted, 1);
			return 0;
		}
	}
	if (!confs[span & (LAT_SPAN_MAX - 1)].nest) {
		if (p->depth)
			__sync_fetch_and_add(&loss->collided, 1);
		p->start_ns[0] = now;
		p->depth = 1;
		return 0;
	}
	d = p->depth;
	p->depth = d + 1;
	if (d >= LAT_SPAN_DEPTH) {
		__sync_fetch_and_add(&loss->overflow, 1);
		return 0;
	}
	p->start_ns[d & (LAT_SPAN_DEPTH - 1)] = now;
	return 0;
}

/* An end: pop (span, key)'s newest start and emit the span's duration. */
static __noinline int span_end(__u32 span, __u64 key, __u64 now)
{
	struct lat_span_key k = { .span = span & (LAT_SPAN_MAX - 1), .key = key };
	struct lat_span_loss *loss = &span_loss[span & (LAT_SPAN_MAX - 1)];
	struct lat_span_pending *p;
	__u64 start;
	__u32 d;

	p = bpf_map_lookup_elem(&pending, &k);
	if (!p || !p->depth) {
		__sync_fetch_and_add(&loss->unmatched, 1);
		return 0;
	}
	d = p->depth - 1;
	p->depth = d;
	if (d >= LAT_SPAN_DEPTH)
		return 0; /* pushed beyond the stack: counted as overflow at the start */
	start = p->start_ns[d & (LAT_SPAN_DEPTH - 1)];
	if (!d)
		bpf_map_delete_elem(&pending, &k); /* keep the table to keys in flight */
	emit_event(LAT_EV_SEG, 0, k.span, 0, 0, start, now - start);
	return 0;
}

/* One probe hit: find the key the probe asks for and start or end its span. */
static __always_inline int span_hit(__u32 idx, __u64 field0, __u64 field1, __u64 now)
{
	const volatile struct lat_span_probe *pr = &probes[idx & (LAT_SPAN_PROBES - 1)];
	__u64 pid_tgid = bpf_get_current_pid_tgid();
	__u32 span = pr->span;
	__u64 key;

	if (pr->keysel == LAT_KEY_TID)
		key = (__u32)pid_tgid;
	else if (pr->keysel == LAT_KEY_PID)
		key = pid_tgid >> 32;
	else
		key = pr->field ? field1 : field0;
	/* The pid/comm filter names the task hitting the start probe. An end keyed by tid or pid
	 * runs in that same task, so filter it too: another task's return is not a miss of this
	 * span. (Ends keyed by a field may run anywhere: a completion in an interrupt.) */
	if (pr->end) {
		if (pr->keysel != LAT_KEY_FIELD && !span_wanted(span, pid_tgid))
			return 0;
		return span_end(span, key, now);
	}
	if (!span_wanted(span, pid_tgid))
		return 0;
	return span_start(span, key, now);
}

/* Every probe of tracepoint tp (a bounded walk over the rodata table). */
static __always_inline int tp_hit(__u32 tp, __u64 field0, __u64 field1)
{
	__u64 now = bpf_ktime_get_ns();

	for (__u32 i = 0; i < LAT_SPAN_PROBES; i++) {
		if (i >= nprobes)
			break;
		if (probes[i].tp == tp)
			span_hit(i, field0, field1, now);
	}
	return 0;
}

/* A uprobe's key argument (or a uretprobe's return value), by field number. The registers are
 * read at constant offsets into an array first: the verifier refuses a context read at a
 * computed offset, which is what a switch compiles to. */
static __always_inline __u64 uprobe_arg(struct pt_regs *ctx, __u32 field)
{
	__u64 v[LAT_FIELD_RET + 1] = {
		PT_REGS_PARM1(ctx), PT_REGS_PARM2(ctx), PT_REGS_PARM3(ctx),
		PT_REGS_PARM4(ctx), PT_REGS_PARM5(ctx), 0, PT_REGS_RC(ctx),
	};

	return v[field > LAT_FIELD_RET ? LAT_FIELD_RET : field];
}

/* uprobes and uretprobes: the link cookie is the probe's index. */
SEC("uprobe")
int lat_span_uprobe(struct pt_regs *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 idx = (__u32)bpf_get_attach_cookie(ctx) & (LAT_SPAN_PROBES - 1);
	__u64 arg = 0;

	if (probes[idx].keysel == LAT_KEY_FIELD)
		arg = uprobe_arg(ctx, probes[idx].field);
	return span_hit(idx, arg, arg, now);
}

/* Tracepoints: each hands its key fields (see enum lat_span_tp) to the probes using it. */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(lat_span_sched_wakeup, struct task_struct *p)
{
	return tp_hit(LAT_TP_SCHED_WAKEUP, BPF_CORE_READ(p, pid), 0);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(lat_span_sched_wakeup_new, struct task_struct *p)
{
	return tp_hit(LAT_TP_SCHED_WAKEUP_NEW, BPF_CORE_READ(p, pid), 0);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(lat_span_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	return tp_hit(LAT_TP_SCHED_SWITCH, BPF_CORE_READ(next, pid), BPF_CORE_READ(prev, pid));
}

/* A request's identity: its sector and its disk's device number (what blktrace pairs on). */
static __always_inline __u64 rq_sector_dev(struct request *rq)
{
	struct gendisk *disk = BPF_CORE_READ(rq, q, disk);
	__u64 dev = 0;

	if (disk)
		dev = ((__u64)BPF_CORE_READ(disk, major) << 20) | BPF_CORE_READ(disk, first_minor);
	return BPF_CORE_READ(rq, __sector) ^ (dev << 40);
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(lat_span_block_rq_issue, struct request *rq)
{
	return tp_hit(LAT_TP_BLOCK_RQ_ISSUE, (__u64)rq, rq_sector_dev(rq));
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(lat_span_block_rq_complete, struct request *rq)
{
	return tp_hit(LAT_TP_BLOCK_RQ_COMPLETE, (__u64)rq, rq_sector_dev(rq));
}
