// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hist_check.bpf.c - test fixture: the BPF build of the shared bucket function
 * (bpf/hist_bucket.h), run by tests/host/hist_bpf.c on every bucket boundary and compared with
 * the user-side histogram. It proves that clang's BPF code (the msb search, no clz) and the
 * verifier agree with user space, value for value.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "hist_bucket.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Values to bucket, written by the driver before each run; buckets and bounds read back. */
#define HIST_CHECK_N 64
__u64 in[HIST_CHECK_N] SEC(".bss");
__u32 out[HIST_CHECK_N] SEC(".bss");
__u64 lo[HIST_CHECK_N] SEC(".bss");
__u64 hi[HIST_CHECK_N] SEC(".bss");

/* Bucket every value of `in`, and give the bounds of the bucket it landed in. */
SEC("xdp")
int hist_check(struct xdp_md *ctx)
{
	for (int i = 0; i < HIST_CHECK_N; i++) {
		__u32 b = lat_hist_bucket(in[i]);

		out[i] = b;
		if (b >= LAT_HIST_NBUCKETS)
			continue; /* the verifier's bound; the driver sees the bad index in out */
		lo[i] = lat_hist_bucket_lo(b);
		hi[i] = lat_hist_bucket_hi(b);
	}
	return XDP_PASS;
}
