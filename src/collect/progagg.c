// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * progagg.c - harvest a watched program's per-CPU in-kernel aggregates through mmap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "collect/progagg.h"

/* Sum, max and ~min taken by harvests that found no bucket (the runs in flight then): they go
 * with the next harvest that does. */
struct carry {
	uint64_t sum, max, min_inv;
};

struct progagg {
	struct lat_agg *a; /* ncpu entries, mapped (or the caller's memory) */
	size_t len;        /* bytes mapped, 0 when wrapped */
	int ncpu;
	uint64_t *seen; /* count of each CPU at its last harvest */
	struct carry carry;
	/* Split harvests (progagg__harvest_split): each CPU's own carry and one CPU's delta,
	 * allocated by the first. */
	struct carry *cpu_carry;
	struct progagg_delta *cpu_delta;
};

/* Bytes the aggregates of one program take in the kernel on ncpu CPUs. */
size_t progagg__bytes(int ncpu)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t sz = (size_t)(ncpu > 0 ? ncpu : 1) * sizeof(struct lat_agg);

	if (page <= 0)
		page = 4096;
	return (sz + (size_t)page - 1) / (size_t)page * (size_t)page;
}

/* Possible CPUs: the records per series of a lat_agg array and the CPU entries of every other
 * per-CPU map (every CPU a probe may run on), never clamped. collector__new refuses to start
 * where it cannot be read or passes LAT_CPUS_LIMIT, so after it this is the machine's count
 * (libbpf reads it once); 1 before, were it unreadable. */
int progagg__ncpu(void)
{
	int n = libbpf_num_possible_cpus();

	return n <= 0 ? 1 : n;
}

/* The cap on in-kernel aggregates: LAT_AGG_BUDGET, or LATTOP_AGG_BUDGET bytes (a debug knob,
 * to test what happens past the cap with a few programs or spans). */
size_t progagg__budget(void)
{
	const char *v = getenv("LATTOP_AGG_BUDGET");
	char *end;
	unsigned long long b;

	if (!v || !*v)
		return LAT_AGG_BUDGET;
	b = strtoull(v, &end, 10);
	return *end ? LAT_AGG_BUDGET : (size_t)b;
}

/* Whether one more program fits in the budget. */
bool progagg__fits(size_t used, int ncpu, size_t budget)
{
	size_t one = progagg__bytes(ncpu);

	return used <= budget && one <= budget - used;
}

/* Programs that fit in budget on ncpu CPUs. */
size_t progagg__max_programs(int ncpu, size_t budget)
{
	return budget / progagg__bytes(ncpu);
}

/* A reader over ncpu aggregates at a (mapped len bytes, or not owned when len is 0). */
static struct progagg *agg_new(struct lat_agg *a, size_t len, int ncpu)
{
	struct progagg *pa = calloc(1, sizeof(*pa));

	if (pa)
		pa->seen = calloc((size_t)ncpu, sizeof(*pa->seen));
	if (!pa || !pa->seen) {
		free(pa);
		errno = ENOMEM;
		return NULL;
	}
	pa->a = a;
	pa->len = len;
	pa->ncpu = ncpu;
	return pa;
}

/* Map the aggregates of a map. */
struct progagg *progagg__open(int map_fd, int ncpu)
{
	size_t len = progagg__bytes(ncpu);
	struct progagg *pa;
	void *mem;
	int e;

	if (ncpu <= 0 || ncpu > LAT_CPUS_LIMIT) {
		errno = EINVAL;
		return NULL;
	}
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (mem == MAP_FAILED)
		return NULL;
	pa = agg_new(mem, len, ncpu);
	if (!pa) {
		e = errno;
		munmap(mem, len);
		errno = e;
	}
	return pa;
}

/* Read aggregates in plain memory. */
struct progagg *progagg__wrap(struct lat_agg *mem, int ncpu)
{
	if (!mem || ncpu <= 0) {
		errno = EINVAL;
		return NULL;
	}
	return agg_new(mem, 0, ncpu);
}

/* Unmap and free. */
void progagg__free(struct progagg *pa)
{
	if (!pa)
		return;
	if (pa->len)
		munmap(pa->a, pa->len);
	free(pa->seen);
	free(pa->cpu_carry);
	free(pa->cpu_delta);
	free(pa);
}

/* Take a max and a ~min out of a record into c. */
static void take_minmax(struct carry *c, __u64 *max, __u64 *min_inv)
{
	uint64_t mx = __atomic_exchange_n(max, 0, __ATOMIC_SEQ_CST);
	uint64_t mi = __atomic_exchange_n(min_inv, 0, __ATOMIC_SEQ_CST);

	c->max = mx > c->max ? mx : c->max;
	c->min_inv = mi > c->min_inv ? mi : c->min_inv;
}

/* Take one CPU's gains: buckets into dense, the rest into c. The exchanges pair with the
 * probes' atomic adds (both are locked instructions on the same words). */
