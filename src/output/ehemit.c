// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ehemit.c - lattop's own figures as EventHeader events (--eventheader): user_events tracepoint
 * lattop_L4K1 (provider "lattop", level 4 information, keyword 1), self-describing through the
 * metadata extension, each carrying the session's activity id:
 *   Session  activity start when the session opens (field interval_ns), activity stop at its
 *            end (field intervals);
 *   Series   per series and closed interval: interval (1, 2, ...), interval_ns, name, kind,
 *            count, p50_ns, p90_ns, p99_ns, p999_ns, max_ns (the figures -b prints; since
 *            start with -c; the five latencies left out when count is 0, where -o json
 *            prints null);
 *   Losses   per closed interval: interval, rb_drops, queue_drops, recursion_drops,
 *            nest_drops and every session-wide named counter, by its name.
 * Events are written only while someone listens (the enabled bit the kernel keeps), as the
 * reference TraceLogging does; a kernel without user_events gets one sentence.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "base/evhdr.h"
#include "collect/ehtrace.h"
#include "model/hist.h"
#include "model/model.h"
#include "cli/opts.h"
#include "output/ehemit.h"
#include "session/filter.h"
#include "session/output.h"

#define EMIT_TP "lattop_L4K1"
#define EMIT_LEVEL 4
#define META_MAX 2048
#define DATA_MAX 2048

struct ehemit {
	int fd;
	uint32_t write_index;
	volatile uint32_t enabled; /* bit 0 set by the kernel while someone listens */
	uint8_t activity[EVHDR_ID_SIZE];
	uint64_t intervals;
};

/* One event under construction: metadata and payload side by side. */
struct ev {
	uint8_t meta[META_MAX], data[DATA_MAX];
	size_t nmeta, ndata;
	bool over;
};

/* Append len bytes to a buffer of cap bytes at *n (or mark the event too big). */
static void put(struct ev *e, uint8_t *buf, size_t *n, size_t cap, const void *p, size_t len)
{
	if (*n + len > cap) {
		e->over = true;
		return;
	}
	memcpy(buf + *n, p, len);
	*n += len;
}

/* Start an event named name. */
static void ev_init(struct ev *e, const char *name)
{
	e->nmeta = e->ndata = 0;
	e->over = false;
	put(e, e->meta, &e->nmeta, META_MAX, name, strlen(name) + 1);
}

/* A u64 field. */
static void ev_u64(struct ev *e, const char *name, uint64_t v)
{
	uint8_t enc = EVHDR_ENC_VALUE64;

	put(e, e->meta, &e->nmeta, META_MAX, name, strlen(name) + 1);
	put(e, e->meta, &e->nmeta, META_MAX, &enc, 1);
	put(e, e->data, &e->ndata, DATA_MAX, &v, sizeof(v));
}

/* A UTF-8 string field (NUL-terminated). */
static void ev_str(struct ev *e, const char *name, const char *v)
{
	uint8_t enc[2] = {EVHDR_ENC_ZSTRING8 | EVHDR_ENC_CHAIN, EVHDR_FMT_STRING_UTF};

	put(e, e->meta, &e->nmeta, META_MAX, name, strlen(name) + 1);
	put(e, e->meta, &e->nmeta, META_MAX, enc, 2);
	put(e, e->data, &e->ndata, DATA_MAX, v, strlen(v) + 1);
}

/* Write event e with opcode op, when someone listens. */
static void ev_write(struct ehemit *x, struct ev *e, uint8_t op)
{
	uint8_t hdr[EVHDR_SIZE] = {
	    EVHDR_F_PTR64 | EVHDR_F_LE | EVHDR_F_EXT, 0, 0, 0, 0, 0, op, EMIT_LEVEL};
	uint8_t act[4] = {EVHDR_ID_SIZE, 0, EVHDR_EXT_ACTIVITY, EVHDR_EXT_CHAIN >> 8};
	uint8_t meta[4] = {(uint8_t)e->nmeta, (uint8_t)(e->nmeta >> 8), EVHDR_EXT_METADATA, 0};
	struct iovec io[7] = {
	    {&x->write_index, sizeof(x->write_index)},
	    {hdr, sizeof(hdr)},
	    {act, sizeof(act)},
	    {x->activity, sizeof(x->activity)},
	    {meta, sizeof(meta)},
	    {e->meta, e->nmeta},
	    {e->data, e->ndata},
	};

	if (!(x->enabled & 1) || e->over)
		return;
	if (writev(x->fd, io, 7) < 0 && errno != EBADF)
		return; /* nothing to do about it: the figures are shown elsewhere too */
}

/* A random activity id (a version-4 UUID's layout). */
static void new_id(uint8_t id[EVHDR_ID_SIZE])
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	memcpy(id, &ts, sizeof(ts) < EVHDR_ID_SIZE ? sizeof(ts) : EVHDR_ID_SIZE);
	if (fd >= 0) {
		if (read(fd, id, EVHDR_ID_SIZE) != EVHDR_ID_SIZE)
			id[15] ^= (uint8_t)getpid();
		close(fd);
	}
	id[6] = (uint8_t)((id[6] & 0x0f) | 0x40);
	id[8] = (uint8_t)((id[8] & 0x3f) | 0x80);
}

