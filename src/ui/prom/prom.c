// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom.c - the Prometheus endpoint: address parsing, the listening socket, libmicrohttpd's
 * request handler, the routes other parts add, and the snapshot hand-over between the UI
 * thread and the HTTP thread.
 *
 * The server holds under clients that open connections and leave them idle or unfinished:
 * - libmicrohttpd runs one internal thread on epoll (no select(): no FD_SETSIZE bound, and an
 *   idle connection costs nothing per event);
 * - up to prom->max_conns connections (PROM_MAX_CONNECTIONS, fewer when the open-file limit is
 *   lower), each with a PROM_CONN_MEMORY-byte request pool: a head that does not fit is
 *   refused with 431 or the connection closed;
 * - the connection table (prom_conn.h) closes a connection still without a complete request
 *   head PROM_HEAD_TIMEOUT_S seconds after it arrived or was last answered, one being answered
 *   for longer than PROM_SEND_TIMEOUT_S, and, when the table is full, the one idle the longest
 *   to make room for a newcomer: a client that connects and sends its request at once is
 *   served, however many idle connections others hold;
 * - a listen backlog of PROM_BACKLOG (capped by net.core.somaxconn) so that connections
 *   arriving in a burst wait for accept instead of being dropped;
 * - /metrics answers share one rendering per snapshot and format, whatever the number of
 *   clients reading it.
 * No per-address limit: every client on loopback, or behind a proxy, is one address, and
 * Prometheus must get through there too.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "base/clock.h"
#include "session/session.h"
#include "ui/prom/prom.h"
#include "ui/prom/prom_conn.h"
#include "ui/prom/prom_dump.h"
#include "ui/prom/prom_fmt.h"
#include "ui/prom/prom_snap.h"

#define PROM_FORMATS 3 /* enum prom_fmt */

/* A route another part added (prom__route). */
struct prom_route {
	char method[8], path[32];
	prom_route_fn fn;
	void *arg;
};

/* A request as a route's handler sees it (HTTP thread, during the call only). */
struct prom_req {
	struct MHD_Connection *c;
	const char *method, *path;
};

struct prom {
	struct MHD_Daemon *d;
	struct prom_state *st; /* UI thread only */
	/* The published snapshot and the routes: written by the UI thread, read by the HTTP
	 * thread, both under lock (held only to swap, append or copy). */
	pthread_mutex_t lock;
	struct prom_snap *snap;
	struct prom_route routes[PROM_ROUTES_MAX];
	unsigned int nroutes;
	/* HTTP thread only: the connection table, and the responses rendered from cache_snap
	 * (one reference held) in each format, shared by every client asking for them. */
	struct prom_conns *conns;
	struct prom_snap *cache_snap;
	struct MHD_Response *cache[PROM_FORMATS];
	unsigned int max_conns; /* set before the server starts */
	uint64_t publish_ns;	/* UI thread only */
	char url[112];		/* http://ADDR:PORT/metrics */
	/* --flight: its gauges (UI thread); with --flight-http, POST /dump asks it for a dump
	 * (the HTTP thread, under lock: prom__set_flight takes it away before it is freed). */
	struct flight *fl;
	bool dump_routed;
};

/* Queue a short plain-text reply (copied) with status code. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned int code, const char *text,
			     const char *allow)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "text/plain; charset=utf-8");
	if (allow)
		MHD_add_response_header(r, "Allow", allow);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/* Take a reference on the published snapshot (HTTP thread); NULL before the first one. */
static struct prom_snap *acquire(struct prom *p)
{
	struct prom_snap *s;

	pthread_mutex_lock(&p->lock);
	s = p->snap;
	if (s)
		prom_snap__ref(s);
	pthread_mutex_unlock(&p->lock);
	return s;
}

/* POST /dump (--flight-http; HTTP thread): asks the flight recorder while it is there. */
static unsigned int dump_route(void *arg, const struct prom_req *rq, char *text, size_t len)
{
	struct prom *p = arg;
	unsigned int code = MHD_HTTP_NOT_FOUND;

	pthread_mutex_lock(&p->lock);
	if (p->fl)
		code = prom_dump__handle(p->fl, prom_req__query(rq, "last"), text, len);
	else
		snprintf(text, len, "not found: the flight recorder has stopped\n");
	pthread_mutex_unlock(&p->lock);
	return code;
}

