#!/usr/bin/env bash
# Debian 13's QEMU (10.0) for the VM tests that Debian 12's QEMU 7.2 cannot boot: its x86 TCG
# takes more than 255 vCPUs (x2APIC; `make vmtest-bigcpu`, tests/vm/README.md), which 7.2
# refuses ("requires kernel irqchip and X2APIC API support").
#
#   qemu-trixie.sh --ensure      make the root once (cached), print nothing; exit 1 on failure
#   qemu-trixie.sh ARGS...       run trixie's qemu-system-x86_64 with ARGS (the root made first)
#
# The root is a trixie tree with qemu-system-x86 (mmdebstrap --mode=unshare: its mounts live in
# a namespace of its own, none on this host) written as a tar and unpacked into
# $LATTOP_TEST_CACHE/qemu-trixie/root (tests/vm/.cache without it): ~210 MB, ~80 s the first
# time, kept between runs. Nothing is chrooted into or mounted: QEMU runs through the root's
# own dynamic loader and libraries, its firmware (-L) and modules (QEMU_MODULE_DIR) from the
# root. The mirror is the host's apt mirror (VM_APT_URI to choose another).
set -euo pipefail
cd "$(dirname "$0")/../.."
CACHE=${LATTOP_TEST_CACHE:-tests/vm/.cache}
[[ $CACHE == /* ]] || CACHE=$PWD/$CACHE
DIR=$CACHE/qemu-trixie
ROOT=$DIR/root

mirror() {
	local uri
	uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
		tr ' ' '\n' | grep -v -e security -e '^$' | head -n 1 || true)
	[ -n "$uri" ] || uri=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^ ]*\) .*/\2/p' \
		/etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1 || true)
	echo "${uri:-http://deb.debian.org/debian}"
}

# ensure: the root, made under the lock by the first caller; a half-made one (no .done) is made
# anew. The unpacked tree holds no mount point, so removing it is a plain rm.
ensure() {
	[ -e "$DIR/.done" ] && return 0
	mkdir -p "$DIR"
	(
		flock 9
		[ -e "$DIR/.done" ] && exit 0
		command -v mmdebstrap >/dev/null || { echo "qemu-trixie: mmdebstrap is not installed" >&2; exit 1; }
		rm -rf "$ROOT" "$DIR/root.tar"
		echo "qemu-trixie: making Debian 13's QEMU root in $DIR (once; ~210 MB)" >&2
		mmdebstrap --mode=unshare --variant=essential --include=qemu-system-x86 \
			--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
			trixie "$DIR/root.tar" \
			"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${VM_APT_URI:-$(mirror)} trixie main" \
			>"$DIR/mmdebstrap.log" 2>&1 ||
			{ echo "qemu-trixie: mmdebstrap failed: $(tail -n 3 "$DIR/mmdebstrap.log")" >&2; exit 1; }
		mkdir "$ROOT"
		tar -C "$ROOT" -xf "$DIR/root.tar"
		rm -f "$DIR/root.tar"
		(run -version) >/dev/null || { echo "qemu-trixie: the root's QEMU does not run" >&2; exit 1; }
		touch "$DIR/.done"
	) 9>"$DIR.lock"
}

run() {
	QEMU_MODULE_DIR=$ROOT/usr/lib/x86_64-linux-gnu/qemu exec "$ROOT/lib64/ld-linux-x86-64.so.2" \
		--library-path "$ROOT/usr/lib/x86_64-linux-gnu" "$ROOT/usr/bin/qemu-system-x86_64" \
		-L "$ROOT/usr/share/qemu" -L "$ROOT/usr/share/seabios" "$@"
}

ensure
[ "${1:-}" = --ensure ] && exit 0
run "$@"
