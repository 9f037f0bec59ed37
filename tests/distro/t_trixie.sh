#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The README's install path in a Debian 13 (trixie) userland: a fresh mmdebstrap chroot, the
# project copied in (never bind-mounted), `apt-get install make && make deps all` as root, then
# the unit tests and the host suite (real BPF on this machine's kernel) run inside it.
# The package is built and lintian-checked there too. Run by `make test-trixie`;
# DISTRO_SUITE=bookworm runs the same on Debian 12, HOST_TESTS='t_docs' (a glob) only those host
# suites. The chroot after `make deps` is cached (make deps then only adds what DEPS gained), so
# a warm run skips the downloads.
set -uo pipefail
cd "$(dirname "$0")/../.."
DSUITE=${DISTRO_SUITE:-trixie}
SUITE=$DSUITE
. tests/lib.sh
. tests/distro/chroot.sh
ROOT=
trap '[ -n "$ROOT" ] && distro_leave "$ROOT"; rm -rf "$TMP"' EXIT

why=$(distro_unusable)
if [ -n "$why" ]; then
	skip chroot "$why"
	end_suite
	exit 0
fi

# The cached chroot with the dependencies in: `make deps` still runs on it and installs what
# a changed DEPS list adds (the cache is then saved again).
deps_tar=$DISTRO_CACHE/$DSUITE-deps.tar
t0=$SECONDS
if [ -s "$deps_tar" ]; then
	tar=$deps_tar
else
	tar=$(distro_tarball "$DSUITE" "$DSUITE-base" "") || {
		fail chroot "mmdebstrap $DSUITE failed (mirror $(distro_mirror))"
		end_suite
		exit 1
	}
fi
ROOT=$(mktemp -d /var/tmp/lattop-$DSUITE.XXXXXX) && rmdir "$ROOT"
if ! distro_enter "$tar" "$ROOT"; then
	fail chroot "could not unpack or mount the chroot in $ROOT"
	end_suite
	exit 1
fi
pass chroot
echo "# chroot ready in $((SECONDS - t0)) s ($(basename "$tar"))"

# The project: its tracked and new files, copied.
mkdir -p "$ROOT/root/lattop"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - |
	tar -C "$ROOT/root/lattop" -xf -

# The README's command, then the build.
t1=$SECONDS
if distro_run "$ROOT" sh -c 'cd /root/lattop && apt-get -q update &&
	apt-get install -y -q make && make deps' >"$TMP/deps.log" 2>&1; then
	pass make-deps
	# Keep the chroot with its packages for the next run (not the project, not the mounts).
	if [ "$tar" != "$deps_tar" ] || grep -q '^installing:' "$TMP/deps.log"; then
		tar -C "$ROOT" --one-file-system --exclude=./root/lattop -cf "$deps_tar.tmp.tar" . &&
			mv -f "$deps_tar.tmp.tar" "$deps_tar"
	fi
else
	fail make-deps "$(tail -n 5 "$TMP/deps.log")"
fi
echo "# make deps: $((SECONDS - t1)) s"
t1=$SECONDS
if distro_run "$ROOT" sh -c 'cd /root/lattop && make -j2 all unit' >"$TMP/build.log" 2>&1
then pass make-all; else fail make-all "$(grep -m 5 -E 'error|Error' "$TMP/build.log")"; fi
echo "# compiler warnings: $(grep -c 'warning:' "$TMP/build.log")"
echo "# make all unit: $((SECONDS - t1)) s"
echo "# toolchain: $(distro_run "$ROOT" sh -c 'gcc -dumpfullversion; clang -dumpversion;
	bpftool version | head -n 1; pkg-config --modversion libbpf' | tr '\n' ' ')"
out=$(distro_run "$ROOT" /root/lattop/lattop --version 2>&1)
echo "$out" | sed 's/^/# /'
expect_eq version-libbpf "$(sed -n 2p <<<"$out" | grep -oE '^libbpf [0-9]+\.[0-9]+')" \
	"libbpf $(distro_run "$ROOT" pkg-config --modversion libbpf | cut -d. -f1-2)"

# inner NAME CMD: run a suite inside the chroot; its PASS/FAIL/SKIP lines are this suite's,
# named "NAME/...", and a suite that exits non-zero without a FAIL line fails.
inner() {
	local name=$1 log="$TMP/inner.log" rc
	shift
	distro_run "$ROOT" sh -c "cd /root/lattop && OUTPUT=.output $*" >"$log" 2>&1
	rc=$?
	grep -E '^(PASS|FAIL|SKIP) ' "$log" | while read -r word rest; do
		echo "$word $SUITE/$name/${rest#*/}"
		echo >>"$TMP/checks"
	done
	# What a failing check printed before its FAIL line (assertion details).
	grep -B3 '^FAIL ' "$log" | grep -vE '^(PASS|FAIL|SKIP|--)' | sed 's/^/#   /'
	if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
		fail "$name" "exited $rc without a FAIL line: $(tail -n 3 "$log" | tr '\n' ' ')"
	fi
}

t1=$SECONDS
for t in "$ROOT"/root/lattop/.output/tests/test_*; do
	[ -x "$t" ] && inner "unit-$(basename "$t")" ".output/tests/$(basename "$t")"
done
for t in tests/host/${HOST_TESTS:-t_*}.sh; do
	inner "host-$(basename "$t" .sh)" bash "$t"
done
echo "# unit and host suites: $((SECONDS - t1)) s"

# The package builds here too (make deb without git: the tree is a copy) and this release's
# lintian finds nothing in it.
t1=$SECONDS
if distro_run "$ROOT" sh -c 'cd /root/lattop && make deb' >"$TMP/deb.log" 2>&1; then
	pass deb-build
	deb=$(cd "$ROOT/root/lattop/.output/deb" && ls lattop_*.deb 2>/dev/null | grep -v dbgsym)
	echo "# $deb: $(stat -c %s "$ROOT/root/lattop/.output/deb/$deb") bytes; Depends:" \
		"$(dpkg-deb -f "$ROOT/root/lattop/.output/deb/$deb" Depends)"
	distro_run "$ROOT" lintian --fail-on error,warning "/root/lattop/.output/deb/$deb" \
		>"$TMP/lintian" 2>&1
	rc=$?
	sed 's/^/# lintian: /' "$TMP/lintian"
	if [ $rc -eq 0 ] && ! grep -qE '^[EW]: ' "$TMP/lintian"; then pass deb-lintian; else
		fail deb-lintian "lintian reports errors or warnings (above)"; fi
else
	fail deb-build "$(tail -n 5 "$TMP/deb.log")"
fi
echo "# make deb and lintian: $((SECONDS - t1)) s"
end_suite
