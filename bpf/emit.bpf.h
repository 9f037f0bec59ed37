/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * emit.bpf.h - the event ring buffer and its loss counter, shared by every lattop BPF object.
 *
 * User space creates `events` and `lat_drops` once (collector__new) and every BPF object reuses
 * them (bpf_map__reuse_fd before load), so objects attached later share one ring buffer and one
 * loss counter. No hash maps: lattop must not trigger its own probes; the array lookup below is
 * inlined by the verifier (no traceable kernel function).
 */
#ifndef LATTOP_EMIT_BPF_H
#define LATTOP_EMIT_BPF_H

#include "lattop.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, LAT_RINGBUF_BYTES);
} events SEC(".maps");

/* Ring buffer reserve failures and wake-up counts per CPU: an mmapable array, one entry (struct
 * lat_drops) per possible CPU, key = CPU id (the collector creates it so sized; an object
 * loaded without the collector sets max_entries itself). The drops are added atomically and
 * read by the collector through mmap. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct lat_drops);
} lat_drops SEC(".maps");

/* Wake the consumer only every LAT_WAKEUP_EVERY records per CPU; the collector also polls on
 * a short timeout, so a quiet tail is still delivered. 1-in-N wake-ups are what lets a libbpf
 * consumer reach tens of millions of records/s instead of ~1 M/s. */
#define LAT_WAKEUP_EVERY 64

/* Reserve, fill and submit one event; count a drop when the ring buffer is full. */
static __always_inline int emit_event(__u16 kind, __u16 flags, __u32 id, __u32 aux, __u32 aux2,
				      __u64 start_ns, __u64 dur_ns)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct lat_drops *d = bpf_map_lookup_elem(&lat_drops, &cpu); /* inlined: no call */
#ifdef LAT_EMIT_NO_PID
	__u64 pid_tgid = 0; /* networking programs on older kernels may not ask (6.1 XDP) */
#else
	__u64 pid_tgid = bpf_get_current_pid_tgid();
#endif
	struct lat_event *e;
	__u64 wake = BPF_RB_NO_WAKEUP;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		if (d)
			__sync_fetch_and_add(&d->rb, 1);
		return -1;
	}
	e->kind = kind;
	e->flags = flags;
	e->cpu = cpu;
	e->id = id;
	e->aux = aux;
	e->aux2 = aux2;
	e->pid = pid_tgid >> 32;
	e->tid = (__u32)pid_tgid;
	e->pad = 0;
	e->start_ns = start_ns;
	e->dur_ns = dur_ns;
	/* A probe nested on this CPU between the load and the store may lose an increment: a
	 * wake-up comes a record later, never lost (the collector also polls). */
	if (d && ++d->since_wakeup >= LAT_WAKEUP_EVERY) {
		d->since_wakeup = 0;
		wake = BPF_RB_FORCE_WAKEUP;
	}
	bpf_ringbuf_submit(e, wake);
	return 0;
}

#endif /* LATTOP_EMIT_BPF_H */
