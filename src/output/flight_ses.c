// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flight_ses.c - the session's side of the flight recorder (--flight): start it, feed it each
 * closed interval, evaluate the --trigger thresholds, turn SIGUSR2, the D key and POST /dump
 * into dumps, and say what the dump thread did (flight_ses.h); an output of the session (output.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "rec/flight.h"
#include "rec/recorder.h"
#include "session/filter.h"
#include "output/flight_ses.h"
#include "session/output.h"

/* Set by the SIGUSR2 handler, taken by the UI thread at its next tick. */
static volatile sig_atomic_t usr2;

/* One --trigger's state: quiet until cooldown_ns; a dump due once after_ns has passed. */
struct trig_state {
	uint64_t quiet_until_ns;
	bool due;
	struct flight_why why;
};

struct flight_ses {
	struct trig_state t[TRIGGER_MAX];
	char last[640]; /* the last thing the flight recorder did, for the header */
};

/* The -p list as text for a dump's header: UI thread only, too big for the stack. */
static char filter_buf[FILTER_STR_MAX];

/* SIGUSR2: only set the flag. */
static void on_usr2(int sig)
{
	(void)sig;
	usr2 = 1;
}

/* The dump directory: --flight-dir, else systemd's StateDirectory ($STATE_DIRECTORY, its first
 * path when it lists several), else the current directory. */
static const char *dump_dir(const struct opts *o, char *buf, size_t len)
{
	const char *sd = getenv("STATE_DIRECTORY");

	if (o->flight_dir)
		return o->flight_dir;
	if (!sd || !*sd)
		return ".";
	snprintf(buf, len, "%.*s", (int)strcspn(sd, ":"), sd);
	return buf;
}

/* Start the flight recorder of session s (after session__open). */
int session__flight_start(struct session *s, char *err, size_t errlen)
{
	struct sigaction sa;
	char dir[4096];
	struct flight_cfg cfg = {
	    .keep_ns = s->o->flight_ns,
	    .max_bytes = s->o->flight_max,
	    .dir = dump_dir(s->o, dir, sizeof(dir)),
	    .max_files = (unsigned)s->o->flight_files,
	};

	s->fls = calloc(1, sizeof(*s->fls));
	s->fl = s->fls ? flight__new(&cfg) : NULL;
	if (!s->fl) {
		free(s->fls);
		s->fls = NULL;
		snprintf(err, errlen, "cannot start the flight recorder: out of memory");
		return -ENOMEM;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	return 0;
}

/* Say one thing the flight recorder did: a failure is a session error; otherwise on stderr
 * when no screen shows it, and in the header. */
static void flight_say(struct session *s, const char *msg, bool failed)
{
	snprintf(s->fls->last, sizeof(s->fls->last), "%s", msg);
	if (failed)
		session__error(s, "%s", msg);
	else if (session__no_screen(s))
		text__line(stderr, "lattop: ", msg);
}

/* Queue a dump of the flight recorder with why; a refusal is said. */
static void dump(struct session *s, const struct flight_why *why)
{
	struct rec_meta meta = {
	    .m = s->m,
	    .mode_name = opts__mode_name(s->m->mode),
	    .filter = filter_buf,
	    .interval_ns = s->o->interval_ns,
	};
	char err[320];

	session__filter_str(s, filter_buf, sizeof(filter_buf));
	if (flight__dump(s->fl, &meta, why, err, sizeof(err)))
		flight_say(s, err, true);
}

/* Dump now for trigger t (SIGUSR2, the D key, POST /dump), of the last last_ns (0: all). */
void session__flight_dump(struct session *s, enum flight_trigger t, uint64_t last_ns)
{
	struct flight_why why = {.trigger = t, .fired_ns = now_ns(), .last_ns = last_ns};

	if (s->fl)
		dump(s, &why);
}

/* Take the requests (SIGUSR2, POST /dump) and the dump thread's messages (every tick). */
void session__flight_tick(struct session *s)
{
	enum flight_trigger t;
	uint64_t last_ns;
	char msg[640];
	bool failed;

	if (!s->fl)
		return;
	if (usr2) {
		usr2 = 0;
		session__flight_dump(s, FT_SIGNAL, 0);
	}
	if (flight__take_request(s->fl, &t, &last_ns))
		session__flight_dump(s, t, last_ns);
	while (flight__poll(s->fl, msg, sizeof(msg), &failed))
		flight_say(s, msg, failed);
}

/* Fire trigger i for what it saw in the interval just closed. */
static void fire(struct session *s, int i, const struct trigger_hit *hit)
{
	const struct trigger *tr = &s->o->triggers[i];
	struct trig_state *ts = &s->fls->t[i];
	char msg[640];

	ts->due = true;
	ts->quiet_until_ns = s->m->last_end_ns + s->o->trigger_cooldown_ns;
	ts->why = (struct flight_why){
	    .trigger = FT_THRESHOLD,
	    .value = hit->value,
	    .threshold = tr->threshold,
	    .fired_ns = s->m->last_end_ns,
	    .after_ns = s->o->trigger_after_ns,
	};
	snprintf(ts->why.expr, sizeof(ts->why.expr), "%s", tr->text);
	snprintf(ts->why.series, sizeof(ts->why.series), "%s", hit->series);
	snprintf(ts->why.metric, sizeof(ts->why.metric), "%s", trigger__metric_name(tr->metric));
	snprintf(msg, sizeof(msg),
		 "flight recorder: trigger '%s' fired (%s%s%s %g%s); dumping in %.3g s", tr->text,
		 hit->series, hit->series[0] ? " " : "", ts->why.metric,
		 trigger__is_duration(tr->metric) ? hit->value / 1000.0 : hit->value,
		 trigger__is_duration(tr->metric) ? " us" : "",
		 (double)s->o->trigger_after_ns / 1e9);
	flight_say(s, msg, false);
}

/* Keep the interval just closed, write the threshold dumps that are due, evaluate the
 * triggers (at every interval close). */
void session__flight_interval(struct session *s)
{
	uint64_t end = s->m->last_end_ns, slack = (end - s->m->last_start_ns) / 2;

	if (!s->fl)
		return;
	if (flight__interval(s->fl, s->m,
			     (session__filter_str(s, filter_buf, sizeof(filter_buf)), filter_buf)))
		flight_say(s, "flight recorder: out of memory: an interval is not kept", true);
	for (int i = 0; i < s->o->ntriggers; i++) {
		struct trig_state *ts = &s->fls->t[i];
		struct trigger_hit hit;

		if (ts->due && end + slack >= ts->why.fired_ns + ts->why.after_ns) {
			ts->due = false;
			dump(s, &ts->why);
		}
		/* Quiet in the cooldown, and while its dump waits for --trigger-after. */
		if (!ts->due && end >= ts->quiet_until_ns &&
		    trigger__eval(&s->o->triggers[i], s->m, &hit))
			fire(s, i, &hit);
	}
	session__flight_tick(s);
}

/* The header's words about the flight recorder into buf ("" when off): its memory, the cap,
 * the intervals held, the dumps written and failed; brief: its memory alone. */
void session__flight_line(const struct session *s, bool brief, char *buf, size_t len)
{
	struct flight_stats st;
	uint64_t dumps = 0;

	buf[0] = '\0';
	if (!s->fl)
		return;
	flight__stats(s->fl, &st);
	for (int i = 0; i < FT__COUNT; i++)
		dumps += st.dumps[i];
	if (brief)
		snprintf(buf, len, "flight %.1f MiB", (double)st.bytes / 1048576.0);
	else
		snprintf(buf, len, "flight %.1f/%.0f MiB %llu intervals %llu dumps%s",
			 (double)st.bytes / 1048576.0, (double)st.max_bytes / 1048576.0,
			 (unsigned long long)st.intervals, (unsigned long long)dumps,
			 st.errors ? " (failures)" : "");
}

/* Stop the flight recorder: the threshold dumps still due are written with what is held, the
 * queue is drained, the last messages said. */
void session__flight_stop(struct session *s)
{
	char msg[640];
	bool failed;

	if (!s->fl)
		return;
	for (int i = 0; i < s->o->ntriggers; i++)
		if (s->fls->t[i].due && s->m) {
			s->fls->t[i].due = false;
			dump(s, &s->fls->t[i].why);
		}
	flight__drain(s->fl);
	while (flight__poll(s->fl, msg, sizeof(msg), &failed))
		flight_say(s, msg, failed);
	flight__free(s->fl);
	s->fl = NULL;
	free(s->fls);
	s->fls = NULL;
}

/* As an output of the session (session/output.h): started by --flight after the open. */
const struct output_ops output_flight = {
	.name = "flight",
	.tick = session__flight_tick,
	.interval = session__flight_interval,
	.stop = session__flight_stop,
};
