// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * listen.c - parse --listen's [ADDR:]PORT (see listen.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/listen.h"

/* Parse a port number 1..65535 (decimal digits only); 0 or -EINVAL. */
int listen__parse_port(const char *s, uint16_t *port)
{
	char *end;
	long v;

	if (!*s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > 65535)
		return -EINVAL;
	*port = (uint16_t)v;
	return 0;
}

/* Parse --listen's [ADDR:]PORT. */
int prom__parse_listen(const char *spec, struct prom_addr *a, char *err, size_t errlen)
{
	const char *colon = strrchr(spec, ':'), *port_s = colon ? colon + 1 : spec;
	char host[64] = "127.0.0.1";
	uint16_t port;

	memset(a, 0, sizeof(*a));
	if (colon) {
		size_t n = (size_t)(colon - spec);

		if (n >= sizeof(host) || n == 0)
			goto bad;
		memcpy(host, spec, n);
		host[n] = '\0';
	}
	if (listen__parse_port(port_s, &port))
		goto bad;
	if (!strcmp(host, "localhost"))
		snprintf(host, sizeof(host), "127.0.0.1");
	if (host[0] == '[') {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&a->ss;
		size_t n = strlen(host);

		if (n < 3 || host[n - 1] != ']')
			goto bad;
		host[n - 1] = '\0';
		if (inet_pton(AF_INET6, host + 1, &s6->sin6_addr) != 1)
			goto bad;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(port);
		a->len = sizeof(*s6);
		snprintf(a->text, sizeof(a->text), "[%s]:%u", host + 1, port);
		return 0;
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&a->ss;

		if (inet_pton(AF_INET, host, &s4->sin_addr) != 1)
			goto bad;
		s4->sin_family = AF_INET;
		s4->sin_port = htons(port);
		a->len = sizeof(*s4);
		snprintf(a->text, sizeof(a->text), "%s:%u", host, port);
		return 0;
	}
bad:
	snprintf(err, errlen,
		 "bad address '%s' for --listen: give [ADDR:]PORT with PORT 1..65535 and ADDR a "
		 "numeric IPv4 address, [IPv6] or localhost (e.g. --listen 9364 or "
		 "--listen 0.0.0.0:9364)",
		 spec);
	return -EINVAL;
}
