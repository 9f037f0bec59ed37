// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * replay.c - feed a recording into a fresh model, at a speed, with seeking (see replay.h).
 *
 * The whole file is read into memory and scanned once; seeking backwards rebuilds the model
 * from the first record (recordings hold a few hundred bytes per series per interval, so
 * this is fast for hours of recording).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/jnum.h"
#include "rec/flight.h"
#include "rec/replay.h"

struct replay {
	char path[4096];
	uint8_t *data;
	size_t size;
	struct rec_file f;
	size_t pos;      /* intervals applied */
	size_t next_rec; /* next record to apply */
	int view_mode;    /* the mode the user chose (-m, p/h/s), or -1: the recorded one */
	bool paused;
	int speed_q;      /* speed = 2^speed_q / 4: 0 = x0.25, 2 = x1, 8 = x64 */
	uint64_t clock_ns; /* replay position on the recorded CLOCK_MONOTONIC */
	uint64_t last_now; /* our CLOCK_MONOTONIC at the last tick */
	int64_t wall_off_ns;
	uint64_t floor_ns; /* the recorded probe floor */
	uint64_t run_cost_ns; /* the recorded cost of a probed run (0: older files) */
	uint64_t interval_ns; /* the recorded -d, 0 when absent */
	bool has_budget;      /* the recording says the probes' budget (budget_pct, cpus) */
	double budget_pct;
	int ncpu;
	char host[72], kernel[72];
	struct model *m; /* intervals [0, pos) applied; replaced when seeking backwards */
	char filter[REC_FILTER_MAX]; /* the recorded -p list as of pos */
};

/* What a file that is not a regular one is, for the sentence that refuses it. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)	? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "not a regular file";
}

/* Read a whole regular file into memory; 0 or -errno (-ENODEV with *kind set for anything but
 * a regular file: a FIFO or a device is refused, never waited on or read). */
static int read_file(const char *path, uint8_t **data, size_t *size, const char **kind)
{
	struct stat st;
	size_t got = 0;
	uint8_t *p;
	/* O_NONBLOCK: opening a FIFO without a writer must not block (it is refused below). */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), e;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		e = -errno;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		*kind = file_kind(st.st_mode);
		close(fd);
		return -ENODEV;
	}
	p = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!p) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, p + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? -errno : 0;
			if (e) {
				free(p);
				close(fd);
				return e;
			}
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	*data = p;
	*size = got;
	return 0;
}

/* The recorded -p list is now list (the session applies it unless the user set a filter). */
static void set_filter(struct replay *r, const char *list)
{
	snprintf(r->filter, sizeof(r->filter), "%s", list);
}

/* A mode the user chose stays over the recorded one (intervals and filter records carry it). */
static void keep_view(struct replay *r)
{
	if (r->view_mode >= 0)
		r->m->mode = (enum lat_mode)r->view_mode;
}

/* A fresh model carrying the recording's description. */
static int new_model(struct replay *r)
{
	const struct rec_file *f = &r->f;
	struct model *m = model__new(f->nivals ? rec__ival_start(f, 0) : 0);

	if (!m)
		return -ENOMEM;
	model__free(r->m);
	r->m = m;
	snprintf(m->source, sizeof(m->source), "%s", rec__meta_str(f, "source"));
	snprintf(m->notice, sizeof(m->notice), "%s", rec__meta_str(f, "notice"));
	snprintf(m->seg_notice, sizeof(m->seg_notice), "%s", rec__meta_str(f, "seg_notice"));
	m->floor_ns = r->floor_ns;
	m->run_cost_ns = r->run_cost_ns;
	m->has_budget = r->has_budget;
	m->budget_pct = r->budget_pct;
	m->ncpu = r->ncpu;
	for (int i = 0; i < MODE__COUNT; i++)
		if (!strcmp(rec__meta_str(f, "mode"), model__mode_name(i)))
			m->mode = i;
	r->pos = 0;
	r->next_rec = 0;
	set_filter(r, rec__meta_str(f, "filter"));
	keep_view(r);
	return 0;
}

/* Apply records until k intervals are applied (all records when all is set). */
static int apply_until(struct replay *r, size_t k, bool all)
{
	static char filt[REC_FILTER_MAX]; /* UI thread only; too big for the stack */

	while (r->next_rec < r->f.nrecs && (all || r->pos < k)) {
		int t = rec__apply(&r->f, r->next_rec, r->m, filt, sizeof(filt));

		if (t < 0)
			return t;
		r->next_rec++;
		if (t == REC_INTERVAL) {
			r->pos++;
			model__derive_watch(r->m);
		}
		else if (t == REC_FILTER)
			set_filter(r, filt);
	}
	keep_view(r);
	return 0;
}

