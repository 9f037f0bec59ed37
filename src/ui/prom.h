/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom.h - `--listen [ADDR:]PORT`: a Prometheus endpoint serving GET /metrics over HTTP
 * (libmicrohttpd), from snapshots the UI thread publishes at each interval close.
 *
 * Thread use: prom__new, prom__publish, prom__free and prom__run on the UI/main thread; the
 * HTTP server runs on libmicrohttpd's own thread and only ever reads a published snapshot
 * (taken under a mutex held for a pointer swap, then rendered without it), so a scrape never
 * stalls the UI thread or the collector.
 */
#ifndef LAT_PROM_H
#define LAT_PROM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "base/listen.h"
#include "model/model.h"

struct session;
struct prom;

/* Bounds on what clients can make the server hold (see prom.c for the reasons). */
#define PROM_MAX_CONNECTIONS 16
#define PROM_TIMEOUT_S 10
#define PROM_CONN_MEMORY (32 * 1024)
/* A program unloaded this long ago stops being exported. */
#define PROM_GONE_KEEP_NS (300ull * 1000000000ull)

/* Bind spec and start serving (an empty exposition until the first publish). NULL + errno
 * with one sentence in err (a busy port, an address not on this host, ...). */
struct prom *prom__new(const char *spec, char *err, size_t errlen);
/* Publish the interval m just closed: add it to the totals and swap in a new snapshot (UI
 * thread; the old snapshot is freed when its last scrape ends). */
void prom__publish(struct prom *p, const struct model *m);
struct flight;
/* Export the flight recorder fl's gauges, and with http serve POST /dump for it (UI thread;
 * fl NULL before the flight recorder is freed; p NULL is a no-op). */
void prom__set_flight(struct prom *p, struct flight *fl, bool http);
/* Session interval hook: arg is a struct prom. */
void prom__on_interval(void *arg, const struct model *m);
/* Stop the server (waits for the scrapes in progress) and free everything (NULL is a no-op). */
void prom__free(struct prom *p);
/* Headless: say where p serves (one line on stderr), then run the session, closing intervals
 * and publishing, until -n/-D or *stop (set by the signal handler).
 * Returns an exit status. */
int prom__run(struct session *s, const struct prom *p, volatile sig_atomic_t *stop);
/* Nanoseconds the last publish took on the UI thread (for benchmarks and the man page's
 * figure). */
uint64_t prom__publish_ns(const struct prom *p);

#endif /* LAT_PROM_H */
