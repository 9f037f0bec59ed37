// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kind_stats.c - bpf_stats and the program list as a kind (kind.h): the kernel's run-time
 * statistics on for as long as the session holds their fd (none with --no-stats), and the
 * scan of every loaded program (collect/progstats.c) at open and at each interval close.
 *
 * Thread use: UI/main thread only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/progstats.h"
#include "session/kind.h"
#include "session/session.h"

/* The kind's state: the fd that keeps bpf_stats on (-1: --no-stats). */
struct stats_kind {
	int fd;
};

/* bpf_stats for the session, on exactly as long as its fd is open; with --no-stats no fd is
 * taken and the model reads no counters (stats someone else turned on stay on: a warning says
 * so, since every program pays for them anyway). */
static int stats_open(struct session *s, struct kind *k, char *err, size_t errlen)
{
	struct stats_kind *sk = calloc(1, sizeof(*sk));

	if (!sk) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	sk->fd = -1;
	k->st = sk;
	if (s->o->no_stats) {
		s->m->no_stats = true;
		if (progstats__on_now() > 0)
			session__warn(s, "bpf_stats is on already (the kernel.bpf_stats_enabled "
					 "sysctl or another tool): every BPF program pays for it "
					 "anyway; --no-stats leaves it on and shows none of its "
					 "figures");
		return EXIT_OK;
	}
	sk->fd = progstats__enable();
	if (sk->fd < 0) {
		snprintf(err, errlen,
			 "cannot enable BPF run-time statistics (bpf_enable_stats: %s); "
			 "run counts and times would all read zero",
			 strerror(-sk->fd));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Turn bpf_stats off (closing its fd). */
static void stats_free(struct session *s, struct kind *k)
{
	struct stats_kind *sk = k->st;

	(void)s;
	if (sk && sk->fd >= 0)
		close(sk->fd);
	free(sk);
	k->st = NULL;
}

/* Read every loaded program's counters into the session's list and the model. */
static int stats_scan(struct session *s, struct kind *k, uint64_t now, char *err, size_t errlen)
{
	int e = progstats__scan(&s->st, &s->nst, &s->stcap);

	(void)k;
	if (e) {
		snprintf(err, errlen, "cannot list BPF programs: %s", strerror(-e));
		return e;
	}
	model__apply_stats(s->m, s->st, s->nst, now);
	return 0;
}

const struct kind_ops kind_stats = {
	.name = "bpf_stats",
	.open = stats_open,
	.free = stats_free,
	.scan = stats_scan,
};
