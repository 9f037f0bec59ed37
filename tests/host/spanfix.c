// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spanfix.c - test fixture for spans: functions whose durations it controls.
 *
 * Prints "ready PID", then reads commands from stdin:
 *   mix           1100 calls of spanfix_work: 1000 spinning ~50 us and 100 spinning ~500 us
 *                 (every 11th call is a long one); prints "mixed 1100 p50 A p99 B": the
 *                 percentiles (ns) of the calls as the caller timed them, probe costs included
 *   recurse N [D] N calls of spanfix_recurse(D) (D = 5 unless given, at most 64): level k
 *                 (k = D outermost .. 1 innermost) spins 20 us, calls level k - 1, then spins
 *                 k x 30 us after it returns. Level k enters at 20 (D - k) us and returns at
 *                 20 D + 15 k (k + 1) us, so it lasts 20 k + 15 k (k + 1) us: 50, 130, 240,
 *                 380, 550 us for k = 1..5, each a different time; paired outermost first
 *                 instead, the k-th return would take the k-th entry's start (130, 170, 240,
 *                 340, 470 us). Prints "recursed C p50 A" (C = N x D calls; A the median of
 *                 every call's duration as its caller timed it, ns, 0 if C > 100000 x D)
 *   reenter N     N calls of spanfix_reenter(0), each re-entered once on the same thread: it
 *                 spins 150 us, raises SIGUSR1, whose handler calls spanfix_reenter(1) (which
 *                 spins 100 us), then spins 250 us after the handler returns. The inner call
 *                 lasts 100 us, the outer 500 us (paired outermost first: 250 and 350 us).
 *                 Prints "reentered 2N"
 *   async N       N requests: spanfix_submit(id) for id 1..N, 10 us apart, then
 *                 spanfix_complete(id) for id N..1 (last in, first out), 10 us apart, all on
 *                 one thread: request id lasts ~(2 (N - id) + 1) x 10 us; prints "async N"
 *   sleeps N      N clock_nanosleep calls (the syscall glibc's nanosleep and sleep make):
 *                 every 10th sleeps 5 ms, the others 1 ms; prints "slept N p50 A p99 B" as
 *                 mix does (the caller's times, ns)
 *   pidreq N      requests keyed by a number the syscall tracepoints show: getpgid(BASE + i)
 *                 for i 1..N, 10 us apart, then getsid(BASE + i) for i N..1, 10 us apart
 *                 (BASE = 2000000000, beyond any pid: both just fail with ESRCH); request i
 *                 lasts ~(2 (N - i) + 1) x 10 us; prints "pidreq N"
 *   udp N         N 16-byte UDP datagrams to a socket of its own on 127.0.0.1, each received
 *                 before the next is sent (loopback: net_dev_queue then netif_receive_skb
 *                 of the same skb); prints "udp N" (or "udp -1 why")
 *   orphan N      spanfix_submit(ORPHAN_BASE + i) for i 1..N, completing none; prints
 *                 "orphan N"
 *   finish N      spanfix_complete(ORPHAN_BASE + i) for i 1..N; prints "finish N"
 *   nap N MS      N calls of spanfix_nap, each sleeping MS ms (a call long enough to outlast
 *                 a span timeout); prints "napped N"
 *   libc N        N calls each of the C library's l64a and a64l (functions hardly anything
 *                 else calls), for -u on a shared library; prints "libc N"
 *   hot N T       T threads (at most 16) each making N getppid syscalls as fast as they can
 *                 (a span on its enter and exit tracepoints then ends millions of times a
 *                 second); prints "hot C NS": C = N x T calls, in NS ns of wall time
 *   ladder N      N calls of spanfix_work, call i (0..N-1) spinning 500 + 25 x step us,
 *                 step = ((i + 5) / 10) mod 101: steps of 10 calls (5 in the first and the
 *                 last of 1000), so that with N = 1000 the calls ranked 500, 950 and 990
 *                 (p50, p95, p99) lie mid-step, 5 calls away from a duration 25 us apart;
 *                 calls long enough (500..3000 us) that two sessions timing the same calls
 *                 agree within 0.2% (their probes run one after the other); prints
 *                 "laddered N"
 *   args N        for v = 1..N (at most 30), v calls of spanfix_sized(v, 1000 v), each spinning
 *                 5 us and returning -v when v is a multiple of 3, else 0 (for breakdowns by
 *                 argument and return value, and filters); prints "args C", C = N (N + 1) / 2
 *   oncpu N SPIN SLEEP
 *                 N calls of spanfix_oncpu, each running SPIN us of its thread's CPU time
 *                 (spinning on CLOCK_THREAD_CPUTIME_ID, so preemption does not shorten it),
 *                 then sleeping SLEEP us (timer slack 1 ns); prints "oncpu N run R wait W
 *                 sleep S": the medians over the calls of what the kernel's own accounting
 *                 (/proc/thread-self/schedstat: run time, run-queue wait) saw during each
 *                 call, and of the rest of its wall time, ns
 *   runq N HOLD SPIN
 *                 N calls of spanfix_runq on CPU 0, each waking a SCHED_FIFO thread pinned to
 *                 CPU 0 that spins HOLD us on CLOCK_MONOTONIC (the caller is runnable and off
 *                 the CPU all that time), then running SPIN us of CPU time; prints "runq N run
 *                 R wait W sleep S" as oncpu does, or "runq -1 WHY" when the thread cannot be
 *                 made real-time or pinned
 *   pingpong N    N round trips of one byte between this thread, inside spanfix_pingpong, and
 *                 a second thread, both on CPU 0, through two pipes: 2N context switches, the
 *                 loop of `make vmbench`'s per-switch cost; prints "pingpong N NS" (NS its wall
 *                 time, ns) or "pingpong -1 WHY"
 *   quit (or EOF) exit
 * The functions spin on CLOCK_MONOTONIC (no sleeping: a sleep's wake-up latency would blur
 * the durations the test checks), but for sleeps, whose syscall is what is timed.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* pidreq's request numbers: above any pid_max (2^22), so no process has them. */
#define PIDREQ_BASE 2000000000L
/* orphan's request ids: apart from async's 1..N. */
#define ORPHAN_BASE 3000000UL

/* CLOCK_MONOTONIC in ns. */
static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Spin for us microseconds. */
static void spin_us(unsigned us)
{
	unsigned long long end = mono_ns() + us * 1000ull;

	while (mono_ns() < end)
		;
}

/* The timed function: spins for us microseconds. Not inlined: lattop probes its symbol. */
__attribute__((noinline, used)) void spanfix_work(unsigned us);
void spanfix_work(unsigned us)
{
	spin_us(us);
	__asm__ volatile("" ::: "memory");
}

/* The function broken down by its arguments and return value: spins 5 us; returns -v when v is
 * a multiple of 3, else 0. */
__attribute__((noinline, used)) long spanfix_sized(long v, long size);
long spanfix_sized(long v, long size)
{
	spin_us(5);
	__asm__ volatile("" : : "r"(size) : "memory");
	return v % 3 ? 0 : -v;
}

/* Durations of the recursive calls as their callers timed them (probes included), for the
 * "recurse" command's percentiles: rec_d holds rec_cap entries, rec_n are used. */
static unsigned long long *rec_d;
static size_t rec_n, rec_cap;

static void rec_add(unsigned long long d)
{
	if (rec_n < rec_cap)
		rec_d[rec_n++] = d;
}

/* The recursive function, level depth: spins 20 us, recurses depth - 1 more levels, then
 * spins depth x 30 us, so every level lasts a different, known time. Returns the calls made. */
__attribute__((noinline, used)) int spanfix_recurse(int depth);
int spanfix_recurse(int depth)
{
	int r = 1;

	spin_us(20);
	if (depth > 1) {
		unsigned long long t0 = mono_ns();

		r = spanfix_recurse(depth - 1) + 1;
		rec_add(mono_ns() - t0);
	}
	spin_us(30u * (unsigned)depth);
	__asm__ volatile("" ::: "memory");
	return r;
}

/* The re-entered function: the outer call (inner = 0) spins 150 us, raises SIGUSR1 (whose
 * handler calls the inner one, 100 us), then spins 250 us more. Returns the calls made. */
__attribute__((noinline, used)) int spanfix_reenter(int inner);
static volatile sig_atomic_t reentered; /* inner calls made (by the signal handler) */
int spanfix_reenter(int inner)
{
	if (inner) {
		spin_us(100);
		reentered++;
		return 1;
	}
	spin_us(150);
	raise(SIGUSR1);
	spin_us(250);
	__asm__ volatile("" ::: "memory");
	return 1;
}

/* SIGUSR1: re-enter spanfix_reenter on the interrupted thread. */
static void on_usr1(int sig)
{
	(void)sig;
	spanfix_reenter(1);
}

/* A call that sleeps ms milliseconds. */
__attribute__((noinline, used)) void spanfix_nap(unsigned ms);
void spanfix_nap(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
	__asm__ volatile("" ::: "memory");
}

/* qsort comparison of durations. */
static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

/* Nearest-rank percentile q of n sorted durations. */
static unsigned long long pct(const unsigned long long *v, int n, double q)
{
	int k = (int)(q * n + 0.999999);

	return v[(k < 1 ? 1 : k) - 1];
}

/* An asynchronous request starts: a span keyed by its id (the first argument) starts here. */
__attribute__((noinline, used)) void spanfix_submit(unsigned long id);
void spanfix_submit(unsigned long id)
{
	__asm__ volatile("" : : "r"(id) : "memory");
}

/* The request completes: the span of the same id ends. */
__attribute__((noinline, used)) void spanfix_complete(unsigned long id);
void spanfix_complete(unsigned long id)
{
	__asm__ volatile("" : : "r"(id) : "memory");
}

/* This thread's CPU time (CLOCK_THREAD_CPUTIME_ID) in ns. */
static unsigned long long thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Run us microseconds of this thread's CPU time. */
static void spin_cpu_us(unsigned us)
{
	unsigned long long end = thread_ns() + us * 1000ull;

	while (thread_ns() < end)
		;
}

/* The scheduler's accounting of this thread: time on a CPU and waiting on a run queue, ns,
 * read from fd (its /proc/thread-self/schedstat, opened once: a read costs a few us, little
 * beside the span it brackets); 0 and 0 when unreadable. */
static void sched_stat(int fd, unsigned long long *run, unsigned long long *wait)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	*run = *wait = 0;
	if (n > 0) {
		buf[n] = 0;
		if (sscanf(buf, "%llu %llu", run, wait) != 2)
			*run = *wait = 0;
	}
}

