// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * compat.c - does this kernel take BPF atomic compare-and-swap (5.12)? Asked once, by loading
 * a five-instruction socket filter that swaps a stack slot.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "collect/compat.h"

/* Load the probe program: 1 taken, 0 refused as invalid (EINVAL: an older verifier), -1 when it
 * could not say (no permission, no bpf(): whatever else fails will say why). */
static int cmpxchg_loads(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 0 },
		{ .code = BPF_STX | BPF_DW | BPF_MEM, .dst_reg = BPF_REG_10, .src_reg = BPF_REG_1,
		  .off = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_STX | BPF_DW | BPF_ATOMIC, .dst_reg = BPF_REG_10, .src_reg = BPF_REG_1,
		  .off = -8, .imm = BPF_CMPXCHG },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), NULL);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EINVAL ? 0 : -1;
}

bool compat__needed(void)
{
	static int needed = -1;

	if (needed < 0) {
		const char *v = getenv("LATTOP_BPF_COMPAT");

		if (v && (!strcmp(v, "0") || !strcmp(v, "1")))
			needed = *v == '1';
		else
			needed = cmpxchg_loads() == 0;
	}
	return needed;
}

bool compat__no_loop(void)
{
	return compat__needed() ||
	       libbpf_probe_bpf_helper(BPF_PROG_TYPE_XDP, BPF_FUNC_loop, NULL) == 0;
}
