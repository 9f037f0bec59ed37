// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * perf_src.c - a perf.data file of EventHeader tracepoints as a recording in memory (see
 * perf_src.h). The samples come sorted by time across CPUs (collect/perfdata.c), so the
 * pairing sees each start before its stop, as it does live once its held stops found their
 * start; each interval's end is a pass end, as each read pass is live.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/ehpair.h"
#include "collect/perfdata.h"
#include "model/model.h"
#include "rec/rec.h"
#include "rec/recorder.h"
#include "session/kind_eh.h"
#include "session/perf_src.h"

#define COMMON_LEN 8 /* the tracepoint's common fields before the event (as live) */

/* The conversion: the pairing feeds the model, closed intervals go to the recording. */
struct conv {
	struct pdata pd;
	struct ehpair *p;
	int *tp_of; /* per attr: its ehpair tracepoint, or -1 */
	struct model *m;
	struct rec_enc *enc;
	struct rec_buf b;
	uint32_t nseries;
	int oom;
	char notice[320];
};

/* Give the series the pairing named since the last call theirs in the model. */
static void new_series(struct conv *c)
{
	uint32_t n = ehpair__nseries(c->p);

	for (; c->nseries < n; c->nseries++) {
		struct ehpair_info in;

		ehpair__series_info(c->p, c->nseries, &in);
		if (kind_eh__series(c->m, c->nseries, &in,
				    in.parent >= 0 ? ehpair__series_name(c->p, (uint32_t)in.parent)
						   : NULL))
			c->oom = 1;
	}
}

/* One paired activity into its series. */
static void on_sample(void *arg, const struct ehpair_sample *s)
{
	struct conv *c = arg;
	struct lat_event e;

	if (s->series >= c->nseries)
		new_series(c);
	e = kind_eh__event(s);
	if (model__add_event(c->m, &e, SRC_FENTRY))
		c->oom = 1;
}

/* Each named EventHeader tracepoint of the file becomes a tracepoint of the pairing, every
 * activity on it; others are left out (counted in the notice). 0 or -EINVAL (none). */
static int add_tps(struct conv *c, char *err, size_t errlen)
{
	int ntp = 0, other = 0, over = 0;

	c->tp_of = malloc(c->pd.nattr * sizeof(*c->tp_of));
	if (!c->tp_of)
		return -ENOMEM;
	for (uint32_t i = 0; i < c->pd.nattr; i++) {
		const struct pdata_attr *a = &c->pd.attr[i];
		int t = a->name[0] ? ehpair__add(c->p, a->name, NULL, NULL) : -EINVAL;

		c->tp_of[i] = t >= 0 ? t : -1;
		ntp += t >= 0;
		other += t == -EINVAL;
		over += t == -E2BIG;
	}
	if (!ntp) {
		snprintf(err, errlen,
			 "none of its %u events is an EventHeader tracepoint (Provider_L<level>K"
			 "<keyword>, named in its event descriptions): record them with perf-collect",
			 c->pd.nattr);
		return -EINVAL;
	}
	if (other || over)
		snprintf(c->notice, sizeof(c->notice),
			 "perf.data: %d events are not EventHeader tracepoints and %d past the %d "
			 "lattop pairs are left out",
			 other, over, EHPAIR_TP_MAX);
	return 0;
}

/* Close the interval ending at end: a pass end, the counters, the model, the record. */
static void close_interval(struct conv *c, uint64_t end)
{
	struct ehpair_loss l;

	ehpair__pass_end(c->p, end);
	new_series(c);
	ehpair__loss(c->p, &l);
	kind_eh__counters(c->m, &l);
	if (model__close_interval(c->m, end))
		c->oom = 1;
	rec_enc__interval(c->enc, c->m, "", 0, &c->b);
}

/* A clock value the recording's metadata can hold (below 2^63), or 0. */
static uint64_t meta_ns(uint64_t v)
{
	return v <= INT64_MAX ? v : 0;
}

