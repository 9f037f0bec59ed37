// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * many.c - test and bench fixture: loads N tiny socket-filter programs named many_000,
 * many_001, ... (FILTER_MAX of them by default) so a -p list and the filter editor can hold
 * the most entries lattop supports, or (bench/tui_live.sh) a session has N live rows.
 *
 * Usage: many [N] [--run] [--btf]. Prints "ID NAME" per program, then "ready", then holds the
 * programs until stdin ends (or reads "quit"). With --run it ignores stdin and, until killed,
 * runs program i (i + tick) % 7 + 1 times every 100 ms (bpf_prog_test_run), so the rows'
 * figures differ and change every interval. With --btf each program is loaded with BTF of its
 * own (one function of its name taking a pointer), as a compiler's would be, so that fentry can
 * trace it (the VM's scale benchmark, bench/vm/guest/x_vmscale.sh).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

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

/* Load one socket filter named name, with BTF describing it as function name(void *ctx) when
 * btf is set; the program fd, or -1 with errno. */
static int load(const char *name, const struct bpf_insn *insns, int cnt, bool btf)
{
	struct bpf_func_info fi = { .insn_off = 0 };
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	struct btf *b;
	int ptr, proto, fd, err = 0;

	if (!btf)
		return bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", insns, cnt, NULL);
	b = btf__new_empty();
	if (!b)
		return -1;
	err = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	ptr = btf__add_ptr(b, 0);
	proto = btf__add_func_proto(b, 1);
	if (err >= 0 && ptr >= 0 && proto >= 0 && !btf__add_func_param(b, "ctx", ptr))
		err = btf__add_func(b, name, BTF_FUNC_GLOBAL, proto);
	else
		err = -1;
	if (err < 0 || btf__load_into_kernel(b)) {
		btf__free(b);
		return -1;
	}
	fi.type_id = err;
	o.prog_btf_fd = btf__fd(b);
	o.func_info = &fi;
	o.func_info_cnt = 1;
	o.func_info_rec_size = sizeof(fi);
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", insns, cnt, &o);
	btf__free(b); /* the program holds its BTF */
	return fd;
}

int main(int argc, char **argv)
{
	/* r0 = 0; exit: the smallest program the verifier takes. */
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int n = argc > 1 ? atoi(argv[1]) : FILTER_MAX, *fds;
	bool run = false, btf = false;
	char line[64];

	for (int i = 2; i < argc; i++) {
		run = run || !strcmp(argv[i], "--run");
		btf = btf || !strcmp(argv[i], "--btf");
	}
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
		fd = load(name, insns, 2, btf);
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
