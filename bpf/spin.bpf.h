/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * spin.bpf.h - busy work of a known number of steps, for the test targets (bpf/target.bpf.c and
 * the VM fixtures): SPIN(n, acc) runs n steps of a little arithmetic on the __u64 acc that the
 * compiler cannot drop.
 *
 * With bpf_loop (5.17), one callback a step. The LAT_COMPAT build (Makefile COMPAT_BPF, for
 * kernels without it) has plain loops, and the verifier there walks every iteration of one: the
 * steps go in chunks of SPIN_CHUNK unrolled by clang (barrier_var keeps it from folding them
 * into one multiply), at most SPIN_CHUNKS of them, then what is left in chunks of SPIN_TAIL:
 * n runs as n rounded up to a multiple of 8 (32,896 at most: about 170,000 instructions for the
 * verifier to walk, once per program: lat_spin is a global function).
 */
#ifndef LATTOP_SPIN_BPF_H
#define LATTOP_SPIN_BPF_H

#ifdef LAT_COMPAT
#define SPIN_CHUNK 128
#define SPIN_CHUNKS 256
#define SPIN_TAIL 8
/* One step costs a helper call, as a bpf_loop step costs a call of its callback (a step of
 * arithmetic alone was ~10 times cheaper, and the tests' known costs are bpf_loop's). */
#define SPIN_STEPS(m, acc)                                                                        \
	_Pragma("unroll") for (__u32 k_ = 0; k_ < (m); k_++) {                                    \
		(acc) = (acc) * 31 + k_ + bpf_get_smp_processor_id();                             \
		barrier_var(acc);                                                                 \
	}

/* A global function: the verifier checks it once for each program that calls it, where it
 * walks a static one's loops again at every call. */
__attribute__((noinline)) __u64 lat_spin(__u32 n, __u64 acc)
{
	for (__u32 c = 0; c < SPIN_CHUNKS && c < n / SPIN_CHUNK; c++)
		SPIN_STEPS(SPIN_CHUNK, acc)
	for (__u32 c = 0; c < SPIN_CHUNK / SPIN_TAIL && c * SPIN_TAIL < n % SPIN_CHUNK; c++)
		SPIN_STEPS(SPIN_TAIL, acc)
	return acc;
}

#define SPIN(n, acc) ((acc) = lat_spin((n), (acc)))
#else
/* One bpf_loop step. */
static long spin_step(__u32 i, void *arg)
{
	__u64 *acc = arg;

	*acc = *acc * 31 + i;
	return 0;
}

#define SPIN(n, acc) bpf_loop((n), spin_step, &(acc), 0)
#endif

#endif /* LATTOP_SPIN_BPF_H */
