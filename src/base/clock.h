/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * clock.h - the one clock lattop's intervals, deadlines and recordings are measured on.
 *
 * Thread use: any thread.
 */
#ifndef LAT_CLOCK_H
#define LAT_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in ns. */
uint64_t now_ns(void);

#endif /* LAT_CLOCK_H */
