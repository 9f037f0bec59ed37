/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * listen.h - the address `--listen [ADDR:]PORT` names: parsed while options are checked
 * (session/opts.c) and bound by the Prometheus endpoint (ui/prom.c).
 *
 * Thread use: any thread.
 */
#ifndef LAT_LISTEN_H
#define LAT_LISTEN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* A parsed --listen argument. */
struct prom_addr {
	struct sockaddr_storage ss;
	socklen_t len;
	char text[80]; /* as the user should read it back: "127.0.0.1:9100", "[::1]:9100" */
};

/* Parse a port number 1..65535 (decimal digits only, host order); 0 or -EINVAL. */
int listen__parse_port(const char *s, uint16_t *port);
/* Parse --listen's [ADDR:]PORT (ADDR a numeric IPv4 address, [IPv6] in brackets, or
 * localhost; 127.0.0.1 when absent; PORT 1..65535). Returns 0 or -EINVAL with one sentence
 * in err. */
int prom__parse_listen(const char *spec, struct prom_addr *a, char *err, size_t errlen);

#endif /* LAT_LISTEN_H */
