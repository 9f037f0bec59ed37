// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * xdpbench_target.bpf.c - the program the VM benchmark watches: an XDP program that does
 * nothing, so that every nanosecond added per run is the observer's.
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
