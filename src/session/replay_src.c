// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * replay_src.c - a recording as a session's source (struct source_ops): the replay (rec/)
 * owns the model and the replay clock; this file points the session at that model, applies the
 * recorded filter unless the user set one, and checks -p and -m against what was recorded.
 *
 * Thread use: UI/main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "collect/perfdata.h"
#include "collect/spans.h"
#include "rec/replay.h"
#include "session/perf_src.h"
#include "session/replay_src.h"
#include "session/session.h"

/* After the replay moved: the session shows its model, under the recorded filter unless -p
 * was given or the filter edited. */
static void follow(struct session *s)
{
	char err[256];
	const char *list = replay__filter(s->rp);

	s->m = replay__model(s->rp);
	s->m->cpu_rows_all = s->o->per_cpu;
	if (s->user_filter)
		return;
	s->o->nfilter = 0;
	if (*list && opts__parse_filter(s->o, list, err, sizeof(err)))
		s->o->nfilter = 0;
}

/* Point the session's program list at the recorded programs (so filter edits are checked
 * against what was recorded): called once the whole recording is applied. */
static void sync_st(struct session *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->m->n; i++)
		n += s->m->s[i].kind == LAT_EV_PROG;
	if (n > s->stcap) {
		struct prog_stat *ns = realloc(s->st, n * sizeof(*ns));

		if (!ns)
			return;
		s->st = ns;
		s->stcap = n;
	}
	s->nst = 0;
	for (size_t i = 0; i < s->m->n; i++) {
		const struct series *se = &s->m->s[i];
		struct prog_stat *p;

		if (se->kind != LAT_EV_PROG)
			continue;
		p = &s->st[s->nst++];
		memset(p, 0, sizeof(*p));
		p->id = se->id;
		snprintf(p->name, sizeof(p->name), "%s", se->name);
		snprintf(p->type_name, sizeof(p->type_name), "%s", se->type);
	}
}

/* -p on a replay is a view: every entry must name a recorded program. Returns 0 or
 * EXIT_USAGE with one sentence in err. */