/* Register lattop's tracepoint and write the session's start. NULL + errno with err. */
struct ehemit *ehemit__open(uint64_t interval_ns, char *err, size_t errlen)
{
	const char *path = ehtrace__user_events(err, errlen);
	const char *cmd = EMIT_TP " " EVHDR_TP_FIELDS;
	struct ue_reg r = {.size = sizeof(r), .enable_size = 4};
	struct ehemit *x;
	struct ev *e;

	if (!path) {
		errno = ENOENT;
		return NULL;
	}
	x = calloc(1, sizeof(*x));
	e = malloc(sizeof(*e));
	if (!x || !e)
		goto fail;
	x->fd = open(path, O_RDWR | O_CLOEXEC);
	r.enable_addr = (uint64_t)(uintptr_t)&x->enabled;
	r.name_args = (uint64_t)(uintptr_t)cmd;
	if (x->fd < 0 || ioctl(x->fd, UE_IOCSREG, &r)) {
		snprintf(err, errlen, "cannot register user_events tracepoint %s: %s", EMIT_TP,
			 strerror(errno));
		goto fail;
	}
	x->write_index = r.write_index;
	new_id(x->activity);
	ev_init(e, "Session");
	ev_u64(e, "interval_ns", interval_ns);
	ev_write(x, e, EVHDR_OP_START);
	free(e);
	return x;
fail:
	if (x && x->fd > 0)
		close(x->fd);
	free(x);
	free(e);
	return NULL;
}

/* The Series event of row r. */
static void series_event(struct ehemit *x, struct ev *e, const struct model *m, const struct row *r)
{
	const struct hist *h = model__row_hist(r);

	ev_init(e, "Series");
	ev_u64(e, "interval", x->intervals);
	ev_u64(e, "interval_ns", m->last_end_ns - m->last_start_ns);
	ev_str(e, "name", r->s->name);
	ev_str(e, "kind", r->s->type);
	ev_u64(e, "count", r->count);
	/* No samples, no percentiles: the fields are left out, as -o json prints them null. */
	if (r->has_dist && r->count) {
		ev_u64(e, "p50_ns", r->p50);
		ev_u64(e, "p90_ns", h ? hist__percentile(h, 0.90) : 0);
		ev_u64(e, "p99_ns", r->p99);
		ev_u64(e, "p999_ns", r->p999);
		ev_u64(e, "max_ns", r->max);
	}
	ev_write(x, e, EVHDR_OP_INFO);
}

/* The Losses event of the interval just closed. */
static void losses_event(struct ehemit *x, struct ev *e, const struct model *m, bool cum)
{
	const struct model_counters *mc = cum ? &m->c_cum : &m->c_last;

	ev_init(e, "Losses");
	ev_u64(e, "interval", x->intervals);
	ev_u64(e, "rb_drops", mc->rb_drops);
	ev_u64(e, "queue_drops", mc->queue_drops);
	ev_u64(e, "recursion_drops", mc->recursion);
	ev_u64(e, "nest_drops", mc->nest);
	for (const struct model_counter *c = model__counter_next(m, NULL, NULL); c;
	     c = model__counter_next(m, NULL, c))
		ev_u64(e, c->name, cum ? c->cum : c->last);
	ev_write(x, e, EVHDR_OP_INFO);
}

/* The kind of series the mode shows. */
static uint16_t mode_kind(enum lat_mode mode)
{
	return mode == MODE_SEGMENTS  ? LAT_EV_SEG
	       : mode == MODE_HELPERS ? LAT_EV_HELPER
				      : LAT_EV_PROG;
}

/* Write the interval just closed: one Series event per series of the mode, then Losses. */
void ehemit__interval(struct ehemit *x, const struct session *s)
{
	const struct model *m = s->m;
	bool cum = s->o->cumulative;
	struct ev *e;

	if (!x)
		return;
	x->intervals++; /* counted while nobody listens too: the numbers match -b's intervals */
	if (!(x->enabled & 1) || !(e = malloc(sizeof(*e))))
		return;
	for (size_t i = 0; i < m->n; i++) {
		struct row r;

		if (m->s[i].kind != mode_kind(m->mode) || !session__wanted(s, &m->s[i]))
			continue;
		model__row(m, &m->s[i], cum, &r);
		series_event(x, e, m, &r);
	}
	losses_event(x, e, m, cum);
	free(e);
}

/* Write the session's stop and close. */
void ehemit__close(struct ehemit *x)
{
	struct ev *e;

	if (!x)
		return;
	e = malloc(sizeof(*e));
	if (e) {
		ev_init(e, "Session");
		ev_u64(e, "intervals", x->intervals);
		ev_write(x, e, EVHDR_OP_STOP);
		free(e);
	}
	close(x->fd);
	free(x);
}

/* As an output of the session (session/output.h): opened with a live session that asked for
 * it (no user_events is bad usage), handed each closed interval, closed at the end. */
static int out_open(struct session *s, char *err, size_t errlen)
{
	if (s->o->eh_emit && !(s->ehx = ehemit__open(s->o->interval_ns, err, errlen)))
		return errno == ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	return EXIT_OK;
}

static void out_interval(struct session *s)
{
	ehemit__interval(s->ehx, s);
}

static void out_stop(struct session *s)
{
	ehemit__close(s->ehx);
	s->ehx = NULL;
}

const struct output_ops output_ehemit = {
	.name = "eventheader",
	.open = out_open,
	.interval = out_interval,
	.stop = out_stop,
};
