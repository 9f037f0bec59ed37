/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf_src.h - a perf.data file of EventHeader tracepoints (LinuxTracepoints' perf-collect) as
 * a recording: `lattop -r FILE` reads it (collect/perfdata.h), pairs its events with the live
 * reader's pairing (collect/ehpair.h) into the live kind's series (kind_eh.h), cuts them into
 * intervals of -d, and encodes those as a recording in memory (rec/), which the replay then
 * plays like any other: the TUI with pausing and stepping, -b reports, --html and --compare.
 *
 * Why a recording in memory rather than a source of its own: every front end (the replay
 * clock, seeks, the HTML report, the comparison) already takes a recording, so a perf.data
 * file gets them all without a second path through each; the cost is one pass over the
 * samples at open and the recording's bytes (a few hundred per series and interval).
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_PERF_SRC_H
#define LAT_SESSION_PERF_SRC_H

#include <stddef.h>
#include <stdint.h>

/* Most intervals one perf.data file becomes (its time span over -d). */
#define PERF_SRC_IVAL_MAX 100000

/* Turn the perf.data data[size] into a recording of intervals of interval_ns: *out (malloc'd)
 * of *outlen bytes. Activities still open after max_age_ns count as orphans, as live. Returns
 * 0, or -EINVAL (a file lattop cannot read, no EventHeader tracepoint in it, too many
 * intervals) or -ENOMEM, with one sentence in err (without the file name). On success err
 * holds "" or the sentence saying where a damaged data section stopped being read (what was
 * before it is in the recording; the recording's notice says it too). */
int perf_src__convert(const uint8_t *data, size_t size, uint64_t interval_ns,
		      uint64_t max_age_ns, uint8_t **out, size_t *outlen, char *err,
		      size_t errlen);

#endif /* LAT_SESSION_PERF_SRC_H */
