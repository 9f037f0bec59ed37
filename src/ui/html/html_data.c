// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * html_data.c - read a replayed session into what the HTML report shows (html.h): the replay
 * is stepped one interval at a time, each series' interval histogram merged into its open
 * time column; a column's percentiles and heatmap cells are taken when it closes. Only the
 * model's active series are visited per interval, and only columns with runs are kept, so the
 * cost follows what the recording holds, not series x intervals.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "rec/flight.h"
#include "rec/replay.h"
#include "session/filter.h"
#include "session/replay_src.h"
#include "ui/html/html.h"

/* The report's series for model series se (position pos in the model), added when new. */
static struct html_series *series_at(struct html_data *d, const struct model *m, size_t pos)
{
	const struct series *se = &m->s[pos];

	while (d->nser <= pos) {
		struct html_series *h;

		if (array__grow((void **)&d->ser, &d->sercap, d->nser, sizeof(*d->ser)))
			return NULL;
		h = &d->ser[d->nser++];
		memset(h, 0, sizeof(*h));
		hist__init_empty(&h->acc);
	}
	d->ser[pos].kind = se->kind;
	return &d->ser[pos];
}

/* Add the last closed interval of series se to its report series' open column. */
static int add_interval(struct html_data *d, struct session *s, size_t pos)
{
	const struct series *se = &s->m->s[pos];
	struct html_series *h;
	const struct hist *hh;
	struct row r;

	if (se->kind == LAT_EV_PROG && !session__wanted(s, se))
		return 0;
	if (se->kind == LAT_EV_PROG_CPU) /* the per-CPU split is for the table, -b and --listen */
		return 0;
	if (se->kind == LAT_EV_SPAN_GRP || se->kind == LAT_EV_SPAN_PART)
		/* a span's breakdown or on-CPU split: the table, -b (its span's name) */
		return 0;
	model__row(s->m, se, false, &r);
	if (!r.has_rate || !r.count)
		return 0;
	h = series_at(d, s->m, pos);
	if (!h)
		return -ENOMEM;
	hh = model__row_hist(&r);
	if (hh && hist__merge(&h->acc, hh))
		return -ENOMEM;
	h->acc_dist = h->acc_dist || hh;
	h->acc_count += r.count;
	h->acc_time += r.avg_ns * (double)r.count;
	h->touched = true;
	return 0;
}

/* Close series h's open column col: a point, and the heatmap cells of its runs. */
static int close_column(struct html_series *h, uint32_t col)
{
	struct html_pt *p;
	uint32_t it = 0, b;
	uint64_t n;

	if (array__grow((void **)&h->pt, &h->ptcap, h->npt, sizeof(*h->pt)))
		return -ENOMEM;
	p = &h->pt[h->npt++];
	memset(p, 0, sizeof(*p));
	p->col = col;
	p->count = h->acc_count;
	p->avg_ns = h->acc_count ? h->acc_time / (double)h->acc_count : 0;
	p->dist = h->acc_dist && h->acc.count;
	if (p->dist) {
		p->p50 = hist__percentile(&h->acc, 0.50);
		p->p99 = hist__percentile(&h->acc, 0.99);
		p->p999 = hist__percentile(&h->acc, 0.999);
		p->max = h->acc.max;
	}
	while (p->dist && hist__next(&h->acc, &it, &b, &n)) {
		uint32_t row = (uint32_t)model__heat_row(hist__bucket_lo(b));
		struct html_cell *c = h->ncell ? &h->cell[h->ncell - 1] : NULL;

		if (c && c->col == col && c->row == row) {
			c->count += n; /* rows hold several buckets: ascending, so adjacent */
			continue;
		}
		if (array__grow((void **)&h->cell, &h->cellcap, h->ncell, sizeof(*h->cell)))
			return -ENOMEM;
		h->cell[h->ncell++] = (struct html_cell){ .col = col, .row = row, .count = n };
	}
	hist__reset(&h->acc);
	h->acc_count = 0;
	h->acc_time = 0;
	h->acc_dist = false;
	h->touched = false;
	return 0;
}

