/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * segsession.h - the vhost-net segments of a session: discover (find the flow's worker
 * threads and kick eventfds, write a profile) and measure (S0/S1/S2/total series from a
 * profile, the chain's counters, --details lines).
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SEGSESSION_H
#define LAT_SEGSESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "collect/progagg.h"
#include "lattop.h"

struct collector;
struct model;
struct opts;
struct segsession;

/* Load the chain for --discover or --profile (o), its events into col, its series and counters
 * into m; *g is set whenever it was allocated (segsession__free it even on failure). Returns an
 * exit status with one sentence in err; a kernel without kprobes or vhost-net is an error for
 * discover, and for measure a notice (segments mode then degrades like the other modes, saying
 * why: segsession__why). What the session should warn about: segsession__warning. agg: the
 * segments aggregate in the kernel (segsession__agg_bytes() of kernel memory, read by
 * segsession__harvest) instead of one ring-buffer event per sample, which only consumers of
 * every packet need (--details, --raw recordings). */
int segsession__open(struct segsession **g, const struct opts *o, struct collector *col,
		     struct model *m, bool agg, char *err, size_t errlen);
/* Bytes the segments' in-kernel aggregates take (whole pages), for the session's budget. */
size_t segsession__agg_bytes(void);
/* Bytes they take now: 0 on the ring buffer or without the chain (NULL is fine). */
size_t segsession__agg_mem(const struct segsession *g);
/* Hand what each segment's aggregates gained since the last harvest to sink, as the events'
 * series (LAT_EV_SEG, the segment's series id, 0, 0); force: look at every CPU (the last
 * harvest). A no-op on the ring path or without the chain (NULL is fine). */
void segsession__harvest(struct segsession *g, bool force, progagg_sink sink, void *arg);
/* Detach and free (NULL is a no-op). */
void segsession__free(struct segsession *g);
/* True when the chain is attached (segments mode can show it). */
bool segsession__ready(const struct segsession *g);
/* Why the chain is not attached (one sentence), or "". */
const char *segsession__why(const struct segsession *g);
/* The open's warnings, one sentence each (device NAPI/RPS, a gone profile worker, no kvm):
 * the i-th, or NULL past the last. */
const char *segsession__warning(const struct segsession *g, int i);
/* True when name is one of the chain's segment names (S0, S1, S2, total). */
bool segsession__named(const char *name);
/* Account an event of the chain (true) or leave it to the caller (false). */
bool segsession__event(struct segsession *g, const struct lat_event *e);
/* Read the chain's counters into the open interval and look for a stale profile; call just
 * before the model closes the interval. */
void segsession__interval(struct segsession *g);
/* --discover, once the watch is over: build the profile from what the chain saw, write it to
 * --profile-out and print what it holds. Returns an exit status. */
int segsession__profile(struct segsession *g);

#endif /* LAT_SEGSESSION_H */