static int check_recorded(const struct session *s, char *err, size_t errlen)
{
	const struct opts *o = s->o;

	for (int i = 0; i < o->nfilter; i++) {
		bool found = o->filter[i].sel; /* selectors: checked against the rows */

		for (size_t k = 0; k < s->nst && !found; k++)
			found = o->filter[i].id ? s->st[k].id == o->filter[i].id
						: !strcmp(s->st[k].name, o->filter[i].name);
		if (found)
			continue;
		if (o->filter[i].id)
			snprintf(err, errlen, "%s: no recorded program has ID %u (-p)", o->replay,
				 o->filter[i].id);
		else
			snprintf(err, errlen, "%s: no recorded program is named '%s' (-p)",
				 o->replay, o->filter[i].name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Read o->replay: a recording, or a perf.data file (known by its magic, whatever its name)
 * turned into one at -d (perf_src.h); a damaged perf.data's sentence goes to s->warn. NULL
 * with one sentence in err. */
static struct replay *open_file(struct session *s, const struct opts *o, char *err,
				size_t errlen)
{
	char why[320];
	uint8_t *data, *rec;
	size_t size, len;
	int e;

	if (replay__read(o->replay, &data, &size, err, errlen))
		return NULL;
	if (!pdata__is(data, size))
		return replay__new_data(o->replay, data, size, err, errlen);
	e = perf_src__convert(data, size, o->interval_ns, SPAN_TIMEOUT_NS, &rec, &len, why,
			      sizeof(why));
	free(data);
	if (e) {
		snprintf(err, errlen, "%s: %s", o->replay, why);
		return NULL;
	}
	if (why[0])
		snprintf(s->warn, sizeof(s->warn), "%.100s: %s", o->replay, why);
	return replay__new_data(o->replay, rec, len, err, errlen);
}

/* Open o->replay as the source of s. */
int session__open_replay(struct session *s, struct opts *o, char *err, size_t errlen)
{
	char why[320];
	int ret;

	memset(s, 0, sizeof(*s));
	s->src = &session__replay_source;
	s->o = o;
	s->lock_fd = -1;
	s->user_filter = o->nfilter > 0;
	s->rp = open_file(s, o, err, errlen);
	if (!s->rp)
		return EXIT_RUNTIME;
	if (replay__interval_ns(s->rp))
		o->interval_ns = replay__interval_ns(s->rp);
	/* The programs of the whole recording: -p and filter edits are checked against them. */
	if (session__seek_all(s)) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	sync_st(s);
	ret = check_recorded(s, err, errlen);
	if (ret != EXIT_OK)
		return ret;
	if (o->per_cpu && !(replay__file(s->rp)->kinds & 1u << LAT_EV_PROG_CPU)) {
		snprintf(err, errlen,
			 "%s: the recording holds no per-CPU figures (record with --per-cpu, or "
			 "split a program with C while recording) (--per-cpu)",
			 o->replay);
		return EXIT_USAGE;
	}
	if (replay__rewind(s->rp)) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	follow(s);
	/* -m on a replay picks the view, from what was recorded. */
	if (o->mode_set && session__set_mode(s, o->mode, why, sizeof(why))) {
		snprintf(err, errlen, "%s (-m)", why);
		return EXIT_USAGE;
	}
	/* A damaged tail: everything before it plays; say what was wrong, on screen too (a
	 * damaged perf.data's sentence is in s->warn already). */
	if (replay__damage(s->rp)[0])
		snprintf(s->warn, sizeof(s->warn), "%.100s: %s", o->replay, replay__damage(s->rp));
	/* A comparison refuses a damaged file in one sentence of its own. */
	if (s->warn[0] && !o->compare)
		text__line(stderr, "lattop: ", s->warn);
	/* The first interval is shown; reports move on from there. */
	session__seek(s, 1);
	s->opened = true;
	return EXIT_OK;
}

/* Run a replay operation and show where it left the model (-ENOTSUP on a live session). */
int session__seek(struct session *s, size_t k)
{
	int e;

	if (!s->rp)
		return -ENOTSUP;
	e = replay__seek(s->rp, k);
	follow(s);
	return e;
}

/* Apply every record of the recording (reports). */
int session__seek_all(struct session *s)
{
	int e;

	if (!s->rp)
		return -ENOTSUP;
	e = replay__seek_all(s->rp);
	follow(s);
	return e;
}

/* One interval forward or back, pausing. */
int session__step(struct session *s, int dir)
{
	int e;

	if (!s->rp)
		return -ENOTSUP;
	e = replay__step(s->rp, dir);
	follow(s);
	return e;
}

/* The interval holding a time. */
int session__jump(struct session *s, const char *when, char *err, size_t errlen)
{
	int e;

	if (!s->rp) {
		snprintf(err, errlen, "a live session cannot jump in time");
		return -ENOTSUP;
	}
	e = replay__jump(s->rp, when, err, errlen);
	follow(s);
	return e;
}

/* Advance with the replay clock. */
static bool replay_tick(struct session *s, uint64_t now)
{
	bool moved = replay__tick(s->rp, now);

	if (moved)
		follow(s);
	return moved;
}

/* A view of a recorded mode. */
static int replay_set_mode(struct session *s, enum lat_mode mode, char *err, size_t errlen)
{
	return replay__set_mode(s->rp, mode, err, errlen);
}

/* The user's filter: it now outlives seeks and recorded filters. */
static void replay_filter_changed(struct session *s)
{
	s->user_filter = true;
	session__sync_watch(s);
}

/* Helpers mode shows a program whose helper rows were recorded (nothing is attached). */
static bool replay_helpers_shown(const struct session *s, const struct series *se)
{
	for (size_t i = 0; i < s->m->n; i++)
		if (s->m->s[i].kind == LAT_EV_HELPER && s->m->s[i].id == se->id)
			return true;
	return false;
}

/* Wall-clock ns of a recorded instant. */
static uint64_t replay_wall_ns(const struct session *s, uint64_t mono_ns)
{
	return replay__wall_ns(s->rp, mono_ns);
}

/* The replay's clock: the end of the interval shown. */
static uint64_t replay_now(const struct session *s)
{
	return s->m->last_end_ns;
}

/* The recorded host and kernel. */
static void replay_origin(const struct session *s, const char **host, const char **kernel)
{
	*host = replay__host(s->rp);
	*kernel = replay__kernel(s->rp);
}

/* LATTOP_REPLAY_COST (tests): what the replay cost, on stderr, as counts the tests bound by
 * the file's size: bytes the model holds, and series and counters its interval closes visited. */
static void print_cost(const struct session *s)
{
	const struct rec_file *f = replay__file(s->rp);
	struct model_cost c;

	model__cost(s->m, &c);
	fprintf(stderr,
		"lattop: replay cost: file %zu bytes, %zu records, %zu intervals, %zu series, "
		"%zu counters, model %zu bytes, histograms %zu bytes, close visits %llu\n",
		f->size, f->nrecs, f->nivals, s->m->n, s->m->nctr, c.bytes, c.hist_bytes,
		(unsigned long long)c.visits);
}

/* Free the replay (which owns the model) and the program list. */
static void replay_close(struct session *s)
{
	if (s->opened && s->m && getenv("LATTOP_REPLAY_COST"))
		print_cost(s);
	replay__free(s->rp);
	s->rp = NULL;
	s->m = NULL;
	free(s->st);
	s->st = NULL;
}

/* A recording played back: no privileges, no lock, no BPF. */
const struct source_ops session__replay_source = {
	.name = "replay",
	.tick = replay_tick,
	.set_mode = replay_set_mode,
	.filter_changed = replay_filter_changed,
	.helpers_shown = replay_helpers_shown,
	.wall_ns = replay_wall_ns,
	.now_ns = replay_now,
	.origin = replay_origin,
	.close = replay_close,
	.can_record = false,
};
