// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * demo.bpf.c - bundled demo programs for `lattop --demo`.
 *
 * Four programs doing hash, array, queue and LRU map work whose amount varies per run (a
 * pseudo-random count with a skewed distribution), so latency histograms have shape. Each
 * program also times itself (bpf_ktime_get_ns at entry and exit) and emits one event per run:
 * on kernels without fentry this self-timing is the only per-invocation source, and lattop
 * labels it "self" so nobody mistakes it for fentry measurements.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
/* XDP and socket filters: no bpf_get_current_pid_tgid on 6.1 (and no task to name). */
#define LAT_EMIT_NO_PID
#include "emit.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Written by the loader after load (IDs exist only then): the programs' own IDs, so
 * self-timed events carry them, and whether to self-time at all (off while fentry watches). */
__u32 id_hash SEC(".data") = 0, id_array SEC(".data") = 0, id_queue SEC(".data") = 0,
      id_lru SEC(".data") = 0;
__u32 self_time SEC(".data") = 1;

/* Hash map the hash demo churns: 4096 slots, enough for LAT_DEMO_MAX_WORK keys per run. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u64);
} demo_hash SEC(".maps");

/* Array the array demo sums over. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} demo_array SEC(".maps");

/* Queue the queue demo pushes to and pops from; 256 slots. */
struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 256);
	__uint(value_size, sizeof(__u64));
} demo_queue SEC(".maps");

/* LRU hash with fewer slots than keys used, so evictions happen. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 512);
	__type(key, __u32);
	__type(value, __u64);
} demo_lru SEC(".maps");

/* Work count with a long tail: mostly small, sometimes up to LAT_DEMO_MAX_WORK. */
static __always_inline __u32 work_amount(void)
{
	__u32 r = bpf_get_prandom_u32();
	__u32 n = (r & 7) + 1;

	if ((r >> 8) % 10 == 0)
		n += (r >> 12) % (LAT_DEMO_MAX_WORK / 2);
	if ((r >> 16) % 100 == 0)
		n = LAT_DEMO_MAX_WORK;
	return n;
}

struct loop_ctx {
	__u32 base;
	__u64 acc;
};

/* One unit of hash work: update, look up, sometimes delete. */
static long hash_step(__u32 i, void *arg)
{
	struct loop_ctx *c = arg;
	__u32 key = (c->base + i) & 2047;
	__u64 val = i, *v;

	bpf_map_update_elem(&demo_hash, &key, &val, BPF_ANY);
	v = bpf_map_lookup_elem(&demo_hash, &key);
	if (v)
		c->acc += *v;
	if (i & 1)
		bpf_map_delete_elem(&demo_hash, &key);
	return 0;
}

/* One unit of array work: read-modify-write. */
static long array_step(__u32 i, void *arg)
{
	struct loop_ctx *c = arg;
	__u32 key = (c->base + i * 7) & 1023;
	__u64 *v = bpf_map_lookup_elem(&demo_array, &key);

	if (v) {
		*v += i;
		c->acc += *v;
	}
	return 0;
}

/* One unit of queue work: push, and pop every other time. */
static long queue_step(__u32 i, void *arg)
{
	struct loop_ctx *c = arg;
	__u64 val = c->base + i;

	bpf_map_push_elem(&demo_queue, &val, BPF_EXIST);
	if (i & 1) {
		if (bpf_map_pop_elem(&demo_queue, &val) == 0)
			c->acc += val;
	}
	return 0;
}

/* One unit of LRU work: update with a wide key space (forces evictions), then look up. */
static long lru_step(__u32 i, void *arg)
{
	struct loop_ctx *c = arg;
	__u32 key = (c->base * 31 + i) & 4095;
	__u64 val = i, *v;

	bpf_map_update_elem(&demo_lru, &key, &val, BPF_ANY);
	v = bpf_map_lookup_elem(&demo_lru, &key);
	if (v)
		c->acc += *v;
	return 0;
}

/* Run n steps of fn and emit the run's own duration when self-timing is on. */
static __always_inline __u64 run_timed(__u32 id, void *fn, __u32 n)
{
	struct loop_ctx c = { .base = bpf_get_prandom_u32(), .acc = 0 };
	__u64 t0 = bpf_ktime_get_ns();

	bpf_loop(n, fn, &c, 0);
	if (self_time)
		emit_event(LAT_EV_PROG, LAT_EVF_SELF, id, 0, 0, t0, bpf_ktime_get_ns() - t0);
	return c.acc;
}

SEC("xdp")
int demo_xdp_hash(struct xdp_md *ctx)
{
	run_timed(id_hash, hash_step, work_amount());
	return XDP_PASS;
}

SEC("xdp")
int demo_xdp_array(struct xdp_md *ctx)
{
	run_timed(id_array, array_step, work_amount() * 4);
	return XDP_PASS;
}

SEC("socket")
int demo_sk_queue(struct __sk_buff *skb)
{
	run_timed(id_queue, queue_step, work_amount());
	return 0;
}

SEC("xdp")
int demo_xdp_lru(struct xdp_md *ctx)
{
	run_timed(id_lru, lru_step, work_amount() * 2);
	return XDP_PASS;
}