/* Drop the cached responses and their snapshot (HTTP thread, or after the server stopped);
 * clients still reading one keep it until they are done. */
static void cache_drop(struct prom *p)
{
	for (int f = 0; f < PROM_FORMATS; f++) {
		if (p->cache[f])
			MHD_destroy_response(p->cache[f]);
		p->cache[f] = NULL;
	}
	prom_snap__unref(p->cache_snap);
	p->cache_snap = NULL;
}

/* The response for the published snapshot in format f, rendered once (HTTP thread); NULL when
 * out of memory. */
static struct MHD_Response *metrics_response(struct prom *p, enum prom_fmt f)
{
	static struct prom_snap empty;
	struct prom_snap *s = acquire(p);
	struct MHD_Response *r;
	char *body;
	size_t len;

	if (s != p->cache_snap) {
		cache_drop(p);
		p->cache_snap = s; /* the reference acquire took */
	} else {
		prom_snap__unref(s); /* the cache holds one */
	}
	if (p->cache[f])
		return p->cache[f];
	if (prom_fmt__render(p->cache_snap ? p->cache_snap : &empty, f, &body, &len))
		return NULL;
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return NULL;
	}
	MHD_add_response_header(r, "Content-Type", prom_fmt__content_type(f));
	p->cache[f] = r;
	return r;
}

/* GET or HEAD /metrics (HTTP thread). */
static enum MHD_Result serve_metrics(struct prom *p, struct MHD_Connection *c)
{
	enum prom_fmt f =
	    prom_fmt__negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept"));
	struct MHD_Response *r = metrics_response(p, f);

	if (!r)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n", NULL);
	return MHD_queue_response(c, MHD_HTTP_OK, r);
}

/* A value of the request's query string (?key=value), NULL when absent. */
const char *prom_req__query(const struct prom_req *rq, const char *key)
{
	return MHD_lookup_connection_value(rq->c, MHD_GET_ARGUMENT_KIND, key);
}

/* The request's method ("POST", ...). */
const char *prom_req__method(const struct prom_req *rq) { return rq->method; }

/* Answer a request for a path other than /metrics from the routes (HTTP thread). */
static enum MHD_Result serve_route(struct prom *p, struct MHD_Connection *c, const char *url,
				   const char *method)
{
	struct prom_route r = {0};
	struct prom_req rq = {c, method, url};
	char text[512] = "";
	unsigned int i, code;

	pthread_mutex_lock(&p->lock);
	for (i = 0; i < p->nroutes && strcmp(p->routes[i].path, url); i++)
		;
	if (i < p->nroutes)
		r = p->routes[i];
	pthread_mutex_unlock(&p->lock);
	if (!r.fn)
		return reply(c, MHD_HTTP_NOT_FOUND, "not found: lattop serves /metrics\n", NULL);
	if (strcmp(r.method, method)) {
		snprintf(text, sizeof(text), "method not allowed: use %s %s\n", r.method, r.path);
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, text, r.method);
	}
	code = r.fn(r.arg, &rq, text, sizeof(text));
	return reply(c, code, text, NULL);
}

/* libmicrohttpd's request handler (HTTP thread): called once the head is complete, then for
 * each piece of body (read and dropped: no route takes one), then once more to answer. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload_data,
				  size_t *upload_data_size, void **req_cls)
{
	const union MHD_ConnectionInfo *ci;
	struct prom *p = cls;

	(void)version;
	(void)upload_data;
	if (!*req_cls) {
		*req_cls = p;
		ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
		prom_conns__busy(p->conns, ci ? ci->socket_context : NULL, now_ns());
		return MHD_YES;
	}
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (strcmp(url, "/metrics"))
		return serve_route(p, c, url, method);
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			     "method not allowed: use GET /metrics\n", "GET, HEAD");
	return serve_metrics(p, c);
}

/* A connection was accepted or closed (HTTP thread): enter it in the table, or free its
 * entry. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	const union MHD_ConnectionInfo *ci;
	struct prom *p = cls;

	if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		prom_conns__closed(p->conns, *socket_context);
		*socket_context = NULL;
		return;
	}
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return;
	*socket_context = prom_conns__start(p->conns, ci->connect_fd, now_ns());
	if (!*socket_context) /* no entry left: cannot happen below libmicrohttpd's limit */
		shutdown(ci->connect_fd, SHUT_RDWR);
}

