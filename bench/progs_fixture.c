// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * progs_fixture.c - bench fixture: loads N trivial socket-filter programs named bench_NNN and
 * runs each of them a few times every 100 ms (bpf_prog_test_run), so a lattop session has N
 * live rows whose figures change every interval. Prints "ready N" and runs until killed.
 *
 *   progs_fixture [N]   (default 100, at most 1000)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#define MAX_PROGS 1000

/* Load one "r0 = 0; exit" socket filter named name; returns its fd or a negative errno. */
static int load_one(const char *name)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", insns, 2, NULL);
}

int main(int argc, char **argv)
{
	static int fds[MAX_PROGS];
	unsigned char pkt[64] = { [12] = 0x08 };
	int n = argc > 1 ? atoi(argv[1]) : 100;

	if (n < 1 || n > MAX_PROGS) {
		fprintf(stderr, "progs_fixture: N must be 1..%d\n", MAX_PROGS);
		return 2;
	}
	/* Phase 1: load the programs. */
	for (int i = 0; i < n; i++) {
		char name[16];

		snprintf(name, sizeof(name), "bench_%03d", i);
		fds[i] = load_one(name);
		if (fds[i] < 0) {
			fprintf(stderr, "progs_fixture: loading %s: %s\n", name, strerror(-fds[i]));
			return 1;
		}
	}
	printf("ready %d\n", n);
	fflush(stdout);
	/* Phase 2: run program i (i % 7 + 1) times per tick, so rows differ and change. */
	for (unsigned tick = 0;; tick++) {
		struct timespec nap = { 0, 100000000 };

		for (int i = 0; i < n; i++) {
			LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = sizeof(pkt),
				    .repeat = (i + tick) % 7 + 1);

			bpf_prog_test_run_opts(fds[i], &o);
		}
		nanosleep(&nap, NULL);
	}
}
