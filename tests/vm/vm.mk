# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# VM tests (included by the top-level Makefile): fixtures under $(OUTPUT)/tests/vm/ and the
# `vmtest` target, which boots a stock Debian kernel under QEMU (see tests/vm/README.md).

# Fixture programs: tests/vm/fixtures/NAME.c + NAME.bpf.c -> $(OUTPUT)/tests/vm/NAME.
VM_FIXTURES := $(patsubst tests/vm/fixtures/%.bpf.c,%,$(wildcard tests/vm/fixtures/*.bpf.c))
VM_OUT := $(OUTPUT)/tests/vm
VM_BINS := $(addprefix $(VM_OUT)/,$(VM_FIXTURES))
# Plain fixtures: tests/vm/fixtures/NAME.c without a NAME.bpf.c -> $(VM_OUT)/NAME (no libbpf).
VM_PLAIN := $(filter-out $(VM_FIXTURES),$(patsubst tests/vm/fixtures/%.c,%,\
	$(filter-out %.bpf.c,$(wildcard tests/vm/fixtures/*.c))))
VM_PLAIN_BINS := $(addprefix $(VM_OUT)/,$(VM_PLAIN))
VM_BPF_CFLAGS := -I$(dir $(VMLINUX_H)) $(BPF_CFLAGS)

# Everything bins.txt may list is built first; run.sh checks the list itself. vmtest-bins
# builds it alone (tests/run.sh does, before it boots several kernels at once). $(BIN), not
# lattop: in the arm64 build (vmtest-arm64) the lattop rule would copy the arm64 binary over
# the host's ./lattop, which every host test runs; the image takes $(OUTPUT)/lattop.
VM_DEPS := $(BIN) $(VM_BINS) $(VM_PLAIN_BINS) $(OUTPUT)/tests/host/target $(OUTPUT)/tests/host/spanfix
vmtest-bins: $(VM_DEPS)

# Debian 12's 6.1 (VM_KERNEL=6.1, run.sh's default).
vmtest: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) bash tests/vm/run.sh

# The same suite on Debian 12's PREEMPT_RT kernel (BPF programs are preemptible there).
vmtest-rt: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_KERNEL=6.1-rt bash tests/vm/run.sh

# Debian 13's 6.12, standard and PREEMPT_RT, fetched from the trixie suite.
vmtest-612: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_KERNEL=6.12 bash tests/vm/run.sh

vmtest-612-rt: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_KERNEL=6.12-rt bash tests/vm/run.sh

# Debian 11's 5.10, fetched from the bullseye suite: lattop's LAT_COMPAT objects (no BPF
# compare-and-swap) and the tests' sentences for what that kernel lacks.
vmtest-510: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_KERNEL=5.10 bash tests/vm/run.sh

# The newest 6.19 of trixie-backports (its linux-image-amd64 has moved on to 7.x): a kernel built
# without ftrace in queue_stack_maps.c, so queue and stack map calls cannot be timed there.
vmtest-619: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_KERNEL=6.19 bash tests/vm/run.sh

# Debian 13's arm64 6.12 under qemu-system-aarch64 (TCG): lattop, the target and the fixtures
# cross-built into .output-arm64 (make deps-arm64), the guest's user space from arm64 packages.
# From another machine the cross build goes to $(OUTPUT)-arm64 (as t_arm64_build's), and a host
# without the cross toolchain SKIPs like a host without qemu. vmtest-bins-arm64 only builds
# (tests/run.sh, before the lanes start).
ifeq ($(ARCH),arm64)
vmtest-arm64: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_KERNEL=6.12-arm64 bash tests/vm/run.sh
vmtest-bins-arm64: $(VM_DEPS)
else
ARM64_MISSING = $(strip $(if $(shell command -v aarch64-linux-gnu-gcc),,aarch64-linux-gnu-gcc) \
	$(if $(wildcard /usr/lib/aarch64-linux-gnu/pkgconfig/libbpf.pc),,libbpf-dev:arm64))
vmtest-arm64 vmtest-bins-arm64:
	$(Q)if [ -n "$(ARM64_MISSING)" ]; then \
		echo "SKIP vm: $(ARM64_MISSING) not installed (make deps-arm64)"; echo "END vm 1"; \
	else $(MAKE) --no-print-directory ARCH=arm64 OUTPUT=$(OUTPUT)-arm64 \
		HOST_OUTPUT=$(OUTPUT) $@; fi
endif

# EventHeader activities against the reference implementation, on a kernel with user_events
# that tests/vm/build-uevents-kernel.sh builds once (tests/vm/uevents/run.sh).
vmtest-uevents: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) bash tests/vm/uevents/run.sh

$(VM_BINS:%=%.bpf.o): $(VM_OUT)/%.bpf.o: tests/vm/fixtures/%.bpf.c $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(VM_BPF_CFLAGS) -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp && rm -f $@.tmp

$(VM_BINS:%=%.skel.h): $(VM_OUT)/%.skel.h: $(VM_OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@

# Fixtures that spin with bpf_loop (5.17) or use other BPF features 5.10 lacks have a LAT_COMPAT
# build too (bpf/spin.bpf.h; the Makefile's COMPAT_BPF), opened where the kernel needs it.
VM_COMPAT := nest preempt foreign
VM_COMPAT_SKELS := $(VM_COMPAT:%=$(VM_OUT)/%_compat.skel.h)

$(VM_COMPAT:%=$(VM_OUT)/%_compat.bpf.o): $(VM_OUT)/%_compat.bpf.o: tests/vm/fixtures/%.bpf.c \
		$(wildcard bpf/*.h) $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(VM_BPF_CFLAGS) -DLAT_COMPAT -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp && rm -f $@.tmp

$(VM_COMPAT_SKELS): $(VM_OUT)/%_compat.skel.h: $(VM_OUT)/%_compat.bpf.o $(VM_OUT)/%.skel.h
	$(call compat_skel,$*,$(VM_OUT)/$*.skel.h)

$(VM_BINS:%=%.o): $(VM_OUT)/%.o: tests/vm/fixtures/%.c $(VM_OUT)/%.skel.h
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) -I$(VM_OUT) $(CFLAGS) -c $< -o $@

$(VM_COMPAT:%=$(VM_OUT)/%.o): $(VM_OUT)/%.o: $(VM_OUT)/%_compat.skel.h

$(VM_BINS): $(VM_OUT)/%: $(VM_OUT)/%.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(shell $(PKG_CONFIG) --libs libbpf)

# (collect/compat.c: which build the kernel takes)
$(VM_COMPAT:%=$(VM_OUT)/%): $(OUTPUT)/src/collect/compat.o

$(VM_PLAIN_BINS): $(VM_OUT)/%: tests/vm/fixtures/%.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

# Debian 13's 6.12 booted with preempt=full, where tasks preempt each other inside BPF programs
# (issue 22): only the preemption test (t_18_preempt; on 6.12-rt it runs in the whole suite).
# A run directory of its own (VM_INSTANCE), so it boots beside the 6.12 suite.
vmtest-612-full: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_KERNEL=6.12 VM_APPEND=preempt=full VM_TESTS='t_18*' \
		VM_INSTANCE=full bash tests/vm/run.sh

# CPU ids past 255 (issue 34): Debian 13's 6.12 under Debian 13's QEMU (tests/vm/qemu-trixie.sh,
# made once in the cache), whose x86 TCG takes 257 vCPUs (x2APIC; IDs past 254 need interrupt
# remapping: the IOMMU with eim=on). maxcpus=2 brings up CPUs 0 and 1 only; t_16b_bigcpu brings
# CPU 256 online. The soft-lockup threshold is raised: writes to kernel text grow dear with the
# vCPUs (apparently QEMU visits each one per invalidation), and freeing init memory alone took
# 22 s with 260 of them. make test runs it as the lane vm-bigcpu: QEMU runs 85-196 s (host
# load 2-5).
.PHONY: vmtest-bigcpu vmtest-bigcpu-maps
vmtest-bigcpu: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_KERNEL=6.12 VM_QEMU=trixie VM_SMP=257 \
		VM_QEMU_ARGS='-M q35 -device intel-iommu,intremap=on,eim=on' \
		VM_APPEND='maxcpus=2 watchdog_thresh=60' VM_TESTS='t_16b*' VM_INSTANCE=bigcpu \
		bash tests/vm/run.sh

# The cheap fallback of the same check: Debian 12's 6.1 on the host's QEMU with 2 vCPUs booted
# with possible_cpus=300 (CPUs 2-299 possible, none present): t_16b checks only that lattop's
# per-CPU arrays cover 300 CPUs (6.12 ignores possible_cpus past the CPUs ACPI lists). ~20 s.
vmtest-bigcpu-maps: $(VM_DEPS)
	$(Q)OUTPUT=$(OUTPUT) VM_APPEND=possible_cpus=300 VM_TESTS='t_16b*' VM_INSTANCE=bigcpu \
		bash tests/vm/run.sh
