# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Debian chroots for the package test (tests/pkg) and the Debian 13 build test (tests/distro):
# sourced, not run. A chroot is a cached mmdebstrap tarball unpacked afresh under a work
# directory; the kernel file systems lattop needs are mounted into it, and everything is
# unmounted (umount -R, then a findmnt check) before the tree is removed. No host directory is
# ever bind-mounted into a tree: files go in and out by copying.
#
# DISTRO_CACHE (default $LATTOP_TEST_CACHE/distro when that is set, as .ci/run sets it, else
# tests/distro/.cache, git-ignored) keeps the tarballs; DISTRO_MIRROR the
# Debian mirror (default: the first URI of the machine's debian.sources, which the machine's
# apt setup already trusts; nothing of that setup is changed).

DISTRO_CACHE=${DISTRO_CACHE:-${LATTOP_TEST_CACHE:+$LATTOP_TEST_CACHE/distro}}
DISTRO_CACHE=${DISTRO_CACHE:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/.cache}

# The mirror URI: DISTRO_MIRROR, else the machine's own Debian mirror.
distro_mirror() {
	local uri
	if [ -n "${DISTRO_MIRROR:-}" ]; then
		echo "$DISTRO_MIRROR"
		return
	fi
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' \
		/etc/apt/sources.list 2>/dev/null)
	echo "${uri:-http://deb.debian.org/debian}"
}

# Why a chroot cannot be made here (empty when it can): root, mmdebstrap, a reachable mirror.
distro_unusable() {
	[ "$(id -u)" = 0 ] || { echo "needs root (mounts, chroot)"; return; }
	command -v mmdebstrap >/dev/null || { echo "mmdebstrap is not installed (make deps)"; return; }
	return 0
}

# Print the path of the cached tarball of SUITE with the packages INCLUDE (comma-separated),
# making it with mmdebstrap first when it is not cached. NAME names the cache entry (with a
# hash of INCLUDE, so a changed list makes a new one).
distro_tarball() {
	local suite=$1 name=$2 include=$3 tar
	tar="$DISTRO_CACHE/$name-$(printf '%s' "$include" | md5sum | cut -c1-8).tar"
	if [ ! -s "$tar" ]; then
		mkdir -p "$DISTRO_CACHE"
		mmdebstrap --quiet --variant=apt --format=tar ${include:+--include="$include"} \
			--components=main "$suite" "$tar.tmp" "$(distro_mirror)" >&2 || {
			rm -f "$tar.tmp"
			return 1
		}
		mv -f "$tar.tmp" "$tar"
	fi
	echo "$tar"
}

# Unpack TARBALL into DIR (which must not exist) and mount proc, sys, bpffs, tracefs and the
# devices lattop needs; resolv.conf is copied so apt reaches the mirror.
distro_enter() {
	local tar=$1 dir=$2
	mkdir "$dir" && tar -C "$dir" -xf "$tar" || return 1
	cp -L /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null
	mount -t proc proc "$dir/proc" &&
		mount -t sysfs sysfs "$dir/sys" &&
		mount -t bpf bpf "$dir/sys/fs/bpf" &&
		mount -t tracefs tracefs "$dir/sys/kernel/tracing" &&
		mount -t devtmpfs devtmpfs "$dir/dev" || return 1
	mkdir -p "$dir/dev/pts" "$dir/dev/shm"
	mountpoint -q "$dir/dev/pts" || mount -t devpts -o newinstance devpts "$dir/dev/pts"
	mountpoint -q "$dir/dev/shm" || mount -t tmpfs tmpfs "$dir/dev/shm"
	mountpoint -q "$dir/tmp" || mount -t tmpfs tmpfs "$dir/tmp"
}

# Run a command as root inside DIR with a clean environment.
distro_run() {
	local dir=$1
	shift
	chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		TERM=dumb LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# Every path in DIR but the kernel file systems, temporary and cache directories, and the
# package managers' own records, sorted: two snapshots differ only where packages left files.
distro_snapshot() {
	(cd "$1" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./tmp \
		-o -path ./run -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/cache \
		-o -path ./var/log \) -prune -o -print | sort)
}

# The mount points at or under DIR.
distro_mounts() {
	findmnt -rn -o TARGET | awk -v d="$1" '$0 == d || index($0, d "/") == 1'
}

# Unmount everything under DIR, check nothing is left mounted there, and only then remove it.
# Returns 1 (leaving the tree) when something stays mounted.
distro_leave() {
	local dir=$1 m
	[ -d "$dir" ] || return 0
	for m in $(distro_mounts "$dir" | sort -r); do
		umount -R "$m" 2>/dev/null
	done
	if [ -n "$(distro_mounts "$dir")" ]; then
		echo "still mounted under $dir: not removed" >&2
		return 1
	fi
	rm -rf --one-file-system "$dir"
}
