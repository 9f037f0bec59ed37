// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * fuzz_replay.c - libFuzzer target for `lattop -r FILE` as a whole: the input is a recording,
 * opened through session__open_replay (the metadata: source, notice, mode, filter, floor, interval,
 * host, kernel), applied to the model record by record, and written in every output format:
 * the totals report (text, CSV, JSON), the HTML report (--html), the per-interval batch reports (text, CSV, JSON, each
 * mode the file has, with --hist and -c), the --events exports (CSV, trace), plus the seeks,
 * steps and jumps the TUI makes. Output goes to /dev/null; the sanitizers, libFuzzer's
 * -rss_limit_mb and -timeout catch what goes wrong, including a replay that costs far more
 * than the input's size.
 *
 * Each input is replayed as it is and with its CRCs made right (fuzz_crc.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rec/replay.h"
#include "fuzz_crc.h"
#include "session/session.h"
#include "ui/html/html.h"
#include "ui/report/report.h"
#include "ui/report/batch.h"
#include "session/replay_src.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int mfd = -1;   /* the recording, as a file the replay can read */
static char path[64];  /* /proc/self/fd/N */
static FILE *devnull;

/* Every per-interval report of the first few intervals, in the view's current mode. */
static void interval_reports(struct session *s, struct opts *o, uint8_t knobs)
{
	size_t n = replay__count(s->rp);

	n = n < 4 ? n : 4;
	o->cumulative = knobs & 1;
	o->hist = knobs & 2;
	for (int fmt = OUT_TEXT; fmt <= OUT_JSON; fmt++) {
		o->out = (enum out_fmt)fmt;
		for (size_t k = 1; k <= n; k++) {
			if (session__seek(s, k))
				return;
			batch__report(s, devnull, k == 1);
		}
	}
}

/* The HTML report of the whole recording (--html), written to /dev/null. */
static void html_report(struct session *s)
{
	static volatile sig_atomic_t never;
	static struct html_data d;

	if (!html_data__collect(&d, s, &never))
		html__page(devnull, &d);
	html_data__free(&d);
}

/* Replay the bytes in mfd the ways lattop -r can. */
static void replay_all(uint8_t knobs)
{
	static struct opts o;
	static struct session s;
	char err[512], status[256];

	memset(&o, 0, sizeof(o));
	o.interval_ns = 1000000000ull;
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
	html_report(&s);
	interval_reports(&s, &o, knobs);
	for (int mode = 0; mode < MODE__COUNT; mode++)
		if (!session__set_mode(&s, (enum lat_mode)mode, err, sizeof(err)))
			interval_reports(&s, &o, knobs >> 2);
	/* The TUI's moves: back to the start (a rebuild), a step, a jump, the header's status. */
	session__seek(&s, 1);
	session__step(&s, 1);
	session__step(&s, -1);
	session__jump(&s, "0.5", err, sizeof(err));
	session__jump(&s, "12:00:00", err, sizeof(err));
	replay__status(s.rp, status, sizeof(status));
	if (replay__file(s.rp)->nevents) {
		o.out = OUT_CSV;
		report__events(&s, devnull);
		o.out = OUT_TRACE;
		report__events(&s, devnull);
	}
out:
	session__close(&s);
}

/* Put len bytes into the memfd the replay reads. */
static int load(const uint8_t *p, size_t len)
{
	if (ftruncate(mfd, 0) || pwrite(mfd, p, len, 0) != (ssize_t)len)
		return -1;
	return 0;
}

/* One input: replayed as it is, then with its CRCs made right. The last byte, when there is
 * one past the header, picks -c and --hist for the interval reports. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t knobs = size > REC_HDR_LEN ? data[size - 1] : 0, *fixed;

	if (mfd < 0) {
		mfd = memfd_create("fuzz.lrec", MFD_CLOEXEC);
		devnull = fopen("/dev/null", "w");
		if (mfd < 0 || !devnull)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
	}
	if (load(data, size))
		return 0;
	replay_all(knobs);
	fixed = malloc(size ? size : 1);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	fix_crcs(fixed, size);
	if (memcmp(fixed, data, size) && !load(fixed, size))
		replay_all(knobs);
	free(fixed);
	return 0;
}
