// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * lock.c - one live session at a time: the session lock (see session__lock in lock.h).
 *
 * Thread use: main thread, while a live session opens.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/lock.h"
#include "session/session.h"

/* The live-session lock: /run belongs to root (0755) and is emptied at boot. */
#define LOCK_DEFAULT "/run/lattop.lock"

/* Where the live-session lock lives (LATTOP_LOCK overrides, for tests; it gets the same
 * checks, so it cannot make lattop write anything but its own lock file). */
static const char *lock_path(void)
{
	const char *p = getenv("LATTOP_LOCK");

	return p && *p ? p : LOCK_DEFAULT;
}

/* True when fd holds what lattop writes into its lock: nothing, or one pid line. A file
 * holding anything else is somebody else's, and is never truncated. */
static bool lock_content_ok(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);

	if (n < 0 || n == (ssize_t)sizeof(buf))
		return false;
	for (ssize_t i = 0; i < n; i++)
		if (!(buf[i] >= '0' && buf[i] <= '9') && !(buf[i] == '\n' && i == n - 1))
			return false;
	return true;
}

/* One sentence for a lock path whose directory is missing (/run on a minimal system or in an
 * initramfs), or the plain error. */
static void lock_open_error(const char *path, int e, char *err, size_t errlen)
{
	char dir[256];
	struct stat st;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	if (e == ENOENT && slash && stat(dir, &st) && errno == ENOENT) {
		snprintf(err, errlen,
			 "cannot create the session lock %s: %s does not exist%s: create it "
			 "(mkdir -m 0755 %s) and start again",
			 path, dir,
			 strcmp(dir, "/run") ? "" : " (a minimal system or an initramfs?)", dir);
		return;
	}
	snprintf(err, errlen, "cannot open the session lock %s: %s", path, strerror(e));
}

/* Open the lock file: never through a symbolic link; only a regular file this user owns, with
 * one link, holding nothing but a pid; made 0600 if it was not (any user who can open it can
 * flock it and block every session). Returns the fd or a negative errno with err. */
static int open_lock(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, e;

	/* Refuse a device, FIFO or directory before opening it (an open can act on a device). */
	if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "the session lock %s is %s: it must be a regular file; point LATTOP_LOCK at "
			 "a new file",
			 path, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
		return S_ISLNK(st.st_mode) ? -ELOOP : -EINVAL;
	}
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0) {
		e = errno; /* snprintf may change errno */
		if (e == ELOOP)
			snprintf(err, errlen,
				 "the session lock %s is a symbolic link: it must be a regular file; "
				 "point LATTOP_LOCK at a new file",
				 path);
		else
			lock_open_error(path, e, err, errlen);
		return -e;
	}
	e = fstat(fd, &st) ? -errno : 0;
	if (!e && (!S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != geteuid())) {
		snprintf(err, errlen,
			 "the session lock %s is not a regular file of this user's with one link "
			 "(owner uid %u): remove it, or point LATTOP_LOCK at a new file",
			 path, (unsigned)st.st_uid);
		e = -EPERM;
	} else if (!e && !lock_content_ok(fd)) {
		snprintf(err, errlen,
			 "the session lock %s holds something other than a pid, so it is not a "
			 "lattop lock and will not be overwritten: point LATTOP_LOCK at a new file",
			 path);
		e = -EINVAL;
	} else if (!e && (st.st_mode & 077) && fchmod(fd, 0600)) {
		/* An older lattop made it 0644: ours, so it is closed to others from now on. A
		 * user who opened it before can still hold it: take_lock tells that apart. */
		e = -errno;
		snprintf(err, errlen, "cannot make the session lock %s private (mode 0600): %s",
			 path, strerror(-e));
	} else if (e) {
		snprintf(err, errlen, "cannot check the session lock %s: %s", path, strerror(-e));
	}
	if (e) {
		close(fd);
		return e;
	}
	return fd;
}

/* Take the one-live-session lock: an flock on a file holding the holder's pid. The kernel drops
 * the flock when its holder dies, so a stale file from a killed session never blocks. */
int session__lock(char *err, size_t errlen)
{
	char buf[32];
	int fd = open_lock(lock_path(), err, errlen);
	ssize_t n;

	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;
		long pid = 0;

		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			pid = strtol(buf, NULL, 10);
		}
		close(fd);
		if (e == EWOULDBLOCK && pid > 0 && kill((pid_t)pid, 0) && errno == ESRCH) {
			/* Held, but not by the session that wrote its pid: by whoever opened it
			 * while an older lattop left it open to every user. */
			snprintf(err, errlen,
				 "the session lock %s is held by a process that is not a lattop "
				 "session (pid %ld, its last holder, is gone): remove it (rm %s) and "
				 "start again",
				 lock_path(), pid, lock_path());
			return -EBUSY;
		}
		if (e == EWOULDBLOCK) {
			snprintf(err, errlen,
				 "another lattop session (pid %ld) is already tracing: only one live "
				 "session runs at a time; stop it first (replay needs no lock)",
				 pid);
			return -EBUSY;
		}
		snprintf(err, errlen, "cannot lock %s: %s", lock_path(), strerror(e));
		return -e;
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, n, 0) != n) {
		/* The lock holds without the pid; a refused second session says pid 0. */
	}
	return fd;
}
