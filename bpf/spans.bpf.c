// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spans.bpf.c - segments you define: a start probe and an end probe paired by a key.
 *
 * User space fills `probes` and `confs` (rodata) before load and attaches:
 * - lat_span_uprobe once per uprobe/uretprobe/kprobe/kretprobe, the link cookie being the
 *   probe's index;
 * - lat_span_tp once per generic tracepoint, the cookie being its number in probes[].tp:
 *   each probe of it reads its key field at the offset and size user space took from the
 *   tracepoint's tracefs format file;
 * - the tp_btf program of each tp_btf tracepoint a span uses (the others are not loaded); it
 *   walks `probes` for the entries of its tracepoint.
 * fentry/fexit probes live in spanfn.bpf.c, one copy per kernel function, sharing this
 * object's pending table and loss counters (span.bpf.h does the pairing for both).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "span.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile struct lat_span_probe probes[LAT_SPAN_PROBES] = {};
const volatile struct lat_span_conf confs[LAT_SPAN_MAX] = {};
const volatile __u32 nprobes = 0;

/* One hit of probe idx, whose key field (if it has one) is field; av: the function's arguments
 * and return value, NULL on a tracepoint. */
static __always_inline int span_hit(__u32 idx, __u64 field, __u64 now, const __u64 *av)
{
	const volatile struct lat_span_probe *pr = &probes[idx & (LAT_SPAN_PROBES - 1)];

	return span_probe_hit(pr, &confs[pr->span & (LAT_SPAN_MAX - 1)], field, now, av);
}

/* Every probe of tracepoint tp (a bounded walk over the rodata table). */
static __always_inline int tp_hit(__u32 tp, __u64 field0, __u64 field1)
{
	__u64 now = bpf_ktime_get_ns();

	for (__u32 i = 0; i < LAT_SPAN_PROBES; i++) {
		if (i >= nprobes)
			break;
		if (probes[i].tp == tp)
			span_hit(i, probes[i].field ? field1 : field0, now, NULL);
	}
	return 0;
}

/* uprobes and uretprobes (and kprobes): the link cookie is the probe's index. The key
 * argument (or return value), the filter's and the breakdown's come from one array of the
 * registers, read at constant offsets: the verifier refuses a context read at a computed
 * offset, which is what a switch compiles to. */
SEC("uprobe")
int lat_span_uprobe(struct pt_regs *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 idx = (__u32)bpf_get_attach_cookie(ctx) & (LAT_SPAN_PROBES - 1);
	__u64 v[LAT_FIELD_RET + 1] = {
		PT_REGS_PARM1(ctx), PT_REGS_PARM2(ctx), PT_REGS_PARM3(ctx),
		PT_REGS_PARM4(ctx), PT_REGS_PARM5(ctx), 0, PT_REGS_RC(ctx),
	};
	__u32 f = probes[idx].field;
	__u64 arg = 0;

	if (probes[idx].keysel == LAT_KEY_FIELD)
		arg = v[f > LAT_FIELD_RET ? LAT_FIELD_RET : f];
	return span_hit(idx, arg, now, v);
}

/* A generic tracepoint's key field: fld_size bytes at fld_off in the record (ctx points at
 * the record's start, where the format file's offsets count from). */
static __always_inline __u64 tp_field(void *ctx, const volatile struct lat_span_probe *pr)
{
	const char *at = (const char *)ctx + (pr->fld_off & 0xfff);
	__u64 v = 0;

	switch (pr->fld_size) {
	case 1: {
		__u8 x = 0;

		bpf_probe_read_kernel(&x, sizeof(x), at);
		v = pr->fld_signed ? (__u64)(__s64)(__s8)x : x;
		break;
	}
	case 2: {
		__u16 x = 0;

		bpf_probe_read_kernel(&x, sizeof(x), at);
		v = pr->fld_signed ? (__u64)(__s64)(__s16)x : x;
		break;
	}
	case 4: {
		__u32 x = 0;

		bpf_probe_read_kernel(&x, sizeof(x), at);
		v = pr->fld_signed ? (__u64)(__s64)(__s32)x : x;
		break;
	}
	case 8:
		bpf_probe_read_kernel(&v, sizeof(v), at);
		break;
	}
	return v;
}

/* Generic tracepoints (classic, SEC("tracepoint")): attached once per tracepoint, the link
 * cookie is the tracepoint's number in probes[].tp (LAT_TP__COUNT and up); each probe of it
 * reads its own key field. (The kernel attaches a program to a tracepoint once only.) */
SEC("tracepoint")
int lat_span_tp(void *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 tp = (__u32)bpf_get_attach_cookie(ctx);

	for (__u32 i = 0; i < LAT_SPAN_PROBES; i++) {
		__u64 field = 0;

		if (i >= nprobes)
			break;
		if (probes[i].tp != tp)
			continue;
		if (probes[i].keysel == LAT_KEY_FIELD)
			field = tp_field(ctx, &probes[i]);
		span_hit(i, field, now, NULL);
	}
	return 0;
}

/* tp_btf tracepoints: each hands its key fields (see enum lat_span_tp) to the probes using it. */
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

/* The split spans' task clocks (span.bpf.h's span_task), loaded and attached only when some span
 * is split. A switch: the task leaving the CPU adds its stretch on it and becomes runnable
 * (preempted, or still TASK_RUNNING: it yielded) or sleeping; the task coming on adds its wait
 * for the CPU if it was runnable. While no task has a split span open, a switch costs one array
 * read; else tasks without a clock, or with no split span open, cost one storage lookup each. */
SEC("tp_btf/sched_switch")
int BPF_PROG(lat_split_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct lat_task_clock *c;
	__u32 zero = 0;
	__u64 *open = bpf_map_lookup_elem(&span_split_open, &zero), now;

	if (!open || !*open)
		return 0; /* no task has a split span open */
	now = bpf_ktime_get_ns();
	c = bpf_task_storage_get(&span_task, prev, 0, 0);
	if (c && c->open) {
		if (c->state == LAT_TS_RUNNING && now > c->last_ns)
			c->on_ns += now - c->last_ns;
		c->state = preempt || !prev->__state ? LAT_TS_RUNNABLE : LAT_TS_SLEEPING;
		c->last_ns = now;
	}
	c = bpf_task_storage_get(&span_task, next, 0, 0);
	if (c && c->open) {
		if (c->state == LAT_TS_RUNNABLE && now > c->last_ns)
			c->rq_ns += now - c->last_ns;
		c->state = LAT_TS_RUNNING;
		c->last_ns = now;
	}
	return 0;
}

/* A wakeup puts a sleeping task on a run queue: from now it waits for a CPU. (A new task needs
 * no sched_wakeup_new program: it has no clock until a split span starts in it, running.) */
SEC("tp_btf/sched_wakeup")
int BPF_PROG(lat_split_wakeup, struct task_struct *p)
{
	struct lat_task_clock *c;
	__u32 zero = 0;
	__u64 *open = bpf_map_lookup_elem(&span_split_open, &zero);

	if (!open || !*open)
		return 0;
	c = bpf_task_storage_get(&span_task, p, 0, 0);
	if (c && c->open && c->state == LAT_TS_SLEEPING) {
		c->state = LAT_TS_RUNNABLE;
		c->last_ns = bpf_ktime_get_ns();
	}
	return 0;
}
