# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# lattop - one GNU Makefile. `make V=1` shows commands; `make OUTPUT=dir` builds out of tree;
# `make ARCH=arm64` cross-builds for arm64 (into .output-arm64, see "Cross builds" below).

# The kernel's name of the architecture the build runs on, and the one lattop is built for
# (the command line's ARCH=; one from the environment is ignored: kernel builds export theirs).
HOST_ARCH := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/;s/ppc64le/powerpc/')
ifneq ($(origin ARCH),command line)
ARCH := $(HOST_ARCH)
endif
ifneq ($(ARCH),$(HOST_ARCH))
CROSS := $(ARCH)
OUTPUT ?= .output-$(ARCH)
else
CROSS :=
endif
OUTPUT ?= .output
PREFIX ?= /usr/local
DESTDIR ?=
CLANG ?= clang
BPFTOOL ?= bpftool
CC ?= cc
PKG_CONFIG ?= pkg-config
# Cross builds (ARCH=arm64 on another machine): the target's compiler, and pkg-config reading
# the target's multiarch .pc files (make deps-arm64 installs both and the arm64 libraries).
# Whatever the command line gives wins (dh_auto_build passes CC and PKG_CONFIG when it
# cross-builds the package). What runs during the build runs on this machine: clang, bpftool
# and protoc-c are this machine's, and mkcomp, which prints the shell completions, comes from
# the native build in HOST_OUTPUT (see the completions below).
ifneq ($(CROSS),)
ifneq ($(CROSS),arm64)
$(error ARCH=$(ARCH): the only cross build is ARCH=arm64)
endif
CROSS_TRIPLET := aarch64-linux-gnu
ifneq ($(origin CC),command line)
CC := $(CROSS_TRIPLET)-gcc
endif
ifneq ($(origin PKG_CONFIG),command line)
PKG_CONFIG := PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLET)/pkgconfig:/usr/share/pkgconfig pkg-config
endif
HOST_OUTPUT ?= .output
ifeq ($(abspath $(HOST_OUTPUT)),$(abspath $(OUTPUT)))
$(error ARCH=$(ARCH) builds into $(OUTPUT), which HOST_OUTPUT (the native build) names too)
endif
endif
# Generated from the running kernel's BTF unless given (VMLINUX_H=path).
VMLINUX_H ?= $(OUTPUT)/vmlinux.h
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux
# The Prometheus data model, io/prometheus/client/metrics.proto, from Debian's
# golang-github-prometheus-client-model-dev (PROM_PROTO_DIR holds the io/ tree), and the
# google/protobuf/timestamp.proto it imports, from libprotobuf-dev (PROTO_INCLUDE holds the
# google/ tree). protoc-c turns them into C in $(OUTPUT)/proto; nothing generated is committed.
PROTOC_C ?= protoc-c
PROM_PROTO_DIR ?= /usr/share/gocode/src/github.com/prometheus/client_model
PROTO_INCLUDE ?= /usr/include
# SAN=address,undefined or SAN=thread builds a sanitizer variant (use its own OUTPUT).
SAN ?=

# ccache where the tests' cache is given (LATTOP_TEST_CACHE; .ci/run sets /var/cache/lattop-tests)
# and ccache is installed (make deps): every compile of a test run (the build, the sanitizer and
# fuzz builds, the VM fixtures, the package) is looked up there first, keyed by the sources and
# flags but not by the directory, so a CI run in a new clone on a machine that kept its caches
# compiles only what changed.
ifneq ($(LATTOP_TEST_CACHE),)
CCACHE := $(shell command -v ccache 2>/dev/null)
ifneq ($(CCACHE),)
ifeq ($(findstring ccache,$(CC)),)
export CCACHE_DIR := $(LATTOP_TEST_CACHE)/ccache
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
override CC := $(CCACHE) $(CC)
override CLANG := $(CCACHE) $(CLANG)
override FUZZ_CC := $(CCACHE) $(or $(FUZZ_CC),clang)
endif
endif
endif

PKGS := libbpf ncursesw libcjson libmicrohttpd libprotobuf-c
# The version has one home, debian/changelog's first line ("lattop (VERSION) ..."): the package
# and the binary cannot disagree.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

