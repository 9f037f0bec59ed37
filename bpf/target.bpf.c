// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * target.bpf.c - test targets with a known, controllable cost (tests/host, tests/vm, bench).
 *
 * target_light does almost nothing; target_heavy spins `heavy_loops` bpf_loop iterations, so
 * its per-run cost is a known multiple of the light one; target_heavy2 is the same with its own
 * `heavy2_loops`, so two iteration counts can be measured side by side, under the same load. target_emit emits `emit_n` events
 * per run into the shared ring buffer (the collector benchmark's producer). target_maps does a
 * known number of map operations per run (helpers mode); target_maps2 updates the same hash
 * map from another program, which must never be attributed to target_maps.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
/* XDP and socket filters: no bpf_get_current_pid_tgid on 6.1 (and no task to name). */
#define LAT_EMIT_NO_PID
#include "emit.bpf.h"
#include "spin.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Written by the driver between runs. */
__u32 heavy_loops SEC(".data") = 1000;
__u32 heavy2_loops SEC(".data") = 1000;
__u32 emit_n SEC(".data") = 1;
__u64 seq SEC(".data") = 0; /* .data: both builds then lay it out alike (Makefile COMPAT_BPF) */

#ifdef LAT_COMPAT
/* The build for kernels before 5.17 (spin.bpf.h): at most EMIT_MAX events a run, the sequence
 * number a plain increment (no fetching atomics before 5.12): exact for one producer thread. */
#define EMIT_MAX 16
#define EMIT(n)                                                                                   \
	for (__u32 i_ = 0; i_ < EMIT_MAX && i_ < (n); i_++)                                       \
		emit_event(LAT_EV_BENCH, 0, 1, 0, 0, seq++, 100 + i_)
#else
/* One emit step: a benchmark record of series 1 whose start_ns carries a global sequence
 * number (so consumers can check order) and whose duration varies. */
static long emit_step(__u32 i, void *arg)
{
	emit_event(LAT_EV_BENCH, 0, 1, 0, 0, __sync_fetch_and_add(&seq, 1), 100 + (i & 1023));
	return 0;
}

#define EMIT(n) bpf_loop((n), emit_step, NULL, 0)
#endif

SEC("xdp")
int target_light(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int target_heavy(struct xdp_md *ctx)
{
	__u64 acc = 0;

	SPIN(heavy_loops, acc);
	return acc == 42 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int target_heavy2(struct xdp_md *ctx)
{
	__u64 acc = 0;

	SPIN(heavy2_loops, acc);
	return acc == 42 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int target_emit(struct xdp_md *ctx)
{
	EMIT(emit_n);
	return XDP_PASS;
}

/* Per-run map operation counts of target_maps (at most 16 each). */
__u32 n_update SEC(".data") = 3, n_lookup SEC(".data") = 5, n_delete SEC(".data") = 2,
      n_push SEC(".data") = 4, n_pop SEC(".data") = 4, n_big SEC(".data") = 1;

/* A small hash map: 8-byte values. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} tgt_hash SEC(".maps");

/* The same work on 2 KiB values: every update copies 256 times more. */
struct big_val {
	__u64 v[256];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct big_val);
} tgt_big SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 64);
	__uint(value_size, sizeof(__u64));
} tgt_queue SEC(".maps");

/* A zeroed 2 KiB value to copy in (a global: too big for the stack). */
__u64 big_zero[256] SEC(".bss");

/* The loop counter stays in a register; helpers get the key through a stack copy (passing the
 * counter's own address would make the verifier lose its bounds). */
SEC("xdp")
int target_maps(struct xdp_md *ctx)
{
	__u64 val = 1, *v;
	__u32 key;

	for (__u32 i = 0; i < 16 && i < n_update; i++) {
		key = i;
		bpf_map_update_elem(&tgt_hash, &key, &val, BPF_ANY);
	}
	for (__u32 i = 0; i < 16 && i < n_lookup; i++) {
		key = i;
		v = bpf_map_lookup_elem(&tgt_hash, &key);
		if (v)
			val += *v;
	}
	for (__u32 i = 0; i < 16 && i < n_delete; i++) {
		key = i;
		bpf_map_delete_elem(&tgt_hash, &key);
	}
	for (__u32 i = 0; i < 16 && i < n_push; i++)
		bpf_map_push_elem(&tgt_queue, &val, BPF_EXIST);
	for (__u32 i = 0; i < 16 && i < n_pop; i++)
		bpf_map_pop_elem(&tgt_queue, &val);
	for (__u32 i = 0; i < 16 && i < n_big; i++) {
		key = i;
		bpf_map_update_elem(&tgt_big, &key, big_zero, BPF_ANY);
	}
	return XDP_PASS;
}

SEC("xdp")
int target_maps2(struct xdp_md *ctx)
{
	__u64 val = 2;
	__u32 key = 100;

	bpf_map_update_elem(&tgt_hash, &key, &val, BPF_ANY);
	return XDP_PASS;
}

/* A tracing program (tp_btf): on 6.1 fentry cannot attach to tracing programs, so watching it
 * must give a row with the reason. Counts context switches so it has something to do. */
__u64 switches SEC(".bss");

SEC("tp_btf/sched_switch")
int target_tracing(void *ctx)
{
	__sync_fetch_and_add(&switches, 1);
	return 0;
}