/* A span that runs spin us of CPU time, then sleeps sleep us. */
__attribute__((noinline, used)) void spanfix_oncpu(unsigned spin, unsigned sleep);
void spanfix_oncpu(unsigned spin, unsigned sleep)
{
	struct timespec ts = { sleep / 1000000, sleep % 1000000 * 1000L };

	spin_cpu_us(spin);
	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
	__asm__ volatile("" ::: "memory");
}

/* A span that wakes the real-time thread on its CPU (which holds the CPU), then runs spin us
 * of CPU time. */
__attribute__((noinline, used)) void spanfix_runq(int fd, unsigned spin);
void spanfix_runq(int fd, unsigned spin)
{
	if (write(fd, "x", 1) != 1)
		return;
	spin_cpu_us(spin);
	__asm__ volatile("" ::: "memory");
}

/* The real-time thread: each byte read, spin hold us of wall time on the CPU. */
struct hog {
	int fd;
	unsigned hold;
};

static void *hog_thread(void *arg)
{
	const struct hog *h = arg;
	char c;

	while (read(h->fd, &c, 1) == 1 && c == 'x')
		spin_us(h->hold);
	return NULL;
}

/* Medians of the schedstat parts of n calls of fn (0: oncpu, 1: runq), printed as what. */
static void split_calls(const char *what, int n, int fn, unsigned a, unsigned b, int fd)
{
	static unsigned long long run[1000], wait[1000], rest[1000];
	int sfd = open("/proc/thread-self/schedstat", O_RDONLY);

	if (n > 1000)
		n = 1000;
	for (int i = 0; i < n; i++) {
		unsigned long long r0, w0, r1, w1, t0, t1;

		/* The schedstat reads inside the clock reads: the span lies within the schedstat
		 * window, which lies within the wall window, so each of run, wait and the rest (the
		 * wall time less both) is at least the span's own share, whatever preempts the
		 * thread around the call. */
		t0 = mono_ns();
		sched_stat(sfd, &r0, &w0);
		if (fn)
			spanfix_runq(fd, b);
		else
			spanfix_oncpu(a, b);
		sched_stat(sfd, &r1, &w1);
		t1 = mono_ns();
		run[i] = r1 - r0;
		wait[i] = w1 - w0;
		rest[i] = t1 - t0 > run[i] + wait[i] ? t1 - t0 - run[i] - wait[i] : 0;
	}
	qsort(run, n, sizeof(run[0]), cmp_u64);
	qsort(wait, n, sizeof(wait[0]), cmp_u64);
	qsort(rest, n, sizeof(rest[0]), cmp_u64);
	if (sfd >= 0)
		close(sfd);
	printf("%s %d run %llu wait %llu sleep %llu\n", what, n, pct(run, n, 0.5),
	       pct(wait, n, 0.5), pct(rest, n, 0.5));
}

