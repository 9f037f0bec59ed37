/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * prom_conn.h - the HTTP server's connection table: which client connections are waiting for
 * a request head and which are being served, since when, and which to close when the table is
 * full or a deadline passed.
 *
 * Policy (what guarantees that a scrape is served while clients hold connections idle):
 * - A connection is "waiting" from its accept, and again after each response it was sent,
 *   until its next request head is complete; then it is "busy" until its response is sent.
 * - Deadlines from the moment a connection entered its state: head_ns waiting, send_ns busy.
 *   They are absolute: a client trickling one byte a second does not extend them.
 * - When a connection arrives and max connections are open, the one waiting longest is closed
 *   (the one busy longest if none waits). A newcomer is therefore closed only after max newer
 *   connections arrived or were served, while it sends its request at once: a scraper that
 *   connects and asks is served whatever number of idle or slow connections others hold.
 * Closing is shutdown(2) on the socket: libmicrohttpd sees the end of the connection at its
 * next event and closes it (prom_conns__closed then gives its entry back).
 *
 * Thread use: one thread only, libmicrohttpd's single internal thread (no thread pool), which
 * is also the only thread that closes the sockets; the table allocates nothing after
 * prom_conns__new (max + slack entries, 32 bytes each).
 */
#ifndef LAT_PROM_CONN_H
#define LAT_PROM_CONN_H

#include <stdint.h>

struct prom_conn;
struct prom_conns;

/* Figures for tests and the man page. */
struct prom_conns_stats {
	unsigned int open;	   /* entries in use (waiting, busy or closing) */
	unsigned int peak;	   /* the most open at once */
	uint64_t evicted_full;	   /* closed because the table was full */
	uint64_t evicted_deadline; /* closed because a deadline passed */
};

/* A table for max live connections plus slack entries for connections shut down but not yet
 * closed; deadlines in ns. NULL + errno. */
struct prom_conns *prom_conns__new(unsigned int max, unsigned int slack, uint64_t head_ns,
				   uint64_t send_ns);
/* Free the table (NULL is a no-op); the sockets are libmicrohttpd's. */
void prom_conns__free(struct prom_conns *t);
/* A connection on socket fd was accepted at now_ns: close what the deadlines and the bound
 * say, then enter it as waiting. NULL when every entry is in use (the caller closes it). */
struct prom_conn *prom_conns__start(struct prom_conns *t, int fd, uint64_t now_ns);
/* Its request head is complete: busy from now_ns (deadlines of others checked too). */
void prom_conns__busy(struct prom_conns *t, struct prom_conn *c, uint64_t now_ns);
/* Its response was sent (or abandoned): waiting for the next head from now_ns. */
void prom_conns__waiting(struct prom_conns *t, struct prom_conn *c, uint64_t now_ns);
/* libmicrohttpd closed it: the entry is free again (c NULL is a no-op). */
void prom_conns__closed(struct prom_conns *t, struct prom_conn *c);
/* Close the connections whose deadline passed by now_ns. */
void prom_conns__sweep(struct prom_conns *t, uint64_t now_ns);
/* The table's figures so far. */
struct prom_conns_stats prom_conns__stats(const struct prom_conns *t);

#endif /* LAT_PROM_CONN_H */
