// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom_route.c - the HTTP server's routes without a session: serves --listen's /metrics (an
 * empty exposition) and a POST /echo route on 127.0.0.1:PORT for SECONDS, so that
 * t_prom_flood.sh can ask it over HTTP. /echo answers "echo METHOD last=VALUE" (VALUE: the
 * query's "last", or "-").
 * Usage: prom_route PORT SECONDS
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ui/prom/prom.h"

/* The /echo route (HTTP thread). */
static unsigned int echo(void *arg, const struct prom_req *rq, char *text, size_t textlen)
{
	const char *last = prom_req__query(rq, "last");

	(void)arg;
	snprintf(text, textlen, "echo %s last=%s\n", prom_req__method(rq), last ? last : "-");
	return 200;
}

/* The route a handler cannot take. */
static unsigned int never(void *arg, const struct prom_req *rq, char *text, size_t textlen)
{
	(void)arg;
	(void)rq;
	snprintf(text, textlen, "never\n");
	return 500;
}

int main(int argc, char **argv)
{
	char err[256];
	struct rlimit rl;
	struct prom *p;

	if (argc != 3) {
		fprintf(stderr, "usage: prom_route PORT SECONDS\n");
		return 2;
	}
	/* As lattop's main does: the soft open-file limit raised to the hard one. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	p = prom__new(argv[1], err, sizeof(err));
	if (!p) {
		fprintf(stderr, "prom_route: %s\n", err);
		return 1;
	}
	if (prom__route(p, "POST", "/echo", echo, NULL) ||
	    prom__route(p, "POST", "/metrics", never, NULL) != -EINVAL) {
		fprintf(stderr, "prom_route: prom__route failed\n");
		prom__free(p);
		return 1;
	}
	printf("ready %u\n", prom__max_connections(p));
	fflush(stdout);
	sleep((unsigned int)atoi(argv[2]));
	prom__free(p);
	return 0;
}