/* The runq command: this thread and a SCHED_FIFO thread both on CPU 0, n calls. */
static void runq(int n, unsigned hold, unsigned spin)
{
	struct sched_param sp = { .sched_priority = 10 };
	struct hog h = { .hold = hold };
	cpu_set_t one, was;
	pthread_attr_t at;
	pthread_t th;
	int p[2], e;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (pipe(p) || sched_getaffinity(0, sizeof(was), &was)) {
		printf("runq -1 pipe: %s\n", strerror(errno));
		return;
	}
	h.fd = p[0];
	pthread_attr_init(&at);
	pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&at, SCHED_FIFO);
	pthread_attr_setschedparam(&at, &sp);
	pthread_attr_setaffinity_np(&at, sizeof(one), &one);
	e = pthread_create(&th, &at, hog_thread, &h);
	pthread_attr_destroy(&at);
	if (e || sched_setaffinity(0, sizeof(one), &one)) {
		printf("runq -1 real-time thread on CPU 0: %s\n", strerror(e ? e : errno));
		if (!e) {
			close(p[1]);
			pthread_join(th, NULL);
		}
		close(p[0]);
		return;
	}
	split_calls("runq", n, 1, hold, spin, p[1]);
	close(p[1]);
	pthread_join(th, NULL);
	close(p[0]);
	sched_setaffinity(0, sizeof(was), &was);
}