/* Rebuild the model so that intervals [0, k) are applied. */
int replay__seek(struct replay *r, size_t k)
{
	int e;

	if (k > r->f.nivals)
		k = r->f.nivals;
	if (k < r->pos || !r->m) {
		e = new_model(r);
		if (e)
			return e;
	}
	e = apply_until(r, k, false);
	if (r->pos)
		r->clock_ns = rec__ival_end(&r->f, r->pos - 1);
	return e;
}

/* Apply every record. */
int replay__seek_all(struct replay *r)
{
	int e = replay__seek(r, r->f.nivals);

	return e ? e : apply_until(r, 0, true);
}

/* Start over: a fresh model, no interval applied yet. */
int replay__rewind(struct replay *r)
{
	return new_model(r);
}

/* The probes' budget, when the recording says it: -1 (max) or 0 to 100 % of a machine of 1 to
 * 65,536 CPUs (both, or neither). */
static int read_budget(struct replay *r, char *why, size_t whylen)
{
	int64_t cpus = 0;
	double b = 0;
	int e = jnum__num(r->f.meta, "budget_pct", -1, 100, &b, why, whylen);

	if (e == -ENOENT)
		return 0;
	if (e || jnum__int(r->f.meta, "cpus", 1, 65536, &cpus, why, whylen))
		return -EINVAL;
	if (b < 0 && b != -1) {
		snprintf(why, whylen, "\"budget_pct\" is %g: give -1 (max) or 0 to 100", b);
		return -EINVAL;
	}
	r->has_budget = true;
	r->budget_pct = b;
	r->ncpu = (int)cpus;
	return 0;
}

/* The recording's numbers, each range-checked before it becomes an integer (a JSON number is
 * a double; converting one out of range is undefined). Absent ones are 0 (older files).
 * Returns 0 or -EINVAL with the field and its range in why. */
static int read_meta(struct replay *r, char *why, size_t whylen)
{
	static const struct {
		const char *key;
		int64_t max;
	} keys[] = {
		{ "start_realtime_ns", INT64_MAX },
		{ "start_monotonic_ns", INT64_MAX },
		{ "interval_ns", 86400000000000ll }, /* -d is at most a day */
		{ "floor_ns", 60000000000ll },       /* a minute's probe floor is absurd already */
		{ "run_cost_ns", 60000000000ll },    /* and so is a minute added to each run */
	};
	int64_t v[5] = { 0 };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (jnum__int(r->f.meta, keys[i].key, 0, keys[i].max, &v[i], why, whylen) ==
		    -EINVAL)
			return -EINVAL;
	/* In doubles, as the file holds them (both below 2^63: the difference fits). */
	r->wall_off_ns = (int64_t)((double)v[0] - (double)v[1]);
	if (v[2] >= 1000000)
		r->interval_ns = (uint64_t)v[2];
	r->floor_ns = (uint64_t)v[3];
	r->run_cost_ns = (uint64_t)v[4];
	return read_budget(r, why, whylen);
}

/* Read a whole regular file into memory. */
int replay__read(const char *path, uint8_t **data, size_t *size, char *err, size_t errlen)
{
	const char *kind = "";
	int e = read_file(path, data, size, &kind);

	if (e == -ENODEV)
		snprintf(err, errlen,
			 "%s is %s, not a recording: give a file written with lattop -w", path,
			 kind);
	else if (e)
		snprintf(err, errlen, "cannot read the recording %s: %s", path, strerror(-e));
	return e;
}

/* Scan the recording held in r->data; NULL with one sentence in err. */
static struct replay *replay_open(struct replay *r, const char *path, char *err, size_t errlen)
{
	char why[320];
	int e;

	snprintf(r->path, sizeof(r->path), "%s", path);
	r->view_mode = -1;
	r->speed_q = 2;
	e = rec__scan(&r->f, r->data, r->size, why, sizeof(why));
	if (e) {
		snprintf(err, errlen, "%s: %s", path, e == -ENOMEM ? "out of memory" : why);
		return NULL;
	}
	if (read_meta(r, why, sizeof(why))) {
		snprintf(err, errlen, "%s: header metadata %s", path, why);
		return NULL;
	}
	snprintf(r->host, sizeof(r->host), "%s", rec__meta_str(&r->f, "host"));
	snprintf(r->kernel, sizeof(r->kernel), "%s", rec__meta_str(&r->f, "kernel"));
	if (new_model(r)) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	return r;
}

