/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * vhost.h - the KVM -> vhost-net -> TUN segment chain (bpf/vhost.bpf.c): check the kernel has
 * what it needs, load it with the target device, flow and profile filters, attach its kprobes,
 * read its counters and (discover) which worker threads and eventfds carried the flow.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_VHOST_H
#define LAT_VHOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/progagg.h"
#include "lattop.h"

struct collector;
struct vhost;

/* What to load the chain with. */
struct vhost_conf {
	uint32_t ifindex;      /* target device, 0 = any */
	struct lat_flow flow;  /* target flow (zero = any) */
	uint64_t ctx[LAT_VHOST_MAX_CTX]; /* profile eventfds (none = any) */
	int nctx;
	uint32_t tid[LAT_VHOST_MAX_TID]; /* profile worker threads (none = any) */
	int ntid;
	uint32_t fifo_slots;   /* 0 = the design's sizes; else both FIFOs hold this many */
	bool assoc; /* count what each (worker, eventfd) pair carries, for vhost__assoc (discover) */
	bool agg; /* aggregate each segment's samples in the kernel (per segment and CPU,
		   * vhost__agg_bytes() of kernel memory; read by vhost__harvest); false: one
		   * ring-buffer event per sample, for consumers of every packet (--details, --raw) */
};

/* One (worker thread, eventfd) pair the chain saw (discover). */
struct vhost_assoc {
	uint32_t tid, pid;
	char comm[16];
	uint64_t ctx;
	uint64_t runs, packets;
};

/* Can this kernel build the chain? 0, or -ENOTSUP (no kprobes) / -ENOENT (a function is
 * missing) with one sentence in why naming what and its module. *kvm is set to whether
 * ioeventfd_write [kvm] is there (without it KVM kicks are not seen). */
int vhost__support(char *why, size_t len, int *kvm);
/* Load and attach: fentry/fexit, else (loading or attaching them failed, or
 * LATTOP_VHOST_PROBES=kprobe) kprobes/kretprobes. NULL + errno with one sentence in err.
 * Builds on the symbols a successful vhost__support just before it read (else checks
 * support itself). */
struct vhost *vhost__new(struct collector *c, const struct vhost_conf *conf, char *err,
			 size_t errlen);
/* Which probes the chain uses ("fentry/fexit" or "kprobes/kretprobes") and how many (*n). */
const char *vhost__probe_kind(const struct vhost *v, int *n);
/* Why fentry/fexit were given up for kprobes ("" when they were not tried or not given up). */
const char *vhost__fallback_why(const struct vhost *v);
/* Detach and free (NULL is a no-op). */
void vhost__free(struct vhost *v);
/* Bytes the segments' in-kernel aggregates take (whole pages), for the session's budget. */
size_t vhost__agg_bytes(void);
/* Bytes the aggregates of v take now (0 when its samples go through the ring buffer). */
size_t vhost__agg_mem(const struct vhost *v);
/* Hand what each segment's aggregates gained since the last harvest to sink, as (LAT_EV_SEG,
 * LAT_SEG_VHOST + segment, 0, 0), the id its events carry; force: look at every CPU (the last
 * harvest). A no-op on the ring path. */
void vhost__harvest(struct vhost *v, bool force, progagg_sink sink, void *arg);
/* The chain's counters since load. */
void vhost__counters(const struct vhost *v, struct lat_vhost_counters *out);
/* Copy up to max (thread, eventfd) pairs seen so far into out (none unless loaded with
 * conf.assoc); returns how many. */
int vhost__assoc(const struct vhost *v, struct vhost_assoc *out, int max);

#endif /* LAT_VHOST_H */