/* The ping-pong's second thread: returns every byte it reads, until EOF. */
static void *pong_thread(void *arg)
{
	const int *fd = arg;
	cpu_set_t one;
	char c;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
	while (read(fd[0], &c, 1) == 1)
		if (write(fd[1], &c, 1) != 1)
			break;
	return NULL;
}

/* n round trips through the pipes (to[1] out, from[0] back); a span may time the whole loop. */
__attribute__((noinline, used)) int spanfix_pingpong(const int *to, const int *from, long n);
int spanfix_pingpong(const int *to, const int *from, long n)
{
	char c = 'p';

	for (long i = 0; i < n; i++)
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			return -1;
	return 0;
}

/* The pingpong command: both threads on CPU 0, so every hop is a context switch. */
static void pingpong(long n)
{
	int to[2], from[2], fd[2];
	cpu_set_t one, was;
	unsigned long long t0;
	pthread_t th;
	int e;

	if (pipe(to) || pipe(from)) {
		printf("pingpong -1 pipe: %s\n", strerror(errno));
		return;
	}
	fd[0] = to[0];
	fd[1] = from[1];
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_getaffinity(0, sizeof(was), &was);
	if (sched_setaffinity(0, sizeof(one), &one) || pthread_create(&th, NULL, pong_thread, fd)) {
		printf("pingpong -1 CPU 0 or a thread: %s\n", strerror(errno));
		return;
	}
	t0 = mono_ns();
	e = spanfix_pingpong(to, from, n);
	t0 = mono_ns() - t0;
	close(to[1]);
	pthread_join(th, NULL);
	close(to[0]);
	close(from[0]);
	close(from[1]);
	sched_setaffinity(0, sizeof(was), &was);
	if (e)
		printf("pingpong -1 a pipe failed\n");
	else
		printf("pingpong %ld %llu\n", n, t0);
}

