/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flow.h - the target flow of segments mode: "proto=udp,src=10.0.0.1,dst=10.0.0.2,sport=1234,
 * dport=4321" (any subset of the keys; IPv4 or IPv6 addresses) <-> struct lat_flow.
 *
 * Thread use: any (pure functions).
 */
#ifndef LAT_FLOW_H
#define LAT_FLOW_H

#include <stddef.h>

#include "lattop.h"

/* Parse spec into f (zeroed first). Returns 0, or -EINVAL with one sentence in err naming the
 * key: an unknown key, a bad protocol, address or port, or IPv4 mixed with IPv6. */
int flow__parse(struct lat_flow *f, const char *spec, char *err, size_t errlen);
/* Format f back into the spec syntax (keys in canonical order; "" matches everything). */
void flow__format(const struct lat_flow *f, char *buf, size_t len);

#endif /* LAT_FLOW_H */
