// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * profwrite.c - test fixture: write a small vhost profile to FILE with profile__write, the
 * function `lattop --discover --profile-out FILE` ends with (discover itself needs vhost-net,
 * which only the VM has). Prints the error sentence on stderr and exits 1 when it fails.
 *
 * Usage: profwrite FILE
 */
#include <stdio.h>

#include "collect/profile.h"

int main(int argc, char **argv)
{
	static struct profile p;
	char err[512];

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	snprintf(p.device, sizeof(p.device), "vtap0");
	snprintf(p.flow, sizeof(p.flow), "proto=udp,dport=4321");
	/* Enough workers for a profile of several KiB: a full disk cannot hide in one page. */
	p.nctx = 1;
	p.ctx[0] = (struct profile_ctx){ .ctx = 0xffff888006334500ull, .runs = 5, .packets = 64 };
	for (p.ntid = 0; p.ntid < LAT_VHOST_MAX_TID; p.ntid++) {
		struct profile_tid *w = &p.tid[p.ntid];

		*w = (struct profile_tid){ .tid = 800 + p.ntid, .pid = 2, .ctx = p.ctx[0].ctx,
					   .runs = 5, .packets = 64 };
		snprintf(w->comm, sizeof(w->comm), "vhost-8%02d", p.ntid % 100);
	}
	if (profile__write(&p, argv[1], err, sizeof(err))) {
		fprintf(stderr, "profwrite: %s\n", err);
		return 1;
	}
	return 0;
}
