// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom_decode.c - test fixture: decode a delimited protobuf exposition (stdin) with protobuf-c
 * and print one JSON object per MetricFamily, every field the test checks: name, help, type,
 * and per metric its labels, counter/gauge value, or histogram count, sum, classic buckets and
 * native schema, zero threshold and count, spans and deltas. Exit 1 on a malformed stream.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/prometheus/client/metrics.pb-c.h"

/* Read all of stdin; NULL on failure. */
static uint8_t *slurp(size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	uint8_t *buf = malloc(cap);

	while (buf && (r = fread(buf + n, 1, cap - n, stdin)) > 0) {
		n += r;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
	}
	*len = n;
	return buf;
}

/* Read a varint at *at (bounded by len); -1 when truncated. */
static int varint(const uint8_t *b, size_t len, size_t *at, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64 && *at < len; shift += 7) {
		uint8_t c = b[(*at)++];

		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return 0;
	}
	return -1;
}

/* Print one histogram's fields as JSON members. */
static void print_hist(const Io__Prometheus__Client__Histogram *h)
{
	printf(",\"count\":%" PRIu64 ",\"sum\":%.17g,\"buckets\":[", h->sample_count,
	       h->sample_sum);
	for (size_t i = 0; i < h->n_bucket; i++)
		printf("%s[%.17g,%" PRIu64 "]", i ? "," : "", h->bucket[i]->upper_bound,
		       h->bucket[i]->cumulative_count);
	printf("],\"has_schema\":%d,\"schema\":%d,\"zero_threshold\":%.17g,\"zero_count\":%" PRIu64,
	       h->has_schema, h->schema, h->zero_threshold, h->zero_count);
	printf(",\"spans\":[");
	for (size_t i = 0; i < h->n_positive_span; i++)
		printf("%s[%d,%u]", i ? "," : "", h->positive_span[i]->offset,
		       h->positive_span[i]->length);
	printf("],\"deltas\":[");
	for (size_t i = 0; i < h->n_positive_delta; i++)
		printf("%s%" PRId64, i ? "," : "", h->positive_delta[i]);
	printf("],\"n_negative\":%zu", h->n_negative_span + h->n_negative_delta);
}

int main(void)
{
	size_t len, at = 0;
	uint8_t *b = slurp(&len);

	if (!b)
		return 1;
	while (at < len) {
		Io__Prometheus__Client__MetricFamily *mf;
		uint64_t n;

		if (varint(b, len, &at, &n) || n > len - at) {
			fprintf(stderr, "truncated at byte %zu\n", at);
			return 1;
		}
		mf = io__prometheus__client__metric_family__unpack(NULL, n, b + at);
		if (!mf) {
			fprintf(stderr, "bad MetricFamily at byte %zu\n", at);
			return 1;
		}
		at += n;
		printf("{\"name\":\"%s\",\"help\":\"%s\",\"type\":%d,\"metrics\":[", mf->name,
		       mf->help, (int)mf->type);
		for (size_t i = 0; i < mf->n_metric; i++) {
			const Io__Prometheus__Client__Metric *m = mf->metric[i];

			printf("%s{\"labels\":{", i ? "," : "");
			for (size_t k = 0; k < m->n_label; k++)
				printf("%s\"%s\":\"%s\"", k ? "," : "", m->label[k]->name,
				       m->label[k]->value);
			printf("}");
			if (m->counter)
				printf(",\"counter\":%.17g", m->counter->value);
			if (m->gauge)
				printf(",\"gauge\":%.17g", m->gauge->value);
			if (m->histogram)
				print_hist(m->histogram);
			printf("}");
		}
		printf("]}\n");
		io__prometheus__client__metric_family__free_unpacked(mf, NULL);
	}
	free(b);
	return 0;
}
