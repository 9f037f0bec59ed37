// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * compare.c - one side of an A/B comparison (compare.h): the series of a recording under the
 * keys that survive a reload, each with its whole-recording histogram and its runs and
 * buckets per block of intervals (the bootstrap's units). compare_stat.c pairs two sides.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "model/compare.h"

/* Create a side for a recording of nivals intervals. */
struct cmp_side *cmp_side__new(size_t nivals)
{
	struct cmp_side *sd = calloc(1, sizeof(*sd));

	if (!sd)
		return NULL;
	sd->nivals = nivals;
	sd->per_block = nivals > CMP_MAX_BLOCKS ? (nivals + CMP_MAX_BLOCKS - 1) / CMP_MAX_BLOCKS
						: 1;
	sd->nblocks = (nivals + sd->per_block - 1) / sd->per_block;
	sd->block_ns = calloc(sd->nblocks ? sd->nblocks : 1, sizeof(*sd->block_ns));
	if (!sd->block_ns) {
		free(sd);
		return NULL;
	}
	return sd;
}

/* Free a side. */
void cmp_side__free(struct cmp_side *sd)
{
	if (!sd)
		return;
	for (size_t i = 0; i < sd->n; i++) {
		struct cmp_series *cs = &sd->s[i];

		hist__fini(&cs->h);
		hist__fini(&cs->open);
		free(cs->b);
		free(cs->bidx);
		free(cs->bcnt);
	}
	free(sd->s);
	free(sd->map);
	free(sd->block_ns);
	free(sd);
}

/* Put block k of se into h. */
int cmp_series__block_hist(const struct cmp_series *se, size_t k, struct hist *h)
{
	const struct cmp_block *bl = &se->b[k];
	uint64_t n = 0;

	hist__reset(h);
	for (uint32_t j = bl->off; j < bl->off + bl->n; j++)
		n += se->bcnt[j];
	if (hist__add_sparse(h, se->bidx + bl->off, se->bcnt + bl->off, bl->n))
		return -ENOMEM;
	h->count = n;
	if (n) {
		h->min = bl->min;
		h->max = bl->max;
	}
	return 0;
}

/* The key of series se of model m. */
void cmp__key(const struct model *m, const struct series *se, struct cmp_key *k)
{
	memset(k, 0, sizeof(*k));
	k->kind = se->kind;
	snprintf(k->name, sizeof(k->name), "%s", se->name);
	if (se->kind == LAT_EV_PROG) {
		snprintf(k->type, sizeof(k->type), "%s", se->type);
		if (se->attr)
			model__attr_attach(se->attr, k->attach, sizeof(k->attach));
	} else if (se->kind == LAT_EV_HELPER) {
		/* model__find does not change the model; it takes it non-const for the hash. */
		const struct series *p = model__find((struct model *)m, LAT_EV_PROG, se->id, 0, 0);

		snprintf(k->prog, sizeof(k->prog), "%s", p ? p->name : "");
		snprintf(k->sub, sizeof(k->sub), "%s", se->sub);
	}
}

/* Order of two keys: kind, then name, type, program, map. */
int cmp__key_order(const struct cmp_key *a, const struct cmp_key *b)
{
	int d;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if ((d = strcmp(a->name, b->name)) || (d = strcmp(a->type, b->type)) ||
	    (d = strcmp(a->prog, b->prog)) || (d = strcmp(a->sub, b->sub)))
		return d;
	return strcmp(a->attach, b->attach);
}

/* The side's series for model position pos (found by key, or added); NULL on ENOMEM. The
 * pointer lasts until the next series is added. */
static struct cmp_series *side_series(struct cmp_side *sd, const struct model *m, size_t pos)
{
	struct cmp_series *cs;
	struct cmp_key k;

	if (sd->map[pos])
		return &sd->s[sd->map[pos] - 1];
	cmp__key(m, &m->s[pos], &k);
	for (size_t i = 0; i < sd->n; i++)
		if (!cmp__key_order(&sd->s[i].key, &k)) {
			sd->map[pos] = (uint32_t)i + 1;
			return &sd->s[i];
		}
	if (array__grow((void **)&sd->s, &sd->cap, sd->n, sizeof(*sd->s)))
		return NULL;
	cs = &sd->s[sd->n];
	memset(cs, 0, sizeof(*cs));
	cs->key = k;
	hist__init_empty(&cs->h);
	hist__init_empty(&cs->open);
	sd->map[pos] = (uint32_t)++sd->n;
	return cs;
}

/* Move the open block of cs into its blocks and bucket pairs; 0 or -ENOMEM. */
static int flush(struct cmp_series *cs)
{
	struct cmp_block *bl;
	uint32_t it = 0, b;
	uint64_t n;

	if (!cs->open_used)
		return 0;
	if (array__grow((void **)&cs->b, &cs->bcap, cs->nb, sizeof(*cs->b)))
		return -ENOMEM;
	bl = &cs->b[cs->nb];
	*bl = (struct cmp_block){ .blk = cs->open_blk, .off = (uint32_t)cs->np,
				  .count = cs->open_count };
	if (cs->open.count) {
		bl->min = cs->open.min;
		bl->max = cs->open.max;
	}
	while (hist__next(&cs->open, &it, &b, &n)) {
		size_t cap = cs->pcap;

		if (array__grow((void **)&cs->bidx, &cap, cs->np, sizeof(*cs->bidx)) ||
		    array__grow((void **)&cs->bcnt, &cs->pcap, cs->np, sizeof(*cs->bcnt)))
			return -ENOMEM;
		cs->bidx[cs->np] = b;
		cs->bcnt[cs->np++] = n;
		bl->n++;
	}
	cs->nb++;
	hist__fini(&cs->open);
	hist__init_empty(&cs->open);
	cs->open_count = 0;
	cs->open_used = false;
	return 0;
}

/* Add one interval's runs (and histogram h, or NULL) of a series in block blk. */
static int series_take(struct cmp_series *cs, uint32_t blk, uint64_t count, const struct hist *h)
{
	if (cs->open_used && cs->open_blk != blk && flush(cs))
		return -ENOMEM;
	cs->open_blk = blk;
	cs->open_used = true;
	cs->open_count += count;
	cs->count += count;
	if (h && h->count) {
		/* The whole recording's summary now, its buckets from the blocks at the end
		 * (merging every interval into one growing histogram cost half the run). */
		cs->has_dist = true;
		if (hist__merge(&cs->open, h))
			return -ENOMEM;
		cs->h.count += h->count;
		cs->h.sum = __builtin_add_overflow(cs->h.sum, h->sum, &cs->h.sum) ? UINT64_MAX
										   : cs->h.sum;
		cs->h.clamped += h->clamped;
		cs->h.min = h->min < cs->h.min ? h->min : cs->h.min;
		cs->h.max = h->max > cs->h.max ? h->max : cs->h.max;
	}
	return 0;
}

/* Make the position map cover n series of the model; 0 or -ENOMEM. */
static int map_cover(struct cmp_side *sd, size_t n)
{
	uint32_t *nm;

	if (n <= sd->nmap)
		return 0;
	nm = realloc(sd->map, n * sizeof(*nm));
	if (!nm)
		return -ENOMEM;
	memset(nm + sd->nmap, 0, (n - sd->nmap) * sizeof(*nm));
	sd->map = nm;
	sd->nmap = n;
	return 0;
}

/* Take the interval m has just closed. */
int cmp_side__add_interval(struct cmp_side *sd, const struct model *m)
{
	size_t blk;
	uint64_t ns = m->last_end_ns - m->last_start_ns;

	if (!sd->nblocks)
		return -EINVAL;
	blk = sd->added / sd->per_block;
	if (blk >= sd->nblocks)
		blk = sd->nblocks - 1; /* more intervals than announced: the last block takes them */
	sd->block_ns[blk] += ns;
	sd->dur_ns += ns;
	sd->added++;
	if (map_cover(sd, m->n))
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++) {
		struct cmp_series *cs;
		const struct hist *h;
		struct row r;

		/* A program's share on one CPU, a span's breakdown group: not compared. */
		if (m->s[i].kind == LAT_EV_PROG_CPU || m->s[i].kind == LAT_EV_SPAN_GRP)
			continue;
		if (m->s[i].kind == LAT_EV_SPAN_PART) /* a span's on-CPU split: not compared */
			continue;
		cs = side_series(sd, m, i);
		if (!cs)
			return -ENOMEM;
		model__row(m, &m->s[i], false, &r);
		h = r.has_dist ? model__row_hist(&r) : NULL;
		cs->has_count |= r.has_rate;
		if (!r.count && !(h && h->count))
			continue;
		if (series_take(cs, (uint32_t)blk, r.count, h))
			return -ENOMEM;
	}
	return 0;
}

