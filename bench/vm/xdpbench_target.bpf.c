// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * xdpbench_target.bpf.c - the programs the VM benchmark watches: bench_empty, an XDP program
 * that does nothing, so that every nanosecond added per run is the observer's; bench_update,
 * one bpf_map_update_elem per run on a small hash map, what lattop's helpers mode watches (the
 * verifier turns the helper call into a direct call of htab_map_update_elem, which is not
 * inlined: the function's fentry/fexit see every call).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Pass every packet. */
SEC("xdp")
int bench_empty(struct xdp_md *ctx)
{
	return XDP_PASS;
}

/* The map bench_update writes (its name is the helper row's map_name in lattop's report). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u64);
} bench_hash SEC(".maps");

/* One update of a fixed key per run, then pass the packet. */
SEC("xdp")
int bench_update(struct xdp_md *ctx)
{
	__u32 key = 1;
	__u64 val = 1;

	bpf_map_update_elem(&bench_hash, &key, &val, BPF_ANY);
	return XDP_PASS;
}
