// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * compare_stat.c - pairing two sides of an A/B comparison (compare.h): rows matched by key,
 * each figure's change, the bootstrap over blocks of intervals that says how much of it is
 * sampling noise, the verdicts, and a side's heatmap over its whole recording.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/compare.h"

static const char *const stat_names[CMP__NSTAT] = { "rate", "p50", "p95", "p99", "p999",
						    "max" };
static const double stat_q[CMP__NSTAT] = { 0, 0.50, 0.95, 0.99, 0.999, 1 };
static const char *const status_names[CMP__NSTATUS] = { "unchanged", "slower", "faster",
							"changed",   "only_a", "only_b" };

/* A figure's name. */
const char *compare__stat_name(enum cmp_stat st)
{
	return (unsigned)st < CMP__NSTAT ? stat_names[st] : "?";
}

/* A verdict's name. */
const char *compare__status_name(enum cmp_status st)
{
	return (unsigned)st < CMP__NSTATUS ? status_names[st] : "?";
}

/* The quantile of a figure (1: max, 0: rate). */
double compare__stat_q(enum cmp_stat st)
{
	return (unsigned)st < CMP__NSTAT ? stat_q[st] : 0;
}

/* splitmix64: the next number of the fixed-seed stream. */
static uint64_t rng_next(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A draw in [0, n) (n > 0). */
static uint32_t rng_below(uint64_t *st, size_t n)
{
	return (uint32_t)(((rng_next(st) >> 32) * (uint64_t)n) >> 32);
}

/* CMP_RESAMPLES draws of nb blocks with replacement: w[r * nb + i] is how often draw r took
 * block i. NULL on ENOMEM. */
static uint32_t *draw_weights(size_t nb, uint64_t *st)
{
	uint32_t *w = calloc((size_t)CMP_RESAMPLES * (nb ? nb : 1), sizeof(*w));

	if (!w)
		return NULL;
	for (size_t r = 0; r < CMP_RESAMPLES; r++)
		for (size_t i = 0; i < nb; i++)
			w[r * nb + rng_below(st, nb)]++;
	return w;
}

/* A series' buckets made compact for the draws: the distinct bucket indexes (u, ascending),
 * each pair's position in u, and an accumulator per distinct bucket. */
struct prep {
	uint32_t *u, *pc;
	uint64_t *acc;
	size_t nu;
};

/* qsort comparator for uint32_t. */
static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

/* Build the compact buckets of cs; 0 or -ENOMEM. */
static int prep_init(struct prep *p, const struct cmp_series *cs)
{
	size_t n = cs->np ? cs->np : 1;

	memset(p, 0, sizeof(*p));
	p->u = malloc(n * sizeof(*p->u));
	p->pc = malloc(n * sizeof(*p->pc));
	p->acc = malloc(n * sizeof(*p->acc));
	if (!p->u || !p->pc || !p->acc)
		return -ENOMEM;
	if (cs->np) /* a counts-only series has no buckets (and bidx may be NULL) */
		memcpy(p->u, cs->bidx, cs->np * sizeof(*p->u));
	qsort(p->u, cs->np, sizeof(*p->u), cmp_u32);
	for (size_t i = 0; i < cs->np; i++)
		if (!p->nu || p->u[p->nu - 1] != p->u[i])
			p->u[p->nu++] = p->u[i];
	for (size_t i = 0; i < cs->np; i++)
		p->pc[i] = (uint32_t)((uint32_t *)bsearch(&cs->bidx[i], p->u, p->nu,
							  sizeof(*p->u), cmp_u32) - p->u);
	return 0;
}

/* Free the compact buckets. */
static void prep_fini(struct prep *p)
{
	free(p->u);
	free(p->pc);
	free(p->acc);
}

/* Representative of bucket b, as hist__percentile takes it: its midpoint, rounded down. */
static uint64_t bucket_mid(uint32_t b)
{
	uint32_t shift = lat_hist_bucket_shift(b);

	return lat_hist_bucket_lo(b) + (shift ? (1ull << (shift - 1)) - 1 : 0);
}

/* The percentiles of the accumulated draw (total runs n, exact min and max), as
 * hist__percentile computes them: the midpoint of the bucket of rank ceil(q * n), clamped. */
static void draw_pcts(const struct prep *p, uint64_t n, uint64_t min, uint64_t max,
		      double v[CMP__NSTAT])
{
	uint64_t seen = 0;
	size_t i = 0;

	for (int st = CMP_P50; st < CMP_MAX; st++) {
		double x = stat_q[st] * (double)n;
		uint64_t rank = (uint64_t)x, mid;

		rank += (double)rank < x;
		rank = rank ? rank : 1;
		while (i < p->nu && seen + p->acc[i] < rank)
			seen += p->acc[i++];
		mid = i < p->nu ? bucket_mid(p->u[i]) : max;
		mid = mid < min ? min : mid;
		v[st] = (double)(mid > max ? max : mid);
	}
	v[CMP_MAX] = (double)max;
}

/* The figures of series cs of side sd over the blocks of draw w (weights per block): ok[]
 * says which are defined (a rate needs time, percentiles runs with a histogram). */
static void draw_figs(const struct cmp_side *sd, const struct cmp_series *cs, struct prep *p,
		      const uint32_t *w, double v[CMP__NSTAT], bool ok[CMP__NSTAT])
{
	uint64_t runs = 0, dur = 0, hn = 0, min = UINT64_MAX, max = 0;

	for (size_t i = 0; i < sd->nblocks; i++)
		dur += w[i] * sd->block_ns[i];
	memset(p->acc, 0, (p->nu ? p->nu : 1) * sizeof(*p->acc));
	for (size_t k = 0; k < cs->nb; k++) {
		const struct cmp_block *bl = &cs->b[k];
		uint64_t m = w[bl->blk];

		if (!m)
			continue;
		runs += m * bl->count;
		if (!bl->n)
			continue;
		min = bl->min < min ? bl->min : min;
		max = bl->max > max ? bl->max : max;
		for (uint32_t j = bl->off; j < bl->off + bl->n; j++) {
			p->acc[p->pc[j]] += m * cs->bcnt[j];
			hn += m * cs->bcnt[j];
		}
	}
	ok[CMP_RATE] = dur > 0;
	v[CMP_RATE] = dur ? (double)runs / ((double)dur / 1e9) : 0;
	for (int st = CMP_P50; st < CMP__NSTAT; st++)
		ok[st] = hn > 0;
	if (hn)
		draw_pcts(p, hn, min, max, v);
}

/* The change from a to b in percent; false when undefined (a is 0 and b is not). */
static bool change_of(double a, double b, double *pct)
{
	if (a == 0 && b == 0) {
		*pct = 0;
		return true;
	}
	if (a <= 0)
		return false;
	*pct = (b / a - 1) * 100;
	return true;
}

/* CMP_NOISE_Z standard deviations of n changes (INFINITY when fewer than half the draws gave
 * one). */
static double noise_of(double *ch, size_t n)
{
	double mean = 0, var = 0;

	if (n < CMP_RESAMPLES / 2)
		return INFINITY;
	for (size_t i = 0; i < n; i++)
		mean += ch[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		var += (ch[i] - mean) * (ch[i] - mean);
	return CMP_NOISE_Z * sqrt(var / (double)(n - 1));
}

/* The draws' changes of a matched row, in ch[stat * CMP_RESAMPLES ...], counts in nch[].
 * Returns 0 or -ENOMEM. */
static int row_draws(const struct compare *c, const struct cmp_row *r, const uint32_t *wa,
		     const uint32_t *wb, double *ch, size_t nch[CMP__NSTAT])
{
	struct prep pa, pb;
	int e = -ENOMEM;

	memset(&pa, 0, sizeof(pa));
	memset(&pb, 0, sizeof(pb));
	memset(nch, 0, CMP__NSTAT * sizeof(*nch));
	if (prep_init(&pa, r->sa) || prep_init(&pb, r->sb))
		goto out;
	for (size_t k = 0; k < CMP_RESAMPLES; k++) {
		double va[CMP__NSTAT], vb[CMP__NSTAT], pct;
		bool oka[CMP__NSTAT], okb[CMP__NSTAT];

		draw_figs(c->a, r->sa, &pa, wa + k * c->a->nblocks, va, oka);
		draw_figs(c->b, r->sb, &pb, wb + k * c->b->nblocks, vb, okb);
		for (int st = 0; st < CMP__NSTAT; st++)
			if (oka[st] && okb[st] && change_of(va[st], vb[st], &pct))
				ch[st * CMP_RESAMPLES + nch[st]++] = pct;
	}
	e = 0;
out:
	prep_fini(&pa);
	prep_fini(&pb);
	return e;
}

/* The observed figures of one side: over its whole recording, as `-r FILE -b` reports them
 * (percentiles and max from the merged histogram, the rate over the recorded time). */
static void side_figs(const struct cmp_side *sd, const struct cmp_series *cs, double v[CMP__NSTAT],
		      bool ok[CMP__NSTAT])
{
	ok[CMP_RATE] = sd->dur_ns > 0 && cs->has_count;
	v[CMP_RATE] = sd->dur_ns ? (double)cs->count / ((double)sd->dur_ns / 1e9) : 0;
	for (int st = CMP_P50; st < CMP__NSTAT; st++) {
		ok[st] = cs->has_dist && cs->h.count;
		v[st] = ok[st] ? (double)hist__percentile(&cs->h, stat_q[st]) : 0;
	}
}

/* The verdict of a matched row from its significant figures. */
static enum cmp_status verdict(const struct cmp_row *r)
{
	bool up = false, down = false, rate = r->f[CMP_RATE].significant;

	for (int st = CMP_P50; st < CMP__NSTAT; st++) {
		if (!r->f[st].significant)
			continue;
		up |= r->f[st].change_pct > 0;
		down |= r->f[st].change_pct < 0;
	}
	if (up && down)
		return CMP_CHANGED;
	if (up || down)
		return up ? CMP_SLOWER : CMP_FASTER;
	return rate ? CMP_CHANGED : CMP_UNCHANGED;
}

/* Fill row r's figures: both sides', the changes, the noise from the draws (wa, wb) and the
 * verdict; ch has room for CMP__NSTAT * CMP_RESAMPLES changes. Returns 0 or -ENOMEM. */
static int row_figs(const struct compare *c, struct cmp_row *r, const uint32_t *wa,
		    const uint32_t *wb, double *ch)
{
	double va[CMP__NSTAT] = { 0 }, vb[CMP__NSTAT] = { 0 };
	bool oka[CMP__NSTAT] = { false }, okb[CMP__NSTAT] = { false };
	size_t nch[CMP__NSTAT] = { 0 };

	if (r->sa)
		side_figs(c->a, r->sa, va, oka);
	if (r->sb)
		side_figs(c->b, r->sb, vb, okb);
	r->count_a = r->sa ? r->sa->count : 0;
	r->count_b = r->sb ? r->sb->count : 0;
	r->has_count_a = r->sa && r->sa->has_count;
	r->has_count_b = r->sb && r->sb->has_count;
	if (r->sa && r->sb && row_draws(c, r, wa, wb, ch, nch))
		return -ENOMEM;
	for (int st = 0; st < CMP__NSTAT; st++) {
		struct cmp_fig *f = &r->f[st];

		*f = (struct cmp_fig){ .has_a = oka[st], .has_b = okb[st], .a = va[st], .b = vb[st] };
		f->err_pct = st == CMP_RATE || st == CMP_MAX ? 0 : c->bucket_err_pct;
		f->has_change = oka[st] && okb[st] && change_of(va[st], vb[st], &f->change_pct);
		if (!f->has_change)
			continue;
		f->noise_pct = noise_of(ch + st * CMP_RESAMPLES, nch[st]);
		/* The max is one run: its change is shown, never significant on its own. */
		f->significant = st != CMP_MAX && fabs(f->change_pct) > f->err_pct &&
				 fabs(f->change_pct) > f->noise_pct;
	}
	r->status = !r->sb ? CMP_ONLY_A : !r->sa ? CMP_ONLY_B : verdict(r);
	return 0;
}

/* qsort: series pointers by key. */
static int by_key(const void *pa, const void *pb)
{
	const struct cmp_series *a = *(const struct cmp_series *const *)pa;
	const struct cmp_series *b = *(const struct cmp_series *const *)pb;

	return cmp__key_order(&a->key, &b->key);
}

/* A side's series sorted by key (caller frees); NULL on ENOMEM. */
static const struct cmp_series **sorted(const struct cmp_side *sd)
{
	const struct cmp_series **v = malloc((sd->n ? sd->n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < sd->n; i++)
		v[i] = &sd->s[i];
	qsort(v, sd->n, sizeof(*v), by_key);
	return v;
}

/* True when keys a and b are the same but for the attach point, and one side does not know
 * it (a recording before format 1.5, or a program whose point was not found). */
static bool same_but_unknown_attach(const struct cmp_key *a, const struct cmp_key *b)
{
	struct cmp_key x = *a;

	if (a->attach[0] && b->attach[0])
		return false;
	memcpy(x.attach, b->attach, sizeof(x.attach));
	return !cmp__key_order(&x, b);
}

/* Rows on one side only whose key differs from a row on the other side only by an attach
 * point one of them does not know are one program: paired (the A side's key stays), and the
 * B row removed. */
static void pair_unknown_attach(struct compare *c)
{
	size_t k = 0;

	for (size_t i = 0; i < c->n; i++) {
		struct cmp_row *r = &c->rows[i];

		if (r->sb || !r->sa)
			continue;
		for (size_t j = 0; j < c->n; j++) {
			struct cmp_row *q = &c->rows[j];

			if (q->sa || !q->sb || !same_but_unknown_attach(&r->key, &q->key))
				continue;
			r->sb = q->sb;
			if (!r->key.attach[0])
				r->key = q->key;
			q->sb = NULL; /* an empty row: dropped below */
			break;
		}
	}
	for (size_t i = 0; i < c->n; i++)
		if (c->rows[i].sa || c->rows[i].sb)
			c->rows[k++] = c->rows[i];
	c->n = k;
}

/* Match the sides' keys into c->rows, in key order (a merge of the two sorted lists). */
static int match(struct compare *c)
{
	const struct cmp_series **va = sorted(c->a), **vb = sorted(c->b);
	size_t i = 0, j = 0;
	int e = -ENOMEM;

	c->rows = calloc(c->a->n + c->b->n + 1, sizeof(*c->rows));
	if (!va || !vb || !c->rows)
		goto out;
	while (i < c->a->n || j < c->b->n) {
		struct cmp_row *r = &c->rows[c->n++];
		int d = i == c->a->n ? 1 : j == c->b->n ? -1 : cmp__key_order(&va[i]->key,
									       &vb[j]->key);

		r->sa = d <= 0 ? va[i++] : NULL;
		r->sb = d >= 0 ? vb[j++] : NULL;
		r->key = r->sa ? r->sa->key : r->sb->key;
	}
	pair_unknown_attach(c);
	e = 0;
out:
	free(va);
	free(vb);
	return e;
}

/* Pair sides a and b into c. */
int compare__run(struct compare *c, const struct cmp_side *a, const struct cmp_side *b)
{
	double e = 1.0 / (1u << HIST_SUB_BITS), *ch = NULL;
	uint64_t seed = CMP_SEED;
	uint32_t *wa = NULL, *wb = NULL;
	int ret = -ENOMEM;

	memset(c, 0, sizeof(*c));
	c->a = a;
	c->b = b;
	c->bucket_err_pct = ((1 + e) / (1 - e) - 1) * 100;
	wa = draw_weights(a->nblocks, &seed);
	wb = draw_weights(b->nblocks, &seed);
	ch = malloc(CMP__NSTAT * CMP_RESAMPLES * sizeof(*ch));
	if (!wa || !wb || !ch || match(c))
		goto out;
	for (size_t i = 0; i < c->n; i++)
		if (row_figs(c, &c->rows[i], wa, wb, ch))
			goto out;
	ret = 0;
out:
	free(wa);
	free(wb);
	free(ch);
	if (ret)
		compare__fini(c);
	return ret;
}

/* Release the rows. */
void compare__fini(struct compare *c)
{
	free(c->rows);
	c->rows = NULL;
	c->n = 0;
}

/* The log2 row of the run of rank `rank` among the n rows' counts cnt (lo first). */
static uint8_t heat_rank_row(const uint32_t *cnt, int n, uint64_t rank)
{
	uint64_t seen = 0;

	for (int i = 0; i < n; i++) {
		seen += cnt[i];
		if (seen >= rank)
			return (uint8_t)i;
	}
	return (uint8_t)(n ? n - 1 : 0);
}

/* Fill slot sl from a column's counts per log2 row (row[MODEL_HEAT_ROWS]). */
static void heat_fill(struct heat_slot *sl, uint32_t *row)
{
	int lo = 0, hi = MODEL_HEAT_ROWS - 1;
	uint64_t total = 0;

	memset(sl, 0, sizeof(*sl));
	while (lo <= hi && !row[lo])
		lo++;
	while (hi >= lo && !row[hi])
		hi--;
	if (lo > hi)
		return;
	for (int r = lo; r <= hi; r++)
		total += row[r];
	sl->cnt = row + lo;
	sl->lo = (uint8_t)lo;
	sl->n = sl->cap = (uint8_t)(hi - lo + 1);
	sl->p50 = (uint8_t)(lo + heat_rank_row(sl->cnt, sl->n, (total + 1) / 2));
	sl->p99 = (uint8_t)(lo + heat_rank_row(sl->cnt, sl->n, total - total / 100));
}

/* The heatmap of series se of side sd over its whole recording. */
size_t compare__heat(const struct cmp_side *sd, const struct cmp_series *se, size_t cols,
		     struct heat_slot *out, uint32_t *cnt)
{
	size_t n = cols < sd->nblocks ? cols : sd->nblocks;

	if (!n)
		return 0;
	memset(cnt, 0, n * MODEL_HEAT_ROWS * sizeof(*cnt));
	for (size_t k = 0; k < se->nb; k++) {
		const struct cmp_block *bl = &se->b[k];
		uint32_t *row = cnt + (size_t)bl->blk * n / sd->nblocks * MODEL_HEAT_ROWS;

		for (uint32_t j = bl->off; j < bl->off + bl->n; j++) {
			uint32_t *c = &row[model__heat_row(hist__bucket_lo(se->bidx[j]))];
			uint64_t v = (uint64_t)*c + se->bcnt[j];

			*c = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		}
	}
	for (size_t i = 0; i < n; i++)
		heat_fill(&out[i], cnt + i * MODEL_HEAT_ROWS);
	return n;
}