/* A response was sent or abandoned (HTTP thread): the connection waits for its next head. */
static void on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct prom *p = cls;

	(void)req_cls;
	(void)toe;
	prom_conns__waiting(p->conns, ci ? ci->socket_context : NULL, now_ns());
}

/* Bind and listen on a; the socket or a negative errno with one sentence in err. */
static int listen_on(const struct prom_addr *a, char *err, size_t errlen)
{
	int one = 1, fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int e;

	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot listen on %s: %s", a->text, strerror(e));
		return -e;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (a->ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) == 0 && listen(fd, PROM_BACKLOG) == 0)
		return fd;
	e = errno;
	close(fd);
	if (e == EADDRINUSE)
		snprintf(err, errlen,
			 "cannot listen on %s: the port is in use (another lattop or exporter?); "
			 "choose another with --listen",
			 a->text);
	else if (e == EADDRNOTAVAIL)
		snprintf(err, errlen,
			 "cannot listen on %s: no such address on this host; give one of its "
			 "addresses, 127.0.0.1 or 0.0.0.0",
			 a->text);
	else
		snprintf(err, errlen, "cannot listen on %s: %s", a->text, strerror(e));
	return -e;
}

/* How many connections the open-file limit leaves room for (main raised its soft limit to
 * the hard one): PROM_MAX_CONNECTIONS, or fewer with a warning naming the fix. */
static unsigned int conn_limit(void)
{
	unsigned long need = PROM_MAX_CONNECTIONS + PROM_CONN_SLACK + PROM_FD_RESERVE;
	struct rlimit rl;
	unsigned long n;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return PROM_MAX_CONNECTIONS;
	n = rl.rlim_cur > PROM_CONN_SLACK + PROM_FD_RESERVE + PROM_MIN_CONNECTIONS
		? rl.rlim_cur - PROM_CONN_SLACK - PROM_FD_RESERVE
		: PROM_MIN_CONNECTIONS;
	fprintf(stderr,
		"lattop: warning: the open-file limit (%lu) leaves room for %lu HTTP connections "
		"instead of %u: raise it to %lu (ulimit -n, or LimitNOFILE= in the unit)\n",
		(unsigned long)rl.rlim_cur, n, (unsigned int)PROM_MAX_CONNECTIONS, need);
	return (unsigned int)n;
}

/* Start libmicrohttpd on socket fd; 0 or -EIO. */
static int start(struct prom *p, int fd)
{
	p->max_conns = conn_limit();
	p->conns =
	    prom_conns__new(p->max_conns, PROM_CONN_SLACK, PROM_HEAD_TIMEOUT_S * 1000000000ull,
			    PROM_SEND_TIMEOUT_S * 1000000000ull);
	if (!p->conns)
		return -ENOMEM;
	p->d =
	    MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD, 0, NULL, NULL, on_request, p,
			     MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd, MHD_OPTION_CONNECTION_LIMIT,
			     p->max_conns + PROM_CONN_SLACK, MHD_OPTION_CONNECTION_TIMEOUT,
			     (unsigned int)PROM_HEAD_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
			     (size_t)PROM_CONN_MEMORY, MHD_OPTION_NOTIFY_CONNECTION, on_connection,
			     p, MHD_OPTION_NOTIFY_COMPLETED, on_completed, p, MHD_OPTION_END);
	return p->d ? 0 : -EIO;
}

/* Bind spec and start serving. */
struct prom *prom__new(const char *spec, char *err, size_t errlen)
{
	struct prom_addr a;
	struct prom *p;
	int fd;

