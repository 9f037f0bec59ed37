// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * main.c - lattop: parse options, open the session (live or a recording), run a front end
 * (TUI, batch, headless endpoint, discover, a recording's report), close.
 */
#include <bpf/libbpf.h>
#include <bpf/libbpf_version.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "base/outfile.h"
#include "base/text.h"
#include "cli/opts.h"
#include "rec/rec.h"
#include "rec/recorder.h"
#include "session/discover.h"
#include "output/flight_ses.h"
#include "output/record.h"
#include "session/replay_src.h"
#include "session/session.h"
#include "ui/cmpview.h"
#include "ui/html/html.h"
#include "ui/prom/prom.h"
#include "ui/report/batch.h"
#include "ui/report/cmp_report.h"
#include "ui/report/report.h"
#include "ui/tui/tui.h"

/* Set by the signal handler; every front end polls it (passed down, never read as a global). */
static volatile sig_atomic_t stop;

/* Signal handler: only set the flag; the loops notice within one poll period. */
static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Raise the soft open-files limit to the hard one: each watched program holds about ten fds
 * (program, links, probe programs), so 256 of them exceed the usual soft limit of 1024. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl); /* best effort: too few fds is reported later */
	}
}

/* Print --version: lattop's version, the libbpf it runs with (and was built against), and what
 * it was built with, one line each. */
static void print_version(void)
{
	printf("lattop %s\n", LATTOP_VERSION);
	printf("libbpf %u.%u (built against %d.%d)\n", libbpf_major_version(),
	       libbpf_minor_version(), LIBBPF_MAJOR_VERSION, LIBBPF_MINOR_VERSION);
	printf("features: prometheus text 0.0.4, openmetrics 1.0.0, protobuf (delimited, native "
	       "histograms); recordings format %d.%d; fentry, kprobe, uprobe, tracepoint spans\n",
	       REC_MAJOR, REC_MINOR);
}

/* Parse the options. Returns -1 to go on, or the exit status to end with (usage errors exit 2
 * before anything starts; --help and --version exit 0). */
static int parse(struct opts *o, int argc, char **argv)
{
	char err[512];
	int ret = opts__parse(o, argc, argv, err, sizeof(err));

	if (ret < 0) {
		text__line(stderr, "lattop: ", err);
		return EXIT_USAGE;
	}
	if (ret == OPTS_HELP) {
		opts__usage(stdout);
		return EXIT_OK;
	}
	if (ret == OPTS_VERSION) {
		print_version();
		return EXIT_OK;
	}
	return -1;
}

/* Signals: q, Ctrl-C, SIGTERM and SIGHUP all end the loops the same way. */
static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* A file size limit (ulimit -f) makes a write fail with EFBIG, reported like a full
	 * disk, instead of killing the process. */
	signal(SIGXFSZ, SIG_IGN);
}

/* Open a live session: its sources, the recording (-w) and the endpoint (--listen). Returns an
 * exit status with one sentence in err; on failure nothing is left open. */
static int open_live(struct session *s, struct opts *o, struct prom **prom, char *err,
		     size_t errlen)
{
	int ret;

	/* Output files: an existing name (a file, a link, a device) is refused before anything
	 * starts; the files are created exclusively later (outfile.h). */
	if ((o->record && outfile__check(o->record, "recording", err, errlen)) ||
	    (o->profile_out && outfile__check(o->profile_out, "profile", err, errlen))) {
		text__line(stderr, "lattop: ", err);
		return EXIT_USAGE;
	}
	/* Limits: enough fds for FILTER_MAX watched programs. */
	raise_nofile();
	/* Session: privileges, stats, demo, filter check, collector. */
	ret = session__open(s, o, err, errlen);
	if (ret != EXIT_OK)
		goto fail;
	/* Recording (-w): the header is written now, frames at each interval close. */
	ret = EXIT_RUNTIME;
	if (o->record && session__record_start(s, o->record, o->raw, err, errlen))
		goto fail;
	/* Flight recorder (--flight): intervals kept in memory from the first close on. */
	if (o->flight_ns && session__flight_start(s, err, errlen))
		goto fail;
	/* Prometheus endpoint (--listen): bound now, fed at each interval close. */
	if (o->listen) {
		*prom = prom__new(o->listen, err, errlen);
		if (!*prom)
			goto fail;
		s->on_interval = prom__on_interval;
		s->on_interval_arg = *prom;
		prom__set_flight(*prom, s->fl, o->flight_http);
	}
	return EXIT_OK;
fail:
	text__line(stderr, "lattop: ", err);
	session__close(s);
	return ret;
}

