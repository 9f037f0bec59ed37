/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kind_eh.h - how EventHeader activities go into the model, shared by the live kind
 * (kind_eh.c) and the offline reader of perf.data files (perf_src.c), so both give the same
 * series, events and counters.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_KIND_EH_H
#define LAT_SESSION_KIND_EH_H

#include <stdint.h>

#include "collect/ehpair.h"
#include "lattop.h"

struct model;

/* Series ids of activities: LAT_EV_SEG, EH_SEG_ID + the activity's series index (after the
 * spans' ids and the vhost chain's). */
#define EH_SEG_ID 2000

/* Give activity idx (ehpair's series index), described by in, its empty series in m
 * (segments mode; type activity, self, event or value; parent: its parent row's name, kept as
 * the series' second label, or NULL). 0 or -ENOMEM. */
int kind_eh__series(struct model *m, uint32_t idx, const struct ehpair_info *in,
		    const char *parent);
/* A paired activity as the event of its series (for model__add_event with SRC_FENTRY). */
struct lat_event kind_eh__event(const struct ehpair_sample *p);
/* The pairing's loss counters as m's session-wide eh_* counters. */
void kind_eh__counters(struct model *m, const struct ehpair_loss *l);

#endif /* LAT_SESSION_KIND_EH_H */
