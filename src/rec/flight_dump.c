// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * flight_dump.c - the flight recorder's dump thread: creates each dump's file in the dump
 * directory (never through a link, never over a file), writes it off the UI thread, keeps at
 * most --flight-files of the files it wrote, and says what happened (see flight.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/outfile.h"
#include "rec/flight_int.h"

/* Names tried per dump: the stem, then -2 .. -99. */
#define DUMP_SUFFIXES 100

/* Free a job and its references. */
void flight_job__free(struct flight *f, struct flight_job *j)
{
	if (!j)
		return;
	for (size_t i = 0; j->fr && i < j->n; i++)
		if (j->fr[i])
			flight_frame__unref(f, j->fr[i]);
	free(j->fr);
	rec_buf__fini(&j->head);
	free(j);
}

/* Open the dump directory, refusing a symbolic link; the fd, or -errno with msg set. */
static int open_dir(const struct flight *f, char *msg, size_t len)
{
	int dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	int e;

	if (dfd >= 0)
		return dfd;
	e = errno;
	if (!lstat(f->dir, &st) && S_ISLNK(st.st_mode))
		snprintf(msg, len,
			 "flight recorder: the dump directory %.300s is a symbolic link: lattop "
			 "never writes through one; give a real directory with --flight-dir",
			 f->dir);
	else
		snprintf(msg, len,
			 "flight recorder: cannot open the dump directory %.300s: %s; create it or "
			 "give another with --flight-dir",
			 f->dir, strerror(e));
	return -e;
}

/* Create the first free name of j's stem in dfd; the fd (name in j->stem's file) or -errno. */
static int create_in(int dfd, const struct flight_job *j, char *name, size_t len)
{
	for (int i = 1; i <= DUMP_SUFFIXES; i++) {
		int fd;

		if (i == 1)
			snprintf(name, len, "%s.lrec", j->stem);
		else
			snprintf(name, len, "%s-%d.lrec", j->stem, i);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    OUTFILE_MODE);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* Write j's bytes to fd and make them durable; 0 or -errno. Each frame's reference goes as
 * soon as it is written (*bytes counts them), so what the ring evicted meanwhile is freed. */
static int write_job(struct flight *f, int fd, struct flight_job *j, uint64_t *bytes)
{
	int e = outfile__write_all(fd, j->head.p, j->head.len);

	*bytes = j->head.len;
	for (size_t i = 0; !e && i < j->n; i++) {
		e = outfile__write_all(fd, j->fr[i]->data, j->fr[i]->len);
		*bytes += j->fr[i]->len;
		flight_frame__unref(f, j->fr[i]);
		j->fr[i] = NULL;
	}
	if (!e && fdatasync(fd))
		e = -errno;
	return e;
}

/* Delete the oldest files written while more than max_files are kept: only a name this
 * thread created that still names the file it created (same device and inode). */
static void rotate(struct flight *f, int dfd)
{
	while (f->cfg.max_files && f->nfiles > f->cfg.max_files) {
		struct flight_file *old = &f->files[0];
		struct stat st;

		if (!fstatat(dfd, old->name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
		    (uint64_t)st.st_dev == old->dev && (uint64_t)st.st_ino == old->ino)
			unlinkat(dfd, old->name, 0);
		memmove(f->files, f->files + 1, --f->nfiles * sizeof(*f->files));
	}
}

/* Remember a file written (for rotation); a full list forgets nothing: it just grows. */
static void remember(struct flight *f, const char *name, int fd)
{
	struct flight_file *nf = realloc(f->files, (f->nfiles + 1) * sizeof(*nf));
	struct stat st;

	if (!nf || fstat(fd, &st)) {
		if (nf)
			f->files = nf;
		return;
	}
	f->files = nf;
	snprintf(nf[f->nfiles].name, sizeof(nf->name), "%s", name);
	nf[f->nfiles].dev = (uint64_t)st.st_dev;
	nf[f->nfiles].ino = (uint64_t)st.st_ino;
	f->nfiles++;
}

/* Write one dump; msg says what happened. Returns true when the file was written. */
static bool dump_one(struct flight *f, struct flight_job *j, char *msg, size_t len)
{
	uint64_t t0 = now_ns(), bytes = 0;
	char name[160];
	int dfd = open_dir(f, msg, len), fd, e;

	if (dfd < 0)
		return false;
	fd = create_in(dfd, j, name, sizeof(name));
	if (fd < 0) {
		snprintf(msg, len,
			 "flight recorder: cannot create a dump in %.300s: %s; make the directory "
			 "writable or give another with --flight-dir",
			 f->dir, strerror(-fd));
		close(dfd);
		return false;
	}
	e = write_job(f, fd, j, &bytes);
	if (!e)
		remember(f, name, fd);
	if (close(fd) && !e && errno != EINTR)
		e = -errno;
	if (e) {
		unlinkat(dfd, name, 0); /* ours, and half written: free the space */
		snprintf(
		    msg, len,
		    "flight recorder: cannot write the dump %.300s/%s: %s; the partial file is "
		    "removed (free space or give another --flight-dir)",
		    f->dir, name, strerror(-e));
		close(dfd);
		return false;
	}
	rotate(f, dfd);
	close(dfd);
	atomic_store_explicit(&f->last_dump_ns, now_ns() - t0, memory_order_relaxed);
	atomic_store_explicit(&f->last_dump_bytes, bytes, memory_order_relaxed);
	snprintf(msg, len, "flight recorder: wrote %.300s/%s (%zu intervals, %s)", f->dir, name,
		 j->n, flight__trigger_name(j->trigger));
	return true;
}

/* Keep a message for flight__poll (under mu); the oldest goes when four wait. */
static void say(struct flight *f, const char *msg, bool failed)
{
	if (f->nmsgs == 4) {
		memmove(f->msgs[0], f->msgs[1], sizeof(f->msgs[0]) * 3);
		memmove(f->msg_failed, f->msg_failed + 1, sizeof(f->msg_failed[0]) * 3);
		f->nmsgs--;
	}
	snprintf(f->msgs[f->nmsgs], sizeof(f->msgs[0]), "%s", msg);
	f->msg_failed[f->nmsgs++] = failed;
}

/* The dump thread: write each queued job, then say how it went. */
static void *dump_main(void *arg)
{
	struct flight *f = arg;
	char msg[640];

	for (;;) {
		struct flight_job *j;
		bool ok;

		pthread_mutex_lock(&f->mu);
		while (!f->q && !f->stop)
			pthread_cond_wait(&f->cv, &f->mu);
		j = f->q;
		if (!j) {
			pthread_mutex_unlock(&f->mu);
			break;
		}
		f->q = j->next;
		if (!f->q)
			f->qtail = &f->q;
		pthread_mutex_unlock(&f->mu);
		ok = dump_one(f, j, msg, sizeof(msg));
		atomic_fetch_add_explicit(ok ? &f->dumps[j->trigger] : &f->errors, 1,
					  memory_order_relaxed);
		flight_job__free(f, j);
		pthread_mutex_lock(&f->mu);
		say(f, msg, !ok);
		atomic_fetch_sub_explicit(&f->pending, 1, memory_order_relaxed);
		pthread_cond_broadcast(&f->idle);
		pthread_mutex_unlock(&f->mu);
	}
	return NULL;
}

/* Hand a job to the dump thread. */
void flight_dump__queue(struct flight *f, struct flight_job *j)
{
	pthread_mutex_lock(&f->mu);
	j->next = NULL;
	*f->qtail = j;
	f->qtail = &j->next;
	atomic_fetch_add_explicit(&f->pending, 1, memory_order_relaxed);
	pthread_cond_signal(&f->cv);
	pthread_mutex_unlock(&f->mu);
}

/* Start the dump thread. */
int flight_dump__start(struct flight *f)
{
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	pthread_cond_init(&f->idle, NULL);
	f->qtail = &f->q;
	if (pthread_create(&f->thr, NULL, dump_main, f)) {
		pthread_mutex_destroy(&f->mu);
		pthread_cond_destroy(&f->cv);
		pthread_cond_destroy(&f->idle);
		return -EAGAIN;
	}
	f->started = true;
	return 0;
}

/* Write what is queued, then stop the dump thread. */
void flight_dump__stop(struct flight *f)
{
	if (!f->started)
		return;
	pthread_mutex_lock(&f->mu);
	f->stop = true;
	pthread_cond_signal(&f->cv);
	pthread_mutex_unlock(&f->mu);
	pthread_join(f->thr, NULL);
	f->started = false;
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->cv);
	pthread_cond_destroy(&f->idle);
	free(f->files);
	f->files = NULL;
}

/* The next message of the dump thread. */
bool flight__poll(struct flight *f, char *msg, size_t len, bool *failed)
{
	bool got = false;

	pthread_mutex_lock(&f->mu);
	if (f->nmsgs) {
		snprintf(msg, len, "%s", f->msgs[0]);
		*failed = f->msg_failed[0];
		memmove(f->msgs[0], f->msgs[1], sizeof(f->msgs[0]) * 3);
		memmove(f->msg_failed, f->msg_failed + 1, sizeof(f->msg_failed[0]) * 3);
		f->nmsgs--;
		got = true;
	}
	pthread_mutex_unlock(&f->mu);
	return got;
}

/* Wait until no dump is queued or being written. */
void flight__drain(struct flight *f)
{
	pthread_mutex_lock(&f->mu);
	while (atomic_load_explicit(&f->pending, memory_order_relaxed))
		pthread_cond_wait(&f->idle, &f->mu);
	pthread_mutex_unlock(&f->mu);
}
