/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * arm64_regs.h - the one arm64 type the BPF programs need that another architecture's BTF
 * lacks. A cross build (make ARCH=arm64 on x86) takes its vmlinux.h from the build machine's
 * kernel: every kernel struct the programs read is relocated by CO-RE at load time, so the x86
 * layouts in it do no harm, but libbpf's bpf_tracing.h reads an arm64 probe's registers
 * (PT_REGS_PARM*, PT_REGS_RC, BPF_KPROBE) through struct user_pt_regs, which x86 has not.
 * The Makefile appends this file to such a vmlinux.h; one made from arm64 BTF has the type
 * already and gets nothing appended. preserve_access_index, as on every type of vmlinux.h:
 * the fields are relocated against the running kernel's BTF like the others.
 */
#ifndef LAT_ARM64_REGS_H
#define LAT_ARM64_REGS_H

/* arch/arm64/include/uapi/asm/ptrace.h: x0-x30, then sp, pc and pstate. Arguments are in x0-x7
 * and the return value in x0, for kernel functions and user ones (AAPCS64) alike. */
struct user_pt_regs {
	__u64 regs[31];
	__u64 sp;
	__u64 pc;
	__u64 pstate;
} __attribute__((preserve_access_index));

#endif /* LAT_ARM64_REGS_H */