WARN := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wformat-signedness
CFLAGS ?= -O2 -g
override CFLAGS += $(WARN) -std=gnu11 -pthread -MMD -MP
override CPPFLAGS += -D_GNU_SOURCE -DLATTOP_VERSION='"$(VERSION)"' -Ibpf -I$(OUTPUT) -Isrc \
	-I$(OUTPUT)/proto \
	-DLATTOP_THEME_DIR='"$(PREFIX)/share/lattop/themes"' \
	$(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LDLIBS += $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lz -lpthread -lm
ifneq ($(SAN),)
override CFLAGS += -fsanitize=$(SAN) -fno-omit-frame-pointer -O1
override LDFLAGS += -fsanitize=$(SAN)
endif

BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Wall -Wno-unused-function \
	-I$(OUTPUT) -Ibpf

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/bpf/%.bpf.o,$(BPF_SRCS))
# Objects built a second time for kernels before 5.12 (LAT_COMPAT: no compare-and-swap nor
# fetching atomics, no bpf_loop; bpf/agg.bpf.h): user space opens that build's ELF with the first
# build's skeleton (collect/compat.h), so both must keep the same maps, programs and variables.
COMPAT_BPF := progtrace helpertrace target
SKELS := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS)) \
	$(patsubst %,$(OUTPUT)/%_compat.skel.h,$(COMPAT_BPF))

# Everything in src/ except main.c goes into a library the tests link too.
LIB_SRCS := $(filter-out src/main.c,$(wildcard src/*.c src/*/*.c src/*/*/*.c))
PROTO_GEN := $(OUTPUT)/proto/io/prometheus/client/metrics.pb-c \
	$(OUTPUT)/proto/google/protobuf/timestamp.pb-c
