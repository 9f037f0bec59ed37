/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * progtrace.h - per-invocation latency of watched BPF programs with fentry/fexit.
 *
 * One copy of bpf/progtrace.bpf.c is loaded per watched program (the attach target is fixed at
 * load time); all copies share the collector's ring buffer, one per-CPU nesting map and the
 * per-CPU helper-call slots. Detaching destroys the copy: nothing of ours stays attached to an
 * unwatched program. The exit probe is attached before the entry probe and detached after it,
 * so that no call the probes see begins with an entry that will never get its exit.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_PROGTRACE_H
#define LAT_PROGTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progtrace;
struct collector;
#include "collect/progagg.h"

/* What the in-kernel aggregates take (progtrace__agg_mem). */
struct progtrace_mem {
	size_t bytes;         /* kernel memory of the aggregates now */
	size_t budget;        /* the cap (LAT_AGG_BUDGET unless LATTOP_AGG_BUDGET says) */
	size_t per_program;   /* bytes per watched program: 9,024 x CPUs, whole pages */
	int ncpu;             /* possible CPUs */
	int aggregated;       /* watched programs aggregated in the kernel */
	int on_ring;          /* watched programs sending an event per run */
	uint64_t over_budget; /* attaches put on the ring buffer because the cap was reached */
};

/* Totals of the per-CPU nesting stacks and helper-call slots. overflow and the two stale
 * counts are losses; unpaired exits are not (their calls began before the entry probe was
 * attached, or their entry was missed and counted as a recursion miss). */
struct progtrace_nest {
	uint64_t overflow;     /* pushes on a full stack */
	uint64_t stale;        /* program entries reclaimed: their exit never came */
	uint64_t helper_stale; /* helper-call slots reclaimed with their program's entry */
	uint64_t unpaired;     /* exits with no entry of theirs */
};

/* Create the tracer (its shared nesting map and helper-call slots); NULL + errno. */
struct progtrace *progtrace__new(struct collector *c);
/* Detach everything and free (NULL is a no-op). */
void progtrace__free(struct progtrace *pt);

/* Choose the path of copies loaded from now on (the floor probe's too): true (the default)
 * aggregates each run in the kernel, false sends an event per run through the ring buffer. */
void progtrace__set_agg(struct progtrace *pt, bool on);
/* True when copies loaded from now on aggregate in the kernel. */
bool progtrace__agg(const struct progtrace *pt);
/* Where harvested aggregates go: progtrace__harvest and a detach (its program's last runs). */
void progtrace__set_sink(struct progtrace *pt, progagg_sink fn, void *arg);
/* Split the harvests of the programs for which fn(sink arg, prog id) is true by CPU: the sink
 * gets each CPU's share as (LAT_EV_PROG_CPU, prog id, cpu, 0) before the program's delta. */
void progtrace__set_split(struct progtrace *pt, bool (*fn)(void *sink_arg, uint32_t id));
/* The sink (helpers mode hands its harvests to the same one). */
progagg_sink progtrace__sink(const struct progtrace *pt, void **arg);
/* Take bytes of the aggregates' budget for another user (helpers mode): true when they fit
 * (then taken), false (counted in over_budget) when not. */
bool progtrace__agg_reserve(struct progtrace *pt, size_t bytes);
/* Give bytes taken with progtrace__agg_reserve back. */
void progtrace__agg_release(struct progtrace *pt, size_t bytes);
/* Hand what every aggregated program gained since the last harvest to the sink (mmap: no
 * syscall). */
void progtrace__harvest(struct progtrace *pt);
/* What the aggregates take, and the cap. */
void progtrace__agg_mem(const struct progtrace *pt, struct progtrace_mem *out);

/* Find out whether this kernel can trace BPF programs: load an empty program of our own, attach
 * fentry/fexit to it, run it, and measure the probe floor (the p50 duration our probes report
 * for an empty program) and what the probes add to each run (progtrace__run_cost_ns). Returns 0,
 * or a negative errno with one sentence in why. */
int progtrace__probe(struct progtrace *pt, char *why, size_t len);
/* The probe floor in ns (0 before a successful probe). */
uint64_t progtrace__floor_ns(const struct progtrace *pt);
/* What the probes add to each run on this machine, in ns, measured by progtrace__probe: the
 * kernel's own time per test run of the empty program with the probes attached (trampoline,
 * entry and exit probes, aggregation) less the same without them, the least of 5 rounds of
 * 20,000 runs each. At least 1 once measured; 0 when it was not (a test run failed, or the
 * probes take the ring buffer: LATTOP_PATH=ring or --raw). */
uint64_t progtrace__run_cost_ns(const struct progtrace *pt);

/* Attach to program id. Returns 0 (also when already attached), or a negative errno with the
 * reason in why ("no BTF", "gone", "tracing programs cannot be traced on this kernel", ...). */
int progtrace__attach(struct progtrace *pt, uint32_t id, char *why, size_t len);
/* What the probes on program id have seen so far: runs aggregated (*runs) and their probes'
 * recursion misses (*missed: runs the trampoline skipped our probes for). Returns 0, or
 * -ENOENT when id is not attached, -ENOTSUP when its runs go through the ring buffer (not
 * counted here). */
int progtrace__runs(const struct progtrace *pt, uint32_t id, uint64_t *runs, uint64_t *missed);
/* bpf_stats of the probes on program id (their own programs: entry and exit, both pairs where
 * copies are on): *run_time_ns summed, *runs the entry probe's run count. Returns 0, or -ENOENT
 * when id is not attached, or a negative errno. */
int progtrace__probe_stats(const struct progtrace *pt, uint32_t id, uint64_t *run_time_ns,
			   uint64_t *runs);
/* Detach from program id (no-op when not attached). */
void progtrace__detach(struct progtrace *pt, uint32_t id);
/* True when program id is attached. */
bool progtrace__attached(const struct progtrace *pt, uint32_t id);
/* fd of the shared per-CPU program stack map (helper probes read it). */
int progtrace__nest_fd(const struct progtrace *pt);
/* fd of the shared per-CPU helper-call slots (the helper probes use them; ours reclaim them
 * from this call on: ask before attaching any probe that takes a slot). */
int progtrace__hnest_fd(struct progtrace *pt);
/* Number of attached programs. */
int progtrace__count(const struct progtrace *pt);
/* IDs of our own loaded tracing programs (2 per target), for tests and `bpftool` checks. */
int progtrace__own_ids(const struct progtrace *pt, uint32_t *ids, int max);
/* Detach from watched programs that only our links keep alive (their owner unloaded them);
 * their IDs go to reaped (at most max). Returns how many, or a negative errno. */
int progtrace__reap(struct progtrace *pt, uint32_t *reaped, int max);
/* Sum of the kernel's recursion_misses over our tracing programs. */
uint64_t progtrace__recursion_misses(const struct progtrace *pt);
/* Read the nesting stacks' and helper slots' counters, summed over CPUs. */
void progtrace__nest(const struct progtrace *pt, struct progtrace_nest *out);
/* True when LATTOP_IRQ_CTX_FAIL asks the probes not to read the CPU's interrupt context (to test
 * the fallback of kernels where it is not readable). */
bool progtrace__ctx_off(void);

/* True where tasks are preempted inside BPF programs: a second pair of probes is attached. */
bool progtrace__copies(void);

/* log2 of the kernel's THREAD_SIZE, for the probes' lat_stack_shift. */
uint32_t progtrace__stack_shift(void);

#endif /* LAT_PROGTRACE_H */
