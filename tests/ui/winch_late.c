// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * winch_late.c - an LD_PRELOAD shim for t_screen.sh: the terminal on stdout narrows by 10
 * columns just before the program installs its first SIGWINCH handler.
 *
 * This is the start-up race a resize can hit: curses reads the size, then installs its
 * handler; a resize in between sends a SIGWINCH nobody catches (it is discarded), so a program
 * that trusts only the size it read at start keeps drawing for the old width.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The C library's sigaction, after one narrowing when a SIGWINCH handler is first set. */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*real)(int, const struct sigaction *, struct sigaction *);
	static int done;
	struct winsize ws;

	if (!real)
		real = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(
		    RTLD_NEXT, "sigaction");
	if (sig == SIGWINCH && act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN &&
	    !done && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20) {
		done = 1;
		ws.ws_col -= 10;
		ioctl(STDOUT_FILENO, TIOCSWINSZ, &ws);
	}
	return real(sig, act, old);
}
