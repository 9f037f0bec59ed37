/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nest.bpf.h - the per-CPU program stacks (struct lat_nest) shared by the program probes
 * (which push and pop) and the helper probes (which read the top to attribute a call).
 *
 * User space creates the map once and every copy reuses its fd. An ARRAY indexed by CPU: its
 * lookup is inlined by the verifier, so it calls no traceable kernel function.
 */
#ifndef LATTOP_NEST_BPF_H
#define LATTOP_NEST_BPF_H

#include "lattop.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LAT_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct lat_nest);
} lat_nest SEC(".maps");

/* This CPU's program stack (NULL only if the map is missing). */
static __always_inline struct lat_nest *cpu_nest(void)
{
	__u32 cpu = bpf_get_smp_processor_id() & LAT_CPU_MASK;

	return bpf_map_lookup_elem(&lat_nest, &cpu);
}

#endif /* LATTOP_NEST_BPF_H */
