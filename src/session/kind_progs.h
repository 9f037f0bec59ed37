/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kind_progs.h - what the program probes' kind (kind_progs.c) lends the helper probes' kind:
 * its tracer, whose per-CPU program stacks, budget and sink the helper probes share.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_KIND_PROGS_H
#define LAT_KIND_PROGS_H

struct progtrace;
struct session;

/* The session's program tracer, or NULL (this kernel cannot trace BPF programs). */
struct progtrace *kind_progs__tracer(const struct session *s);

#endif /* LAT_KIND_PROGS_H */
