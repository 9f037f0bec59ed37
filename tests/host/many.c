// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * many.c - test fixture: loads N tiny socket-filter programs named many_000, many_001, ...
 * (FILTER_MAX of them by default) so a -p list and the filter editor can hold the most
 * entries lattop supports.
 *
 * Usage: many [N]. Prints "ID NAME" per program, then "ready", then holds the programs until
 * stdin ends (or reads "quit").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "opts.h"

int main(int argc, char **argv)
{
	/* r0 = 0; exit: the smallest program the verifier takes. */
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int n = argc > 1 ? atoi(argv[1]) : FILTER_MAX;
	char line[64];

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
	}
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin) && strncmp(line, "quit", 4))
		;
	return 0;
}