/* Replay the recording data[size] (malloc'd; the replay owns it from now on). */
struct replay *replay__new_data(const char *path, uint8_t *data, size_t size, char *err,
				size_t errlen)
{
	struct replay *r = calloc(1, sizeof(*r));

	if (!r) {
		free(data);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->data = data;
	r->size = size;
	if (!replay_open(r, path, err, errlen)) {
		replay__free(r);
		return NULL;
	}
	return r;
}

/* Open path: read, scan, a fresh model. */
struct replay *replay__new(const char *path, char *err, size_t errlen)
{
	uint8_t *data;
	size_t size;

	if (replay__read(path, &data, &size, err, errlen))
		return NULL;
	return replay__new_data(path, data, size, err, errlen);
}

/* Switch the view to a mode whose series the recording holds. */
int replay__set_mode(struct replay *r, enum lat_mode mode, char *err, size_t errlen)
{
	static const uint16_t kind[MODE__COUNT] = {
		[MODE_PROGRAMS] = LAT_EV_PROG,
		[MODE_HELPERS] = LAT_EV_HELPER,
		[MODE_SEGMENTS] = LAT_EV_SEG,
	};

	if (mode >= MODE__COUNT || !(r->f.kinds & 1u << kind[mode])) {
		snprintf(err, errlen, "%s mode was not recorded in %s", model__mode_name(mode),
			 r->path);
		return -ENOENT;
	}
	r->view_mode = mode;
	r->m->mode = mode;
	return 0;
}

/* Free the replay and its model. */
void replay__free(struct replay *r)
{
	if (!r)
		return;
	model__free(r->m);
	rec__fini(&r->f);
	free(r->data);
	free(r);
}

/* Advance with the replay clock. */
bool replay__tick(struct replay *r, uint64_t now)
{
	size_t before = r->pos;
	uint64_t dt = r->last_now ? now - r->last_now : 0;

	r->last_now = now;
	if (r->paused || r->pos >= r->f.nivals)
		return false;
	r->clock_ns += (uint64_t)((double)dt * (double)(1u << r->speed_q) / 4.0);
	while (r->pos < r->f.nivals && rec__ival_end(&r->f, r->pos) <= r->clock_ns)
		if (apply_until(r, r->pos + 1, false))
			break;
	return r->pos != before;
}

/* Intervals applied. */
size_t replay__pos(const struct replay *r)
{
	return r->pos;
}

/* Intervals in the recording. */
size_t replay__count(const struct replay *r)
{
	return r->f.nivals;
}

/* Pause or resume. */
void replay__toggle_pause(struct replay *r)
{
	r->paused = !r->paused;
}

/* Speed up (dir > 0) or down, x0.25 .. x64. */
void replay__speed(struct replay *r, int dir)
{
	r->speed_q += dir > 0 ? 1 : -1;
	r->speed_q = r->speed_q < 0 ? 0 : r->speed_q > 8 ? 8 : r->speed_q;
}

/* Step one interval forward or back (pauses). */
int replay__step(struct replay *r, int dir)
{
	size_t pos = r->pos;

	r->paused = true;
	if (dir < 0)
		return replay__seek(r, pos > 1 ? pos - 1 : 1);
	return replay__seek(r, pos + 1);
}

/* Jump to a time: seconds from the start ("90", "+1.5") or a wall-clock "HH:MM[:SS]". */
int replay__jump(struct replay *r, const char *when, char *err, size_t errlen)
{
	uint64_t base = r->f.nivals ? rec__ival_start(&r->f, 0) : 0, target;
	unsigned hh, mm, ss = 0;
	size_t k = 0;
	double secs;
	char *end;

	if (sscanf(when, "%u:%u:%u", &hh, &mm, &ss) >= 2) {
		time_t t = (time_t)(replay__wall_ns(r, base) / 1000000000ull);
		struct tm tm;

		localtime_r(&t, &tm);
		tm.tm_hour = (int)hh;
		tm.tm_min = (int)mm;
		tm.tm_sec = (int)ss;
		target = (uint64_t)mktime(&tm) * 1000000000ull - (uint64_t)r->wall_off_ns;
	} else {
		secs = strtod(when, &end);
		if (end == when || *end || secs < 0) {
			snprintf(err, errlen,
				 "bad time '%s': give seconds from the start (e.g. 12.5) or HH:MM:SS",
				 when);
			return -EINVAL;
		}
		target = base + (uint64_t)(secs * 1e9);
	}
	/* The interval containing the target (or the last one ending before it). */
	while (k < r->f.nivals && rec__ival_end(&r->f, k) <= target)
		k++;
	if (k < r->f.nivals)
		k++;
	return replay__seek(r, k ? k : 1);
}

/* Format a duration in ns as H:MM:SS.s. */
static void fmt_hms(uint64_t ns, char *buf, size_t len)
{
	uint64_t ds = ns / 100000000ull;

	snprintf(buf, len, "%llu:%02llu:%02llu.%llu", (unsigned long long)(ds / 36000),
		 (unsigned long long)(ds / 600 % 60), (unsigned long long)(ds / 10 % 60),
		 (unsigned long long)(ds % 10));
}

/* A flight dump's mark in the status: "  FIRED" while the interval shown holds the instant its
 * trigger fired, "  fired HH:MM:SS" otherwise; "" for a recording that is no dump. */
static const char *dump_mark(const struct replay *r)
{
	static char buf[48]; /* UI thread only */
	struct rec_dump d;
	char clock[16] = "?";
	time_t t;
	struct tm tm;

	if (!rec__dump(&r->f, &d))
		return "";
	if (r->pos && r->pos - 1 == d.ival)
		return "  FIRED";
	t = (time_t)(replay__wall_ns(r, d.fired_ns) / 1000000000ull);
	if (localtime_r(&t, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	snprintf(buf, sizeof(buf), "  fired %s", clock);
	return buf;
}

/* The header's replay status. */
void replay__status(const struct replay *r, char *buf, size_t len)
{
	const char *name = strrchr(r->path, '/');
	uint64_t base = r->f.nivals ? rec__ival_start(&r->f, 0) : 0;
	uint64_t at = r->pos ? rec__ival_end(&r->f, r->pos - 1) - base : 0;
	uint64_t all = r->f.nivals ? rec__ival_end(&r->f, r->f.nivals - 1) - base : 0;
	char a[32], b[32], clock[16] = "", lost[48] = "";
	time_t t = (time_t)(replay__wall_ns(r, base + at) / 1000000000ull);
	struct tm tm;
	double speed = (double)(1u << r->speed_q) / 4.0;

	if (localtime_r(&t, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	fmt_hms(at, a, sizeof(a));
	fmt_hms(all, b, sizeof(b));
	/* Intervals the recorder's writer dropped before this one (they are not in the file). */
	if (r->pos && rec__ival_lost(&r->f, r->pos - 1))
		snprintf(lost, sizeof(lost), "  frames lost %u", rec__ival_lost(&r->f, r->pos - 1));
	snprintf(buf, len, "REPLAY %s %s (%s/%s) x%g%s%s%s", name ? name + 1 : r->path, clock, a,
		 b, speed, r->pos >= r->f.nivals ? " END" : r->paused ? " PAUSED" : "", lost,
		 dump_mark(r));
}

/* A flight dump's sentence saying why it was written into buf; false when r is no dump. */
bool replay__dump_line(const struct replay *r, char *buf, size_t len)
{
	struct rec_dump d;

	if (!rec__dump(&r->f, &d))
		return false;
	rec__dump_sentence(&d, replay__wall_ns(r, d.fired_ns), buf, len);
	return true;
}

/* Wall-clock ns of a recorded CLOCK_MONOTONIC instant. */
uint64_t replay__wall_ns(const struct replay *r, uint64_t mono_ns)
{
	return mono_ns + (uint64_t)r->wall_off_ns;
}

/* The scanned file. */
const struct rec_file *replay__file(const struct replay *r)
{
	return &r->f;
}

/* The file name as given. */
const char *replay__path(const struct replay *r)
{
	return r->path;
}

/* The damage sentence ("" when the file is whole). */
const char *replay__damage(const struct replay *r)
{
	return r->f.damage;
}

/* Recorded host. */
const char *replay__host(const struct replay *r)
{
	return r->host;
}

/* Recorded kernel release. */
const char *replay__kernel(const struct replay *r)
{
	return r->kernel;
}

/* The model the applied intervals built. */
struct model *replay__model(const struct replay *r)
{
	return r->m;
}

/* The recorded -p list as of the current position. */
const char *replay__filter(const struct replay *r)
{
	return r->filter;
}

/* The recorded interval (-d), or 0 when the file does not say. */
uint64_t replay__interval_ns(const struct replay *r)
{
	return r->interval_ns;
}
