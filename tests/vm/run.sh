#!/usr/bin/env bash
# lattop VM tests: boot a stock Debian kernel (6.1 or 6.12) under QEMU (TCG, never KVM) with an
# initramfs holding busybox, the binaries of bins.txt, the modules of modules.txt and the
# guest tests (guest/t_*.sh), then report their "PASS vm/..." / "FAIL vm/..." lines and end
# with "vm: N passed, M failed". When VM_TESTS names x_61_fleet, the guest also gets a NIC with
# two forwarded ports and tests/vm/fleet.sh runs beside the boot (a Prometheus scraping it).
# See tests/vm/README.md.
#
# Environment: OUTPUT (build dir, .output), VM_REQUIRED=1 (a missing tool fails instead of
# skipping), VM_TIMEOUT (whole boot, 1800 s per repetition: a guard against a hung guest, not a
# speed target; a whole 6.12 run took ~770 s at host load 2-7 on 2 CPUs), VM_IDLE_TIMEOUT (a guest
# that prints no result line for this long is hung: 2 x VM_TEST_TIMEOUT + 60 s),
# VM_TEST_TIMEOUT (each guest test, 300 s; the three 3 times as long on arm64),
# VM_TESTS (globs of guest test names to run, e.g.
# 't_01*'), VM_REPEAT (run the selected tests N times in one boot, 1), VM_KERNEL (5.10, 6.1,
# 6.1-rt, 6.12, 6.12-rt, 6.12-arm64 or 6.19: Debian 11's kernel, or Debian 12's or 13's,
# standard or PREEMPT_RT, Debian 13's arm64 kernel (under qemu-system-aarch64, with OUTPUT's
# binaries cross-built: make vmtest-arm64), or the newest 6.19 of trixie-backports; 6.1),
# VM_KERNEL_META (the
# meta package naming the kernel: linux-image-amd64, or linux-image-rt-amd64 for the -rt ones),
# VM_KERNEL_PKG (a kernel package instead), VM_APT_SUITE (the Debian suite to fetch it from with
# a sources list kept in the cache: trixie for 6.12, bullseye for 5.10, trixie-backports for
# 6.19; empty for the host's own apt sources, as
# for 6.1), VM_APT_URI (that list's mirror: the host's Debian mirror), VM_VERBOSE=1 (print the
# whole console), VM_INSTANCE (a name that lets a second run of the same kernel boot beside the
# first), VM_SMP (vCPUs, 2), VM_GUEST_EXTRA (a directory whose guest tests go to /tests too), VM_BINS_EXTRA (a
# second bins list), VM_RESULTS_OUT (a file to copy the results log to, for callers that read
# more than the PASS/FAIL lines, e.g. bench/vm/run.sh), VM_TCG_THREAD (single, the default: one
# host thread runs all vCPUs in turn; multi: QEMU's one thread per vCPU, which can leave a vCPU
# looping on a stale int3 after a trampoline is patched in, tests/vm/README.md), VM_ICOUNT (a
# shift N: QEMU's -icount, the guest clock advancing 2^N ns per instruction executed, so that
# guest time measures instructions; single-threaded TCG only), LATTOP_TEST_CACHE (where the
# kernels and apt lists are kept: tests/vm/.cache; a directory outside the clone lets fresh
# clones and several worktrees share the downloads; the runs themselves stay in the clone's).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTPUT=${OUTPUT:-.output}
VM=tests/vm
# CACHE: the downloads (kernels, apt lists), maybe shared between clones; RUNS: this clone's
# runs (images, consoles, hang logs).
CACHE=${LATTOP_TEST_CACHE:-$VM/.cache}
[[ $CACHE == /* ]] || CACHE=$PWD/$CACHE
RUNS=$PWD/$VM/.cache/run
VM_REPEAT=${VM_REPEAT:-1}
# TCG runs an arm64 guest ~3 times slower than an x86 one (t_10: 281 s against 85 s): its
# default timeouts are 3 times as long.
SLOW=1
[[ ${VM_KERNEL:-} != *-arm64 ]] || SLOW=3
VM_TEST_TIMEOUT=${VM_TEST_TIMEOUT:-$((300 * SLOW))}
VM_SMP=${VM_SMP:-2}
[[ $VM_SMP =~ ^[1-9][0-9]*$ ]] || {
	echo "FAIL vm/setup: VM_SMP must be a positive number of vCPUs, not '$VM_SMP'"
	echo "vm: 0 passed, 1 failed"
	echo "END vm 1"
	exit 1
}
[[ $VM_REPEAT =~ ^[1-9][0-9]*$ ]] || {
	echo "FAIL vm/setup: VM_REPEAT must be a positive number of repetitions, not '$VM_REPEAT'"
	echo "vm: 0 passed, 1 failed"
	echo "END vm 1"
	exit 1
}
VM_TIMEOUT=${VM_TIMEOUT:-$((1800 * SLOW * VM_REPEAT))}
VM_IDLE_TIMEOUT=${VM_IDLE_TIMEOUT:-$((2 * VM_TEST_TIMEOUT + 60))}
# The fleet test (guest/x_61_fleet.sh) needs a side on this host (tests/vm/fleet.sh, a real
# Prometheus scraping the guest through a NIC with forwarded ports): on when VM_TESTS names it.
FLEET=
read -ra globs <<<"${VM_TESTS:-t_*}"
for g in "${globs[@]}"; do
	# shellcheck disable=SC2053 # $g is a pattern on purpose
	[[ x_61_fleet == $g ]] && FLEET=on
done

# Stop here without failing (or failing, with VM_REQUIRED=1) when the host cannot run the VM.
skip() {
	if [ "${VM_REQUIRED:-0}" = 1 ]; then
		echo "FAIL vm/setup: $1 (VM_REQUIRED=1)"
		echo "vm: 0 passed, 1 failed"
		echo "END vm 1"
		exit 1
	fi
	echo "SKIP vm: $1"
	echo "END vm 1"
	exit 0
}

# Stop on a harness or configuration error: one FAIL line and the summary.
die() {
	echo "FAIL vm/setup: $1"
	echo "vm: 0 passed, 1 failed"
	echo "END vm 1"
	exit 1
}

# The non-comment, non-blank lines of a list file, trimmed.
list() {
	[ -f "$1" ] || return 0
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

# A list path with $OUTPUT / ${OUTPUT} replaced by the build directory.
expand() {
	local s=$1
	s=${s//'${OUTPUT}'/$OUTPUT}
	printf '%s' "${s//'$OUTPUT'/$OUTPUT}"
}

# Copy a file to the same path inside the image (following symlinks).
copy_abs() {
	mkdir -p "$ROOT$(dirname "$1")"
	cp -L "$1" "$ROOT$1"
}

# Copy the shared libraries and the loader a dynamic binary needs, at their host paths.
copy_libs() {
	[ "$GUEST" = amd64 ] || { copy_libs_elf "$1"; return; }
	local deps
	deps=$(ldd "$1" 2>/dev/null) || return 0 # static: nothing to copy
	if grep -q 'not found' <<<"$deps"; then
		die "$1 needs libraries ldd cannot find: $(grep 'not found' <<<"$deps" | xargs)"
	fi
	for lib in $(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' <<<"$deps"); do
		[ -e "$ROOT$lib" ] || copy_abs "$lib"
	done
}

# Kernel: VM_KERNEL names Debian's generation and flavour: 6.1 (Debian 12, the default),
# 6.1-rt, 6.12 (Debian 13, from the trixie suite), 6.12-rt, 5.10 (Debian 11, from bullseye),
# 6.19 (from trixie-backports). It sets the defaults of VM_KERNEL_META (the meta package naming
# the kernel) and VM_APT_SUITE (empty: the host's apt sources; a suite name: a sources list of
# its own in the cache, see apt_run). SERIES: a kernel generation the meta package no longer
# names (trixie-backports' linux-image-amd64 moved on to 7.x): the newest package of it instead.
VM_KERNEL=${VM_KERNEL:-6.1}
SERIES=
GUEST=amd64
case $VM_KERNEL in
6.1) def_meta=linux-image-amd64 def_suite= ;;
6.1-rt) def_meta=linux-image-rt-amd64 def_suite= ;;
6.12) def_meta=linux-image-amd64 def_suite=trixie ;;
6.12-rt) def_meta=linux-image-rt-amd64 def_suite=trixie ;;
5.10) def_meta=linux-image-amd64 def_suite=bullseye ;;
6.19) def_meta=linux-image-amd64 def_suite=trixie-backports SERIES=6.19 ;;
6.12-arm64) def_meta=linux-image-arm64 def_suite=trixie GUEST=arm64 ;;
*) die "VM_KERNEL must be 5.10, 6.1, 6.1-rt, 6.12, 6.12-rt, 6.12-arm64 or 6.19, not '$VM_KERNEL'" ;;
esac
# GUEST: the guest's Debian architecture. An arm64 guest boots under qemu-system-aarch64 and
# takes its user space from arm64 packages (see guest_root below) and OUTPUT's cross-built
# binaries; its shared libraries are found by reading the ELF files (host ldd cannot run them).
SFX= # the suffix of what is the arm64 guest's own (apt lists, modules list)
[ "$GUEST" = amd64 ] || SFX=-$GUEST
if [ "$GUEST" = arm64 ]; then
	QEMU=qemu-system-aarch64 QEMU_PKG=qemu-system-arm TRIPLET=aarch64-linux-gnu
else
	QEMU=qemu-system-x86_64 QEMU_PKG=qemu-system-x86 TRIPLET=x86_64-linux-gnu
fi
VM_META=${VM_KERNEL_META:-$def_meta}
SUITE=${VM_APT_SUITE-$def_suite}
[[ $SUITE =~ ^[a-z0-9-]*$ ]] || die "VM_APT_SUITE must be a Debian suite name, not '$SUITE'"

# Another architecture's binary: ldd cannot run its loader, so its DT_NEEDED entries (and theirs)
# are resolved in the guest's library directories, first in the packages guest_root unpacked
# ($UROOT), then in the host's multiarch ones (the arm64 libraries make deps-arm64 installs);
# each library lands at the path it has there, and the loader at the binary's PT_INTERP path.
copy_libs_elf() {
	local interp lib dir found
	# (a static binary has neither; a library has no loader of its own)
	interp=$(readelf -l "$1" 2>/dev/null | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	if [ -n "$interp" ] && [ ! -e "$ROOT$interp" ]; then
		mkdir -p "$ROOT$(dirname "$interp")"
		cp -L "$interp" "$ROOT$interp" 2>/dev/null || cp -L "/usr/$TRIPLET$interp" "$ROOT$interp" ||
			die "$1: no loader $interp for $GUEST"
	fi
	for lib in $(readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		[ -e "$ROOT/lib/$TRIPLET/$lib" ] || [ -e "$ROOT/usr/lib/$TRIPLET/$lib" ] && continue
		found=
		for dir in "$UROOT/usr/lib/$TRIPLET" "$UROOT/lib/$TRIPLET" "/usr/lib/$TRIPLET" "/lib/$TRIPLET"; do
			[ -e "$dir/$lib" ] && found=$dir/$lib && break
		done
		[ -n "$found" ] || die "$1 needs $lib, found in no $TRIPLET library directory (make deps-arm64)"
		dir=/lib/$TRIPLET
		[[ $found == */usr/lib/* ]] && dir=/usr/lib/$TRIPLET
		mkdir -p "$ROOT$dir"
		cp -L "$found" "$ROOT$dir/$lib"
		copy_libs_elf "$found"
	done
}

# Host tools: qemu with TCG first, then what builds the image.
# VM_QEMU: which QEMU boots the guest: the host's (empty, the default: $QEMU), or trixie
# (Debian 13's QEMU 10 in a root kept in the cache, made on first use by
# tests/vm/qemu-trixie.sh: its x86 TCG takes more than 255 vCPUs, which Debian 12's 7.2 refuses).
# VM_QEMU_ARGS: more QEMU arguments, split at spaces (the machine and devices, e.g.
# '-M q35 -device intel-iommu,intremap=on,eim=on' for `make vmtest-bigcpu`).
case ${VM_QEMU:-} in
'') QEMU_CMD=("$QEMU")
	command -v $QEMU >/dev/null || skip "$QEMU is not installed (apt-get install $QEMU_PKG)" ;;
trixie) [ "$GUEST" = amd64 ] || die "VM_QEMU=trixie boots x86-64 guests only"
	QEMU_CMD=(bash "$VM/qemu-trixie.sh")
	bash "$VM/qemu-trixie.sh" --ensure >&2 ||
		skip "Debian 13's QEMU could not be set up (tests/vm/qemu-trixie.sh; mmdebstrap, mirror)" ;;
*) die "VM_QEMU must be empty (the host's QEMU) or trixie, not '$VM_QEMU'" ;;
esac
[[ ${VM_QEMU_ARGS:-} =~ ^[A-Za-z0-9_.,=:/\ -]*$ ]] ||
	die "VM_QEMU_ARGS must be QEMU arguments (letters, digits, _.,=:/- and spaces), not '$VM_QEMU_ARGS'"
read -ra QEMU_ARGS <<<"${VM_QEMU_ARGS:-}"
"${QEMU_CMD[@]}" -accel help 2>/dev/null | grep -qx tcg || skip "${QEMU_CMD[*]} has no TCG accelerator"
for tool in cpio gzip dpkg mkfifo stat timeout; do
	command -v $tool >/dev/null || skip "$tool is not installed"
done
if [ "$GUEST" = amd64 ]; then
	BUSYBOX=$(command -v busybox || true)
	[ -n "$BUSYBOX" ] && ! ldd "$BUSYBOX" >/dev/null 2>&1 ||
		skip "no static busybox (apt-get install busybox-static)"
else
	command -v readelf >/dev/null || skip "readelf is not installed (apt-get install binutils)"
	[ -f "$OUTPUT/lattop" ] && readelf -h "$OUTPUT/lattop" 2>/dev/null | grep -q AArch64 ||
		die "$OUTPUT/lattop is not an arm64 build (make vmtest-arm64 cross-builds it)"
fi
# (no PVH entry on arm64: QEMU boots its Image directly)
[ "$GUEST" = amd64 ] || VM_PVH=0
mkdir -p "$CACHE"
# (an arm64 suite keeps lists of its own: apt-get update on the amd64 ones would drop them)
APTDIR=$CACHE/apt-$SUITE$SFX
APT_ARCH=()
[ "$GUEST" = amd64 ] || APT_ARCH=(-o APT::Architecture="$GUEST" -o APT::Architectures="$GUEST")

# The Debian mirror the host's apt uses (its deb822 or one-line sources), for a suite of our own.
mirror() {
	local uri
	uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
		tr ' ' '\n' | grep -v -e security -e '^$' | head -n 1 || true)
	[ -n "$uri" ] || uri=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^ ]*\) .*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1 || true)
	echo "${uri:-http://deb.debian.org/debian}"
}

# apt_run CMD ARGS...: apt-get or apt-cache on the host's sources, or, with a suite, on a sources
# list, package lists and cache kept in $APTDIR (the machine's apt setup is not touched), one
# such command at a time per suite.
apt_run() {
	local cmd=$1; shift
	if [ -z "$SUITE" ]; then
		"$cmd" "$@"
		return
	fi
	mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
	[ -s "$APTDIR/sources.list" ] ||
		printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
			"${VM_APT_URI:-$(mirror)}" "$SUITE" >"$APTDIR/sources.list"
	(
		flock 8
		"$cmd" -o Dir::Etc::sourcelist="$APTDIR/sources.list" -o Dir::Etc::sourceparts=/dev/null \
			-o Dir::State::Lists="$APTDIR/lists" -o Dir::Cache="$APTDIR/cache" \
			-o APT::Sandbox::User=root "${APT_ARCH[@]}" "$@"
	) 8>"$APTDIR/lock"
}

# The kernel package the meta package $VM_META currently depends on, or with SERIES the newest
# linux-image-SERIES.N+... of the meta package's flavour (empty when apt knows none).
kernel_pkg() {
	if [ -n "$SERIES" ]; then
		apt_run apt-cache pkgnames "linux-image-$SERIES." 2>/dev/null |
			grep -E "^linux-image-${SERIES//./\\.}\.[0-9]+\+[a-z0-9]+-${VM_META#linux-image-}\$" |
			sort -V | tail -n 1 || true
		return
	fi
	apt_run apt-cache depends "$VM_META" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1 || true
}

# Fetch the packages a metadata-only kernel package (Debian's from 6.17: the bzImage is in
# linux-binary-*, the modules in linux-modules-*, modules.builtin in linux-base-*) depends on,
# into the current directory. A backports kernel superseded by a newer one keeps its
# linux-binary in the suite's index, but its linux-modules and linux-base (built from the source
# package linux, which moved on) drop out of it while the
# archive's pool still holds the file: that one comes from the pool, at the path the Debian
# archive gives a package of source linux (pool/main/l/linux/NAME_VERSION_amd64.deb).
split_debs() {
	local dep name ver
	for dep in $(dpkg-deb -f "$1" Depends | tr ',' '\n' |
		sed -n 's/^ *\(linux-\(binary\|modules\|base\)-[^ ]*\) (= \([^)]*\))$/\1=\3/p'); do
		name=${dep%%=*} ver=${dep#*=}
		ls "${name}"_*.deb >/dev/null 2>&1 && continue
		apt_run apt-get download -q -o APT::Sandbox::User=root "$dep" >&2 && continue
		command -v curl >/dev/null || return 1
		echo "vm: $name is not in ${SUITE:-the apt lists}; fetching it from the archive's pool" >&2
		curl -sSf -o "${name}_${ver}_$GUEST.deb.part" \
			"${VM_APT_URI:-$(mirror)}/pool/main/l/linux/${name}_${ver}_$GUEST.deb" &&
			mv "${name}_${ver}_$GUEST.deb.part" "${name}_${ver}_$GUEST.deb" || return 1
	done
}

# The generation and flavour of a kernel package, the key under which the cache keeps one
# kernel: linux-image-6.1.0-56-rt-amd64 -> 6.1-rt-amd64, linux-image-6.12.57+deb13-amd64 ->
# 6.12-amd64.
flavour() {
	sed -E 's/^linux-image-([0-9]+\.[0-9]+)[^-]*-([0-9]+-)?/\1-/' <<<"$1"
}

# Kernel: the stock Debian image $VM_META depends on, downloaded and extracted once into its
# own directory of the cache (kernels/PKG/kroot), so that runs on several kernels do not
# extract each other's. A .deb left at the top of the cache by the earlier one-kernel layout
# is reused.
# VM_KERNEL_IMAGE: a kernel image built elsewhere (tests/vm/build-uevents-kernel.sh), booted
# as it is, without modules; the Debian package steps below are skipped.
if [ -n "${VM_KERNEL_IMAGE:-}" ]; then
	[ -f "$VM_KERNEL_IMAGE" ] || die "VM_KERNEL_IMAGE $VM_KERNEL_IMAGE does not exist"
	pkg=image-$(basename "$VM_KERNEL_IMAGE" | tr -c 'A-Za-z0-9_.+~\n-' _)
else
pkg=${VM_KERNEL_PKG:-$(kernel_pkg)}
fi
if [ -z "$pkg" ] && command -v apt-get >/dev/null; then
	echo "vm: apt knows no $VM_META${SUITE:+ in $SUITE}; running apt-get update" >&2
	apt_run apt-get update -qq >&2 || true
	pkg=$(kernel_pkg)
fi
if [ -z "$pkg" ]; then
	# No apt lists: the newest kernel of that generation and flavour already in the cache.
	want=${VM_KERNEL%%-*}-${VM_META#linux-image-}
	for d in $(ls -d "$CACHE"/kernels/linux-image-* 2>/dev/null | sort -V); do
		[ -f "$d/kroot/.pkg" ] && [ "$(flavour "${d##*/}")" = "$want" ] && pkg=${d##*/}
	done
fi
[ -n "$pkg" ] || skip "no Debian kernel package for $VM_KERNEL found (apt knows no $VM_META${SUITE:+ in suite $SUITE at ${VM_APT_URI:-$(mirror)}})"
[ -n "${VM_KERNEL_IMAGE:-}" ] || [[ $pkg =~ ^linux-image-[0-9][a-z0-9.+~-]*$ ]] ||
	die "VM_KERNEL_PKG must name a linux-image package, not '$pkg'"

# One run at a time per kernel package (and VM_INSTANCE, a name for a second run of the same
# kernel): its image, console, results and monitor FIFOs live in run/PKG[-INSTANCE], so runs on
# different kernels boot side by side.
[[ ${VM_INSTANCE:-} =~ ^[A-Za-z0-9_-]*$ ]] || die "VM_INSTANCE must be letters, digits, - or _, not '$VM_INSTANCE'"
RUN=$RUNS/$pkg${VM_INSTANCE:+-$VM_INSTANCE}
ROOT=$RUN/initrd-root
CONSOLE=$RUN/console.log # the kernel's console (ttyS0)
RESULTS=$RUN/results.log # what /init and the tests print (ttyS1)
MONITOR=$RUN/monitor     # the QEMU monitor: FIFOs monitor.in and monitor.out
mkdir -p "$RUN"
exec 9>"$RUN/lock"
command -v flock >/dev/null && flock 9

KDIR=$CACHE/kernels/$pkg
KROOT=$KDIR/kroot
# The kernel's lock (beside its directory, in a cache other clones may share): held shared for
# the whole run, so that no other run removes the kernel while this one reads it (runs of the
# same kernel from two clones boot side by side); exclusive only while it is extracted and
# unpacked (the steps below check again what is there once they hold it).
mkdir -p "$CACHE/kernels"
exec 7>"$KDIR.lock"
if command -v flock >/dev/null; then
	flock -s 7
	if [ -z "${VM_KERNEL_IMAGE:-}" ] && { [ "$(cat "$KROOT/.pkg" 2>/dev/null)" != "$pkg" ] ||
		{ [ "${VM_PVH:-1}" = 1 ] && command -v readelf >/dev/null && [ ! -s "$KROOT/vmlinux-pvh" ] &&
			[ ! -f "$KROOT/vmlinux-pvh.none" ]; }; }; then
		flock -x 7
	fi
fi
if [ -n "${VM_KERNEL_IMAGE:-}" ]; then
	:
elif [ "$(cat "$KROOT/.pkg" 2>/dev/null)" != "$pkg" ]; then
	mkdir -p "$KDIR"
	deb=$(ls "$KDIR/${pkg}"_*.deb "$CACHE/${pkg}"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		echo "vm: downloading $pkg${SUITE:+ from $SUITE}" >&2
		# Lists older than the mirror name a superseded version: update once and retry.
		(cd "$KDIR" && apt_run apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2) ||
			{ apt_run apt-get update -qq >&2 &&
				(cd "$KDIR" && apt_run apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2); } ||
			skip "cannot download $pkg${SUITE:+ from suite $SUITE at ${VM_APT_URI:-$(mirror)}}"
		deb=$(ls "$KDIR/${pkg}"_*.deb 2>/dev/null | head -n 1 || true)
	fi
	# (a metadata-only image: the packages holding the kernel and its modules too)
	if ! dpkg-deb -c "$deb" | grep -q '/boot/vmlinuz-'; then
		(cd "$KDIR" && split_debs "$deb") || skip "cannot download the packages $pkg depends on"
	fi
	rm -rf "$KROOT.new" "$KROOT"
	for d in "$KDIR"/*.deb; do
		echo "vm: extracting $d" >&2
		dpkg -x "$d" "$KROOT.new"
	done
	echo "$pkg" >"$KROOT.new/.pkg"
	mv "$KROOT.new" "$KROOT"
	# The package is not needed once extracted; older kernels of the same flavour go.
	rm -f "$KDIR"/*.deb
	# (one that another run is using, its lock held, is left for a later run to remove)
	for d in "$CACHE"/kernels/linux-image-*; do
		[ -d "$d" ] || continue
		if [ "$d" != "$KDIR" ] && [ "$(flavour "${d##*/}")" = "$(flavour "$pkg")" ]; then
			(flock -n -x 6 && rm -rf "$d" "${RUNS:?}/${d##*/}") 6>"$d.lock" || true
		fi
	done
