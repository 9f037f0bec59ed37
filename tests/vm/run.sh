#!/usr/bin/env bash
# lattop VM tests: boot a stock Debian 6.1 kernel under QEMU (TCG, never KVM) with an
# initramfs holding busybox, the binaries of bins.txt, the modules of modules.txt and the
# guest tests (guest/t_*.sh), then report their "PASS vm/..." / "FAIL vm/..." lines and end
# with "vm: N passed, M failed". See tests/vm/README.md.
#
# Environment: OUTPUT (build dir, .output), VM_REQUIRED=1 (a missing tool fails instead of
# skipping), VM_TIMEOUT (whole boot, 900 s: a guard against a hung guest, not a speed target;
# a whole run takes ~210 s on an idle 2-CPU host), VM_TEST_TIMEOUT (each guest test, 120 s),
# VM_TESTS (globs of guest test names to run, e.g. 't_01*'), VM_KERNEL_PKG (a kernel package
# instead of the one linux-image-amd64 depends on), VM_VERBOSE=1 (print the whole console).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTPUT=${OUTPUT:-.output}
VM=tests/vm
CACHE=$VM/.cache
KROOT=$CACHE/kroot
ROOT=$CACHE/initrd-root
CONSOLE=$CACHE/console.log
VM_TIMEOUT=${VM_TIMEOUT:-900}
VM_TEST_TIMEOUT=${VM_TEST_TIMEOUT:-120}

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

# The kernel package linux-image-amd64 currently depends on (empty when apt knows none).
kernel_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1
}

# Copy a file to the same path inside the image (following symlinks).
copy_abs() {
	mkdir -p "$ROOT$(dirname "$1")"
	cp -L "$1" "$ROOT$1"
}

# Copy the shared libraries and the loader a dynamic binary needs, at their host paths.
copy_libs() {
	local deps
	deps=$(ldd "$1" 2>/dev/null) || return 0 # static: nothing to copy
	if grep -q 'not found' <<<"$deps"; then
		die "$1 needs libraries ldd cannot find: $(grep 'not found' <<<"$deps" | xargs)"
	fi
	for lib in $(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }' <<<"$deps"); do
		[ -e "$ROOT$lib" ] || copy_abs "$lib"
	done
}

# Host tools: qemu with TCG first, then what builds the image.
command -v qemu-system-x86_64 >/dev/null ||
	skip "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
qemu-system-x86_64 -accel help 2>/dev/null | grep -qx tcg ||
	skip "qemu-system-x86_64 has no TCG accelerator"
for tool in cpio gzip dpkg timeout; do
	command -v $tool >/dev/null || skip "$tool is not installed"
done
BUSYBOX=$(command -v busybox || true)
[ -n "$BUSYBOX" ] && ! ldd "$BUSYBOX" >/dev/null 2>&1 ||
	skip "no static busybox (apt-get install busybox-static)"

# One run at a time per tree: the cache and the image are shared.
mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
command -v flock >/dev/null && flock 9

# Kernel: the current stock Debian 6.1 image, downloaded and extracted once into the cache.
have=$(cat "$KROOT/.pkg" 2>/dev/null || true)
pkg=${VM_KERNEL_PKG:-$(kernel_pkg)}
if [ -z "$pkg" ] && [ -z "$have" ] && command -v apt-get >/dev/null; then
	echo "vm: apt-cache knows no linux-image-amd64; running apt-get update" >&2
	apt-get update -qq >&2 || true
	pkg=$(kernel_pkg)
fi
pkg=${pkg:-$have}
[ -n "$pkg" ] ||
	skip "no Debian kernel package found (apt-cache depends linux-image-amd64 is empty)"
if [ "$pkg" != "$have" ]; then
	deb=$(ls "$CACHE/${pkg}"_*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		echo "vm: downloading $pkg" >&2
		if ! (cd "$CACHE" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2); then
			[ -n "$have" ] || skip "cannot download $pkg"
			echo "vm: cannot download $pkg; using the cached $have" >&2
			pkg=$have
		fi
		deb=$(ls "$CACHE/${pkg}"_*.deb 2>/dev/null | head -n 1 || true)
	fi
	if [ "$pkg" != "$have" ]; then
		echo "vm: extracting $deb" >&2
		rm -rf "$KROOT.new" "$KROOT"
		dpkg -x "$deb" "$KROOT.new"
		echo "$pkg" >"$KROOT.new/.pkg"
		mv "$KROOT.new" "$KROOT"
		find "$CACHE" -maxdepth 1 -name 'linux-image-*.deb' ! -name "${pkg}_*" -delete
	fi
fi
[ -d "$KROOT/lib/modules" ] || die "$KROOT is incomplete; remove it to extract again"
KVER=$(ls "$KROOT/lib/modules" | head -n 1)
VMLINUZ=$KROOT/boot/vmlinuz-$KVER
[ -f "$VMLINUZ" ] || die "$VMLINUZ is missing; remove $KROOT to extract again"

# Boot image: the ELF vmlinux inside the xz bzImage, booted through its PVH entry, spares TCG
# ~6 s of decompression per run. Unpacked once; falls back to the bzImage (or VM_PVH=0).
KERNEL=$VMLINUZ
if [ "${VM_PVH:-1}" = 1 ] && command -v readelf >/dev/null && command -v xz >/dev/null; then
	if [ ! -f "$KROOT/vmlinux-pvh" ]; then
		for off in $(LC_ALL=C grep -abo $'\xfd7zXZ' "$VMLINUZ" | cut -d: -f1); do
			xz -dcq --single-stream <(tail -c +$((off + 1)) "$VMLINUZ") \
				>"$KROOT/vmlinux.tmp" 2>/dev/null || continue
			# Note type 0x12: XEN_ELFNOTE_PHYS32_ENTRY, the PVH entry point QEMU needs.
			if readelf -n "$KROOT/vmlinux.tmp" 2>/dev/null | grep -q '(0x00000012)'; then
				mv "$KROOT/vmlinux.tmp" "$KROOT/vmlinux-pvh"
				break
			fi
		done
		rm -f "$KROOT/vmlinux.tmp"
		[ -f "$KROOT/vmlinux-pvh" ] || touch "$KROOT/vmlinux-pvh" # empty: no PVH entry
	fi
	[ -s "$KROOT/vmlinux-pvh" ] && KERNEL=$KROOT/vmlinux-pvh
fi

# Image skeleton: busybox with its applets, /init and its configuration.
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,etc/vmtest,lib/modules,proc,sys,dev,tmp,run,root,tests}
cp "$BUSYBOX" "$ROOT/bin/busybox"
for applet in $("$BUSYBOX" --list-full); do
	[ -e "$ROOT/$applet" ] || ln -s /bin/busybox "$ROOT/$applet"
