// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * helperagg.c - map and harvest one helper probe copy's per-(site, CPU) aggregates.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "collect/helperagg.h"

struct helperagg {
	void *mem;
	size_t len;
	int nsites;
	uint32_t helper_id;
	struct lat_hagg_site site[LAT_HAGG_SITES];
	struct progagg *pa[LAT_HAGG_SITES]; /* one reader per site, over its ncpu records */
};

/* Bytes the aggregates of nsites sites take on ncpu CPUs. */
size_t helperagg__bytes(int ncpu, int nsites)
{
	return progagg__bytes(ncpu * (nsites > 0 ? nsites : 1));
}

/* Map the aggregates and make a reader per site. */
struct helperagg *helperagg__open(int map_fd, int ncpu, const struct lat_hagg_site *sites,
				  int nsites, uint32_t helper_id)
{
	struct helperagg *ha;

	if (nsites <= 0 || nsites > LAT_HAGG_SITES || ncpu <= 0 || ncpu > LAT_MAX_CPUS) {
		errno = EINVAL;
		return NULL;
	}
	ha = calloc(1, sizeof(*ha));
	if (!ha)
		return NULL;
	ha->len = helperagg__bytes(ncpu, nsites);
	ha->mem = mmap(NULL, ha->len, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (ha->mem == MAP_FAILED) {
		int e = errno;

		free(ha);
		errno = e;
		return NULL;
	}
	ha->helper_id = helper_id;
	for (int k = 0; k < nsites; k++) {
		ha->site[k] = sites[k];
		ha->pa[k] = progagg__wrap((struct lat_agg *)ha->mem + (size_t)k * ncpu, ncpu);
		ha->nsites = k + 1;
		if (!ha->pa[k]) {
			helperagg__free(ha);
			errno = ENOMEM;
			return NULL;
		}
	}
	return ha;
}

/* Unmap and free. */
void helperagg__free(struct helperagg *ha)
{
	if (!ha)
		return;
	for (int k = 0; k < ha->nsites; k++)
		progagg__free(ha->pa[k]);
	munmap(ha->mem, ha->len);
	free(ha);
}

/* Hand what each site gained to sink. */
void helperagg__harvest(struct helperagg *ha, bool force, struct progagg_delta *scratch,
			progagg_sink sink, void *arg)
{
	for (int k = 0; k < ha->nsites; k++)
		if (progagg__harvest(ha->pa[k], force, scratch) && sink)
			sink(arg, LAT_EV_HELPER, ha->site[k].prog_id, ha->helper_id,
			     ha->site[k].map_id, scratch);
}
