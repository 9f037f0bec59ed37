// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * eh_dat.c - feed an EventHeader interceptor file (what Microsoft's reference TraceLogging
 * writes when linked with its tracepoint-file implementation instead of user_events: records of
 * a little-endian u32 size, the tracepoint name with its NUL, the event) through lattop's
 * pairing (collect/ehpair.c), as if each record had been read from the tracepoint in file
 * order, one microsecond apart. For tests/host/t_eh_reference.sh.
 *
 *   eh_dat FILE TRACEPOINT [ACTIVITY]
 * prints "series NAME COUNT" per series and "loss orphan=N unmatched=N malformed=N foreign=N
 * lost=N other=N" (other: records of another tracepoint). Starts pending after the last
 * record are orphans (the maximum age is 1 ms, the pass ends 1 s later).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/ehpair.h"

static uint64_t counts[EHPAIR_SERIES_MAX];

/* Count one paired activity. */
static void on_sample(void *arg, const struct ehpair_sample *s)
{
	(void)arg;
	counts[s->series]++;
}

/* Read and feed every record of f; returns the number of records of other tracepoints, or -1
 * on a record that runs past the file. */
static long feed(FILE *f, struct ehpair *p, const char *tp, uint64_t *t)
{
	static uint8_t rec[1 << 16];
	long other = 0;
	uint8_t sz[4];

	while (fread(sz, 1, 4, f) == 4) {
		uint32_t size =
		    (uint32_t)(sz[0] | sz[1] << 8 | sz[2] << 16 | (uint32_t)sz[3] << 24);
		size_t nlen;

		if (size < 5 || size - 4 > sizeof(rec) || fread(rec, 1, size - 4, f) != size - 4)
			return -1;
		nlen = strnlen((char *)rec, size - 4);
		if (nlen == size - 4)
			return -1;
		*t += 1000;
		if (strcmp((char *)rec, tp)) {
			other++;
			continue;
		}
		ehpair__event(p, 0, rec + nlen + 1, size - 4 - nlen - 1, *t, 1);
	}
	return other;
}

int main(int argc, char **argv)
{
	struct ehpair *p = ehpair__new(1000000, on_sample, NULL);
	struct ehpair_loss l;
	FILE *f = argc >= 3 ? fopen(argv[1], "rb") : NULL;
	uint64_t t = 1000000000ull;
	long other;

	if (!f || !p || ehpair__add(p, argv[2], argc > 3 ? argv[3] : NULL, NULL) < 0) {
		fprintf(stderr, "usage: eh_dat FILE TRACEPOINT [ACTIVITY]\n");
		return 2;
	}
	other = feed(f, p, argv[2], &t);
	fclose(f);
	if (other < 0) {
		fprintf(stderr, "eh_dat: %s: a record runs past the end of the file\n", argv[1]);
		return 1;
	}
	ehpair__pass_end(p, t);
	ehpair__pass_end(p, t + 1000000000ull);
	ehpair__loss(p, &l);
	for (uint32_t i = 0; i < ehpair__nseries(p); i++)
		printf("series %s %llu\n", ehpair__series_name(p, i),
		       (unsigned long long)counts[i]);
	printf("loss orphan=%llu unmatched=%llu malformed=%llu foreign=%llu lost=%llu other=%ld\n",
	       (unsigned long long)l.orphan, (unsigned long long)l.unmatched,
	       (unsigned long long)l.malformed, (unsigned long long)l.foreign,
	       (unsigned long long)l.lost, other);
	ehpair__free(p);
	return 0;
}
