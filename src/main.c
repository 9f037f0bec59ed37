// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * main.c - lattop: parse options, open the session, run the TUI or batch loop, clean up.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "base/text.h"
#include "session/opts.h"
#include "session/segsession.h"
#include "session/session.h"
#include "base/outfile.h"
#include "rec/recorder.h"
#include "ui/prom.h"
#include "ui/replay_ui.h"
#include "ui/ui.h"

volatile sig_atomic_t ui_stop;

/* Signal handler: only set the flag; the loops notice within one poll period. */
static void on_signal(int sig)
{
	(void)sig;
	ui_stop = 1;
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

int main(int argc, char **argv)
{
	static struct opts o;
	static struct session s;
	struct prom *prom = NULL;
	struct sigaction sa;
	char err[512];
	int ret;

	/* Options: usage errors exit 2 before anything starts. */
	ret = opts__parse(&o, argc, argv, err, sizeof(err));
	if (ret < 0) {
		text__line(stderr, "lattop: ", err);
		return EXIT_USAGE;
	}
	if (ret == OPTS_HELP) {
		opts__usage(stdout);
		return EXIT_OK;
	}
	if (ret == OPTS_VERSION) {
		printf("lattop %s\n", LATTOP_VERSION);
		return EXIT_OK;
	}

	/* Signals: q, Ctrl-C, SIGTERM and SIGHUP all end the loops the same way. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* A file size limit (ulimit -f) makes a write fail with EFBIG, reported like a full
	 * disk, instead of killing the process. */
	signal(SIGXFSZ, SIG_IGN);

	/* Replay: no privileges, no lock, no BPF; frames come from the file. */
	if (o.replay)
		return replay_ui__run(&o);

	/* Output files: an existing name (a file, a link, a device) is refused before anything
	 * starts; the files are created exclusively later (outfile.h). */
	if ((o.record && outfile__check(o.record, "recording", err, sizeof(err))) ||
	    (o.profile_out && outfile__check(o.profile_out, "profile", err, sizeof(err)))) {
		text__line(stderr, "lattop: ", err);
		return EXIT_USAGE;
	}

	/* Limits: enough fds for FILTER_MAX watched programs. */
	raise_nofile();

	/* Session: privileges, stats, demo, filter check, collector. */
	ret = session__open(&s, &o, err, sizeof(err));
	if (ret != EXIT_OK) {
		text__line(stderr, "lattop: ", err);
		session__close(&s);
		return ret;
	}

	/* Recording (-w): the header is written now, frames at each interval close. */
	if (o.record && session__record_start(&s, o.record, o.raw, err, sizeof(err))) {
		text__line(stderr, "lattop: ", err);
		session__close(&s);
		return EXIT_RUNTIME;
	}

	/* Prometheus endpoint (--listen): bound now, fed at each interval close. */
	if (o.listen) {
		prom = prom__new(o.listen, err, sizeof(err));
		if (!prom) {
			text__line(stderr, "lattop: ", err);
			session__close(&s);
			return EXIT_RUNTIME;
		}
		s.on_interval = prom__on_interval;
		s.on_interval_arg = prom;
	}

	/* Front end until q, -n, -D or a signal (--listen alone: headless). */
	if (o.discover)
		ret = segsession__discover(&s, &ui_stop);
	else if (o.batch)
		ret = batch__run(&s);
	else if (o.listen && !o.tui)
		ret = prom__run(&s, prom, &ui_stop);
	else
		ret = tui__run(&s);

	/* The recording's last frames are written now: a failure among them is an error too. */
	session__record_stop(&s);
	/* Errors the session went on after: batch and headless runs printed them as they came;
	 * the TUI showed them and the terminal is back now. Either way the run failed. */
	if (s.errors[0] && !session__no_screen(&s))
		text__line(stderr, "lattop: ", s.errors);
	if (s.errors[0] && ret == EXIT_OK)
		ret = EXIT_RUNTIME;

	/* Teardown: the HTTP server first (it reads snapshots only), then threads joined, links
	 * destroyed, stats fd closed. */
	prom__free(prom);
	session__close(&s);
	return ret;
}