/* Send n datagrams to ourselves over loopback, receiving each; n, or -1. */
static int udp_echo(int n)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int tx = socket(AF_INET, SOCK_DGRAM, 0), rx = socket(AF_INET, SOCK_DGRAM, 0), done = -1;
	char buf[16] = "spanfix";

	if (tx < 0 || rx < 0 || bind(rx, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rx, (struct sockaddr *)&a, &alen))
		goto out;
	for (done = 0; done < n; done++)
		if (sendto(tx, buf, sizeof(buf), 0, (struct sockaddr *)&a, sizeof(a)) < 0 ||
		    recv(rx, buf, sizeof(buf), 0) < 0) {
			done = -1;
			break;
		}
out:
	if (tx >= 0)
		close(tx);
	if (rx >= 0)
		close(rx);
	return done;
}

/* One hot thread: n getppid syscalls (glibc does not cache it: each is a syscall). */
static void *hot_thread(void *arg)
{
	long n = (long)arg;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return NULL;
}

/* T threads of n getppid calls each; the calls made, or -1 (*ns: the wall time they took). */
static long hot(long n, int t, unsigned long long *ns)
{
	pthread_t th[16];
	unsigned long long t0 = mono_ns();
	long calls;
	int k;

	for (k = 0; k < t && k < 16; k++)
		if (pthread_create(&th[k], NULL, hot_thread, (void *)n))
			break;
	for (int i = 0; i < k; i++)
		pthread_join(th[i], NULL);
	*ns = mono_ns() - t0;
	calls = n * k;
	return k == t ? calls : -1;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	char line[128];
	int n, k, depth;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	printf("ready %d\n", (int)getpid());
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "mix", 3)) {
			static unsigned long long d[1100];

			for (int i = 0; i < 1100; i++) {
				unsigned long long t0 = mono_ns();

				spanfix_work(i % 11 == 10 ? 500 : 50);
				d[i] = mono_ns() - t0;
			}
			qsort(d, 1100, sizeof(d[0]), cmp_u64);
			printf("mixed 1100 p50 %llu p99 %llu\n", pct(d, 1100, 0.5),
			       pct(d, 1100, 0.99));
		} else if ((k = sscanf(line, "recurse %d %d", &n, &depth)) >= 1) {
			int calls = 0;

			if (k == 1 || depth < 1 || depth > 64)
				depth = 5;
			if (n < 0 || n > 100000)
				n = 0;
			free(rec_d);
			rec_cap = (size_t)n * (size_t)depth;
			rec_n = 0;
			rec_d = calloc(rec_cap ? rec_cap : 1, sizeof(rec_d[0]));
			if (!rec_d)
				rec_cap = 0;
			for (int i = 0; i < n; i++) {
				unsigned long long t0 = mono_ns();

				calls += spanfix_recurse(depth);
				rec_add(mono_ns() - t0);
			}
			qsort(rec_d, rec_n, sizeof(rec_d[0]), cmp_u64);
			printf("recursed %d p50 %llu\n", calls,
			       rec_n == (size_t)calls ? pct(rec_d, (int)rec_n, 0.5) : 0ULL);
		} else if (sscanf(line, "reenter %d", &n) == 1) {
			int calls = 0;

			reentered = 0;
			for (int i = 0; i < n; i++)
				calls += spanfix_reenter(0);
			printf("reentered %d\n", calls + reentered);
		} else if (sscanf(line, "async %d", &n) == 1) {
			for (int i = 1; i <= n; i++) {
				spanfix_submit((unsigned long)i);
				spin_us(10);
			}
			for (int i = n; i >= 1; i--) {
				spanfix_complete((unsigned long)i);
				spin_us(10);
			}
			printf("async %d\n", n);
		} else if (sscanf(line, "sleeps %d", &n) == 1 && n > 0 && n <= 1000) {
			static unsigned long long d[1000];

			for (int i = 0; i < n; i++) {
				struct timespec ts = { 0, i % 10 == 9 ? 5000000 : 1000000 };
				unsigned long long t0 = mono_ns();

				clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
				d[i] = mono_ns() - t0;
			}
			qsort(d, (size_t)n, sizeof(d[0]), cmp_u64);
			printf("slept %d p50 %llu p99 %llu\n", n, pct(d, n, 0.5), pct(d, n, 0.99));
		} else if (sscanf(line, "pidreq %d", &n) == 1) {
			for (long i = 1; i <= n; i++) {
				syscall(SYS_getpgid, PIDREQ_BASE + i);
				spin_us(10);
			}
			for (long i = n; i >= 1; i--) {
				syscall(SYS_getsid, PIDREQ_BASE + i);
				spin_us(10);
			}
			printf("pidreq %d\n", n);
		} else if (sscanf(line, "orphan %d", &n) == 1) {
			for (int i = 1; i <= n; i++)
				spanfix_submit(ORPHAN_BASE + (unsigned long)i);
			printf("orphan %d\n", n);
		} else if (sscanf(line, "finish %d", &n) == 1) {
			for (int i = 1; i <= n; i++)
				spanfix_complete(ORPHAN_BASE + (unsigned long)i);
			printf("finish %d\n", n);
		} else if (sscanf(line, "nap %d %d", &n, &k) == 2 && k > 0) {
			for (int i = 0; i < n; i++)
				spanfix_nap((unsigned)k);
			printf("napped %d\n", n);
		} else if (sscanf(line, "libc %d", &n) == 1) {
			static volatile char sink __attribute__((unused));

			for (int i = 0; i < n; i++)
				sink = (char)a64l(l64a(i + 1));
			printf("libc %d\n", n);
		} else if (sscanf(line, "hot %d %d", &n, &k) == 2 && n > 0 && k > 0 && k <= 16) {
			unsigned long long ns;
			long calls = hot(n, k, &ns);

			printf("hot %ld %llu\n", calls, ns);
		} else if (sscanf(line, "args %d", &n) == 1 && n > 0 && n <= 30) {
			int c = 0;

			for (long v = 1; v <= n; v++)
				for (long i = 0; i < v; i++, c++)
					spanfix_sized(v, 1000 * v);
			printf("args %d\n", c);
		} else if (sscanf(line, "ladder %d", &n) == 1) {
			for (int i = 0; i < n; i++)
				spanfix_work(500 + 25 * (unsigned)((i + 5) / 10 % 101));
			printf("laddered %d\n", n);
		} else if (sscanf(line, "udp %d", &n) == 1) {
			printf("udp %d\n", udp_echo(n));
		} else if (sscanf(line, "oncpu %d %d %d", &n, &k, &depth) == 3 && n > 0 &&
			   k > 0 && depth > 0) {
			prctl(PR_SET_TIMERSLACK, 1UL);
			split_calls("oncpu", n, 0, (unsigned)k, (unsigned)depth, -1);
		} else if (sscanf(line, "runq %d %d %d", &n, &k, &depth) == 3 && n > 0 && k > 0 &&
			   depth > 0) {
			runq(n, (unsigned)k, (unsigned)depth);
		} else if (sscanf(line, "pingpong %d", &n) == 1 && n > 0) {
			pingpong(n);
		} else if (!strncmp(line, "quit", 4)) {
			break;
		}
	}
	return 0;
}
