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

#include "collect/attrib.h"
#include "collect/progstats.h"
#include "session/kind.h"
#include "session/session.h"

/* Attribution is read again when the program list changed, and otherwise this often (owners
 * come and go without a program doing so). */
#define ATTR_EVERY_NS (5 * 1000000000ull)

/* The kind's state: the fd that keeps bpf_stats on (-1: --no-stats), and the attribution table
 * with what the program list looked like when it was last read. */
struct stats_kind {
	int fd;
	struct attrib *at;  /* NULL when it could not be made (the rows then say nothing of it) */
	uint64_t at_sig;    /* a signature of the program IDs at the last attribution */
	uint64_t at_ns;     /* when it was read (0: never) */
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
	/* LATTOP_NO_ATTR=1 (debug): no attribution, the benchmark's baseline. */
	if (!getenv("LATTOP_NO_ATTR") || strcmp(getenv("LATTOP_NO_ATTR"), "1"))
		sk->at = attrib__new();
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
	if (sk)
		attrib__free(sk->at);
	free(sk);
	k->st = NULL;
}

/* A signature of the program list: changes when a program comes or goes. */
static uint64_t list_sig(const struct session *s)
{
	uint64_t h = s->nst;

	for (size_t i = 0; i < s->nst; i++)
		h = (h ^ s->st[i].id) * 0x100000001b3ull;
	return h;
}

/* Who holds each program and where it is attached, into the model: when the program list
 * changed since the last read, or ATTR_EVERY_NS after it. Programs gone keep what was last
 * known of them. */
static void attribute(struct session *s, struct stats_kind *sk, uint64_t now)
{
	uint64_t sig = list_sig(s);

	if (!sk->at || (sk->at_ns && sig == sk->at_sig && now - sk->at_ns < ATTR_EVERY_NS))
		return;
	sk->at_sig = sig;
	sk->at_ns = now ? now : 1;
	if (attrib__scan(sk->at))
		return;
	for (size_t i = 0; i < s->m->n; i++) {
		struct series *se = &s->m->s[i];
		const struct prog_attr *a;

		if (se->kind != LAT_EV_PROG || se->gone)
			continue;
		a = attrib__get(sk->at, se->id);
		if (a)
			model__set_attr(s->m, se, a);
	}
}

/* Read every loaded program's counters into the session's list and the model. */
static int stats_scan(struct session *s, struct kind *k, uint64_t now, char *err, size_t errlen)
{
	int e = progstats__scan(&s->st, &s->nst, &s->stcap);

	if (e) {
		snprintf(err, errlen, "cannot list BPF programs: %s", strerror(-e));
		return e;
	}
	model__apply_stats(s->m, s->st, s->nst, now);
	if (k->st)
		attribute(s, k->st, now);
	return 0;
}

const struct kind_ops kind_stats = {
	.name = "bpf_stats",
	.open = stats_open,
	.free = stats_free,
	.scan = stats_scan,
};
