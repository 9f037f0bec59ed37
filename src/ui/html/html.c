// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * html.c - `lattop -r FILE --html OUT.html`: collect the replay (html_data.c), render the page
 * in memory (html_page.c; with --compare html_cmp.c), then write it to a new file created as every file lattop writes
 * (outfile.h: never over a file, never through a link, mode 0600). A failed write is one
 * sentence and exit status 1; nothing is created when the report cannot be made.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/text.h"
#include "ui/html/html.h"
#include "ui/html/html_cmp.h"

/* Remove path when it still is the file fd holds: a report cut short is no report (and a
 * name someone put there meanwhile is not ours to remove). */
static void drop_partial(const char *path, int fd)
{
	struct stat a, b;

	if (!fstat(fd, &a) && !lstat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlink(path);
}

/* Write len bytes of buf to the new file path; 0 or a negative errno with one sentence in
 * err (the file cut short is removed). */
static int write_file(const char *path, const char *buf, size_t len, char *err, size_t errlen)
{
	int fd = outfile__create(path, "report", err, errlen), e = 0;

	if (fd < 0)
		return fd;
	while (len && !e) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			e = n < 0 ? errno : ENOSPC;
		else {
			buf += n;
			len -= (size_t)n;
		}
	}
	if (!e && fsync(fd) && errno != EINVAL)
		e = errno;
	if (e)
		drop_partial(path, fd);
	if (close(fd) && !e)
		e = errno; /* after fsync succeeded: the bytes are there */
	if (e)
		snprintf(err, errlen, "cannot write the report %s: %s", path, strerror(e));
	return -e;
}

/* Write len bytes of buf to the new file path. */
int html__write(const char *path, const char *buf, size_t len)
{
	char err[512];
	int e = write_file(path, buf, len, err, sizeof(err));

	if (e)
		text__line(stderr, "lattop: ", err);
	if (e == -EEXIST || e == -ELOOP)
		return EXIT_USAGE; /* taken since the check before the replay: as an existing file */
	if (e)
		return EXIT_RUNTIME;
	return EXIT_OK;
}

/* Say that the report path cannot be made for lack of memory; returns EXIT_RUNTIME. */
static int say_no_memory(const char *path)
{
	char err[512];

	snprintf(err, sizeof(err), "cannot make the report %s: out of memory", path);
	text__line(stderr, "lattop: ", err);
	return EXIT_RUNTIME;
}

/* Write the page made in buf (len bytes) to path, or say it could not be made; frees buf. */
int html__emit(const char *path, char *buf, size_t len, bool made)
{
	int e;

	if (!made) {
		free(buf);
		return say_no_memory(path);
	}
	e = html__write(path, buf, len);
	free(buf);
	return e;
}

/* Write the report of the replayed session s to s->o->html. */
int html__run(struct session *s, volatile sig_atomic_t *stop)
{
	static struct html_data d;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int e;

	if (s->o->compare)
		return html_cmp__run(s, stop);
	e = html_data__collect(&d, s, stop);
	if (e) {
		html_data__free(&d);
		if (e == -EINTR)
			return EXIT_RUNTIME;
		return say_no_memory(s->o->html);
	}
	mem = open_memstream(&buf, &len);
	if (mem) {
		html__page(mem, &d);
		e = fclose(mem) ? -ENOMEM : 0;
	}
	html_data__free(&d);
	return html__emit(s->o->html, buf, len, mem && !e);
}