/* Add the session's loss counters of the last closed interval to column col. */
static void add_losses(struct html_data *d, const struct model *m, size_t col)
{
	uint64_t *l = d->loss[col];

	l[HL_RINGBUF] += m->c_last.rb_drops;
	l[HL_QUEUE] += m->c_last.queue_drops;
	l[HL_RECURSION] += m->c_last.recursion;
	l[HL_NEST] += m->c_last.nest;
	for (size_t i = 0; i < m->nctr_act; i++) {
		const struct model_counter *c = &m->ctr[m->ctr_act[i]];

		if (c->loss)
			l[HL_NAMED] += c->last;
	}
}

/* Apply interval k (1-based) and add it to column col. */
static int step(struct html_data *d, struct session *s, size_t k, size_t col)
{
	if (session__seek(s, k))
		return -ENOMEM;
	add_losses(d, s->m, col);
	for (size_t i = 0; i < s->m->nact; i++)
		if (add_interval(d, s, s->m->act[i]))
			return -ENOMEM;
	if (k % d->per_col && k != d->nivals)
		return 0;
	for (size_t i = 0; i < d->nser; i++)
		if (d->ser[i].touched && close_column(&d->ser[i], (uint32_t)col))
			return -ENOMEM;
	return 0;
}

/* The title of a series: its name; a helper's "program: helper map NAME". */
static void series_title(struct html_series *h, const struct model *m, const struct series *se)
{
	const struct series *prog = NULL;

	if (se->kind == LAT_EV_HELPER)
		prog = model__find((struct model *)m, LAT_EV_PROG, se->id, 0, 0);
	if (se->kind != LAT_EV_HELPER)
		snprintf(h->title, sizeof(h->title), "%s", se->name);
	else if (prog)
		snprintf(h->title, sizeof(h->title), "%s: %s map %s", prog->name, se->name,
			 se->sub[0] ? se->sub : "-");
	else
		snprintf(h->title, sizeof(h->title), "program %u: %s map %s", se->id, se->name,
			 se->sub[0] ? se->sub : "-");
	snprintf(h->type, sizeof(h->type), "%s", se->type);
}

/* Fill each series' identity and whole-recording figures from the final model. */
static void series_totals(struct html_data *d, const struct model *m)
{
	for (size_t i = 0; i < d->nser; i++) {
		struct html_series *h = &d->ser[i];
		const struct series *se = &m->s[i];
		const struct hist *hh;

		h->kind = se->kind;
		h->id = se->id;
		h->aux = se->aux;
		h->aux2 = se->aux2;
		series_title(h, m, se);
		model__row(m, se, true, &h->total);
		hh = model__row_hist(&h->total);
		h->nhist = hh ? hist__log2(hh, h->hist, MODEL_HEAT_ROWS) : 0;
		h->source = h->total.source;
		h->total.s = NULL;
		h->total.m = NULL;
		h->total.prog_name = NULL;
		hist__fini(&h->acc);
	}
}

/* qsort: series with runs first, by whole-recording p99 (then count, then ID), descending. */
static int by_p99(const void *pa, const void *pb)
{
	const struct html_series *a = pa, *b = pb;
	uint64_t pa99 = a->total.has_dist ? a->total.p99 : 0;
	uint64_t pb99 = b->total.has_dist ? b->total.p99 : 0;

	if ((a->npt > 0) != (b->npt > 0))
		return a->npt ? -1 : 1;
	if (pa99 != pb99)
		return pa99 < pb99 ? 1 : -1;
	if (a->total.count != b->total.count)
		return a->total.count < b->total.count ? 1 : -1;
	return (a->id > b->id) - (a->id < b->id);
}

/* Sort the series, drop those without runs, and keep at most HTML_MAX_SERIES. */
static void series_order(struct html_data *d)
{
	size_t keep;

	if (d->nser) /* qsort wants a valid pointer even for 0 elements */
		qsort(d->ser, d->nser, sizeof(*d->ser), by_p99);
	for (keep = 0; keep < d->nser && d->ser[keep].npt; keep++)
		;
	d->idle = d->nser - keep;
	if (keep > HTML_MAX_SERIES) {
		d->hidden = keep - HTML_MAX_SERIES;
		keep = HTML_MAX_SERIES;
	}
	for (size_t i = keep; i < d->nser; i++) {
		free(d->ser[i].pt);
		free(d->ser[i].cell);
	}
	d->nser = keep;
}

