/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * compat.h - which build of a BPF object this kernel takes. The objects of the Makefile's
 * COMPAT_BPF are built twice: as they are, and with LAT_COMPAT for kernels before 5.12, which
 * refuse the atomic compare-and-swap and fetching adds the aggregates and the task slots use
 * (the verifier's "BPF_STX uses reserved fields"; bpf/agg.bpf.h says what the build does
 * instead). Both builds declare the same maps, programs and variables (the Makefile checks), so
 * one skeleton opens either: COMPAT_OPEN(progtrace) returns a struct progtrace_bpf * over the
 * build compat__needed() names.
 *
 * Thread use: any (the probe runs once; LATTOP_BPF_COMPAT=1 forces the compat build, for tests
 * on newer kernels, and =0 the other).
 */
#ifndef LAT_COMPAT_H
#define LAT_COMPAT_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

/* True when this kernel needs the LAT_COMPAT builds (no BPF atomic compare-and-swap). */
bool compat__needed(void);

/* The same for objects that also loop with bpf_loop (5.17: the test targets, bpf/spin.bpf.h). */
bool compat__no_loop(void);

/* Open skeleton NAME over its LAT_COMPAT build when use is true: the first build's skeleton,
 * its ELF bytes replaced before the open (the same names bind the same maps and programs). */
#define COMPAT_OPEN_IF(NAME, use)                                                                 \
	({                                                                                        \
		struct NAME##_bpf *o_ = (use) ? calloc(1, sizeof(*o_)) : NAME##_bpf__open();      \
		int e_ = 0;                                                                       \
		if (o_ && (use)) {                                                                \
			e_ = NAME##_bpf__create_skeleton(o_);                                     \
			if (!e_) {                                                                \
				o_->skeleton->data = (void *)NAME##_compat_bpf__elf_bytes(         \
					&o_->skeleton->data_sz);                                  \
				e_ = bpf_object__open_skeleton(o_->skeleton, NULL);               \
			}                                                                         \
			if (e_) {                                                                 \
				NAME##_bpf__destroy(o_);                                          \
				o_ = NULL;                                                        \
				errno = -e_;                                                      \
			}                                                                         \
		} else if (!o_ && (use)) {                                                        \
			errno = ENOMEM;                                                           \
		}                                                                                 \
		o_;                                                                               \
	})
#define COMPAT_OPEN(NAME) COMPAT_OPEN_IF(NAME, compat__needed())

#endif /* LAT_COMPAT_H */
