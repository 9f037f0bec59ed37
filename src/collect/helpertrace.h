/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * helpertrace.h - helpers mode: which map helpers a watched program calls, and probes on the
 * kernel functions that implement them.
 *
 * Analysis reads the program's xlated instructions (call targets resolved through
 * /proc/kallsyms, as bpftool does) and its maps; probes are fentry/fexit (else kprobe/kretprobe)
 * copies of bpf/helpertrace.bpf.c, one per kernel function, attributing each call to the watched program
 * on top of the CPU's program stack (shared with progtrace).
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_HELPERTRACE_H
#define LAT_HELPERTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct helpertrace;
struct collector;
struct progtrace;

/* One (program, helper, map) the program may call, and how lattop can see it. */
struct helper_site {
	uint32_t prog_id;
	uint32_t helper_id;   /* BPF_FUNC_* */
	char helper[32];      /* "bpf_map_update_elem" */
	char func[64];        /* implementing kernel function, "" when inlined */
	uint32_t map_id;      /* 0 when the kernel cannot tell which map */
	char map_name[24];
	char map_type[24];
	char why[160];        /* "" when traced; else why there are no figures */
};

/* Create the tracer on progtrace's program stacks (nest_fd) and helper-call slots (hnest_fd),
 * which outlive it; NULL + errno. */
struct helpertrace *helpertrace__new(struct collector *c, int nest_fd, int hnest_fd);
/* Detach everything and free (NULL is a no-op). */
void helpertrace__free(struct helpertrace *ht);

/* List the map helper sites of program prog_id into *out (malloc'd, *n entries).
 * Returns 0 or a negative errno with one sentence in err. */
int helpertrace__analyze(struct helpertrace *ht, uint32_t prog_id, struct helper_site **out,
			 size_t *n, char *err, size_t errlen);
/* Attach probes for site->func (shared by every site using that function): fentry/fexit, or
 * kprobe/kretprobe on the same function when fentry fails (LATTOP_HELPER_PROBES=kprobe forces
 * them); on failure the reason goes to site->why. Returns 0 or a negative errno. */
int helpertrace__attach(struct helpertrace *ht, struct helper_site *site);
/* Detach every helper probe, after a last harvest of their aggregates; forget the plan. */
void helpertrace__detach_all(struct helpertrace *ht);
/* Aggregate calls in the kernel when pt does (its path, its budget, its sink); without it (the
 * default) every call is an event. */
void helpertrace__set_agg(struct helpertrace *ht, struct progtrace *pt);
/* Note the sites (those with a traced function) whose calls the next attaches aggregate: a
 * function's copy gets the (program, map) pairs planned for it before it is attached (up to
 * LAT_HAGG_SITES; calls of any other pair are events). Returns 0 or -ENOMEM. */
int helpertrace__plan(struct helpertrace *ht, const struct helper_site *sites, size_t n);
/* Hand what the aggregates gained since the last harvest to pt's sink (force: every CPU). */
void helpertrace__harvest(struct helpertrace *ht, bool force);
/* Number of kernel functions probed. */
int helpertrace__count(const struct helpertrace *ht);
/* Sum of recursion_misses over the helper probes. */
uint64_t helpertrace__recursion_misses(const struct helpertrace *ht);
/* What the helper probes' own programs took (bpf_stats run time, needs bpf_stats on) and the
 * helper calls they saw (watched or not), since the tracer was created (detach_all keeps the
 * totals). */
void helpertrace__probe_stats(const struct helpertrace *ht, uint64_t *run_time_ns,
			      uint64_t *calls);
/* Helper calls lost because a traced call was already in flight at the same program depth
 * (a traced map function called inside another, e.g. a lookup in a for_each callback), summed
 * over CPUs, since the tracer was created (detach_all keeps the count). */
uint64_t helpertrace__busy(const struct helpertrace *ht);
/* Helper calls not attributed because they ran in another interrupt context (hardirq,
 * softirq, NMI) than the watched program on top of the CPU's stack: a program that interrupted
 * it. Summed over CPUs since the tracer was created (detach_all keeps the count). */
uint64_t helpertrace__foreign(const struct helpertrace *ht);
/* True when this kernel lets the probes read the CPU's interrupt context (x86's per-CPU
 * preempt_count in BTF); false: calls from interrupting programs are attributed to the
 * program they interrupted. */
bool helpertrace__ctx_readable(struct helpertrace *ht);

#endif /* LAT_HELPERTRACE_H */
