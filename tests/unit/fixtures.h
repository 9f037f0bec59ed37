/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fixtures.h - small builders shared by the model and recording unit tests.
 */
#ifndef LAT_TEST_FIXTURES_H
#define LAT_TEST_FIXTURES_H

#include <stdio.h>

#include "model/model.h"

#define S 1000000000ull

/* One program stat (an xdp program with these counters). */
static inline struct prog_stat ps(uint32_t id, const char *name, uint64_t cnt, uint64_t ns)
{
	struct prog_stat p = { .id = id, .run_cnt = cnt, .run_time_ns = ns };

	snprintf(p.name, sizeof(p.name), "%s", name);
	snprintf(p.type_name, sizeof(p.type_name), "xdp");
	return p;
}

#endif /* LAT_TEST_FIXTURES_H */