/* Give cs->h (whose count, sum, min and max are set) the buckets of all its blocks: summed in
 * acc (hist__nbuckets() zeros, left zeroed), then added as sorted pairs in idx/cnt (room for
 * as many). Returns 0 or -ENOMEM. */
static int whole_hist(struct cmp_series *cs, uint64_t *acc, uint32_t *idx, uint64_t *cnt)
{
	size_t n = 0;
	int e;

	for (size_t j = 0; j < cs->np; j++)
		acc[cs->bidx[j]] += cs->bcnt[j];
	for (uint32_t b = 0; b < hist__nbuckets(); b++) {
		if (!acc[b])
			continue;
		idx[n] = b;
		cnt[n++] = acc[b];
		acc[b] = 0;
	}
	e = hist__add_sparse(&cs->h, idx, cnt, n);
	return e;
}

/* Finish a side: the open blocks go in, each series gets its whole-recording buckets. */
int cmp_side__finish(struct cmp_side *sd)
{
	size_t nb = hist__nbuckets();
	uint64_t *acc = calloc(nb, sizeof(*acc)), *cnt = malloc(nb * sizeof(*cnt));
	uint32_t *idx = malloc(nb * sizeof(*idx));
	int e = acc && cnt && idx ? 0 : -ENOMEM;

	for (size_t i = 0; i < sd->n && !e; i++) {
		e = flush(&sd->s[i]);
		if (!e && sd->s[i].has_dist)
			e = whole_hist(&sd->s[i], acc, idx, cnt);
	}
	free(acc);
	free(cnt);
	free(idx);
	return e;
}
