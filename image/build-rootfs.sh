#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# image/build-rootfs.sh DEB OUT.tar: lattop's container image as a root file system tarball,
# from the project's own .deb (make deb) on Debian 12, with no container registry: a base made
# by mmdebstrap from Debian's mirror holding the package's dependencies (cached: see
# tests/distro/chroot.sh, DISTRO_CACHE, LATTOP_TEST_CACHE), unpacked, the .deb installed with
# dpkg in a chroot (no mounts, no network), apt's lists and caches emptied, packed again.
# `make image` runs it and imports the tarball into podman (image/README.md).
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 DEB OUT.tar" >&2; exit 2; }
DEB=$(readlink -f "$1")
OUT=$2
. "$(dirname "$0")/../tests/distro/chroot.sh"
why=$(distro_unusable)
[ -z "$why" ] || { echo "$0: $why" >&2; exit 1; }
[ -s "$DEB" ] || { echo "$0: no $DEB (make deb)" >&2; exit 1; }

# The dependencies, without versions or alternatives: the base holds them already.
deps=$(dpkg-deb -f "$DEB" Depends | sed 's/([^)]*)//g; s/|[^,]*//g; s/[[:space:]]//g')
base=$(distro_tarball bookworm bookworm-image "$deps") || {
	echo "$0: mmdebstrap bookworm failed (mirror $(distro_mirror))" >&2
	exit 1
}
TREE=$(mktemp -d /var/tmp/lattop-image.XXXXXX)
# Nothing is mounted in the tree; distro_leave checks that before it removes it.
trap 'distro_leave "$TREE"' EXIT
tar -C "$TREE" -xf "$base"
cp "$DEB" "$TREE/tmp/lattop.deb"
chroot "$TREE" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
	dpkg -i /tmp/lattop.deb >&2
rm -f "$TREE/tmp/lattop.deb"
rm -rf "$TREE"/var/lib/apt/lists/* "$TREE"/var/cache/apt/*.bin "$TREE"/var/cache/apt/archives/*.deb
: >"$TREE/etc/resolv.conf"
tar --numeric-owner -C "$TREE" -cf "$OUT.tmp" .
mv -f "$OUT.tmp" "$OUT"
