// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom.c - the Prometheus endpoint: address parsing, the listening socket, libmicrohttpd's
 * request handler and the snapshot hand-over between the UI thread and the HTTP thread.
 *
 * Bounds (a scraper is one connection; anything beyond is a misbehaving client):
 * PROM_MAX_CONNECTIONS connections in all (no per-address limit: scrapers and slow clients may
 * share one address, 127.0.0.1 behind a proxy, and must not lock each other out); a connection
 * idle for PROM_TIMEOUT_S seconds (a client that never reads its response, or never finishes
 * its request) is closed; PROM_CONN_MEMORY bytes of request (headers included) per connection,
 * beyond which libmicrohttpd answers 431 or closes. A response is one rendering of one
 * snapshot, so memory is bounded by connections x exposition size.
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

#include "session/session.h"
#include "ui/prom.h"
#include "ui/prom_dump.h"
#include "ui/prom_fmt.h"
#include "ui/prom_snap.h"

struct prom {
	struct MHD_Daemon *d;
	struct prom_state *st; /* UI thread only */
	/* The published snapshot: written by the UI thread, read by the HTTP thread, both
	 * under lock (held only to swap or to take a reference). */
	pthread_mutex_t lock;
	struct prom_snap *snap;
	uint64_t publish_ns; /* UI thread only */
	char url[112];	     /* http://ADDR:PORT/metrics */
	/* --flight: its gauges (UI thread); with --flight-http, POST /dump asks it for a dump
	 * (the HTTP thread, under lock: prom__set_flight takes it away before it is freed). */
	struct flight *fl;
	bool dump;
};

/* Queue a short plain-text reply with status code. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned int code, const char *text,
			     const char *allow)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
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
static enum MHD_Result dump_request(struct prom *p, struct MHD_Connection *c, const char *method)
{
	enum MHD_Result ret = MHD_NO;

	pthread_mutex_lock(&p->lock);
	if (p->fl)
		ret = prom_dump__handle(c, method, p->fl);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* libmicrohttpd's request handler (HTTP thread): GET or HEAD /metrics, nothing else. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload_data,
				  size_t *upload_data_size, void **req_cls)
{
	static struct prom_snap empty;
	struct prom *p = cls;
	struct prom_snap *s;
	struct MHD_Response *r;
	enum MHD_Result ret;
	enum prom_fmt f;
	char *body;
	size_t len;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)req_cls;
	if (!strcmp(url, "/dump") && p->dump)
		return dump_request(p, c, method);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "not found: lattop serves /metrics only\n",
			     NULL);
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			     "method not allowed: use GET /metrics\n", "GET, HEAD");
	f = prom_fmt__negotiate(MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept"));
	s = acquire(p);
	ret = prom_fmt__render(s ? s : &empty, f, &body, &len) ? MHD_NO : MHD_YES;
	prom_snap__unref(s);
	if (ret == MHD_NO)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n", NULL);
	r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", prom_fmt__content_type(f));
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* Bind and listen on a; the socket or a negative errno with one sentence in err. */
static int listen_on(const struct prom_addr *a, char *err, size_t errlen)
{
	int one = 1, fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int e;

	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot listen on %s: %s", a->text, strerror(e));
		return -e;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (a->ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len) == 0 && listen(fd, 16) == 0)
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
	p->d = MHD_start_daemon(
	    MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, on_request, p, MHD_OPTION_LISTEN_SOCKET,
	    (MHD_socket)fd, MHD_OPTION_CONNECTION_LIMIT, (unsigned int)PROM_MAX_CONNECTIONS,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)PROM_TIMEOUT_S,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)PROM_CONN_MEMORY, MHD_OPTION_END);
	if (!p->d) {
		close(fd);
		snprintf(err, errlen, "cannot start the HTTP server on %s", a.text);
		prom__free(p);
		errno = EIO;
		return NULL;
	}
	return p;
}

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
	p->dump = fl && http;
	pthread_mutex_unlock(&p->lock);
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
