// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * progrefs.bpf.c - list (program ID, reference count) pairs with a bpf_prog iterator.
 *
 * fentry/fexit links hold a reference on their target, so a watched program that its owner
 * unloads stays alive as long as lattop watches it. Its reference count tells: when only our two
 * links (and the iterator's own reference while it visits) remain, nobody else wants it, and
 * lattop detaches so the kernel can free it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "lattop.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("iter/bpf_prog")
int lat_refs_iter(struct bpf_iter__bpf_prog *ctx)
{
	struct bpf_prog *prog = ctx->prog;
	struct lat_prog_ref r = {};

	if (!prog)
		return 0;
	r.id = BPF_CORE_READ(prog, aux, id);
	r.refcnt = BPF_CORE_READ(prog, aux, refcnt.counter);
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}
