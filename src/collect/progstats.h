/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * progstats.h - the programs overview source: every loaded BPF program's bpf_stats counters.
 *
 * Thread use: UI thread (the sampler runs once per interval, outside the collector).
 */
#ifndef LAT_PROGSTATS_H
#define LAT_PROGSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Turn on BPF_STATS_RUN_TIME for as long as the returned fd stays open (never the global
 * sysctl, so stats switch off when lattop exits). Returns the fd or a negative errno. */
int progstats__enable(void);
/* Whether BPF run-time stats are on now, by anyone (the kernel.bpf_stats_enabled sysctl or
 * another process's bpf_enable_stats fd; the sysctl alone does not show the fds): 1 on, 0 off,
 * or a negative errno when it cannot tell. */
int progstats__on_now(void);

/* Read every loaded program's id, type, name and counters into *out (grown as needed, *cap
 * its capacity); *n is set to the count. Programs that vanish mid-scan are skipped.
 * Returns 0 or a negative errno (-EPERM without privileges). */
int progstats__scan(struct prog_stat **out, size_t *n, size_t *cap);

/* Full name of a program: its BTF function name when available (not cut to 15 chars),
 * else the kernel's bpf_prog_info name. fd is a program fd. */
void progstats__name(int fd, const void *info, char *buf, size_t len);

/* ID of the program behind fd (0 when it cannot be read). */
uint32_t progstats__prog_id(int fd);
/* IDs of the programs this process holds (its program and link fds, from /proc/self/fdinfo's
 * prog_id lines): lattop's own. Up to max into ids; returns how many, or a negative errno. */
int progstats__own_ids(uint32_t *ids, int max);
/* The prog_id line of fdinfo file name (a program or a link fd's) in directory dirfd, or 0
 * (none, or the fd is gone). */
uint32_t progstats__fdinfo_prog_id(int dirfd, const char *name);
/* The kernel's recursion_misses count of the program behind fd (0 when unreadable). */
uint64_t progstats__recursion_misses(int fd);
/* Add the bpf_stats of the program behind fd (nothing for fd < 0 or an unreadable one) to
 * *run_time_ns and, when runs is set, its run count to *runs. */
void progstats__run_add(int fd, uint64_t *run_time_ns, uint64_t *runs);

#endif /* LAT_PROGSTATS_H */