	if (prom__parse_listen(spec, &a, err, errlen)) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->st = prom_state__new(PROM_GONE_KEEP_NS))) {
		free(p);
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&p->lock, NULL);
	snprintf(p->url, sizeof(p->url), "http://%s/metrics", a.text);
	fd = listen_on(&a, err, errlen);
	if (fd < 0) {
		prom__free(p);
		errno = -fd;
		return NULL;
	}
	if (start(p, fd)) {
		close(fd);
		snprintf(err, errlen, "cannot start the HTTP server on %s", a.text);
		prom__free(p);
		errno = EIO;
		return NULL;
	}
	return p;
}

/* Add a route (UI thread). */
int prom__route(struct prom *p, const char *method, const char *path, prom_route_fn fn, void *arg)
{
	struct prom_route r = {.fn = fn, .arg = arg};
	int ret = 0;

	if (strlen(method) >= sizeof(r.method) || strlen(path) >= sizeof(r.path) ||
	    !strcmp(path, "/metrics"))
		return -EINVAL;
	strcpy(r.method, method);
	strcpy(r.path, path);
	pthread_mutex_lock(&p->lock);
	if (p->nroutes < PROM_ROUTES_MAX)
		p->routes[p->nroutes++] = r;
	else
		ret = -ENOSPC;
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* How many connections the server holds at most. */
unsigned int prom__max_connections(const struct prom *p) { return p->max_conns; }

/* Wall-clock seconds now. */
static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* User plus system CPU seconds of this process. */
static double cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/* Publish the interval m just closed. */
void prom__publish(struct prom *p, const struct model *m)
{
	uint64_t t0 = now_ns();
	struct prom_snap *s, *old;

	/* A failed update or snapshot keeps the previous snapshot: a scrape then sees figures
	 * one interval older rather than none. */
	prom_state__update(p->st, m, wall_s(), cpu_s());
	if (p->fl) {
		struct flight_stats fs;

		flight__stats(p->fl, &fs);
		prom_state__set_flight(p->st, &fs);
	}
	s = prom_state__snapshot(p->st, m, t0);
	if (s) {
		pthread_mutex_lock(&p->lock);
		old = p->snap;
		p->snap = s;
		pthread_mutex_unlock(&p->lock);
		prom_snap__unref(old);
	}
	p->publish_ns = now_ns() - t0;
	prom_state__set_publish_ns(p->st, p->publish_ns);
}

/* Export fl's figures (NULL: no more); http: POST /dump asks it for dumps. */
void prom__set_flight(struct prom *p, struct flight *fl, bool http)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->fl = fl;
	pthread_mutex_unlock(&p->lock);
	if (fl && http && !p->dump_routed)
		p->dump_routed = !prom__route(p, "POST", "/dump", dump_route, p);
}

/* Session interval hook. */
void prom__on_interval(void *arg, const struct model *m) { prom__publish(arg, m); }

/* Nanoseconds the last publish took. */
uint64_t prom__publish_ns(const struct prom *p) { return p->publish_ns; }

/* Stop the server and free everything. */
void prom__free(struct prom *p)
{
	if (!p)
		return;
	if (p->d)
		MHD_stop_daemon(p->d); /* joins its thread and closes the listening socket */
	cache_drop(p);
	prom_conns__free(p->conns);
	prom_snap__unref(p->snap);
	prom_state__free(p->st);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* Headless: tick the session until -n/-D or a signal. */
int prom__run(struct session *s, const struct prom *p, volatile sig_atomic_t *stop)
{
	long closed = 0;

	fprintf(stderr, "lattop: serving %s\n", p->url);
	if (s->warn[0])
		fprintf(stderr, "lattop: warning: %s\n", s->warn);
	while (!*stop && !(s->end_ns && now_ns() >= s->end_ns)) {
		struct timespec nap = {0, 20000000}; /* drain every 20 ms */

		if (session__tick(s, now_ns()) && s->o->iterations && ++closed >= s->o->iterations)
			break;
		nanosleep(&nap, NULL);
	}
	return EXIT_OK;
}