static void take_cpu(struct lat_agg *a, uint64_t *dense, struct carry *c)
{
	c->sum += __atomic_exchange_n(&a->sum, 0, __ATOMIC_SEQ_CST);
	take_minmax(c, &a->max, &a->min_inv);
	/* The nested runs' max and min of the objects built without compare-and-swap (agg.bpf.h;
	 * always 0 with the others): looked at first, so that the common case adds no exchange. */
	if (__atomic_load_n(&a->max_n, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&a->min_inv_n, __ATOMIC_RELAXED))
		take_minmax(c, &a->max_n, &a->min_inv_n);
	for (uint32_t b = 0; b < LAT_HIST_NBUCKETS; b++)
		if (__atomic_load_n(&a->buckets[b], __ATOMIC_RELAXED))
			dense[b] += __atomic_exchange_n(&a->buckets[b], 0, __ATOMIC_SEQ_CST);
}

/* c += what one take gained. */
static void carry_add(struct carry *c, const struct carry *t)
{
	c->sum += t->sum;
	c->max = t->max > c->max ? t->max : c->max;
	c->min_inv = t->min_inv > c->min_inv ? t->min_inv : c->min_inv;
}

/* Turn the dense gains into sparse pairs (clearing dense) and the summary, with the sum, max
 * and min of carry c (emptied once runs came with them). */
static void finish(struct carry *c, struct progagg_delta *out)
{
	struct hist_delta *d = &out->d;

	memset(d, 0, sizeof(*d));
	out->n = 0;
	for (uint32_t b = 0; b < LAT_HIST_NBUCKETS; b++) {
		if (!out->dense[b])
			continue;
		out->idx[out->n] = b;
		out->cnt[out->n++] = out->dense[b];
		d->count += out->dense[b];
		out->dense[b] = 0;
	}
	if (!d->count)
		return; /* sum, max and min wait for their runs' buckets */
	d->sum = c->sum;
	d->max = c->max;
	d->min = c->min_inv ? ~c->min_inv : UINT64_MAX;
	/* A run in flight may have its max or min here and its bucket in the next harvest (or the
	 * reverse): keep max and min within reach of the buckets taken. */
	if (d->max < lat_hist_bucket_lo(out->idx[out->n - 1]))
		d->max = lat_hist_bucket_hi(out->idx[out->n - 1]);
	if (d->min > lat_hist_bucket_hi(out->idx[0]))
		d->min = lat_hist_bucket_lo(out->idx[0]);
	memset(c, 0, sizeof(*c));
}

/* Whether a harvest takes CPU cpu's record: its count moved since the last look (always when
 * forced). Notes the count. */
static bool cpu_moved(struct progagg *pa, int cpu, bool force)
{
	uint64_t c = __atomic_load_n(&pa->a[cpu].count, __ATOMIC_ACQUIRE);

	if (!force && c == pa->seen[cpu])
		return false;
	pa->seen[cpu] = c;
	return true;
}

/* Nothing new anywhere: an empty delta (dense is still all zeros). */
static uint64_t none(struct progagg_delta *out)
{
	out->n = 0;
	memset(&out->d, 0, sizeof(out->d));
	return 0;
}

/* Take what the aggregates gained since the last harvest. */
uint64_t progagg__harvest(struct progagg *pa, bool force, struct progagg_delta *out)
{
	bool taken = false;

	for (int cpu = 0; cpu < pa->ncpu; cpu++) {
		if (!cpu_moved(pa, cpu, force))
			continue;
		take_cpu(&pa->a[cpu], out->dense, &pa->carry);
		taken = true;
	}
	if (!taken)
		return none(out);
	finish(&pa->carry, out);
	return out->d.count;
}

/* The same, and each CPU's share of it handed to fn first. */
uint64_t progagg__harvest_split(struct progagg *pa, bool force, struct progagg_delta *out,
				progagg_cpu_fn fn, void *arg)
{
	struct progagg_delta *cd;
	bool taken = false;

	if (!pa->cpu_carry)
		pa->cpu_carry = calloc((size_t)pa->ncpu, sizeof(*pa->cpu_carry));
	if (!pa->cpu_delta)
		pa->cpu_delta = calloc(1, sizeof(*pa->cpu_delta));
	if (!pa->cpu_carry || !pa->cpu_delta)
		return progagg__harvest(pa, force, out); /* the CPUs' shares are missing */
	cd = pa->cpu_delta;
	for (int cpu = 0; cpu < pa->ncpu; cpu++) {
		struct carry t = { 0 };

		if (!cpu_moved(pa, cpu, force))
			continue;
		take_cpu(&pa->a[cpu], cd->dense, &t);
		carry_add(&pa->carry, &t);
		carry_add(&pa->cpu_carry[cpu], &t);
		taken = true;
		/* The merged delta gets exactly the buckets the CPU's share has: the counts of
		 * the shares always add up to the merged count. */
		for (uint32_t b = 0; b < LAT_HIST_NBUCKETS; b++)
			out->dense[b] += cd->dense[b];
		finish(&pa->cpu_carry[cpu], cd);
		if (cd->d.count)
			fn(arg, cpu, cd);
	}
	if (!taken)
		return none(out);
	finish(&pa->carry, out);
	return out->d.count;
}

/* Runs aggregated so far on all CPUs. */
uint64_t progagg__total(const struct progagg *pa)
{
	uint64_t n = 0;

	for (int cpu = 0; cpu < pa->ncpu; cpu++)
		n += __atomic_load_n(&pa->a[cpu].count, __ATOMIC_RELAXED);
	return n;
}
