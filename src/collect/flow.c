// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flow.c - parse and format the target flow of segments mode.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/listen.h"
#include "collect/flow.h"

/* Parse an address into out (network order); *family becomes 4 or 6. Returns 0 or -EINVAL. */
static int parse_addr(const char *s, __u8 out[16], __u8 *family)
{
	memset(out, 0, 16);
	if (inet_pton(AF_INET, s, out) == 1) {
		*family = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, s, out) == 1) {
		*family = 6;
		return 0;
	}
	return -EINVAL;
}

/* Parse a port 1..65535 into network order. */
static int parse_port(const char *s, __u16 *out)
{
	uint16_t v;

	if (listen__parse_port(s, &v))
		return -EINVAL;
	*out = htons(v);
	return 0;
}

/* Record an address family; a second, different one is the IPv4/IPv6 mismatch. */
static int set_family(struct lat_flow *f, __u8 fam, const char *key, char *err, size_t errlen)
{
	if (f->family && f->family != fam) {
		snprintf(err, errlen,
			 "flow mixes IPv4 and IPv6: %s is IPv%u but the other address is IPv%u",
			 key, fam, f->family);
		return -EINVAL;
	}
	f->family = fam;
	return 0;
}

/* Parse one key=value pair. */
static int parse_pair(struct lat_flow *f, const char *key, const char *val, char *err,
		      size_t errlen)
{
	__u8 fam;

	if (!strcmp(key, "proto")) {
		if (!strcmp(val, "udp"))
			f->proto = 17;
		else if (!strcmp(val, "tcp"))
			f->proto = 6;
		else {
			snprintf(err, errlen, "bad protocol '%s' in the flow: use proto=udp or tcp",
				 val);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(key, "src") || !strcmp(key, "dst")) {
		bool src = key[0] == 's';

		if (parse_addr(val, src ? f->src : f->dst, &fam)) {
			snprintf(err, errlen,
				 "bad address '%s' for %s in the flow: give an IPv4 or IPv6 address",
				 val, key);
			return -EINVAL;
		}
		if (src)
			f->has_src = 1;
		else
			f->has_dst = 1;
		return set_family(f, fam, key, err, errlen);
	}
	if (!strcmp(key, "sport") || !strcmp(key, "dport")) {
		if (parse_port(val, key[0] == 's' ? &f->sport : &f->dport)) {
			snprintf(err, errlen, "bad port '%s' for %s in the flow: give 1..65535", val,
				 key);
			return -EINVAL;
		}
		return 0;
	}
	snprintf(err, errlen,
		 "unknown key '%s' in the flow: use proto, src, dst, sport and dport", key);
	return -EINVAL;
}

/* Parse a flow spec. */
int flow__parse(struct lat_flow *f, const char *spec, char *err, size_t errlen)
{
	char buf[256], *save = NULL, *tok;

	memset(f, 0, sizeof(*f));
	if (strlen(spec) >= sizeof(buf)) {
		snprintf(err, errlen, "flow too long: at most %zu characters", sizeof(buf) - 1);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok || !eq[1]) {
			snprintf(err, errlen,
				 "bad flow item '%s': write key=value, e.g. proto=udp,dport=4321",
				 tok);
			return -EINVAL;
		}
		*eq = '\0';
		if (parse_pair(f, tok, eq + 1, err, errlen))
			return -EINVAL;
	}
	return 0;
}

/* Format a flow. */
void flow__format(const struct lat_flow *f, char *buf, size_t len)
{
	int af = f->family == 6 ? AF_INET6 : AF_INET;
	char a[INET6_ADDRSTRLEN];
	size_t l = 0;

	buf[0] = '\0';
#define ADD(...) (l += snprintf(buf + l, l < len ? len - l : 0, __VA_ARGS__))
	if (f->proto)
		ADD("%sproto=%s", l ? "," : "", f->proto == 6 ? "tcp" : "udp");
	if (f->has_src && inet_ntop(af, f->src, a, sizeof(a)))
		ADD("%ssrc=%s", l ? "," : "", a);
	if (f->has_dst && inet_ntop(af, f->dst, a, sizeof(a)))
		ADD("%sdst=%s", l ? "," : "", a);
	if (f->sport)
		ADD("%ssport=%u", l ? "," : "", ntohs(f->sport));
	if (f->dport)
		ADD("%sdport=%u", l ? "," : "", ntohs(f->dport));
#undef ADD
}
