/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perfdata.h - a perf.data file (the "PERFILE2" format that perf and LinuxTracepoints'
 * perf-collect write) read in memory as tracepoint samples for the EventHeader pairing
 * (collect/ehpair.h): the file header, the attrs and their sample ids, the tracepoint names of
 * the HEADER_EVENT_DESC feature, host, kernel and clock of the HOSTNAME, OSRELEASE and
 * CLOCK_DATA features, and the data section's PERF_RECORD_SAMPLE records (every sample_type
 * layout perf-collect can write: IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD,
 * CALLCHAIN, RAW) sorted by time across CPUs. Other records (FINISHED_ROUND, FINISHED_INIT,
 * COMM, ...) are skipped; PERF_RECORD_LOST and LOST_SAMPLES are counted.
 *
 * The file is hostile until checked: every offset and size is bounded by the file, counts by
 * the limits below, and the memory held is the sample index (32 bytes per sample; a sample
 * takes at least 28 bytes of the file) plus the attrs and ids. A record the data section cannot
 * hold ends the reading there (damage says where); what came before is kept.
 *
 * Thread use: one thread per struct pdata.
 */
#ifndef LAT_COLLECT_PERFDATA_H
#define LAT_COLLECT_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PDATA_MAGIC "PERFILE2"
#define PDATA_ATTR_MAX 4096 /* events (attrs) in one file */
#define PDATA_ID_MAX 262144 /* sample ids of all attrs together */
#define PDATA_NAME_MAX 256  /* a tracepoint name after its "system:", NUL included */

/* One event of the file (an attr). */
struct pdata_attr {
	uint32_t type;	      /* PERF_TYPE_* (2: a tracepoint) */
	uint64_t config;      /* the tracepoint's id */
	uint64_t sample_type; /* PERF_SAMPLE_* */
	char name[PDATA_NAME_MAX]; /* "" when no event description names it */
};

/* One sample of a tracepoint: its raw data (after the common fields too: common_len). */
struct pdata_ev {
	uint64_t time;
	uint64_t raw_off; /* of the raw data in the file */
	uint32_t raw_len;
	uint32_t tid;
	uint32_t attr;
};

struct pdata {
	const uint8_t *data; /* the file (the caller keeps it alive) */
	size_t size;
	struct pdata_attr *attr;
	uint32_t nattr;
	struct pdata_ev *ev; /* sorted by time, then by place in the file */
	size_t nev;
	uint64_t lost;	     /* PERF_RECORD_LOST(_SAMPLES) counts */
	uint64_t unknown;    /* samples of no attr, or too short for their sample_type */
	uint64_t skipped;    /* records of other types */
	char host[72], kernel[72]; /* HOSTNAME, OSRELEASE ("" when absent) */
	bool has_clock;		   /* CLOCK_DATA: one instant on the wall clock and on clockid */
	uint32_t clockid;
	uint64_t wall_ns, clock_ns;
	char damage[160]; /* "" or where the data section stopped being readable */
};

/* True when data starts with the perf.data magic (either byte order: pdata__open says a
 * big-endian file is one it cannot read). */
bool pdata__is(const void *data, size_t size);
/* Read the file data[size] into pd (zeroed first). Returns 0, -EINVAL (not a perf.data file it
 * can read: one sentence in err, without the file name) or -ENOMEM. */
int pdata__open(struct pdata *pd, const uint8_t *data, size_t size, char *err, size_t errlen);
/* Release what pdata__open allocated (a zeroed pd is fine). */
void pdata__fini(struct pdata *pd);

#endif /* LAT_COLLECT_PERFDATA_H */