/* Open the session the options ask for: a recording (no privileges, no lock, no BPF; frames
 * come from the file) or the live sources. Returns an exit status; on failure the sentence is
 * said and nothing is left open. */
static int open_session(struct session *s, struct opts *o, struct prom **prom)
{
	char err[512];
	int ret;

	if (!o->replay)
		return open_live(s, o, prom, err, sizeof(err));
	/* The report (--html): an existing name is refused before the recording is read. */
	if (o->html && outfile__check(o->html, "report", err, sizeof(err))) {
		text__line(stderr, "lattop: ", err);
		return EXIT_USAGE;
	}
	ret = session__open_replay(s, o, err, sizeof(err));
	/* With --compare, a file that is no recording makes a bad pair: bad usage. */
	if (ret == EXIT_RUNTIME && o->compare)
		ret = EXIT_USAGE;
	if (ret != EXIT_OK) {
		text__line(stderr, "lattop: ", err);
		session__close(s);
	}
	return ret;
}

/* The --compare front end: the report -b and -o ask for, or the TUI's comparison screen. */
static int run_compare(struct session *s)
{
	char err[512];
	int ret;
	struct cmp_view *v = cmp_view__open(s, &ret, err, sizeof(err));

	if (!v) {
		text__line(stderr, "lattop: ", err);
		return ret;
	}
	if (!s->o->batch)
		ret = tui__run_compare(v, &stop);
	else if (s->o->out == OUT_CSV)
		ret = cmp_report__csv(v, stdout);
	else if (s->o->out == OUT_JSON)
		ret = cmp_report__json(v, stdout);
	else
		ret = cmp_report__text(v, stdout);
	cmp_view__free(v);
	return ret;
}

/* Run the front end the options ask for until q, -n, -D or a signal. */
static int run_front_end(struct session *s, const struct opts *o, struct prom *prom)
{
	if (o->html)
		return html__run(s, &stop);
	if (o->compare)
		return run_compare(s);
	if (o->replay && (o->batch || o->events))
		return report__run(s, &stop);
	if (o->discover)
		return session__discover(s, &stop);
	if (o->batch)
		return batch__run(s, &stop);
	if (o->listen && !o->tui)
		return prom__run(s, prom, &stop); /* --listen alone: headless */
	return tui__run(s, &stop);
}

/* End the run: the recording's last frames, the errors the session went on after, teardown.
 * Returns the exit status. */
static int finish(struct session *s, struct prom *prom, int ret)
{
	/* The recording's last frames are written now: a failure among them is an error too. */
	session__record_stop(s);
	prom__set_flight(prom, NULL, false);
	session__flight_stop(s);
	/* Errors the session went on after: batch and headless runs printed them as they came;
	 * the TUI showed them and the terminal is back now. Either way the run failed. */
	if (s->errors[0] && !session__no_screen(s))
		text__line(stderr, "lattop: ", s->errors);
	if (s->errors[0] && ret == EXIT_OK)
		ret = EXIT_RUNTIME;
	/* Teardown: the HTTP server first (it reads snapshots only), then threads joined, links
	 * destroyed, stats fd closed. */
	prom__free(prom);
	session__close(s);
	return ret;
}

int main(int argc, char **argv)
{
	static struct opts o;
	static struct session s;
	struct prom *prom = NULL;
	int ret;

	/* Options. */
	ret = parse(&o, argc, argv);
	if (ret >= 0)
		return ret;
	/* Signals. */
	install_signals();
	/* Session: live sources or a recording. */
	ret = open_session(&s, &o, &prom);
	if (ret != EXIT_OK)
		return ret;
	/* Front end: TUI, batch, headless endpoint, discover or a recording's report. */
	ret = run_front_end(&s, &o, prom);
	/* Teardown. */
	return finish(&s, prom, ret);
}
