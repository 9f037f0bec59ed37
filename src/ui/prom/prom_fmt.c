// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom_fmt.c - render a snapshot as Prometheus text, OpenMetrics text or delimited protobuf
 * (encoded by protobuf-c from the io.prometheus.client metrics.proto, generated at build time).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/prometheus/client/metrics.pb-c.h"
#include "rec/rec.h"
#include "ui/prom/prom_fmt.h"

/* Output goes into a struct rec_buf (rec/rec.h): its oom sticks once an allocation fails. */

/* Append n bytes. */
static void put(struct rec_buf *b, const void *s, size_t n)
{
	if (rec_buf__room(b, n)) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	}
}

/* Append a string. */
static void puts_(struct rec_buf *b, const char *s) { put(b, s, strlen(s)); }

/* Append printf output. */
static void __attribute__((format(printf, 2, 3))) bprintf(struct rec_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !rec_buf__room(b, (size_t)n + 1))
		return;
	va_start(ap, fmt);
	vsnprintf((char *)b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* A float in the shortest form that reads back to the same double (Go's ParseFloat and
 * Prometheus accept %g forms; +Inf, -Inf and NaN are spelled as Prometheus spells them). */
static void fmt_double(double v, char *out, size_t len)
{
	if (isnan(v)) {
		snprintf(out, len, "NaN");
		return;
	}
	if (isinf(v)) {
		snprintf(out, len, v > 0 ? "+Inf" : "-Inf");
		return;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0) { /* a whole number below 2^53 */
		snprintf(out, len, "%lld", (long long)v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(out, len, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return;
	}
}

/* Append a float. */
static void put_double(struct rec_buf *b, double v)
{
	char num[40];

	fmt_double(v, num, sizeof(num));
	puts_(b, num);
}

/* Append a label value escaped for both text formats (\\, \" and \n). */
static void put_escaped(struct rec_buf *b, const char *s)
{
	if (!strpbrk(s, "\\\"\n")) {
		puts_(b, s);
		return;
	}
	for (; *s; s++) {
		if (*s == '\\')
			puts_(b, "\\\\");
		else if (*s == '"')
			puts_(b, "\\\"");
		else if (*s == '\n')
			puts_(b, "\\n");
		else
			put(b, s, 1);
	}
}

/* The label pairs of a sample as text, "a=\"x\",b=\"y\"" (escaped), into out; its length. */
static size_t labels_str(const struct prom_sample *p, char *out, size_t len)
{
	struct rec_buf b = {};
	size_t n;

	for (int i = 0; i < p->nlabels; i++) {
		bprintf(&b, "%s%s=\"", i ? "," : "", p->label[i].name);
		put_escaped(&b, p->label[i].value);
		puts_(&b, "\"");
	}
	n = b.oom || b.len >= len ? 0 : b.len;
	if (n)
		memcpy(out, b.p, n);
	out[n] = '\0';
	free(b.p);
	return n;
}

/* Append one sample line: name+suffix, {labels[,le="edge"]}, value. */
static void put_line(struct rec_buf *b, const char *name, const char *suffix, const char *labels,
		     const char *le, double v)
{
	puts_(b, name);
	puts_(b, suffix);
	if (*labels || le) {
		puts_(b, "{");
		puts_(b, labels);
		if (le) {
			puts_(b, *labels ? ",le=\"" : "le=\"");
			puts_(b, le);
			puts_(b, "\"");
		}
		puts_(b, "}");
	}
	puts_(b, " ");
	put_double(b, v);
	puts_(b, "\n");
}

/* The classic edges as text ("3.2e-08", ...), formatted once. */
static char le_text[PROMHIST_LE_N][24];
static pthread_once_t le_once = PTHREAD_ONCE_INIT;

/* Fill le_text. */
static void le_init(void)
{
	for (int i = 0; i < PROMHIST_LE_N; i++)
		fmt_double((double)promhist__le_ns(i) * 1e-9, le_text[i], sizeof(le_text[i]));
}

/* Append the lines of one histogram sample. */
static void put_hist(struct rec_buf *b, const char *name, const struct prom_sample *p,
		     const char *labels, bool om)
{
	pthread_once(&le_once, le_init);
	for (int i = 0; i < PROMHIST_LE_N; i++)
		put_line(b, name, "_bucket", labels, le_text[i], (double)p->classic[i]);
	put_line(b, name, "_bucket", labels, "+Inf", (double)p->count);
	put_line(b, name, "_sum", labels, NULL, p->sum_s);
	put_line(b, name, "_count", labels, NULL, (double)p->count);
	if (om)
		put_line(b, name, "_created", labels, NULL, p->created_s);
}

/* Text 0.0.4 (om false) or OpenMetrics 1.0.0 (om true). */
static void render_text(const struct prom_snap *s, bool om, struct rec_buf *b)
{
	static const char *const types[] = {"counter", "gauge", "histogram"};

	for (size_t i = 0; i < s->n;) {
		const struct prom_family_desc *d = &prom_families[s->v[i].family];
		const char *total = d->type == PT_COUNTER ? "_total" : "";
		const char *meta = om ? "" : total; /* OpenMetrics names the family without it */
		size_t j = i;

		bprintf(b, "# HELP %s%s %s\n", d->name, meta, d->help);
		bprintf(b, "# TYPE %s%s %s\n", d->name, meta, types[d->type]);
		for (; j < s->n && s->v[j].family == s->v[i].family; j++) {
			const struct prom_sample *p = &s->v[j];
			char labels[PROM_LABELS_MAX * 160];

			labels_str(p, labels, sizeof(labels));
			if (d->type == PT_HISTOGRAM) {
				put_hist(b, d->name, p, labels, om);
				continue;
			}
			put_line(b, d->name, total, labels, NULL, p->value);
			if (om && d->type == PT_COUNTER && p->created_s > 0)
				put_line(b, d->name, "_created", labels, NULL, p->created_s);
		}
		i = j;
	}
	if (om)
		puts_(b, "# EOF\n");
}

/* Append a base-128 varint (the length before each delimited message). */
static void put_varint(struct rec_buf *b, uint64_t v)
{
	uint8_t out[10];
	size_t n = 0;

	do {
		out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	put(b, out, n);
}

/* Memory for one family's protobuf messages, freed after packing. */
struct pb_family {
	Io__Prometheus__Client__Metric *metric, **metricp;
	Io__Prometheus__Client__LabelPair *lab, **labp;
	Io__Prometheus__Client__Counter *ctr;
	Io__Prometheus__Client__Gauge *gauge;
	Io__Prometheus__Client__Histogram *hist;
	Io__Prometheus__Client__Bucket *bkt, **bktp;
	Io__Prometheus__Client__BucketSpan *span, **spanp;
};

/* Free a family's message memory. */
static void pb_free(struct pb_family *f)
{
	free(f->metric);
	free(f->metricp);
	free(f->lab);
	free(f->labp);
	free(f->ctr);
	free(f->gauge);
	free(f->hist);
	free(f->bkt);
	free(f->bktp);
	free(f->span);
	free(f->spanp);
}

/* Fill the histogram message h of sample p: classic buckets, then the native ones. */
static void pb_hist(Io__Prometheus__Client__Histogram *h, const struct prom_sample *p,
		    Io__Prometheus__Client__Bucket *bkt, Io__Prometheus__Client__Bucket **bktp,
		    Io__Prometheus__Client__BucketSpan *span,
		    Io__Prometheus__Client__BucketSpan **spanp)
{
	io__prometheus__client__histogram__init(h);
	h->has_sample_count = h->has_sample_sum = true;
	h->sample_count = p->count;
	h->sample_sum = p->sum_s;
	for (int k = 0; k < PROMHIST_LE_N; k++) {
		io__prometheus__client__bucket__init(&bkt[k]);
		bkt[k].has_cumulative_count = bkt[k].has_upper_bound = true;
		bkt[k].cumulative_count = p->classic[k];
		bkt[k].upper_bound = (double)promhist__le_ns(k) * 1e-9;
		bktp[k] = &bkt[k];
	}
	h->n_bucket = PROMHIST_LE_N;
	h->bucket = bktp;
	/* A zero threshold is always set, so an empty histogram is still a native one. */
	h->has_schema = h->has_zero_threshold = h->has_zero_count = true;
	h->schema = PROMHIST_SCHEMA;
	h->zero_threshold = PROMHIST_ZERO_THRESHOLD;
	h->zero_count = p->nat.zero_count;
	for (uint32_t k = 0; k < p->nat.nspans; k++) {
		io__prometheus__client__bucket_span__init(&span[k]);
		span[k].has_offset = span[k].has_length = true;
		span[k].offset = p->nat.spans[k].offset;
		span[k].length = p->nat.spans[k].length;
		spanp[k] = &span[k];
	}
	h->n_positive_span = p->nat.nspans;
	h->positive_span = spanp;
	h->n_positive_delta = p->nat.ndeltas;
	h->positive_delta = p->nat.deltas;
}

/* Pack the family of samples p[0..n) as one delimited MetricFamily; 0 or -ENOMEM. */
static int pb_family(const struct prom_sample *p, size_t n, struct rec_buf *b)
{
	const struct prom_family_desc *d = &prom_families[p->family];
	Io__Prometheus__Client__MetricFamily mf = IO__PROMETHEUS__CLIENT__METRIC_FAMILY__INIT;
	struct pb_family f = {};
	size_t nspans = 0, nl = 0, nspan = 0, size;
	char name[96];
	int ret = -ENOMEM;

	for (size_t i = 0; i < n; i++)
		nspans += p[i].nat.nspans;
	f.metric = calloc(n, sizeof(*f.metric));
	f.metricp = calloc(n, sizeof(*f.metricp));
	f.lab = calloc(n * PROM_LABELS_MAX, sizeof(*f.lab));
	f.labp = calloc(n * PROM_LABELS_MAX, sizeof(*f.labp));
	f.ctr = calloc(n, sizeof(*f.ctr));
	f.gauge = calloc(n, sizeof(*f.gauge));
	f.hist = calloc(n, sizeof(*f.hist));
	f.bkt = calloc(n * PROMHIST_LE_N, sizeof(*f.bkt));
	f.bktp = calloc(n * PROMHIST_LE_N, sizeof(*f.bktp));
	f.span = calloc(nspans + 1, sizeof(*f.span));
	f.spanp = calloc(nspans + 1, sizeof(*f.spanp));
	if (!f.metric || !f.metricp || !f.lab || !f.labp || !f.ctr || !f.gauge || !f.hist ||
	    !f.bkt || !f.bktp || !f.span || !f.spanp)
		goto out;
	snprintf(name, sizeof(name), "%s%s", d->name, d->type == PT_COUNTER ? "_total" : "");
	mf.name = name;
	mf.help = (char *)d->help;
	mf.has_type = true;
	mf.type = d->type == PT_COUNTER ? IO__PROMETHEUS__CLIENT__METRIC_TYPE__COUNTER
		  : d->type == PT_GAUGE ? IO__PROMETHEUS__CLIENT__METRIC_TYPE__GAUGE
					: IO__PROMETHEUS__CLIENT__METRIC_TYPE__HISTOGRAM;
	for (size_t i = 0; i < n; i++) {
		Io__Prometheus__Client__Metric *m = &f.metric[i];

		io__prometheus__client__metric__init(m);
		m->label = &f.labp[nl];
		for (int k = 0; k < p[i].nlabels; k++, nl++) {
			io__prometheus__client__label_pair__init(&f.lab[nl]);
			f.lab[nl].name = (char *)p[i].label[k].name;
			f.lab[nl].value = (char *)p[i].label[k].value;
			f.labp[nl] = &f.lab[nl];
		}
		m->n_label = (size_t)p[i].nlabels;
		if (d->type == PT_COUNTER) {
			io__prometheus__client__counter__init(&f.ctr[i]);
			f.ctr[i].has_value = true;
			f.ctr[i].value = p[i].value;
			m->counter = &f.ctr[i];
		} else if (d->type == PT_GAUGE) {
			io__prometheus__client__gauge__init(&f.gauge[i]);
			f.gauge[i].has_value = true;
			f.gauge[i].value = p[i].value;
			m->gauge = &f.gauge[i];
		} else {
			pb_hist(&f.hist[i], &p[i], &f.bkt[i * PROMHIST_LE_N],
				&f.bktp[i * PROMHIST_LE_N], &f.span[nspan], &f.spanp[nspan]);
			nspan += p[i].nat.nspans;
			m->histogram = &f.hist[i];
		}
		f.metricp[i] = m;
	}
	mf.n_metric = n;
	mf.metric = f.metricp;
	size = io__prometheus__client__metric_family__get_packed_size(&mf);
	put_varint(b, size);
	if (rec_buf__room(b, size)) {
		b->len +=
		    io__prometheus__client__metric_family__pack(&mf, (uint8_t *)b->p + b->len);
		ret = 0;
	}
out:
	pb_free(&f);
	return ret;
}

/* Delimited protobuf: one MetricFamily per family. */
static void render_pb(const struct prom_snap *s, struct rec_buf *b)
{
	for (size_t i = 0; i < s->n;) {
		size_t j = i;

		while (j < s->n && s->v[j].family == s->v[i].family)
			j++;
		if (pb_family(&s->v[i], j - i, b))
			b->oom = true;
		i = j;
	}
}

/* Render s in format f. */
int prom_fmt__render(const struct prom_snap *s, enum prom_fmt f, char **out, size_t *len)
{
	struct rec_buf b = {};

	if (f == PROM_FMT_PROTOBUF)
		render_pb(s, &b);
	else
		render_text(s, f == PROM_FMT_OPENMETRICS, &b);
	if (!b.oom && !rec_buf__room(&b, 1)) /* a non-NULL buffer even when empty */
		b.oom = true;
	if (b.oom) {
		free(b.p);
		return -ENOMEM;
	}
	*out = (char *)b.p;
	*len = b.len;
	return 0;
}

/* The Content-Type of a format. */
const char *prom_fmt__content_type(enum prom_fmt f)
{
	switch (f) {
	case PROM_FMT_PROTOBUF:
		return "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; "
		       "encoding=delimited";
	case PROM_FMT_OPENMETRICS:
		return "application/openmetrics-text; version=1.0.0; charset=utf-8";
	default:
		return "text/plain; version=0.0.4; charset=utf-8";
	}
}

/* Trim spaces and tabs from both ends of [*s, *e). */
static void trim(const char **s, const char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

/* True when [s, e) equals str, ignoring case. */
static bool eq(const char *s, const char *e, const char *str)
{
	return (size_t)(e - s) == strlen(str) && !strncasecmp(s, str, (size_t)(e - s));
}

/* One media range of an Accept header, [s, e): the format it names (-1 for none lattop
 * serves) and its q value. */
static int media_range(const char *s, const char *e, double *q)
{
	const char *semi = memchr(s, ';', (size_t)(e - s)), *te = semi ? semi : e;
	bool proto = false, delimited = false, version_ok = true;
	int kind;

	*q = 1.0;
	trim(&s, &te);
	if (eq(s, te, "application/vnd.google.protobuf"))
		kind = PROM_FMT_PROTOBUF;
	else if (eq(s, te, "application/openmetrics-text"))
		kind = PROM_FMT_OPENMETRICS;
	else if (eq(s, te, "text/plain") || eq(s, te, "text/*") || eq(s, te, "*/*"))
		kind = PROM_FMT_TEXT;
	else
		kind = -1;
	while (semi) {
		const char *ps = semi + 1, *pe, *eqs;

		semi = memchr(ps, ';', (size_t)(e - ps));
		pe = semi ? semi : e;
		eqs = memchr(ps, '=', (size_t)(pe - ps));
		if (!eqs)
			continue;
		const char *ks = ps, *ke = eqs, *vs = eqs + 1, *ve = pe;

		trim(&ks, &ke);
		trim(&vs, &ve);
		if (eq(ks, ke, "q"))
			*q = strtod(vs, NULL);
		else if (eq(ks, ke, "proto"))
			proto = eq(vs, ve, "io.prometheus.client.MetricFamily");
		else if (eq(ks, ke, "encoding"))
			delimited = eq(vs, ve, "delimited");
		else if (eq(ks, ke, "version") && kind == PROM_FMT_OPENMETRICS)
			version_ok = eq(vs, ve, "1.0.0") || eq(vs, ve, "0.0.1");
		else if (eq(ks, ke, "version") && kind == PROM_FMT_TEXT)
			version_ok = eq(vs, ve, "0.0.4");
	}
	if (kind == PROM_FMT_PROTOBUF && !(proto && delimited))
		return -1;
	return version_ok ? kind : -1;
}

/* The format an Accept header asks for most. */
enum prom_fmt prom_fmt__negotiate(const char *accept)
{
	enum prom_fmt best = PROM_FMT_TEXT;
	double best_q = 0;

	for (const char *s = accept; s && *s;) {
		const char *e = strchr(s, ',');
		double q;
		int kind;

		e = e ? e : s + strlen(s);
		kind = media_range(s, e, &q);
		if (kind >= 0 && q > best_q) {
			best = (enum prom_fmt)kind;
			best_q = q;
		}
		s = *e ? e + 1 : e;
	}
	return best;
}