PROTO_STAMP := $(OUTPUT)/proto/.generated
PROTO_OBJS := $(addsuffix .o,$(PROTO_GEN))
LIB_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,$(LIB_SRCS)) $(PROTO_OBJS)
LIB := $(OUTPUT)/liblattop.a
MAIN_OBJ := $(OUTPUT)/src/main.o

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUTPUT)/tests/%,$(UNIT_SRCS))
HOST_SRCS := $(wildcard tests/host/*.c)
HOST_BINS := $(patsubst tests/host/%.c,$(OUTPUT)/tests/host/%,$(HOST_SRCS))
# LD_PRELOAD shims the UI tests run lattop with.
UI_SHIMS := $(patsubst tests/ui/%.c,$(OUTPUT)/tests/ui/%.so,$(wildcard tests/ui/*.c))

.DELETE_ON_ERROR:
.SECONDARY:
.PHONY: all test unit install uninstall clean format bench fuzz vmtest vmtest-rt vmtest-510 vmtest-619 vmtest-612 vmtest-612-rt vmtest-612-full vmtest-bins vmtest-uevents vmbench vmbench-scale deps
.PHONY: completions deb test-trixie mixin image deps-arm64 vmtest-arm64 vmtest-bins-arm64

# A native build also leaves ./lattop in the tree, for the tests and for trying it out; a cross
# build leaves its binary in $(OUTPUT) alone, so ./lattop stays this machine's.
ifeq ($(CROSS),)
BIN := lattop
else
BIN := $(OUTPUT)/lattop
endif
all: $(BIN) completions

# Copy then rename: a running ./lattop keeps its old inode instead of failing the build.
lattop: $(OUTPUT)/lattop
	$(Q)cp $< $@.tmp && mv -f $@.tmp $@

$(OUTPUT)/lattop: $(MAIN_OBJ) $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(OUTPUT)/vmlinux.h: $(if $(filter arm64,$(ARCH)),bpf/arm64_regs.h)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@
ifeq ($(ARCH),arm64)
	$(Q)grep -q '^struct user_pt_regs {' $@ || cat bpf/arm64_regs.h >> $@
endif

$(OUTPUT)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp && rm -f $@.tmp

$(OUTPUT)/bpf/%_compat.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(VMLINUX_H)
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -DLAT_COMPAT -c $< -o $@.tmp
	$(Q)$(BPFTOOL) gen object $@ $@.tmp && rm -f $@.tmp

$(OUTPUT)/%.skel.h: $(OUTPUT)/bpf/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@

# $(call compat_skel,NAME,SKEL): the compat build's skeleton ($< into $@, named NAME_compat_bpf),
# and a check that its declarations (maps, programs, the layout of every variable section) are
# those of the first build's skeleton SKEL, which opens it (collect/compat.h).
define compat_skel
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(1)_compat_bpf > $@.tmp
	$(Q)sed -n '/^struct $(1)_bpf {/,/^};/p' $(2) > $@.a
	$(Q)sed -n '/^struct $(1)_compat_bpf {/,/^};/p' $@.tmp | sed 's/$(1)_compat_bpf/$(1)_bpf/g' > $@.b
	$(Q)cmp -s $@.a $@.b || { echo "$@: the LAT_COMPAT build declares other maps, programs or variables than $(2):"; \
		diff $@.a $@.b; rm -f $@.a $@.b $@.tmp; exit 1; }
	$(Q)rm -f $@.a $@.b && mv $@.tmp $@
endef

$(OUTPUT)/%_compat.skel.h: $(OUTPUT)/bpf/%_compat.bpf.o $(OUTPUT)/%.skel.h
	$(call compat_skel,$*,$(OUTPUT)/$*.skel.h)

# Skeletons and the protobuf-c code must exist before any C file that may include them is
# compiled the first time; -MMD then tracks the real dependencies.
$(LIB_OBJS) $(MAIN_OBJ) $(patsubst %.c,$(OUTPUT)/%.o,$(UNIT_SRCS) $(HOST_SRCS) \
	$(wildcard bench/*.c) tools/mkcomp.c): | $(SKELS) $(PROTO_STAMP)

$(PROTO_STAMP): $(PROM_PROTO_DIR)/io/prometheus/client/metrics.proto \
		$(PROTO_INCLUDE)/google/protobuf/timestamp.proto
	$(call msg,PROTOC-C,$(OUTPUT)/proto)
	$(Q)mkdir -p $(OUTPUT)/proto
	$(Q)$(PROTOC_C) --c_out=$(OUTPUT)/proto -I$(PROM_PROTO_DIR) -I$(PROTO_INCLUDE) $^
	$(Q)touch $@

$(addsuffix .c,$(PROTO_GEN)) $(addsuffix .h,$(PROTO_GEN)): $(PROTO_STAMP)
	@:

# Only reached when a .proto is missing: say which package (or variable) provides it.
$(PROM_PROTO_DIR)/io/prometheus/client/metrics.proto:
	@echo "$@ not found: install golang-github-prometheus-client-model-dev (make deps) or set PROM_PROTO_DIR" >&2; exit 1
$(PROTO_INCLUDE)/google/protobuf/timestamp.proto:
	@echo "$@ not found: install libprotobuf-dev (make deps) or set PROTO_INCLUDE" >&2; exit 1

# Generated code: compiled without lattop's own warning set.
$(PROTO_OBJS): %.o: %.c $(PROTO_STAMP)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) -O2 -g -MMD -MP -c $< -o $@

$(OUTPUT)/%.o: %.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(OUTPUT)/tests/%: $(OUTPUT)/tests/unit/%.o $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OUTPUT)/tests/host/%: $(OUTPUT)/tests/host/%.o $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Shell completion, printed by tools/mkcomp from the option table that drives --help.
COMPLETIONS := $(OUTPUT)/completion/lattop.bash $(OUTPUT)/completion/_lattop
completions: $(COMPLETIONS)

$(OUTPUT)/tools/mkcomp: $(OUTPUT)/tools/mkcomp.o $(LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# mkcomp runs here, so a cross build takes this machine's: the native build's in HOST_OUTPUT
# (.output: nothing more to build after a plain `make`), made by a make of its own with this
# machine's compiler and flags (not the target's, which dpkg-buildflags may have exported).
ifeq ($(CROSS),)
MKCOMP := $(OUTPUT)/tools/mkcomp
else
MKCOMP := $(HOST_OUTPUT)/tools/mkcomp
# FORCE: the native make decides whether mkcomp is out of date, every time.
FORCE:
$(MKCOMP): FORCE
	$(Q)$(MAKE) --no-print-directory ARCH=$(HOST_ARCH) OUTPUT=$(HOST_OUTPUT) CC=cc \
		PKG_CONFIG=pkg-config CFLAGS='-O2 -g' CPPFLAGS= LDFLAGS= SAN= \
		VMLINUX_H=$(HOST_OUTPUT)/vmlinux.h $@
endif

$(OUTPUT)/completion/lattop.bash: $(MKCOMP)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$< bash > $@

$(OUTPUT)/completion/_lattop: $(MKCOMP)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$< zsh > $@

$(OUTPUT)/tests/ui/%.so: tests/ui/%.c
	$(call msg,SHIM,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -shared -fPIC -O2 -Wall -o $@ $< -ldl

unit: $(UNIT_BINS) $(HOST_BINS) $(UI_SHIMS)

# The whole suite: unit, sanitizers, host BPF, tmux UI and (when qemu is usable) the VM.
# completions first too: the arm64 build's test runs this build's mkcomp beside suites that
# make install, so it must exist before they start.
test: lattop unit completions
	$(Q)OUTPUT=$(OUTPUT) MAKE="$(MAKE)" bash tests/run.sh

# The systemd unit goes under the prefix's lib/systemd/system (/usr/local/lib/systemd/system
# is on systemd's search path), naming the installed binary; SYSTEMD_UNIT_DIR= (empty) installs
# none (the Debian package installs it with dh_installsystemd).
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
# /usr/local/share/zsh/site-functions is on zsh's default fpath; Debian's package uses
# vendor-completions.
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/site-functions

install: $(BIN) completions
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/sbin/lattop
	install -D -m 0644 man/lattop.8 $(DESTDIR)$(PREFIX)/share/man/man8/lattop.8
	$(if $(SYSTEMD_UNIT_DIR),install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR))
	$(if $(SYSTEMD_UNIT_DIR),sed 's|@SBINDIR@|$(PREFIX)/sbin|g' systemd/lattop.service.in > \
		$(DESTDIR)$(SYSTEMD_UNIT_DIR)/lattop.service)
	$(if $(SYSTEMD_UNIT_DIR),chmod 0644 $(DESTDIR)$(SYSTEMD_UNIT_DIR)/lattop.service)
	install -D -m 0644 $(OUTPUT)/completion/lattop.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/lattop
	install -D -m 0644 $(OUTPUT)/completion/_lattop $(DESTDIR)$(ZSH_COMPLETION_DIR)/_lattop
	$(if $(wildcard themes/*.json),install -d $(DESTDIR)$(PREFIX)/share/lattop/themes)
	$(if $(wildcard themes/*.json),install -m 0644 themes/*.json $(DESTDIR)$(PREFIX)/share/lattop/themes/)
	$(if $(wildcard spans/*.json),install -d $(DESTDIR)$(PREFIX)/share/lattop/spans)
	$(if $(wildcard spans/*.json),install -m 0644 spans/*.json $(DESTDIR)$(PREFIX)/share/lattop/spans/)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/sbin/lattop $(DESTDIR)$(PREFIX)/share/man/man8/lattop.8
	$(if $(SYSTEMD_UNIT_DIR),rm -f $(DESTDIR)$(SYSTEMD_UNIT_DIR)/lattop.service)
	rm -f $(DESTDIR)$(BASH_COMPLETION_DIR)/lattop $(DESTDIR)$(ZSH_COMPLETION_DIR)/_lattop
	rm -rf $(DESTDIR)$(PREFIX)/share/lattop

clean:
	rm -rf $(OUTPUT) lattop

# The Debian package, built with dpkg-buildpackage from a copy of the tracked files (so the
# tree's own build stays as it is) into $(OUTPUT)/deb/lattop_$(VERSION)_<arch>.deb. With
# ARCH=arm64 it is cross-built (dpkg-buildpackage -aarm64; make deps-arm64 installs what that
# needs) into .output-arm64/deb/lattop_$(VERSION)_arm64.deb.
# The suite cannot run on the build machine (nor needs root's BPF there): nocheck, which also
# spares dh its warning about tests in a cross build.
DEB_ARCH_OPT := $(if $(CROSS),--host-arch $(CROSS))
DEB_ENV := $(if $(CROSS),DEB_BUILD_OPTIONS="nocheck $${DEB_BUILD_OPTIONS:-}")
deb:
	rm -rf $(OUTPUT)/deb && mkdir -p $(OUTPUT)/deb/lattop-$(VERSION)
	if git rev-parse --git-dir >/dev/null 2>&1; then \
		git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -; \
	else tar --exclude=./$(OUTPUT) --exclude=./lattop -cf - .; fi | \
		tar -C $(OUTPUT)/deb/lattop-$(VERSION) -xf -
	cd $(OUTPUT)/deb/lattop-$(VERSION) && env -u OUTPUT $(DEB_ENV) dpkg-buildpackage -us -uc -b -jauto $(DEB_ARCH_OPT)

# The monitoring mixin (mixin/): alerts.yaml and rules.yaml for Prometheus' rule_files and
# lattop.json for Grafana, written by jsonnet into $(OUTPUT)/mixin (generated, not committed).
# MIXIN=file.jsonnet writes one of your own: (import 'mixin/mixin.libsonnet') + { _config+:: {...} }.
MIXIN ?= mixin/mixin.libsonnet
JSONNET ?= jsonnet
mixin:
	$(call msg,JSONNET,$(OUTPUT)/mixin)
	$(Q)rm -rf $(OUTPUT)/mixin && mkdir -p $(OUTPUT)/mixin
	$(Q)$(JSONNET) -S -m $(OUTPUT)/mixin -J . --ext-code-file mixin=$(MIXIN) mixin/build.jsonnet >/dev/null

# The container image (image/): a root file system tarball from the .deb above on a Debian 12
# base made by mmdebstrap (cached, see tests/distro/chroot.sh), then, where podman is
# installed, imported as $(IMAGE). No registry is involved.
IMAGE ?= localhost/lattop:$(VERSION)
IMAGE_TAR ?= $(OUTPUT)/image/lattop-rootfs.tar
image: deb
	$(Q)mkdir -p $(dir $(IMAGE_TAR))
	$(Q)bash image/build-rootfs.sh $(OUTPUT)/deb/lattop_$(VERSION)_$$(dpkg --print-architecture).deb $(IMAGE_TAR)
	$(Q)if command -v podman >/dev/null; then bash image/import.sh $(IMAGE_TAR) $(IMAGE); \
	else echo "podman is not installed: $(IMAGE_TAR) is the image's root file system"; fi

format:
	clang-format -i $(wildcard bpf/*.c bpf/*.h src/*.c src/*/*.c src/*/*/*.c src/*/*.h src/*/*/*.h tests/*/*.c tests/*/*.h)

# Debian packages the build and the tests need; installs only what is missing. (flex, bison,
# bc and dwarves build the user_events test kernel; cmake and g++ the EventHeader reference;
# aha turns the README picture's tmux capture into HTML: tools/screenshot.sh; jsonnet,
# python3-yaml, podman and systemd-container make and test the mixin and the image: t_fleet*;
# xdp-tools' xdp-filter, xdp-loader and libxdp's BPF objects go into the VM image for t_24.)
DEPS := ccache clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev libncurses-dev libcjson-dev \
	pkg-config make gcc tmux groff-base man-db qemu-system-x86 busybox-static cpio kmod \
	libclang-rt-dev procps iproute2 python3 util-linux libmicrohttpd-dev libprotobuf-c-dev \
	protobuf-c-compiler libprotobuf-dev golang-github-prometheus-client-model-dev prometheus curl \
	chromium build-essential dpkg-dev debhelper lintian mmdebstrap zsh \
	flex bison bc dwarves cmake g++ aha jsonnet python3-yaml podman systemd-container xdp-tools
# $(call apt_missing,PACKAGES,WHAT): install those of PACKAGES not installed yet.
define apt_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing:" $$missing; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else echo "all $(2) are installed"; fi
endef
deps:
	$(call apt_missing,$(DEPS),build and test dependencies)

# What make ARCH=arm64 and make deb ARCH=arm64 need besides DEPS: the cross compiler, and the
# arm64 builds of the libraries lattop links (Multi-Arch: same, so they sit beside the amd64
# ones) with pkgconf's arm64 wrapper, which dh_auto_build calls. dpkg learns the arm64
# architecture first (and apt its package lists) where it does not know it yet.
# qemu-system-arm boots the arm64 kernel of make vmtest-arm64, whose guest user space
# (busybox-static, bpftool, tmux, xdp-tools) tests/vm/run.sh downloads as arm64 packages
# without installing them (busybox-static:arm64 would replace the host's busybox-static).
DEPS_ARM64 := gcc-aarch64-linux-gnu libc6-dev:arm64 pkgconf:arm64 libbpf-dev:arm64 \
	libelf-dev:arm64 zlib1g-dev:arm64 libncurses-dev:arm64 libcjson-dev:arm64 \
	libmicrohttpd-dev:arm64 libprotobuf-c-dev:arm64 qemu-system-arm
deps-arm64:
	@dpkg --print-foreign-architectures | grep -qx arm64 || { echo "adding the arm64 architecture"; \
		dpkg --add-architecture arm64 && apt-get update -qq; }
	$(call apt_missing,$(DEPS_ARM64),arm64 cross-build dependencies)

# The README's install path and the unit and host suites in a fresh Debian 13 chroot (root,
# mmdebstrap; tests/distro/t_trixie.sh). DISTRO_SUITE=bookworm does the same on Debian 12.
test-trixie:
	$(Q)OUTPUT=$(OUTPUT) bash tests/distro/t_trixie.sh

-include bench/bench.mk
-include tests/vm/vm.mk
# After vm.mk: the VM benchmark boots the same image, so it needs the VM fixtures too.
-include bench/vm/vmbench.mk
-include tests/fuzz/fuzz.mk
-include $(shell find $(OUTPUT) -name '*.d' 2>/dev/null)