done
mknod -m 600 "$ROOT/dev/console" c 5 1 2>/dev/null || true
echo 'root:x:0:0:root:/root:/bin/sh' >"$ROOT/etc/passwd"
echo 'root:x:0:' >"$ROOT/etc/group"
install -m 755 $VM/init.sh "$ROOT/init"
printf 'TEST_TIMEOUT=%s\nONLY=%q\n' "$VM_TEST_TIMEOUT" "${VM_TESTS:-t_*}" >"$ROOT/etc/vmtest/config"

# Modules: copied (decompressed) in list order; each one's dependencies must come earlier.
KMODS=$KROOT/lib/modules/$KVER/kernel
loaded=" "
: >"$ROOT/etc/vmtest/modules"
while read -r m; do
	m=${m%.xz} m=${m%.zst} m=${m%.gz}
	src=
	for ext in "" .xz .zst .gz; do
		[ -f "$KMODS/$m$ext" ] && src=$KMODS/$m$ext && break
	done
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
done < <(list $VM/modules.txt)

# Binaries (bins.txt) with their libraries, guest tests, extra files (files.txt).
while read -r b; do
	path=$(expand "$b")
	[ -f "$path" ] || die "bins.txt lists $b but $path does not exist (build it: make vmtest)"
	rm -f "$ROOT/bin/$(basename "$path")"
	cp -L "$path" "$ROOT/bin/"
	copy_libs "$path"
done < <(list $VM/bins.txt)
cp -R $VM/guest/. "$ROOT/tests/"
while read -r line; do
	[[ $line == *' -> '* ]] || die "files.txt: '$line' is not 'host path -> guest path'"
	src=$(expand "${line%% -> *}") dst=${line#* -> }
	[[ $dst == /* ]] || die "files.txt: guest path $dst must be absolute"
	[ -e "$src" ] || die "files.txt lists $src, which does not exist"
	mkdir -p "$ROOT$(dirname "$dst")"
	cp -RL "$src" "$ROOT$dst"
done < <(list $VM/files.txt)

# Pack the initramfs (cpio newc, gzip).
(cd "$ROOT" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$CACHE/initrd.gz"

# Boot under TCG (-nic none: no iPXE option ROM to wait for); the console goes to console.log.
echo "vm: booting $KVER ($pkg) under QEMU TCG, initramfs $(du -h "$CACHE/initrd.gz" | cut -f1)" >&2
start=$(date +%s%N)
rc=0
timeout "$VM_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -m 1G -smp 2 -nographic \
	-no-reboot -nic none -kernel "$KERNEL" -initrd "$CACHE/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1" </dev/null >"$CONSOLE" 2>&1 || rc=$?
elapsed=$((($(date +%s%N) - start) / 1000000))
# Plain text: no CRs, no terminal escapes (SeaBIOS clears the screen).
sed -i -e 's/\r//g' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g' "$CONSOLE"
echo "vm: qemu exited $rc after $((elapsed / 1000)).$((elapsed % 1000 / 100)) s;" \
	"console in $CONSOLE" >&2
[ "${VM_VERBOSE:-0}" = 1 ] && cat "$CONSOLE" >&2

# Results: the guest's PASS/FAIL/SKIP lines, then one summary line.
grep -E '^vmtest: (init|done) ' "$CONSOLE" >&2 || true
grep -E '^(PASS|FAIL|SKIP) ' "$CONSOLE" || true
passed=$(grep -c '^PASS ' "$CONSOLE" || true)
failed=$(grep -c '^FAIL ' "$CONSOLE" || true)
skipped=$(grep -c '^SKIP ' "$CONSOLE" || true)
if ! grep -qx 'VMTEST-DONE' "$CONSOLE"; then
	why="qemu exited $rc"
	[ "$rc" -ne 124 ] || why="qemu timed out after ${VM_TIMEOUT}s"
	echo "FAIL vm/boot: VMTEST-DONE never appeared ($why); last 40 console lines:"
	tail -n 40 "$CONSOLE" | sed 's/^/    /'
	failed=$((failed + 1))
fi
echo "vm: $passed passed, $failed failed"
# The end marker tests/run.sh checks: every PASS/FAIL/SKIP line printed above (the guest's are
# trusted only with VMTEST-DONE, checked above).
echo "END vm $((passed + failed + skipped))"
[ "$failed" -eq 0 ]
