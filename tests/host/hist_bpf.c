// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hist_bpf.c - the BPF build of the shared bucket function against the user-side histogram.
 *
 * Loads bpf/hist_check.bpf.c (the verifier must accept lat_hist_bucket as clang compiles it for
 * BPF) and runs it with bpf_prog_test_run on each bucket's lower bound, lower - 1, upper bound
 * and upper + 1, and on 0, 1, the top of the range, past it and UINT64_MAX, 64 values a run;
 * every bucket index and bound must equal what the user-side histogram (hist__bucket,
 * hist__bucket_lo, hist__bucket_hi) gives. Prints PASS/FAIL lines and its END line.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "hist_check.skel.h"
#include "model/hist.h"

#define N 64

/* Every value to check: each bucket's boundaries, then the extremes. */
static size_t boundary_values(uint64_t *v, size_t max)
{
	size_t n = 0;

	for (uint32_t b = 0; b < hist__nbuckets() && n + 4 <= max; b++) {
		uint64_t lo = hist__bucket_lo(b), hi = hist__bucket_hi(b);

		v[n++] = lo;
		if (lo)
			v[n++] = lo - 1;
		v[n++] = hi;
		v[n++] = hi + 1;
	}
	v[n++] = 0;
	v[n++] = 1;
	v[n++] = (1ull << HIST_MAX_POW2) - 1;
	v[n++] = 1ull << HIST_MAX_POW2;
	v[n++] = UINT64_MAX;
	return n;
}

int main(void)
{
	static uint64_t vals[4 * 2240 + 8];
	struct hist_check_bpf *skel;
	size_t n, bad = 0, runs = 0, checked = 0;
	unsigned char pkt[64] = {[12] = 0x08};
	int fails = 0;

	skel = hist_check_bpf__open_and_load();
	if (!skel) {
		printf("FAIL host-hist-bpf/load: the verifier refused hist_check.bpf.o: %s\n",
		       strerror(errno));
		printf("END host-hist-bpf 1\n");
		return 1;
	}
	printf("PASS host-hist-bpf/load\n");
	n = boundary_values(vals, sizeof(vals) / sizeof(vals[0]));
	for (size_t at = 0; at < n; at += N) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
			    .repeat = 1);
		size_t k = n - at < N ? n - at : N;

		memset(skel->bss->in, 0, sizeof(skel->bss->in));
		memcpy(skel->bss->in, vals + at, k * sizeof(vals[0]));
		if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.hist_check), &opts)) {
			printf("FAIL host-hist-bpf/run: bpf_prog_test_run: %s\n", strerror(errno));
			fails++;
			break;
		}
		runs++;
		for (size_t i = 0; i < k; i++) {
			uint64_t v = vals[at + i];
			uint32_t b = hist__bucket(v);

			checked++;
			if (skel->bss->out[i] == b && skel->bss->lo[i] == hist__bucket_lo(b) &&
			    skel->bss->hi[i] == hist__bucket_hi(b))
				continue;
			if (bad++ < 5)
				printf("  value %ju: BPF bucket %u [%ju, %ju], user bucket %u "
				       "[%ju, %ju]\n",
				       (uintmax_t)v, skel->bss->out[i], (uintmax_t)skel->bss->lo[i],
				       (uintmax_t)skel->bss->hi[i], b,
				       (uintmax_t)hist__bucket_lo(b),
				       (uintmax_t)hist__bucket_hi(b));
		}
	}
	if (bad || fails || checked != n) {
		printf(
		    "FAIL host-hist-bpf/boundaries: %zu of %zu values differ (%zu checked in %zu "
		    "runs)\n",
		    bad, n, checked, runs);
		fails++;
	} else {
		printf("PASS host-hist-bpf/boundaries\n");
		printf("  info: %zu boundary values in %zu runs, BPF and user space agree\n", n,
		       runs);
	}
	printf("END host-hist-bpf 2\n");
	hist_check_bpf__destroy(skel);
	return fails ? 1 : 0;
}
