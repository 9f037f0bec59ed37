// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * aggset.c - map and harvest one object's per-(slot, CPU) aggregates.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "collect/aggset.h"

struct aggset {
	void *mem;
	size_t len;
	int nslots;
	struct agg_key *key;
	struct progagg **pa; /* one reader per slot, over its ncpu records */
};

/* Bytes the aggregates of nslots slots take on ncpu CPUs. */
size_t aggset__bytes(int ncpu, int nslots)
{
	return progagg__bytes(ncpu * (nslots > 0 ? nslots : 1));
}

/* Map the aggregates and make a reader per slot. */
struct aggset *aggset__open(int map_fd, int ncpu, const struct agg_key *keys, int nslots)
{
	struct aggset *as;

	if (nslots <= 0 || ncpu <= 0 || ncpu > LAT_CPUS_LIMIT) {
		errno = EINVAL;
		return NULL;
	}
	as = calloc(1, sizeof(*as));
	if (as) {
		as->key = calloc((size_t)nslots, sizeof(*as->key));
		as->pa = calloc((size_t)nslots, sizeof(*as->pa));
	}
	if (!as || !as->key || !as->pa)
		goto nomem;
	as->len = aggset__bytes(ncpu, nslots);
	as->mem = mmap(NULL, as->len, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (as->mem == MAP_FAILED) {
		int e = errno;

		as->mem = NULL;
		aggset__free(as);
		errno = e;
		return NULL;
	}
	for (int k = 0; k < nslots; k++) {
		as->key[k] = keys[k];
		as->pa[k] = progagg__wrap((struct lat_agg *)as->mem + (size_t)k * ncpu, ncpu);
		as->nslots = k + 1;
		if (!as->pa[k])
			goto nomem;
	}
	return as;
nomem:
	aggset__free(as);
	errno = ENOMEM;
	return NULL;
}

/* Unmap and free. */
void aggset__free(struct aggset *as)
{
	if (!as)
		return;
	for (int k = 0; k < as->nslots; k++)
		progagg__free(as->pa[k]);
	if (as->mem)
		munmap(as->mem, as->len);
	free(as->pa);
	free(as->key);
	free(as);
}

/* Hand what each slot gained to sink. */
void aggset__harvest(struct aggset *as, bool force, struct progagg_delta *scratch,
		     progagg_sink sink, void *arg)
{
	for (int k = 0; k < as->nslots; k++)
		if (progagg__harvest(as->pa[k], force, scratch) && sink)
			sink(arg, as->key[k].kind, as->key[k].id, as->key[k].aux, as->key[k].aux2,
			     scratch);
}
