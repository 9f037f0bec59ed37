#!/usr/bin/env bash
# Build (once) a small kernel with CONFIG_USER_EVENTS from Debian's linux-source-6.12 (trixie)
# for the EventHeader VM tests, and print the path of its bzImage on stdout.
#
# No Debian kernel enables user_events, so the tests build their own: `make tinyconfig`, the
# options of tests/vm/uevents/kernel.config, `make olddefconfig`, `make bzImage` (no modules).
# Everything lives in ${LATTOP_TEST_CACHE:-tests/vm/.cache}/uevents-kernel/ (git-ignored): a private apt sources list
# and its lists (the machine's apt setup is left alone), the source package, the unpacked tree
# and the build. A later run reuses the image; a changed kernel.config, a newer source package
# or a changed recipe (this script) rebuilds it.
#
# Environment: UEVENTS_JOBS (make -j, 2), UEVENTS_MIRROR (the Debian mirror, read from the
# machine's sources list, else http://deb.debian.org/debian).
# Exit status: 0 and the image path; 2 when the source cannot be fetched (stderr says why);
# 1 when the build fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
VM=tests/vm
C=${LATTOP_TEST_CACHE:-$VM/.cache}/uevents-kernel
CONF=$VM/uevents/kernel.config
JOBS=${UEVENTS_JOBS:-2}
mkdir -p "$C"
C=$(cd "$C" && pwd)
exec 8>"$C/lock"
command -v flock >/dev/null && flock 8

say() { echo "uevents-kernel: $*" >&2; }

for tool in make gcc flex bison bc pahole xz dpkg-deb apt-get; do
	command -v $tool >/dev/null || {
		say "$tool is missing (apt-get install flex bison bc dwarves xz-utils)"
		exit 2
	}
done

# The options to enable, one per line.
options() { sed -e 's/#.*//' "$CONF" | tr -s ' \t' '\n\n' | sed '/^$/d'; }

# Source: linux-source-6.12 from trixie, through a private sources list kept in the cache.
mirror=${UEVENTS_MIRROR:-$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' \
	/etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian}
printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s trixie main\n' \
	"$mirror" >"$C/sources.list"
mkdir -p "$C/lists/partial" "$C/archives/partial"
A=(-o "Dir::Etc::sourcelist=$C/sources.list" -o Dir::Etc::sourceparts=/dev/null
	-o "Dir::State::Lists=$C/lists" -o "Dir::Cache=$C/apt" -o APT::Sandbox::User=root)
deb=$(ls "$C"/linux-source-6.12_*.deb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$deb" ] || [ -n "${UEVENTS_REFRESH:-}" ]; then
	say "fetching linux-source-6.12 from $mirror trixie"
	apt-get "${A[@]}" -qq update >&2 || { say "apt-get update of trixie failed"; exit 2; }
	(cd "$C" && apt-get "${A[@]}" -q download linux-source-6.12 >&2) ||
		{ say "cannot download linux-source-6.12"; exit 2; }
	deb=$(ls "$C"/linux-source-6.12_*.deb | sort -V | tail -n 1)
	for old in "$C"/linux-source-6.12_*.deb; do [ "$old" = "$deb" ] || rm -f "$old"; done
fi
ver=$(dpkg-deb -f "$deb" Version)

# The stamp: source version, option list and the build recipe (this script from "# Configure:"
# on). Unchanged stamp + image = done.
stamp=$( (echo "$ver"; options; sed -n '/^# Configure:/,$p' "$0") | sha256sum | cut -c1-16)
IMG=$C/bzImage
if [ -f "$IMG" ] && [ "$(cat "$C/stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$IMG"
	exit 0
fi

# Unpack the tree once per source version.
SRC=$C/src
if [ "$(cat "$SRC/.version" 2>/dev/null)" != "$ver" ]; then
	say "unpacking linux-source $ver"
	rm -rf "$SRC" "$C/deb"
	dpkg-deb -x "$deb" "$C/deb"
	mkdir -p "$SRC"
	tar -xJf "$C"/deb/usr/src/linux-source-6.12.tar.xz -C "$SRC" --strip-components=1
	rm -rf "$C/deb"
	echo "$ver" >"$SRC/.version"
	rm -rf "$C/build"
fi

# Configure: tinyconfig, the options, olddefconfig; every option must have stuck.
B=$C/build
mkdir -p "$B"
t0=$(date +%s)
say "configuring (tinyconfig + $(options | wc -l) options)"
make -s -C "$SRC" O="$B" tinyconfig >&2
args=()
for o in $(options); do args+=(--enable "$o"); done
"$SRC"/scripts/config --file "$B/.config" "${args[@]}"
make -s -C "$SRC" O="$B" olddefconfig >&2
missing=$(for o in $(options); do grep -qx "CONFIG_$o=y" "$B/.config" || echo "$o"; done)
[ -z "$missing" ] || { say "options not enabled after olddefconfig:" $missing; exit 1; }

say "building bzImage with -j$JOBS (about 5 min on 2 cores)"
nice make -s -C "$SRC" O="$B" -j"$JOBS" bzImage >&2
cp "$B/arch/x86/boot/bzImage" "$IMG.tmp"
mv "$IMG.tmp" "$IMG"
echo "$stamp" >"$C/stamp"
say "built in $(($(date +%s) - t0)) s"
echo "$IMG"
