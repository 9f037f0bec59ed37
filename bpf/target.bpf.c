// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * target.bpf.c - test targets with a known, controllable cost (tests/host, tests/vm, bench).
 *
 * target_light does almost nothing; target_heavy spins `heavy_loops` bpf_loop iterations, so
 * its per-run cost is a known multiple of the light one. target_emit emits `emit_n` events
 * per run into the shared ring buffer (the collector benchmark's producer).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "emit.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Written by the driver between runs. */
__u32 heavy_loops SEC(".data") = 1000;
__u32 emit_n SEC(".data") = 1;
__u64 seq SEC(".bss");

/* One bpf_loop step: a little arithmetic the compiler cannot drop. */
static long spin_step(__u32 i, void *arg)
{
	__u64 *acc = arg;

	*acc = *acc * 31 + i;
	return 0;
}

/* One emit step: a benchmark record of series 1 whose start_ns carries a global sequence
 * number (so consumers can check order) and whose duration varies. */
static long emit_step(__u32 i, void *arg)
{
	emit_event(LAT_EV_BENCH, 0, 1, 0, 0, __sync_fetch_and_add(&seq, 1), 100 + (i & 1023));
	return 0;
}

SEC("xdp")
int target_light(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp")
int target_heavy(struct xdp_md *ctx)
{
	__u64 acc = 0;

	bpf_loop(heavy_loops, spin_step, &acc, 0);
	return acc == 42 ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int target_emit(struct xdp_md *ctx)
{
	bpf_loop(emit_n, emit_step, NULL, 0);
	return XDP_PASS;
}
