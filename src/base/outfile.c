// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * outfile.c - create recordings and profiles without following links or overwriting anything
 * (see outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"

/* Names tried by outfile__free_name: the stem alone, then -2 .. -999. */
#define OUTFILE_SUFFIXES 1000

/* What kind of thing st is, for a sentence. */
static const char *kind_name(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a regular file";
}

/* One sentence saying why the existing path is refused; returns the errno to report. */
static int refuse(const char *path, const char *what, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st)) {
		/* Gone again since the caller saw it: still never overwrite. */
		snprintf(err, errlen,
			 "the %s %s already exists: lattop never overwrites a file; remove it or "
			 "give a new name",
			 what, path);
		return -EEXIST;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, errlen,
			 "the %s %s is a symbolic link: lattop never writes through one; give the "
			 "path of a new file",
			 what, path);
		return -ELOOP;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "the %s %s is %s, not a regular file: give the path of a new file", what,
			 path, kind_name(&st));
		return -EEXIST;
	}
	snprintf(err, errlen,
		 "the %s %s already exists: lattop never overwrites a file; remove it or give a "
		 "new name",
		 what, path);
	return -EEXIST;
}

/* Check that path names no existing thing. */
int outfile__check(const char *path, const char *what, char *err, size_t errlen)
{
	struct stat st;

	/* Absent, or not reachable (EACCES, ENOTDIR ...: the create reports that). */
	if (lstat(path, &st))
		return 0;
	return refuse(path, what, err, errlen);
}

/* Create path, which must not exist. */
int outfile__create(const char *path, const char *what, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, OUTFILE_MODE);
	int e;

	if (fd >= 0)
		return fd;
	e = errno; /* snprintf may change errno */
	if (e == EEXIST || e == ELOOP)
		return refuse(path, what, err, errlen);
	snprintf(err, errlen, "cannot create the %s %s: %s", what, path, strerror(e));
	return -e;
}

/* Format name number i (1: the stem alone) of stem/ext into buf. */
static int suffixed(char *buf, size_t len, const char *stem, const char *ext, int i)
{
	int n = i == 1 ? snprintf(buf, len, "%s%s", stem, ext)
		       : snprintf(buf, len, "%s-%d%s", stem, i, ext);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The first free name of stem/ext. */
int outfile__free_name(char *buf, size_t len, const char *stem, const char *ext)
{
	struct stat st;

	for (int i = 1; i < OUTFILE_SUFFIXES; i++) {
		int e = suffixed(buf, len, stem, ext, i);

		if (e)
			return e;
		if (lstat(buf, &st) && errno == ENOENT)
			return 0;
	}
	return -EEXIST;
}

/* Create the first free name of stem/ext. */
int outfile__create_unique(char *buf, size_t len, const char *stem, const char *ext,
			   const char *what, char *err, size_t errlen)
{
	for (int i = 1; i < OUTFILE_SUFFIXES; i++) {
		int fd, e = suffixed(buf, len, stem, ext, i);

		if (e) {
			snprintf(err, errlen, "cannot name the %s: %s%s is too long", what, stem,
				 ext);
			return e;
		}
		fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, OUTFILE_MODE);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST && errno != ELOOP) {
			e = errno;
			snprintf(err, errlen, "cannot create the %s %s: %s", what, buf,
				 strerror(e));
			return -e;
		}
	}
	snprintf(err, errlen,
		 "cannot create the %s: %s%s and %d suffixed names (-2 ...) all exist; remove "
		 "some",
		 what, stem, ext, OUTFILE_SUFFIXES - 2);
	return -EEXIST;
}

/* Write all n bytes of p to fd, retrying short writes and EINTR; 0 or -errno. */
int outfile__write_all(int fd, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b += w;
		n -= (size_t)w;
	}
	return 0;
}
