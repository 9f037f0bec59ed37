// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_recorder.c - the recording writer thread: intervals and --raw events queued from this
 * thread reach the file complete and in order (also run under TSan by tests/host/t_record.sh);
 * a write error stops the recording with one sentence and the session goes on, also when only
 * the last frames fail; a recording is only ever a new file (0600), and the default names of
 * recordings started within one second never collide.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "rec/rec.h"
#include "rec/recorder.h"
#include "output/record.h"
#include "session/session.h"
#include "test.h"

#define S 1000000000ull

/* Read a whole file; NULL on failure. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	p = malloc(n > 0 ? (size_t)n : 1);
	*len = p ? fread(p, 1, (size_t)n, f) : 0;
	fclose(f);
	return p;
}

static void test_intervals_and_events(void)
{
	static struct opts o;
	struct session s = { 0 };
	char dir[] = "/tmp/lattop-test-rec-XXXXXX", path[64], err[256];
	struct rec_file f;
	uint8_t *data = NULL;
	size_t len;
	uint64_t events = 0, lost = 0, lost_events = 0;

	o.interval_ns = S;
	s.o = &o;
	s.m = model__new(0);
	if (!ASSERT_TRUE(mkdtemp(dir) != NULL, "mkdtemp"))
		return;
	snprintf(path, sizeof(path), "%s/r.lrec", dir);
	if (!ASSERT_OK(session__record_start(&s, path, true, err, sizeof(err)), "start"))
		goto out;
	for (int k = 1; k <= 20; k++) {
		for (int i = 0; i < 3000; i++) {
			struct lat_event e = { .kind = LAT_EV_PROG, .id = 1 + i % 3,
					       .dur_ns = 100 + i, .start_ns = k * S + i };

			model__add_event(s.m, &e, SRC_SELF);
			recorder__event(s.rec, &e);
		}
		model__close_interval(s.m, k * S);
		session__record_interval(&s);
	}
	/* On a loaded machine the writer may fall behind: --raw batches are then dropped and
	 * counted, while interval frames keep reserved room in the queue. */
	lost = recorder__lost(s.rec);
	lost_events = recorder__lost_events(s.rec);
	session__record_stop(&s);
	ASSERT_TRUE(s.rec == NULL, "stopped");
	data = slurp(path, &len);
	if (!ASSERT_TRUE(data != NULL, "read back"))
		goto out;
	if (!ASSERT_OK(rec__scan(&f, data, len, err, sizeof(err)), "scan"))
		goto out;
	ASSERT_STREQ(f.damage, "", "whole file");
	ASSERT_EQ(f.nivals, 20, "every interval (never dropped for --raw batches)");
	ASSERT_EQ(f.nevents + lost_events, 60000, "every event written or counted lost");
	ASSERT_TRUE(lost_events || !lost, "only --raw batches lost");
	for (size_t i = 0; i < f.nrecs; i++) {
		uint32_t n;
		struct lat_event e;

		rec__event(&f, i, 0, NULL, &n);
		for (uint32_t j = 0; j < n; j++, events++) {
			rec__event(&f, i, j, &e, NULL);
			if (!lost && e.start_ns != (events / 3000 + 1) * S + events % 3000)
				break;
		}
	}
	ASSERT_EQ(events, f.nevents, "events in order");
	ASSERT_EQ(rec__ival_end(&f, 19), 20 * S, "last interval end");
	rec__fini(&f);
out:
	free(data);
	unlink(path);
	rmdir(dir);
	model__free(s.m);
}

/* A device is not a recording: /dev/full is refused before anything is written (the disk-full
 * path is proven on a full tmpfs by tests/host/t_files.sh, and below with a size limit). */
static void test_write_error(void)
{
	static struct opts o;
	struct session s = { 0 };
	char err[256];

	o.interval_ns = S;
	o.batch = false;
	s.o = &o;
	s.m = model__new(0);
	ASSERT_TRUE(session__record_start(&s, "/dev/full", false, err, sizeof(err)) < 0, "refused");
	ASSERT_STREQ(err,
		     "the recording /dev/full is a character device, not a regular file: give "
		     "the path of a new file",
		     "one sentence naming the file");
	ASSERT_TRUE(s.rec == NULL, "not recording");
	model__free(s.m);
}

/* Existing files, symbolic links (dangling ones too) are refused and left as they were; a new
 * recording is created 0600 whatever the umask. */
