# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The VM benchmark (included by the Makefile after tests/vm/vm.mk): `make vmbench` boots the stock Debian kernel of
# tests/vm with 4 vCPUs and compares observers of an empty XDP program in one boot (bench/README.md).
VMB_OUT := $(OUTPUT)/bench/vm
VMB_BPF := xdpbench_target xdpbench_probe

$(VMB_BPF:%=$(VMB_OUT)/%.bpf.o): $(VMB_OUT)/%.bpf.o: bench/vm/%.bpf.c bpf/hist_bucket.h $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp && rm -f $@.tmp

$(VMB_BPF:%=$(VMB_OUT)/%.skel.h): $(VMB_OUT)/%.skel.h: $(VMB_OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@

$(VMB_OUT)/xdpbench.o: bench/vm/xdpbench.c $(VMB_BPF:%=$(VMB_OUT)/%.skel.h)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) -I$(VMB_OUT) $(CFLAGS) -c $< -o $@

$(VMB_OUT)/xdpbench: $(VMB_OUT)/xdpbench.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(shell $(PKG_CONFIG) --libs libbpf) -lpthread

# Everything tests/vm/bins.txt lists is built as for vmtest (run.sh copies it all).
vmbench: lattop $(VM_BINS) $(VM_PLAIN_BINS) $(OUTPUT)/tests/host/target $(VMB_OUT)/xdpbench
	$(Q)OUTPUT=$(OUTPUT) bash bench/vm/run.sh

# The scale benchmark (issue 32): VMB_SCALE_N (1000) programs every one probed, against 10, in
# one boot (bench/vm/guest/x_vmscale.sh); VM_TEST_TIMEOUT 7200 s: under TCG each attach loads a
# probe copy through the verifier.
vmbench-scale: lattop $(VM_BINS) $(VM_PLAIN_BINS) $(OUTPUT)/tests/host/target $(OUTPUT)/tests/host/many $(VMB_OUT)/xdpbench
	$(Q)OUTPUT=$(OUTPUT) VMB_SCALE=1 VM_TEST_TIMEOUT=$${VM_TEST_TIMEOUT:-7200} bash bench/vm/run.sh
