/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * helperagg.h - the in-kernel aggregates of one helper probe copy (one kernel function): one
 * struct lat_agg per (site, CPU), a site being a (program, map) pair the copy's rodata lists
 * (bpf/helpertrace.bpf.c agg_sites). Mapped once; harvested like a program's (progagg.h).
 *
 * Thread use: the UI/main thread only.
 */
#ifndef LAT_HELPERAGG_H
#define LAT_HELPERAGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/progagg.h"
#include "lattop.h"

struct helperagg;

/* Bytes the aggregates of nsites sites take on ncpu CPUs (whole pages). */
size_t helperagg__bytes(int ncpu, int nsites);
/* Map the aggregates of map fd: nsites sites (sites[k] at entries k * ncpu ..), ncpu CPUs;
 * helper_id names the BPF helper the copy's function implements. NULL + errno. */
struct helperagg *helperagg__open(int map_fd, int ncpu, const struct lat_hagg_site *sites,
				  int nsites, uint32_t helper_id);
/* Unmap and free (NULL is a no-op). */
void helperagg__free(struct helperagg *ha);
/* Hand what each site gained since the last harvest to sink, as (LAT_EV_HELPER, prog id,
 * helper id, map id); force as progagg__harvest. scratch: caller-owned. */
void helperagg__harvest(struct helperagg *ha, bool force, struct progagg_delta *scratch,
			progagg_sink sink, void *arg);

#endif /* LAT_HELPERAGG_H */
