/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom_fmt.h - a snapshot as a Prometheus exposition: text 0.0.4, OpenMetrics text 1.0.0, or
 * delimited protobuf MetricFamily messages (with native histograms), chosen by Accept.
 *
 * Thread use: any thread; rendering reads the (immutable) snapshot only.
 */
#ifndef LAT_PROM_FMT_H
#define LAT_PROM_FMT_H

#include <stddef.h>

#include "ui/prom/prom_snap.h"

enum prom_fmt {
	PROM_FMT_TEXT = 0,    /* text/plain; version=0.0.4 */
	PROM_FMT_OPENMETRICS, /* application/openmetrics-text; version=1.0.0 */
	PROM_FMT_PROTOBUF,    /* application/vnd.google.protobuf; ...; encoding=delimited */
};

/* The format an Accept header asks for most (q values honoured; ties go to the first listed);
 * text 0.0.4 when the header is NULL, empty or names nothing lattop serves. */
enum prom_fmt prom_fmt__negotiate(const char *accept);
/* The Content-Type of a format. */
const char *prom_fmt__content_type(enum prom_fmt f);
/* Render s in format f into a malloc'd buffer (*out, *len; the caller frees it). Returns 0 or
 * -ENOMEM. */
int prom_fmt__render(const struct prom_snap *s, enum prom_fmt f, char **out, size_t *len);

#endif /* LAT_PROM_FMT_H */
