// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * owners.bpf.c - which processes hold which programs: a task_file iterator that writes one
 * lat_owner_rec for each program fd or link fd a thread-group leader has open, and for each
 * perf event fd that runs a program (a kprobe, uprobe or tracepoint attached through
 * perf_event_open, as BCC and libbpf before 5.15 attach them: no link says where; user space
 * asks the kernel with BPF_TASK_FD_QUERY on that pid and fd).
 *
 * A file is a program or a link when its f_op is the kernel's bpf_prog_fops or bpf_link_fops
 * (bpf_link_fops_poll since 6.10 for links that can be polled). The three are weak ksyms: a
 * kernel without one resolves it to 0, which no open file's f_op equals. They are data, in
 * kallsyms only with CONFIG_KALLSYMS_ALL; without them a program or a link is known by its
 * file instead: an inode of the anonymous-inode filesystem whose dentry is named "bpf-prog"
 * or "bpf_link" (what /proc/PID/fd shows as anon_inode:bpf-prog). A file elsewhere with
 * that name has another superblock. A perf event is known by its name alone,
 * "[perf_event]", in the same filesystem.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "lattop.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#define ANON_INODE_FS_MAGIC 0x09041934

extern const void bpf_prog_fops __ksym __weak;
extern const void bpf_link_fops __ksym __weak;
extern const void bpf_link_fops_poll __ksym __weak;

enum { NOT_BPF, PROG_FILE, LINK_FILE, PERF_FILE };

/* The first 8 bytes of a and b are equal. */
static __always_inline bool same8(const char *a, const char *b)
{
	for (int i = 0; i < 8; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* What a file is, by the name of its anonymous inode (bpf_only: programs and links alone). */
static __always_inline int kind_by_name(struct file *file, bool bpf_only)
{
	char name[16] = {};
	const unsigned char *p;
	long n;

	if (BPF_CORE_READ(file, f_inode, i_sb, s_magic) != ANON_INODE_FS_MAGIC)
		return NOT_BPF;
	p = BPF_CORE_READ(file, f_path.dentry, d_name.name);
	n = bpf_probe_read_kernel_str(name, sizeof(name), p);
	if (n == 9 && same8(name, "bpf-prog"))
		return bpf_only ? PROG_FILE : NOT_BPF;
	if (n == 9 && same8(name, "bpf_link"))
		return bpf_only ? LINK_FILE : NOT_BPF;
	if (!bpf_only && n == 13 && same8(name, "[perf_ev") && name[8] == 'e' && name[9] == 'n' &&
	    name[10] == 't' && name[11] == ']')
		return PERF_FILE;
	return NOT_BPF;
}

/* What a file is: a program or a link by its f_op where the kernel gave us the addresses,
 * else by its name; a perf event by its name. */
static __always_inline int file_kind(struct file *file)
{
	const void *fop;

	if (!&bpf_prog_fops || !&bpf_link_fops)
		return kind_by_name(file, true) ?: kind_by_name(file, false);
	fop = BPF_CORE_READ(file, f_op);
	if (fop == &bpf_prog_fops)
		return PROG_FILE;
	if (fop == &bpf_link_fops || fop == &bpf_link_fops_poll)
		return LINK_FILE;
	return kind_by_name(file, false);
}

/* The program behind a file (*perf: through a perf event), or NULL when the file is neither a
 * program, a linked link nor a perf event running one. */
static __always_inline struct bpf_prog *file_prog(struct file *file, bool *perf)
{
	void *priv = BPF_CORE_READ(file, private_data);

	switch (file_kind(file)) {
	case PROG_FILE:
		return priv;
	case LINK_FILE:
		return BPF_CORE_READ((struct bpf_link *)priv, prog);
	case PERF_FILE:
		*perf = true;
		return BPF_CORE_READ((struct perf_event *)priv, prog);
	}
	return NULL;
}

SEC("iter/task_file")
int lat_owners_iter(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct lat_owner_rec r = {};
	struct bpf_prog *prog;
	bool perf = false;

	/* Threads share their leader's files: the leader speaks for the process. */
	if (!task || !file || task->tgid != task->pid)
		return 0;
	prog = file_prog(file, &perf);
	if (!prog)
		return 0;
	r.tgid = task->tgid;
	r.fd = ctx->fd;
	r.perf = perf;
	r.prog_id = BPF_CORE_READ(prog, aux, id);
	bpf_probe_read_kernel(r.comm, sizeof(r.comm), task->comm);
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}