/* The recording's header: the file's host, kernel and clock; segments mode, -d. */
static int header(struct conv *c, uint64_t interval_ns)
{
	struct rec_meta meta = {
	    .m = c->m,
	    .mode_name = model__mode_name(MODE_SEGMENTS),
	    .filter = "",
	    .interval_ns = interval_ns,
	    .host = c->pd.host[0] ? c->pd.host : "?",
	    .kernel = c->pd.kernel[0] ? c->pd.kernel : "?",
	};
	char *json;

	if (c->pd.has_clock && meta_ns(c->pd.wall_ns) && meta_ns(c->pd.clock_ns)) {
		meta.realtime_ns = c->pd.wall_ns;
		meta.monotonic_ns = c->pd.clock_ns;
	}
	json = recorder__meta_json(&meta);
	if (!json)
		return -ENOMEM;
	rec__header(&c->b, json);
	free(json);
	return 0;
}

/* The model the intervals are closed in, starting at t0. */
static int new_model(struct conv *c, uint64_t t0)
{
	c->m = model__new(t0);
	if (!c->m)
		return -ENOMEM;
	c->m->mode = MODE_SEGMENTS;
	snprintf(c->m->source, sizeof(c->m->source), "perf.data");
	snprintf(c->m->notice, sizeof(c->m->notice), "%s",
		 c->pd.damage[0] ? c->pd.damage : c->notice);
	return 0;
}

/* Every sample in time order into the pairing, the intervals closed as time passes them. */
static int feed(struct conv *c, uint64_t interval_ns)
{
	const struct pdata *pd = &c->pd;
	uint64_t t0 = pd->nev ? pd->ev[0].time : 0, end = t0 + interval_ns;

	ehpair__add_lost(c->p, pd->lost + pd->unknown);
	for (size_t i = 0; i < pd->nev && !c->oom; i++) {
		const struct pdata_ev *ev = &pd->ev[i];
		int tp = c->tp_of[ev->attr];

		while (ev->time >= end) {
			close_interval(c, end);
			end += interval_ns;
		}
		if (tp < 0)
			continue;
		if (ev->raw_len < COMMON_LEN) {
			ehpair__add_lost(c->p, 1);
			continue;
		}
		ehpair__event(c->p, tp, pd->data + ev->raw_off + COMMON_LEN,
			      ev->raw_len - COMMON_LEN, ev->time, ev->tid);
	}
	/* The file's end: the stops still held after this pass found no start (live, the
	 * session's last passes do the same). */
	ehpair__pass_end(c->p, end);
	close_interval(c, end);
	return c->oom || c->b.oom ? -ENOMEM : 0;
}

/* The time span of the samples in intervals: at most PERF_SRC_IVAL_MAX. */
static int check_span(const struct pdata *pd, uint64_t interval_ns, char *err, size_t errlen)
{
	uint64_t span = pd->nev ? pd->ev[pd->nev - 1].time - pd->ev[0].time : 0;

	if (span / interval_ns < PERF_SRC_IVAL_MAX && pd->ev[0].time <= UINT64_MAX - span -
							     2 * interval_ns)
		return 0;
	snprintf(err, errlen,
		 "its events span %.0f s: more than %d intervals of -d %.3f s; give a longer -d",
		 (double)span / 1e9, PERF_SRC_IVAL_MAX, (double)interval_ns / 1e9);
	return -EINVAL;
}

/* Free what the conversion holds (the recording's bytes too unless handed out). */
static void conv_fini(struct conv *c)
{
	ehpair__free(c->p);
	model__free(c->m);
	rec_enc__free(c->enc);
	rec_buf__fini(&c->b);
	free(c->tp_of);
	pdata__fini(&c->pd);
}

/* Convert a perf.data file into a recording. */
int perf_src__convert(const uint8_t *data, size_t size, uint64_t interval_ns,
		      uint64_t max_age_ns, uint8_t **out, size_t *outlen, char *err,
		      size_t errlen)
{
	struct conv c = { 0 };
	int e = pdata__open(&c.pd, data, size, err, errlen);

	if (e)
		return e;
	c.p = ehpair__new(max_age_ns, on_sample, &c);
	c.enc = rec_enc__new();
	e = c.p && c.enc ? add_tps(&c, err, errlen) : -ENOMEM;
	if (!e && c.pd.nev)
		e = check_span(&c.pd, interval_ns, err, errlen);
	if (!e)
		e = new_model(&c, c.pd.nev ? c.pd.ev[0].time : 0);
	if (!e)
		e = header(&c, interval_ns);
	if (!e)
		e = feed(&c, interval_ns);
	if (e == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (!e) {
		snprintf(err, errlen, "%s", c.pd.damage);
		*out = c.b.p;
		*outlen = c.b.len;
		c.b.p = NULL;
	}
	conv_fini(&c);
	return e;
}
