// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_perf.c - libFuzzer target for perf.data files read offline (`lattop -r FILE` of a file
 * LinuxTracepoints' perf-collect wrote): the input goes through the conversion alone
 * (session/perf_src.c: the perf.data reader, the EventHeader pairing, the recording's
 * encoder; the last byte picks -d from 10 ms to 2.55 s), its recording is scanned back, and the
 * input is opened as lattop -r opens it (session__open_replay, by its magic) with the totals
 * report in every format and the TUI's moves. Output goes to /dev/null; the sanitizers,
 * libFuzzer's -rss_limit_mb, -malloc_limit_mb and -timeout catch what goes wrong, including a
 * small file that costs far more than its size. Seeds: tests/fuzz/corpus/perf_*.data
 * (tests/host/mkperf.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rec/rec.h"
#include "rec/replay.h"
#include "session/perf_src.h"
#include "session/replay_src.h"
#include "session/session.h"
#include "ui/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int mfd = -1;  /* the input, as a file lattop -r can read */
static char path[64]; /* /proc/self/fd/N */
static FILE *devnull;

/* The conversion alone, and its recording scanned and applied. */
static void convert(const uint8_t *data, size_t size, uint64_t interval_ns)
{
	char err[320];
	uint8_t *rec;
	size_t len;
	struct rec_file f;
	struct model *m;

	if (perf_src__convert(data, size, interval_ns, 1000000000ull, &rec, &len, err, sizeof(err)))
		return;
	if (!rec__scan(&f, rec, len, err, sizeof(err))) {
		m = model__new(0);
		for (size_t i = 0; m && i < f.nrecs; i++)
			if (rec__apply(&f, i, m, NULL, 0) < 0)
				break;
		model__free(m);
		rec__fini(&f);
	}
	free(rec);
}

/* lattop -r of the input: the totals in each format, a seek back, a step, a jump. */
static void replay(uint64_t interval_ns)
{
	static struct opts o;
	static struct session s;
	char err[512], status[256];

	memset(&o, 0, sizeof(o));
	o.interval_ns = interval_ns;
	o.replay = path;
	o.batch = true;
	o.theme = "default";
	if (session__open_replay(&s, &o, err, sizeof(err)) != EXIT_OK)
		goto out;
	for (int fmt = OUT_TEXT; fmt <= OUT_JSON; fmt++) {
		o.out = (enum out_fmt)fmt;
		if (session__seek_all(&s) || report__totals(&s, devnull) != EXIT_OK)
			goto out;
	}
	session__seek(&s, 1);
	session__step(&s, 1);
	session__step(&s, -1);
	session__jump(&s, "0.5", err, sizeof(err));
	replay__status(s.rp, status, sizeof(status));
out:
	session__close(&s);
}

/* One input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t interval_ns = (size ? data[size - 1] + 1ull : 100ull) * 10000000ull;

	if (mfd < 0) {
		mfd = memfd_create("fuzz.data", MFD_CLOEXEC);
		devnull = fopen("/dev/null", "w");
		if (mfd < 0 || !devnull)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
	}
	convert(data, size, interval_ns);
	if (ftruncate(mfd, 0) || pwrite(mfd, data, size, 0) != (ssize_t)size)
		return 0;
	replay(interval_ns);
	return 0;
}
