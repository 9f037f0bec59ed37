/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * profile.h - what segments mode's discover phase found (profile.json): the device, the flow,
 * the kick eventfds (eventfd_ctx addresses) and the vhost worker threads that carried it.
 *
 * Thread use: any (no shared state).
 */
#ifndef LAT_PROFILE_H
#define LAT_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "lattop.h"

/* A kick eventfd of the flow: its queue is its index in the list. */
struct profile_ctx {
	uint64_t ctx;
	uint64_t runs, packets;
};

/* A vhost worker thread and the eventfd it served. */
struct profile_tid {
	uint32_t tid, pid;
	char comm[16];
	uint64_t ctx;
	uint32_t queue;
	uint64_t runs, packets;
};

struct profile {
	char device[16];
	char flow[256];
	struct profile_ctx ctx[LAT_VHOST_MAX_CTX];
	int nctx;
	struct profile_tid tid[LAT_VHOST_MAX_TID];
	int ntid;
	char timestamp[32]; /* UTC, ISO 8601 */
	char kernel[65];    /* uname release */
	char version[16];   /* lattop version that wrote it */
};

/* Write p to path, a new file (outfile.h: no link, no existing file, mode 0600), as JSON
 * (timestamp, kernel and version filled in here) and sync it. Returns 0 or a negative errno
 * with one sentence in err (a full disk included). */
int profile__write(struct profile *p, const char *path, char *err, size_t errlen);
/* Read and validate path into p. Returns 0, -ENOENT (no file) or -EINVAL with one sentence
 * naming the file and the key. */
int profile__load(struct profile *p, const char *path, char *err, size_t errlen);
/* Queue (index in p->ctx) of eventfd ctx, or -1. */
int profile__queue(const struct profile *p, uint64_t ctx);

#endif /* LAT_PROFILE_H */
