/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * demo.h - `lattop --demo`: bundled BPF programs and a generator thread that runs them.
 *
 * The generator drives each program with bpf_prog_test_run_opts at its own rate, so the
 * overview and the histograms move within the first interval on any kernel with BPF.
 */
#ifndef LAT_DEMO_H
#define LAT_DEMO_H

#include <stdbool.h>
#include <stdint.h>

struct demo;
struct collector;

#define DEMO_NPROGS 4

/* Load the demo programs (sharing the collector's maps), self-timing on or off, and start the
 * generator thread. NULL + errno on failure; err gets one sentence. Thread: main. */
struct demo *demo__start(struct collector *c, bool self_time, char *err, size_t errlen);
/* Stop the generator and unload the programs (NULL is a no-op). Thread: main. */
void demo__free(struct demo *d);
/* IDs of the loaded demo programs; returns how many (DEMO_NPROGS). */
int demo__prog_ids(const struct demo *d, uint32_t *ids, int max);
/* Turn the programs' self-timing events on or off at run time. Thread: UI. */
void demo__set_self_time(struct demo *d, bool on);
/* Total test runs the generator has completed. Thread: any. */
uint64_t demo__runs(const struct demo *d);

#endif /* LAT_DEMO_H */
