// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_prom_conn.c - the HTTP server's connection table on real sockets (socket pairs): which
 * connection a full table closes, the head and send deadlines, and the entries it keeps.
 */
#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "test.h"
#include "ui/prom/prom_conn.h"

#define NPAIRS 6

static int srv[NPAIRS], cli[NPAIRS];

/* Open the socket pairs: srv[i] is the server's end the table shuts, cli[i] the client's. */
static int pairs_open(void)
{
	for (int i = 0; i < NPAIRS; i++) {
		int sv[2];

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
			return -errno;
		srv[i] = sv[0];
		cli[i] = sv[1];
	}
	return 0;
}

/* Close the socket pairs. */
static void pairs_close(void)
{
	for (int i = 0; i < NPAIRS; i++) {
		close(srv[i]);
		close(cli[i]);
	}
}

/* Whether the client of pair i sees the end of its connection (the table shut it). */
static int ended(int i)
{
	char b;

	return recv(cli[i], &b, 1, MSG_DONTWAIT) == 0;
}

/* A full table closes the connection waiting longest, busy ones only when none waits. */
static void test_full(void)
{
	struct prom_conns *t = prom_conns__new(3, 2, 1000, 1000);
	struct prom_conn *c[NPAIRS];

	if (!ASSERT_NONNULL(t, "new") || !ASSERT_OK(pairs_open(), "socketpair"))
		return;
	c[0] = prom_conns__start(t, srv[0], 0);
	c[1] = prom_conns__start(t, srv[1], 1);
	c[2] = prom_conns__start(t, srv[2], 2);
	prom_conns__busy(t, c[0], 3); /* the oldest, but being served */
	c[3] = prom_conns__start(t, srv[3], 4);
	ASSERT_TRUE(!ended(0) && ended(1) && !ended(2) && !ended(3), "the oldest waiting closed");
	prom_conns__closed(t, c[1]);
	prom_conns__busy(t, c[2], 5);
	prom_conns__busy(t, c[3], 6);
	c[4] = prom_conns__start(t, srv[4], 7);
	ASSERT_TRUE(ended(0) && !ended(2) && !ended(3) && !ended(4), "else the oldest busy");
	prom_conns__closed(t, c[0]);
	c[5] = prom_conns__start(t, srv[5], 8);
	ASSERT_TRUE(!ended(2) && !ended(3) && ended(4) && !ended(5), "newest waiting goes first");
	ASSERT_EQ(prom_conns__stats(t).evicted_full, 3, "closed for room");
	ASSERT_EQ(prom_conns__stats(t).open, 4, "open: 3 live, 1 closing");
	ASSERT_EQ(prom_conns__stats(t).peak, 4, "peak");
	prom_conns__free(t);
	pairs_close();
}

/* Deadlines run from the moment a connection entered its state, not from its last byte. */
static void test_deadlines(void)
{
	struct prom_conns *t = prom_conns__new(8, 0, 10, 20);
	struct prom_conn *x, *y, *z;

	if (!ASSERT_NONNULL(t, "new") || !ASSERT_OK(pairs_open(), "socketpair"))
		return;
	x = prom_conns__start(t, srv[0], 0);
	z = prom_conns__start(t, srv[2], 0);
	prom_conns__busy(t, z, 1);
	y = prom_conns__start(t, srv[1], 5);
	prom_conns__busy(t, y, 6);
	prom_conns__waiting(t, z, 8); /* answered: waits for its next head from 8 */
	prom_conns__sweep(t, 9);
	ASSERT_TRUE(!ended(0) && !ended(1) && !ended(2), "none before its deadline");
	prom_conns__sweep(t, 10);
	ASSERT_TRUE(ended(0) && !ended(1) && !ended(2), "waiting: closed at 10");
	prom_conns__closed(t, x);
	prom_conns__sweep(t, 17);
	ASSERT_TRUE(!ended(1) && !ended(2), "the answered one waits 10 from its answer");
	prom_conns__sweep(t, 18);
	ASSERT_TRUE(!ended(1) && ended(2), "and is closed at 18");
	prom_conns__sweep(t, 25);
	ASSERT_TRUE(!ended(1), "busy: not before 26");
	prom_conns__start(t, srv[3], 26); /* an arrival checks the deadlines too */
	ASSERT_TRUE(ended(1) && !ended(3), "busy: closed at 26");
	ASSERT_EQ(prom_conns__stats(t).evicted_deadline, 3, "closed for a deadline");
	ASSERT_EQ(prom_conns__stats(t).evicted_full, 0, "none for room");
	prom_conns__closed(t, y);
	prom_conns__closed(t, z);
	prom_conns__closed(t, NULL);
	ASSERT_EQ(prom_conns__stats(t).open, 1, "open after closes");
	prom_conns__free(t);
	pairs_close();
}

/* Every entry in use (live or closing): a newcomer gets none, and the caller closes it. */
static void test_no_entry(void)
{
	struct prom_conns *t = prom_conns__new(1, 0, 1000, 1000);

	if (!ASSERT_NONNULL(t, "new") || !ASSERT_OK(pairs_open(), "socketpair"))
		return;
	ASSERT_NONNULL(prom_conns__start(t, srv[0], 0), "first");
	ASSERT_TRUE(prom_conns__start(t, srv[1], 1) == NULL, "no entry left");
	ASSERT_TRUE(!ended(0), "the first kept");
	ASSERT_TRUE(prom_conns__new(0, 4, 1, 1) == NULL && errno == EINVAL, "max 0 refused");
	prom_conns__free(t);
	prom_conns__free(NULL);
	pairs_close();
}

int main(void)
{
	test__suite = "prom_conn";
	RUN_TEST(test_full);
	RUN_TEST(test_deadlines);
	RUN_TEST(test_no_entry);
	printf("prom_conn: %d passed, %d failed\n", test__passed, test__failed);
	return TEST_EXIT();
}
