/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cmp_report.h - the comparison's batch reports (-r A --compare B -b): text, CSV, JSON.
 *
 * Thread use: main thread only.
 */
#ifndef LAT_UI_REPORT_CMP_REPORT_H
#define LAT_UI_REPORT_CMP_REPORT_H

#include <stdio.h>

#include "ui/cmpview.h"

/* The reports: text (the default), CSV, JSON (one document). Return an exit status. */
int cmp_report__text(const struct cmp_view *v, FILE *f);
int cmp_report__csv(const struct cmp_view *v, FILE *f);
int cmp_report__json(const struct cmp_view *v, FILE *f);

#endif /* LAT_UI_REPORT_CMP_REPORT_H */