static void test_refuses(void)
{
	static struct opts o;
	struct session s = { 0 };
	char dir[] = "/tmp/lattop-test-rec-XXXXXX", f[64], link[64], target[64], err[256];
	struct stat st;
	mode_t old = umask(0);
	FILE *fp;

	o.interval_ns = S;
	s.o = &o;
	s.m = model__new(0);
	if (!ASSERT_TRUE(mkdtemp(dir) != NULL, "mkdtemp"))
		goto out;
	snprintf(f, sizeof(f), "%s/old.lrec", dir);
	snprintf(link, sizeof(link), "%s/link.lrec", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	fp = fopen(f, "w");
	fputs("precious\n", fp);
	fclose(fp);
	ASSERT_EQ(session__record_start(&s, f, false, err, sizeof(err)), -EEXIST, "existing refused");
	ASSERT_TRUE(strstr(err, "already exists: lattop never overwrites a file; remove it") !=
			    NULL,
		    "existing: sentence with the fix");
	ASSERT_TRUE(stat(f, &st) == 0 && st.st_size == 9, "existing: untouched");
	ASSERT_TRUE(symlink(target, link) == 0, "dangling symlink");
	ASSERT_EQ(session__record_start(&s, link, false, err, sizeof(err)), -ELOOP, "dangling refused");
	ASSERT_TRUE(lstat(target, &st) != 0, "dangling: target not created");
	ASSERT_TRUE(rename(f, target) == 0, "symlink to a file");
	ASSERT_EQ(session__record_start(&s, link, false, err, sizeof(err)), -ELOOP, "symlink refused");
	ASSERT_TRUE(strstr(err, "is a symbolic link: lattop never writes through one") != NULL,
		    "symlink: sentence");
	ASSERT_TRUE(stat(target, &st) == 0 && st.st_size == 9, "symlink: target untouched");
	unlink(f);
	ASSERT_OK(session__record_start(&s, f, false, err, sizeof(err)), "new file");
	session__record_stop(&s);
	ASSERT_TRUE(stat(f, &st) == 0 && (st.st_mode & 07777) == 0600, "created 0600");
	ASSERT_STREQ(s.errors, "", "no error");
	unlink(f);
	unlink(link);
	unlink(target);
	rmdir(dir);
out:
	umask(old);
	model__free(s.m);
}

/* Only the last frames fail (the file size limit is reached after the header): the stop says
 * so in one sentence, and the session records the error (exit status 1). */
static void test_last_frames_fail(void)
{
	static struct opts o;
	struct session s = { 0 };
	char dir[] = "/tmp/lattop-test-rec-XXXXXX", f[64], err[256];
	struct rlimit old, lim;
	struct stat st;

	o.interval_ns = S;
	o.batch = false; /* the sentence goes to s.errors only */
	s.o = &o;
	s.m = model__new(0);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	if (!ASSERT_TRUE(mkdtemp(dir) != NULL, "mkdtemp"))
		goto out;
	snprintf(f, sizeof(f), "%s/last.lrec", dir);
	if (!ASSERT_OK(session__record_start(&s, f, false, err, sizeof(err)), "start"))
		goto out;
	stat(f, &st);
	lim = (struct rlimit){ .rlim_cur = (rlim_t)st.st_size, .rlim_max = old.rlim_max };
	setrlimit(RLIMIT_FSIZE, &lim);
	for (int k = 1; k <= 2; k++) {
		struct lat_event e = { .kind = LAT_EV_PROG, .id = 7, .dur_ns = 100 };

		model__add_event(s.m, &e, SRC_SELF);
		model__close_interval(s.m, k * S);
		session__record_interval(&s);
	}
	session__record_stop(&s);
	setrlimit(RLIMIT_FSIZE, &old);
	snprintf(err, sizeof(err), "recording stopped: cannot write %s: File too large", f);
	ASSERT_STREQ(s.errors, err, "one sentence for the last frames");
	unlink(f);
	rmdir(dir);
out:
	setrlimit(RLIMIT_FSIZE, &old);
	model__free(s.m);
}

/* w, w, w within one second: two recordings under two names, the first one kept whole. */
static void test_default_names(void)
{
	static struct opts o;
	struct session s = { 0 };
	char dir[] = "/tmp/lattop-test-rec-XXXXXX", cwd[4096], msg[512], first[128] = "",
	     second[128] = "";
	struct stat st1, st2;

	o.interval_ns = S;
	s.o = &o;
	s.m = model__new(0);
	if (!ASSERT_TRUE(getcwd(cwd, sizeof(cwd)) && mkdtemp(dir) && !chdir(dir), "chdir"))
		goto out;
	session__record_toggle(&s, NULL, msg, sizeof(msg));
	if (!ASSERT_TRUE(s.rec != NULL, msg))
		goto back;
	snprintf(first, sizeof(first), "%s", recorder__path(s.rec));
	session__record_toggle(&s, NULL, msg, sizeof(msg)); /* stop */
	ASSERT_TRUE(stat(first, &st1) == 0, "first written");
	session__record_toggle(&s, NULL, msg, sizeof(msg));
	if (!ASSERT_TRUE(s.rec != NULL, msg))
		goto back;
	snprintf(second, sizeof(second), "%s", recorder__path(s.rec));
	session__record_toggle(&s, NULL, msg, sizeof(msg));
	ASSERT_TRUE(strcmp(first, second) != 0, "two names");
	ASSERT_TRUE(stat(first, &st2) == 0 && st2.st_size == st1.st_size &&
			    st2.st_mtime == st1.st_mtime,
		    "first recording kept");
	/* The W prompt's default name skips the taken ones too. */
	{
		char stem[64], name[80];

		snprintf(stem, sizeof(stem), "%.*s", (int)(strlen(first) - 5), first);
		ASSERT_OK(outfile__free_name(name, sizeof(name), stem, ".lrec"), "free name");
		ASSERT_TRUE(strcmp(name, first) && strcmp(name, second) &&
				    strstr(name, ".lrec") != NULL,
			    "free name skips both");
	}
back:
	unlink(first);
	unlink(second);
	ASSERT_TRUE(chdir(cwd) == 0, "chdir back");
	rmdir(dir);
out:
	model__free(s.m);
}

int main(void)
{
	test__suite = "recorder";
	RUN_TEST(test_intervals_and_events);
	RUN_TEST(test_write_error);
	RUN_TEST(test_refuses);
	RUN_TEST(test_last_frames_fail);
	RUN_TEST(test_default_names);
	printf("recorder: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
