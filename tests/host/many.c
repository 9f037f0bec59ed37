// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * many.c - test and bench fixture: loads N tiny socket-filter programs named many_000,
 * many_001, ... (FILTER_MAX of them by default) so a -p list and the filter editor can hold
 * the most entries lattop supports, or (bench/tui_live.sh) a session has N live rows.
 *
 * Usage: many [N] [--run]. Prints "ID NAME" per program, then "ready", then holds the
 * programs until stdin ends (or reads "quit"). With --run it ignores stdin and, until killed,
 * runs program i (i + tick) % 7 + 1 times every 100 ms (bpf_prog_test_run), so the rows'
 * figures differ and change every interval.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "cli/opts.h"

/* --run: drive every program forever, a few runs each per 100 ms tick. */
static void run_forever(const int *fds, int n)
{
	unsigned char pkt[64] = { [12] = 0x08 };

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

int main(int argc, char **argv)
{
	/* r0 = 0; exit: the smallest program the verifier takes. */
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int n = argc > 1 ? atoi(argv[1]) : FILTER_MAX, *fds;
	bool run = argc > 2 && !strcmp(argv[2], "--run");
	char line[64];

	fds = calloc(n > 0 ? n : 1, sizeof(*fds));
	if (!fds)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < n; i++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		char name[16];
		int fd;

		snprintf(name, sizeof(name), "many_%03d", i);
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", insns, 2, NULL);
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len)) {
			fprintf(stderr, "many: cannot load program %d: %s\n", i, strerror(errno));
			return 1;
		}
		printf("%u %s\n", info.id, name);
		fds[i] = fd;
	}
	printf("ready\n");
	if (run)
		run_forever(fds, n);
	while (fgets(line, sizeof(line), stdin) && strncmp(line, "quit", 4))
		;
	return 0;
}