/* A flight dump's reason and the instant it fired, relative to t0 (clamped to the charts). */
static void describe_dump(struct html_data *d, const struct replay *rp, uint64_t t0)
{
	struct rec_dump dm;

	if (!rec__dump(replay__file(rp), &dm) || !d->nivals)
		return;
	d->dumped = true;
	rec__dump_sentence(&dm, replay__wall_ns(rp, dm.fired_ns), d->dump, sizeof(d->dump));
	d->fired_t_ns = dm.fired_ns > t0 ? dm.fired_ns - t0 : 0;
	if (d->fired_t_ns > d->duration_ns)
		d->fired_t_ns = d->duration_ns;
}

/* The recording's metadata and the columns' layout. */
static int describe(struct html_data *d, struct session *s)
{
	struct replay *rp = session__replay(s);
	const struct rec_file *rf = replay__file(rp);
	uint64_t t0;

	snprintf(d->path, sizeof(d->path), "%s", replay__path(rp));
	snprintf(d->host, sizeof(d->host), "%s", replay__host(rp));
	snprintf(d->kernel, sizeof(d->kernel), "%s", replay__kernel(rp));
	snprintf(d->damage, sizeof(d->damage), "%s", replay__damage(rp));
	snprintf(d->mode, sizeof(d->mode), "%s", model__mode_name(s->m->mode));
	d->interval_ns = replay__interval_ns(rp);
	d->nivals = replay__count(rp);
	d->per_col = (d->nivals + HTML_COLS - 1) / HTML_COLS;
	d->per_col = d->per_col ? d->per_col : 1;
	d->ncols = (d->nivals + d->per_col - 1) / d->per_col;
	d->col_t_ns = calloc(d->ncols + 1, sizeof(*d->col_t_ns));
	d->loss = calloc(d->ncols ? d->ncols : 1, sizeof(*d->loss));
	if (!d->col_t_ns || !d->loss)
		return -ENOMEM;
	t0 = d->nivals ? rec__ival_start(rf, 0) : 0;
	for (size_t c = 0; c < d->ncols; c++)
		d->col_t_ns[c] = rec__ival_start(rf, c * d->per_col) - t0;
	if (d->nivals)
		d->col_t_ns[d->ncols] = rec__ival_end(rf, d->nivals - 1) - t0;
	d->start_wall_ns = d->nivals ? replay__wall_ns(rp, t0) : 0;
	d->duration_ns = d->col_t_ns[d->ncols];
	describe_dump(d, rp, t0);
	return 0;
}

/* Read the replayed session into d. */
int html_data__collect(struct html_data *d, struct session *s, volatile sig_atomic_t *stop)
{
	char buf[64];
	int e;

	memset(d, 0, sizeof(*d));
	e = describe(d, s);
	for (size_t k = 1; !e && k <= d->nivals; k++) {
		if (*stop)
			return -EINTR;
		e = step(d, s, k, (k - 1) / d->per_col);
	}
	if (e)
		return e;
	/* The whole recording's figures: the model after its last interval. */
	d->totals = s->m->c_cum;
	d->lost_frames = model__counter(s->m, NULL, "lost_frames", true);
	snprintf(d->source, sizeof(d->source), "%s", model__source(s->m, buf, sizeof(buf)));
	snprintf(d->notice, sizeof(d->notice), "%s", model__notice(s->m));
	series_totals(d, s->m);
	series_order(d);
	return 0;
}

/* Free what d holds. */
void html_data__free(struct html_data *d)
{
	for (size_t i = 0; i < d->nser; i++) {
		hist__fini(&d->ser[i].acc);
		free(d->ser[i].pt);
		free(d->ser[i].cell);
	}
	free(d->ser);
	free(d->col_t_ns);
	free(d->loss);
	memset(d, 0, sizeof(d[0]));
}
