/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * outfile.h - the files lattop creates (recordings, profiles): lattop runs as root, so a name
 * it is given must never make it write somewhere else or destroy something.
 *
 * A file is created with O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600 (before the umask): a symbolic
 * link (even one pointing nowhere), a device, a FIFO, a directory or an existing file in the
 * last component is refused with one sentence naming it and the fix. Nothing is truncated.
 *
 * Thread use: any (no shared state).
 */
#ifndef LAT_OUTFILE_H
#define LAT_OUTFILE_H

#include <stddef.h>

/* Mode of every file lattop creates (recordings and profiles), before the umask. */
#define OUTFILE_MODE 0600

/* Check that path names no existing thing (the early check, before anything starts: the real
 * guard is outfile__create's O_EXCL). what names the file in the sentence ("recording").
 * Returns 0, or -EEXIST/-ELOOP with one sentence in err. */
int outfile__check(const char *path, const char *what, char *err, size_t errlen);
/* Create path, which must not exist. Returns the open fd (O_WRONLY, close-on-exec), or a
 * negative errno with one sentence in err. */
int outfile__create(const char *path, const char *what, char *err, size_t errlen);
/* The first free name of "stem ext", "stem-2 ext", "stem-3 ext" ... into buf (checked with
 * lstat; a name taken between this and a create is refused there, never overwritten). Returns
 * 0, or -EEXIST when 1000 names are taken. */
int outfile__free_name(char *buf, size_t len, const char *stem, const char *ext);
/* Create the first free name of stem/ext as outfile__create does, retrying the next suffix
 * when one is taken meanwhile; the name goes to buf. Returns the fd or a negative errno with
 * one sentence in err. */
int outfile__create_unique(char *buf, size_t len, const char *stem, const char *ext,
			   const char *what, char *err, size_t errlen);

/* Write all n bytes of p to fd, retrying short writes and EINTR; 0 or -errno. */
int outfile__write_all(int fd, const void *p, size_t n);

#endif /* LAT_OUTFILE_H */
