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
struct prom_req;

/* A route's handler (HTTP thread, so it must not block nor touch UI-thread state without its
 * own synchronisation): writes one sentence (ending in a newline) into text and returns the
 * HTTP status to answer with. */
typedef unsigned int (*prom_route_fn)(void *arg, const struct prom_req *rq, char *text,
				      size_t textlen);

/* Bounds on what clients can make the server hold (see prom.c and prom_conn.h for the
 * policy). Memory: a connection holds at most PROM_CONN_MEMORY bytes of request pool plus
 * libmicrohttpd's and the table's bookkeeping, PROM_CONN_BYTES in all (about 8.5 KiB
 * measured with full pools), so the connections together hold at most
 * PROM_MAX_CONNECTIONS * PROM_CONN_BYTES (24 MiB), plus the renderings still being sent: one
 * per format and snapshot of the last PROM_SEND_TIMEOUT_S seconds. */
#define PROM_MAX_CONNECTIONS 2048
#define PROM_CONN_MEMORY (8 * 1024)
#define PROM_CONN_BYTES (12 * 1024)
/* A request head not complete this long after the connection arrived or was last answered
 * closes it; so does an answer not sent within PROM_SEND_TIMEOUT_S. */
#define PROM_HEAD_TIMEOUT_S 5
#define PROM_SEND_TIMEOUT_S 10
/* Entries for connections shut down and not yet closed by libmicrohttpd (it closes them at
 * its next event; it accepts a few connections an event). */
#define PROM_CONN_SLACK 256
/* File descriptors kept for everything else lattop opens (programs, maps, files) when the
 * open-file limit bounds the connections; never fewer connections than the minimum. */
#define PROM_FD_RESERVE 1024
#define PROM_MIN_CONNECTIONS 16
/* Connections the kernel queues for accept (capped by net.core.somaxconn). */
#define PROM_BACKLOG 4096
/* Routes other parts may add next to /metrics. */
#define PROM_ROUTES_MAX 4
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
/* Serve METHOD PATH (e.g. "POST", "/dump") with fn(arg, ...) (UI thread, any time after
 * prom__new). Any body the request carries is read and dropped. Other methods on PATH are
 * answered 405. 0, or -EINVAL (/metrics, too long a name) or -ENOSPC (PROM_ROUTES_MAX). */
int prom__route(struct prom *p, const char *method, const char *path, prom_route_fn fn, void *arg);
/* A value of the request's query string (?last=5m: "last" gives "5m"), decoded; NULL when
 * absent (HTTP thread, during the handler's call). */
const char *prom_req__query(const struct prom_req *rq, const char *key);
/* The request's method (HTTP thread, during the handler's call). */
const char *prom_req__method(const struct prom_req *rq);
/* How many connections the server holds at most (PROM_MAX_CONNECTIONS unless the open-file
 * limit is lower). */
unsigned int prom__max_connections(const struct prom *p);
/* Nanoseconds the last publish took on the UI thread (for benchmarks and the man page's
 * figure). */
uint64_t prom__publish_ns(const struct prom *p);

#endif /* LAT_PROM_H */
