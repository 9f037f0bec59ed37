/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * aggset.h - the in-kernel aggregates of one BPF object that aggregates several series in one
 * lat_agg array: one struct lat_agg per (slot, CPU), slot k's CPU c at entry k * ncpu + c,
 * each slot feeding one model series. Mapped once; each slot harvested like a program's
 * (progagg.h). Users: a helper probe copy (one kernel function; a slot per (program, map)
 * pair its rodata lists, bpf/helpertrace.bpf.c agg_sites) and the spans objects (a slot per
 * span, bpf/span.bpf.h).
 *
 * Thread use: the UI/main thread only.
 */
#ifndef LAT_AGGSET_H
#define LAT_AGGSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/progagg.h"
#include "lattop.h"

struct aggset;

/* The series a slot's harvests go to (the progagg_sink's arguments). */
struct agg_key {
	uint16_t kind; /* enum lat_ev_kind */
	uint32_t id, aux, aux2;
};

/* Bytes the aggregates of nslots slots take on ncpu CPUs (whole pages). */
size_t aggset__bytes(int ncpu, int nslots);
/* Map the aggregates of map fd: nslots slots (keys[k]'s records at entries k * ncpu ..),
 * ncpu CPUs. NULL + errno. */
struct aggset *aggset__open(int map_fd, int ncpu, const struct agg_key *keys, int nslots);
/* Unmap and free (NULL is a no-op). */
void aggset__free(struct aggset *as);
/* Hand what each slot gained since the last harvest to sink, under its key; force as
 * progagg__harvest. scratch: caller-owned. */
void aggset__harvest(struct aggset *as, bool force, struct progagg_delta *scratch,
		     progagg_sink sink, void *arg);

#endif /* LAT_AGGSET_H */