fi
if [ -n "${VM_KERNEL_IMAGE:-}" ]; then
	KVER=${pkg#image-} VMLINUZ=$VM_KERNEL_IMAGE VM_PVH=0
else
# Debian 13's packages install under /usr (merged /usr), Debian 12's under /lib.
MODDIR=$KROOT/lib/modules
[ -d "$MODDIR" ] || MODDIR=$KROOT/usr/lib/modules
[ -d "$MODDIR" ] || die "$KROOT is incomplete; remove it to extract again"
KVER=$(ls "$MODDIR" | head -n 1)
VMLINUZ=$KROOT/boot/vmlinuz-$KVER
[ -f "$VMLINUZ" ] || die "$VMLINUZ is missing; remove $KROOT to extract again"
fi
# Boot image: the ELF vmlinux inside the bzImage (xz on Debian 12, zstd on Debian 13), booted
# through its PVH entry, spares TCG ~6 s of decompression per run. Unpacked once
# (vmlinux-pvh.none records a kernel without one; an empty vmlinux-pvh, the older record, is
# tried again); falls back to the bzImage (or VM_PVH=0).
KERNEL=$VMLINUZ
if [ "${VM_PVH:-1}" = 1 ] && command -v readelf >/dev/null; then
	if [ ! -s "$KROOT/vmlinux-pvh" ] && [ ! -f "$KROOT/vmlinux-pvh.none" ]; then
		rm -f "$KROOT/vmlinux-pvh"
		for fmt in xz zstd; do
			command -v $fmt >/dev/null || continue
			magic=$'\xfd7zXZ' dec=(xz -dcq --single-stream)
			[ $fmt = zstd ] && magic=$'\x28\xb5\x2f\xfd' dec=(zstd -dcq)
			for off in $(LC_ALL=C grep -abo "$magic" "$VMLINUZ" | cut -d: -f1); do
				# (zstd exits 1 on the bytes after the frame, tail dies of SIGPIPE when
				# xz stops: the note decides)
				tail -c +$((off + 1)) "$VMLINUZ" 2>/dev/null | "${dec[@]}" >"$KROOT/vmlinux.tmp.$$" \
					2>/dev/null || true
				# Note type 0x12: XEN_ELFNOTE_PHYS32_ENTRY, the PVH entry point QEMU needs.
				if readelf -n "$KROOT/vmlinux.tmp.$$" 2>/dev/null | grep -q '(0x00000012)'; then
					mv "$KROOT/vmlinux.tmp.$$" "$KROOT/vmlinux-pvh"
					break 2
				fi
			done
		done
		rm -f "$KROOT/vmlinux.tmp.$$"
		[ -s "$KROOT/vmlinux-pvh" ] || touch "$KROOT/vmlinux-pvh.none"
	fi
	[ -s "$KROOT/vmlinux-pvh" ] && KERNEL=$KROOT/vmlinux-pvh
fi
# Extracted and unpacked: other runs may read the kernel too, none may remove it.
command -v flock >/dev/null && flock -s 7

# The user space of an arm64 guest: what the x86 guest takes from the host (busybox-static,
# bpftool, tmux, xdp-tools and libxdp's BPF objects, and the libraries of these the host's
# arm64 set lacks) comes from the host's own apt lists as arm64 packages (make deps-arm64 has
# dpkg know the architecture), downloaded (`apt-get download`, nothing installed) and unpacked
# once into $CACHE/userland-arm64/root (UROOT); a changed package list unpacks again.
GUEST_DEBS="busybox-static bpftool tmux libevent-core-2.1-7 libutempter0 libcap2 xdp-tools libxdp1"
UROOT=
guest_root() {
	local dir=$CACHE/userland-$GUEST p
	UROOT=$dir/root
	mkdir -p "$dir"
	exec 6>"$dir.lock"
	command -v flock >/dev/null && flock 6
	if [ "$(cat "$UROOT/.debs" 2>/dev/null)" != "$GUEST_DEBS" ]; then
		rm -rf "$dir/debs" "$UROOT"
		mkdir -p "$dir/debs"
		echo "vm: downloading the $GUEST guest's user space: $GUEST_DEBS" >&2
		# shellcheck disable=SC2046 # a list of packages
		(cd "$dir/debs" && apt-get download -q -o APT::Sandbox::User=root \
			$(for p in $GUEST_DEBS; do echo "$p:$GUEST"; done) >&2) ||
			skip "cannot download $GUEST packages ($GUEST_DEBS) through the host's apt lists (make deps-arm64)"
		for p in "$dir"/debs/*.deb; do
			dpkg -x "$p" "$UROOT"
		done
		echo "$GUEST_DEBS" >"$UROOT/.debs"
		rm -rf "$dir/debs"
	fi
	exec 6>&-
}
# host_path PATH: where the guest's copy of a host path is: the x86 guest's is the host's; an
# arm64 guest's distribution files come from UROOT (with the multiarch directory renamed),
# and the host's only when no package there has them (architecture-independent data).
host_path() {
	local p=$1
	if [ "$GUEST" != amd64 ] && [[ $p == /* ]]; then
		p=${p//x86_64-linux-gnu/$TRIPLET}
		[ -e "$UROOT$p" ] && p=$UROOT$p
	fi
	printf '%s' "$p"
}

# Image skeleton: busybox with its applets, /init and its configuration.
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,etc/vmtest,lib/modules,proc,sys,dev,tmp,run,root,tests}
if [ "$GUEST" = amd64 ]; then
	cp "$BUSYBOX" "$ROOT/bin/busybox"
	for applet in $("$BUSYBOX" --list-full); do
		[ -e "$ROOT/$applet" ] || ln -s /bin/busybox "$ROOT/$applet"
	done
else
	# (this host cannot run the arm64 busybox to list its applets: /init installs their links
	# with `busybox --install -s`, which leaves the binaries copied below alone)
	guest_root
	BUSYBOX=$UROOT/bin/busybox
	[ -f "$BUSYBOX" ] && ! readelf -l "$BUSYBOX" | grep -q 'program interpreter' ||
		skip "no static $GUEST busybox in $UROOT"
	cp "$BUSYBOX" "$ROOT/bin/busybox"
	ln -s busybox "$ROOT/bin/sh"
fi
mknod -m 600 "$ROOT/dev/console" c 5 1 2>/dev/null || true
echo 'root:x:0:0:root:/root:/bin/sh' >"$ROOT/etc/passwd"
echo 'root:x:0:' >"$ROOT/etc/group"
install -m 755 $VM/init.sh "$ROOT/init"
# (the results port: the second 16550 UART on x86, a virtio console on arm64's virt machine,
# which has one UART)
results_tty=/dev/ttyS1
[ "$GUEST" = amd64 ] || results_tty=/dev/hvc0
printf 'TEST_TIMEOUT=%s\nONLY=%q\nREPEAT=%s\nRESULTS_TTY=%s\n' "$VM_TEST_TIMEOUT" \
	"${VM_TESTS:-t_*}" "$VM_REPEAT" "$results_tty" >"$ROOT/etc/vmtest/config"
# /etc/vmtest/fleet: "on", or why this host cannot run the fleet test's side (a SKIP there).
if [ -n "$FLEET" ]; then
	for tool in prometheus jsonnet python3 curl; do
		command -v $tool >/dev/null || FLEET="$tool is not installed on the host (make deps)"
	done
	echo "$FLEET" >"$ROOT/etc/vmtest/fleet"
fi

# Modules: copied (decompressed) in list order; each one's dependencies must come earlier.
KMODS=${MODDIR:-}/$KVER/kernel # (no MODDIR with VM_KERNEL_IMAGE: no modules)
loaded=" "
: >"$ROOT/etc/vmtest/modules"
while read -r m; do
	m=${m%.xz} m=${m%.zst} m=${m%.gz}
	src=
	for ext in "" .xz .zst .gz; do
		[ -f "$KMODS/$m$ext" ] && src=$KMODS/$m$ext && break
	done
	# (one this kernel builds in: virtio is on 6.12, a module on 6.1; rng-core on 6.1 and
	# 6.12, a module on 5.10)
	if [ -z "$src" ] && grep -qx "kernel/$m" "$MODDIR/$KVER/modules.builtin" 2>/dev/null; then
		continue
	fi
	[ -n "$src" ] || die "modules.txt: $m is not in $KMODS (kernel $KVER)"
	name=$(basename "$m" .ko | tr - _)
	if command -v modinfo >/dev/null; then
		for dep in $(modinfo -F depends "$src" | tr ,- ' _'); do
			[[ $loaded == *" $dep "* ]] ||
				die "modules.txt: $m needs $dep; list $dep's .ko above it"
		done
	fi
	loaded+="$name "
	mkdir -p "$ROOT/lib/modules/$(dirname "$m")"
	case $src in
	*.xz) xz -dc "$src" >"$ROOT/lib/modules/$m" ;;
	*.zst) zstd -qdc "$src" >"$ROOT/lib/modules/$m" ;;
	*.gz) gzip -dc "$src" >"$ROOT/lib/modules/$m" ;;
	*) cp "$src" "$ROOT/lib/modules/$m" ;;
	esac
	echo "$m" >>"$ROOT/etc/vmtest/modules"
done < <([ -n "${VM_KERNEL_IMAGE:-}" ] || { list $VM/modules$SFX.txt
	[ "$FLEET" != on ] || list $VM/modules-net.txt; })

# Binaries (bins.txt) with their libraries, guest tests, extra files (files.txt). A line that
# starts with "? " is optional (a distribution package's, e.g. xdp-tools): missing on the host,
# it is left out and its path listed in the guest's /etc/vmtest/missing, for the test that uses
# it to SKIP saying so; our own builds are never optional.
: >"$ROOT/etc/vmtest/missing"
while read -r b; do
	opt=
	[[ $b == '? '* ]] && opt=1 b=${b#'? '}
	path=$(host_path "$(expand "$b")")
	if [ -n "$opt" ] && [ ! -f "$path" ]; then
		echo "$path" >>"$ROOT/etc/vmtest/missing"
		continue
	fi
	[ -f "$path" ] || die "bins.txt lists $b but $path does not exist (build it: make vmtest)"
	rm -f "$ROOT/bin/$(basename "$path")"
	cp -L "$path" "$ROOT/bin/"
	copy_libs "$path"
done < <(list $VM/bins.txt; [ -z "${VM_BINS_EXTRA:-}" ] || list "$VM_BINS_EXTRA")
cp -R $VM/guest/. "$ROOT/tests/"
[ -z "${VM_GUEST_EXTRA:-}" ] || cp -R "$VM_GUEST_EXTRA"/. "$ROOT/tests/"
while read -r line; do
	opt=
	[[ $line == '? '* ]] && opt=1 line=${line#'? '}
	[[ $line == *' -> '* ]] || die "files.txt: '$line' is not 'host path -> guest path'"
	src=$(host_path "$(expand "${line%% -> *}")") dst=${line#* -> }
	[ "$GUEST" = amd64 ] || dst=${dst//x86_64-linux-gnu/$TRIPLET}
	[[ $dst == /* ]] || die "files.txt: guest path $dst must be absolute"
	if [ -n "$opt" ] && [ ! -e "$src" ]; then
		echo "$src" >>"$ROOT/etc/vmtest/missing"
		continue
	fi
	[ -e "$src" ] || die "files.txt lists $src, which does not exist"
	mkdir -p "$ROOT$(dirname "$dst")"
	cp -RL "$src" "$ROOT$dst"
done < <(list $VM/files.txt)

# Pack the initramfs (cpio newc, gzip).
(cd "$ROOT" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$RUN/initrd.gz"

# Boot under TCG (-nic none: no iPXE option ROM to wait for). Two serial ports: the kernel's
# console (ttyS0, with every kernel message: loglevel=7, no quiet) goes to console.log, and
# what /init and the tests print (ttyS1) to results.log, so kernel messages never split a
# result line. A hung kernel panics when its watchdogs see it (soft lockup, hung task); the
# QEMU monitor (FIFOs) lets run.sh dump the vCPUs' registers if the guest stops anyway.
# no_timer_check: on a loaded host TCG can miss the early-boot window in which the kernel checks
# that the IO-APIC delivers timer interrupts, and the kernel panics ("IO-APIC + timer doesn't
# work!": two 6.12 boots at host load 28); QEMU's timer is known to work.
echo "vm: booting $KVER ($pkg) under QEMU TCG, initramfs $(du -h "$RUN/initrd.gz" | cut -f1)" \
	"$( [ "$VM_REPEAT" = 1 ] || echo ", tests x $VM_REPEAT")" >&2
rm -f "$CONSOLE" "$RESULTS" "$MONITOR".in "$MONITOR".out "$RUN/monitor.log" "$RUN/qemu.log"
: >"$CONSOLE"
: >"$RESULTS"
mkfifo "$MONITOR.in" "$MONITOR.out"
start=$(date +%s%N)
rc=0
VM_TCG_THREAD=${VM_TCG_THREAD:-single}
[[ $VM_TCG_THREAD =~ ^(single|multi)$ ]] ||
	die "VM_TCG_THREAD must be single or multi, not '$VM_TCG_THREAD'"
accel=tcg,thread=$VM_TCG_THREAD
# VM_APPEND: more kernel parameters (preempt=full for the preemption tests of issue 22).
[[ ${VM_APPEND:-} =~ ^[A-Za-z0-9_.,=:\ -]*$ ]] ||
	die "VM_APPEND must be kernel parameters (letters, digits, _.,=:- and spaces), not '$VM_APPEND'"
icount=()
if [ -n "${VM_ICOUNT:-}" ]; then
	[[ $VM_ICOUNT =~ ^[0-9]$ ]] || die "VM_ICOUNT must be a shift 0..9, not '$VM_ICOUNT'"
	[ "$VM_TCG_THREAD" = single ] || die "VM_ICOUNT needs VM_TCG_THREAD=single"
	icount=(-icount "shift=$VM_ICOUNT,sleep=on")
fi
# The fleet test's NIC (no option ROM either): QEMU's user networking forwards two free ports
# of 127.0.0.1 to the guest's 10.0.2.15: 9364 (lattop --listen) and 9365 (the host side's
# report). A port taken between free_port and QEMU's bind stops QEMU at once, naming the rule:
# then it boots again on two others (the kernel's first console line says QEMU got past it).
net=(-nic none)
# qemu_start: boot the image in the background (pid in qpid), on new free ports for the fleet.
qemu_start() {
	if [ "$FLEET" = on ]; then
		FLEET_LP=$(free_port)
		FLEET_RP=$(free_port)
		net=(-netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$FLEET_LP-10.0.2.15:9364,hostfwd=tcp:127.0.0.1:$FLEET_RP-10.0.2.15:9365"
			-device "virtio-net-pci,netdev=n0,romfile=")
	fi
	# arm64: QEMU's virt machine (GICv3, the one that takes more than 8 vCPUs) with its PL011
	# UART as the console and the results on a virtio console (hvc0; virtio-pci is built in).
	local machine=(-cpu max) ports=(-serial "file:$CONSOLE" -serial "file:$RESULTS")
	local console=ttyS0 timer=" no_timer_check"
	if [ "$GUEST" = arm64 ]; then
		machine=(-M "virt,gic-version=3" -cpu max)
		ports=(-serial "file:$CONSOLE" -device "virtio-serial-pci,romfile="
			-chardev "file,id=res0,path=$RESULTS" -device "virtconsole,chardev=res0")
		console=ttyAMA0 timer=
	fi
	"${QEMU_CMD[@]}" "${machine[@]}" -accel "$accel" "${icount[@]}" -m 1G -smp "$VM_SMP" "${QEMU_ARGS[@]}" -display none -no-reboot "${net[@]}" \
		"${ports[@]}" \
		-chardev "pipe,id=mon0,path=$MONITOR" -mon chardev=mon0,mode=readline \
		-kernel "$KERNEL" -initrd "$RUN/initrd.gz" \
		-append "console=$console loglevel=7$timer panic=-1 softlockup_panic=1 softlockup_all_cpu_backtrace=1 hung_task_panic=1 panic_on_warn=0 sysrq_always_enabled=1${VM_APPEND:+ $VM_APPEND}" \
		</dev/null >"$RUN/qemu.log" 2>&1 &
	qpid=$!
}
[ "$FLEET" != on ] || . tests/host/prom_lib.sh # free_port
qemu_start
for _ in 1 2 3 4; do
	[ "$FLEET" = on ] || break
	i=0
	while kill -0 $qpid 2>/dev/null && [ ! -s "$CONSOLE" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $qpid 2>/dev/null || ! grep -q 'Could not set up host forwarding' "$RUN/qemu.log"; then
		break
	fi
	wait $qpid || true
	echo "vm: $(cat "$RUN/qemu.log"); booting again on other ports" >&2
	qemu_start
done
if [ "$FLEET" = on ]; then
	bash $VM/fleet.sh "$RESULTS" "$FLEET_LP" "$FLEET_RP" $qpid >"$RUN/fleet.log" 2>&1 &
	fpid=$!
fi
cat "$MONITOR.out" >"$RUN/monitor.log" 2>/dev/null &
mpid=$!

# mon CMD: one monitor command; its answer lands in monitor.log (the timeout: opening the FIFO
# blocks if QEMU has gone).
mon() {
	timeout 5 bash -c 'echo "$1" >"$2"' mon "$1" "$MONITOR.in" 2>/dev/null || true
}

# Watch the guest: a result line at least every VM_IDLE_TIMEOUT s (each test has its own
# timeout in the guest, so silence means the guest itself stopped), VM_TIMEOUT in all.
hung= done_at=
last=0 idle_since=$SECONDS t0=$SECONDS
while kill -0 $qpid 2>/dev/null; do
	sleep 2
	size=$(stat -c %s "$RESULTS" 2>/dev/null || echo 0)
	[ "$size" != "$last" ] && last=$size idle_since=$SECONDS
	# A kernel whose poweroff halts (no ACPI power-off): done is done, QEMU is ended.
	if [ -z "$done_at" ] && grep -q '^VMTEST-DONE' "$RESULTS"; then # (CR-terminated)
		done_at=$SECONDS
	elif [ -n "$done_at" ] && [ $((SECONDS - done_at)) -ge 10 ]; then
		echo "vm: the guest printed VMTEST-DONE but did not power off; ending QEMU" >&2
		kill $qpid 2>/dev/null || true
		break
	fi
	if [ $((SECONDS - t0)) -ge "$VM_TIMEOUT" ]; then
		hung="no VMTEST-DONE after ${VM_TIMEOUT}s (VM_TIMEOUT)"
	elif [ $((SECONDS - idle_since)) -ge "$VM_IDLE_TIMEOUT" ]; then
		hung="no result line for ${VM_IDLE_TIMEOUT}s (VM_IDLE_TIMEOUT)"
	fi
	[ -n "$hung" ] && break
done
if [ -n "$hung" ] && kill -0 $qpid 2>/dev/null; then
	# What the guest was doing: kernel backtraces of every CPU and of blocked tasks (if the
	# kernel still takes interrupts), then the vCPUs' registers as QEMU sees them.
	echo "vm: guest hung ($hung); dumping its state" >&2
	mon "sendkey alt-sysrq-l"
	mon "sendkey alt-sysrq-w"
	sleep 10
	mon "info status"
	mon "info cpus"
	mon "info registers -a"
	sleep 3
	# Each vCPU's stack top: a CPU caught in exception entry or at its iret has the interrupted
	# RIP there (how the silent int3 loop with interrupts off showed itself on PREEMPT_RT).
	i=0
	for sp in $(tr -d '\r' <"$RUN/monitor.log" | grep -o 'RSP=[0-9a-f]*' | cut -d= -f2); do
		mon "cpu $i"
		mon "x /6gx 0x$sp"
		i=$((i + 1))
	done
	sleep 2
	mon "quit"
	sleep 2
	kill $qpid 2>/dev/null || true
fi
wait $qpid || rc=$?
[ -z "$hung" ] || rc=124
kill $mpid 2>/dev/null || true
wait $mpid 2>/dev/null || true
rm -f "$MONITOR.in" "$MONITOR.out"
# The fleet side ends with the boot (it stops its Prometheus servers).
if [ -n "${fpid:-}" ]; then
	kill $fpid 2>/dev/null || true
	wait $fpid 2>/dev/null || true
	grep '^vm: fleet' "$RUN/fleet.log" >&2 || true
fi
elapsed=$((($(date +%s%N) - start) / 1000000))
# Plain text: no CRs, no terminal escapes (SeaBIOS clears the screen).
sed -i -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g' "$CONSOLE" "$RESULTS" \
	"$RUN/monitor.log"
echo "vm: qemu exited $rc after $((elapsed / 1000)).$((elapsed % 1000 / 100)) s;" \
	"results in $RESULTS, kernel console in $CONSOLE" >&2
[ "${VM_VERBOSE:-0}" = 1 ] && cat "$CONSOLE" "$RESULTS" >&2

# A kernel without a second serial port: /init printed everything on the console.
if ! grep -q '^vmtest: init ' "$RESULTS" && grep -q '^vmtest: init ' "$CONSOLE"; then
	RESULTS=$CONSOLE
fi

[ -z "${VM_RESULTS_OUT:-}" ] || cp "$RESULTS" "$VM_RESULTS_OUT"

# Results: the guest's PASS/FAIL/SKIP lines, then one summary line (and one per repetition).
grep -E '^vmtest: (init|done|repeat) ' "$RESULTS" >&2 || true
grep -E '^(PASS|FAIL|SKIP) ' "$RESULTS" || true
passed=$(grep -c '^PASS ' "$RESULTS" || true)
failed=$(grep -c '^FAIL ' "$RESULTS" || true)
skipped=$(grep -c '^SKIP ' "$RESULTS" || true)
if [ "$VM_REPEAT" != 1 ]; then
	awk '/^vmtest: repeat /{ if (r) printf "vm: repeat %s: %d passed, %d failed\n", r, p, f
			r = $3; p = f = 0 }
		/^PASS /{ p++ } /^FAIL /{ f++ }
		END { if (r) printf "vm: repeat %s: %d passed, %d failed\n", r, p, f }' "$RESULTS"
fi
if ! grep -qx 'VMTEST-DONE' "$RESULTS"; then
	why="qemu exited $rc"
	[ -z "$hung" ] || why=$hung
	dump=$RUN/hang-$(date +%Y%m%d-%H%M%S).log
	{
		echo "== $why; kernel $KVER ($pkg)"
		echo "== results (ttyS1)"
		cat "$RESULTS"
		echo "== kernel console (ttyS0)"
		cat "$CONSOLE"
		echo "== QEMU monitor"
		cat "$RUN/monitor.log"
		echo "== QEMU"
		cat "$RUN/qemu.log"
	} >"$dump"
	echo "FAIL vm/boot: VMTEST-DONE never appeared ($why); all of it in $dump"
	echo "    -- last 15 result lines:"
	tail -n 15 "$RESULTS" | sed 's/^/    /'
	# The watchdogs' verdicts and where each CPU was (a lockup's stack may be far above the
	# last 40 lines, after the other CPUs' backtraces).
	verdicts='soft lockup|hard LOCKUP|detected stall|blocked for more than|Kernel panic'
	stuck=$(grep -E "$verdicts|NMI backtrace for cpu|RIP: |Code: " "$CONSOLE" | head -n 30)
	[ -z "$stuck" ] ||
		printf '    -- watchdog reports and CPU backtraces:\n%s\n' "$(sed 's/^/    /' <<<"$stuck")"
	echo "    -- last 40 kernel console lines:"
	tail -n 40 "$CONSOLE" | sed 's/^/    /'
	regs=$(grep -E '^(CPU#|\* CPU|  CPU|[RE]AX|[RE]IP|[RE]SP|CS |[0-9a-f]{16}: )|VM status' \
		"$RUN/monitor.log" 2>/dev/null | head -n 40)
	# Empty when the guest panicked on its own (QEMU had exited before run.sh asked).
	[ -z "$regs" ] || printf '    -- vCPU state (QEMU monitor):\n%s\n' "$(sed 's/^/    /' <<<"$regs")"
	[ -s "$RUN/qemu.log" ] && sed 's/^/    qemu: /' "$RUN/qemu.log" | head -n 10
	failed=$((failed + 1))
fi
echo "vm: $passed passed, $failed failed$([ "$skipped" = 0 ] || echo ", $skipped skipped")"
# The end marker tests/run.sh checks: every PASS/FAIL/SKIP line printed above (the guest's are
# trusted only with VMTEST-DONE, checked above).
echo "END vm $((passed + failed + skipped))"
[ "$failed" -eq 0 ]
