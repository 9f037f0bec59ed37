// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * owners.bpf.c - which processes hold which programs: a task_file iterator that writes one
 * lat_owner_rec for each program fd or link fd a thread-group leader has open.
 *
 * A file is a program or a link when its f_op is the kernel's bpf_prog_fops or bpf_link_fops
 * (bpf_link_fops_poll since 6.10 for links that can be polled). The three are weak ksyms: a
 * kernel without one resolves it to 0, which no open file's f_op equals.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "lattop.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

extern const void bpf_prog_fops __ksym __weak;
extern const void bpf_link_fops __ksym __weak;
extern const void bpf_link_fops_poll __ksym __weak;

/* The program behind a file, or NULL when the file is neither a program nor a linked link. */
static __always_inline struct bpf_prog *file_prog(struct file *file)
{
	const void *fop = BPF_CORE_READ(file, f_op);
	void *priv = BPF_CORE_READ(file, private_data);

	if (fop == &bpf_prog_fops)
		return priv;
	if (fop == &bpf_link_fops || fop == &bpf_link_fops_poll)
		return BPF_CORE_READ((struct bpf_link *)priv, prog);
	return NULL;
}

SEC("iter/task_file")
int lat_owners_iter(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct lat_owner_rec r = {};
	struct bpf_prog *prog;

	/* Threads share their leader's files: the leader speaks for the process. */
	if (!task || !file || task->tgid != task->pid)
		return 0;
	prog = file_prog(file);
	if (!prog)
		return 0;
	r.tgid = task->tgid;
	r.prog_id = BPF_CORE_READ(prog, aux, id);
	bpf_probe_read_kernel(r.comm, sizeof(r.comm), task->comm);
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}
