#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The Debian package as an admin meets it: build the .deb (make deb), lintian it, install it
# with apt into a fresh Debian chroot (Depends resolved from Debian), run lattop there on the
# host's kernel, verify the unit, try bash completion, purge, and check nothing is left.
# PKG_SUITES (default "bookworm trixie") names the releases; DEB=path skips the build.
set -uo pipefail
cd "$(dirname "$0")/../.."
SUITE=pkg
. tests/lib.sh
. tests/distro/chroot.sh
ROOT=
# The chroot is unmounted (and checked) before anything is removed; lib.sh's own cleanup after.
trap '[ -n "$ROOT" ] && distro_leave "$ROOT"; rm -rf "$TMP"' EXIT

VERSION=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
ARCH=$(dpkg --print-architecture 2>/dev/null)

why=$(distro_unusable)
for t in dpkg-buildpackage dh lintian; do
	command -v $t >/dev/null || why="$t is not installed (make deps)"
done
if [ -n "$why" ]; then
	skip deb "$why"
	end_suite
	exit 0
fi

# Build.
t0=$SECONDS
if [ -z "${DEB:-}" ]; then
	make -s deb >"$TMP/build.log" 2>&1 || { tail -n 30 "$TMP/build.log"; }
	DEB=$OUTPUT/deb/lattop_${VERSION}_${ARCH}.deb
fi
if [ ! -s "$DEB" ]; then
	fail build "no $DEB (dpkg-buildpackage -us -uc -b failed; log above)"
	end_suite
	exit 1
fi
pass build
echo "# build: $((SECONDS - t0)) s; $(basename "$DEB") $(stat -c %s "$DEB") bytes"
echo "# Depends: $(dpkg-deb -f "$DEB" Depends)"

# lintian: no error and no warning (overrides, each with its reason, in debian/).
lintian --fail-on error,warning "$DEB" >"$TMP/lintian" 2>&1
rc=$?
sed 's/^/# lintian: /' "$TMP/lintian"
if [ $rc -eq 0 ] && ! grep -qE '^[EW]: ' "$TMP/lintian"; then pass lintian; else
	fail lintian "lintian reports errors or warnings (above)"; fi

# The package holds what it says, and computes its runtime dependencies.
dpkg-deb -c "$DEB" | awk '{ print $6 }' | sed 's|^\.||' >"$TMP/files"
missing=
for f in /usr/sbin/lattop /usr/share/man/man8/lattop.8.gz /usr/share/lattop/themes/mono.json \
	/usr/share/lattop/spans/block-io.json /etc/default/lattop \
	/usr/share/bash-completion/completions/lattop /usr/share/zsh/vendor-completions/_lattop \
	/usr/share/doc/lattop/copyright; do
	grep -qx "$f" "$TMP/files" || missing="$missing $f"
done
grep -qE '^(/usr)?/lib/systemd/system/lattop.service$' "$TMP/files" ||
	missing="$missing lattop.service"
expect_eq holds-files "${missing:-none}" none
deps=$(dpkg-deb -f "$DEB" Depends)
check depends-computed grep -qE '(^|, )libbpf1( |,|$)' <<<"$deps"

# One release: a fresh chroot, the package installed by apt, lattop run, purged.
chroot_test() {
	local suite=$1 tar t1=$SECONDS in_deb unit out
	tar=$(distro_tarball "$suite" "$suite-pkg" systemd,man-db) || {
		fail "$suite-chroot" "mmdebstrap $suite failed (mirror $(distro_mirror))"
		return
	}
	ROOT=$(mktemp -d /var/tmp/lattop-chroot.XXXXXX) && rmdir "$ROOT"
	if ! distro_enter "$tar" "$ROOT"; then
		fail "$suite-chroot" "could not unpack or mount the chroot in $ROOT"
		return
	fi
	echo "# $suite: chroot ready in $((SECONDS - t1)) s"
	# What the tree holds before the package, to compare after the purge.
	distro_snapshot "$ROOT" >"$TMP/before"
	in_deb=/root/$(basename "$DEB")
	cp "$DEB" "$ROOT$in_deb"
	if distro_run "$ROOT" sh -c "apt-get -q update && apt-get install -y -q $in_deb" \
		>"$TMP/$suite-install" 2>&1; then pass "$suite-install"; else
		fail "$suite-install" "apt-get install failed: $(tail -n 3 "$TMP/$suite-install")"
	fi
	rm -f "$ROOT$in_deb"

	# --version: three lines, this version and a libbpf.
	out=$(distro_run "$ROOT" lattop --version 2>&1)
	expect_eq "$suite-version" "$(sed -n 1p <<<"$out"):$(sed -n 2p <<<"$out" | \
		grep -cE '^libbpf [0-9]+\.[0-9]+ '):$(wc -l <<<"$out")" "lattop $VERSION:1:3"

	# The demo on the host's kernel: two intervals, each with the rows of the four demo
	# programs, and every one of them ran (over both: on a loaded machine the drivers may not
	# have started within the first interval).
	distro_run "$ROOT" lattop --demo -b -n 2 -o json >"$TMP/$suite-demo.json" \
		2>"$TMP/$suite-demo.err"
	expect_eq "$suite-demo-rows" "$(json '[len(L)] + sorted({r["prog_name"]: sum(x["count"] for l in L for x in l["rows"] if x["prog_name"] == r["prog_name"]) > 0 for l in L for r in l["rows"] if r["prog_name"].startswith("demo_")}.items()) + [all(len({r["prog_name"] for r in l["rows"] if r["prog_name"].startswith("demo_")}) == 4 for l in L)]' "$TMP/$suite-demo.json" 2>&1)" \
		"[2, ('demo_sk_queue', True), ('demo_xdp_array', True), ('demo_xdp_hash', True), ('demo_xdp_lru', True), True]"

	# The unit: installed, valid, neither enabled nor started.
	unit=$(distro_run "$ROOT" sh -c 'ls /usr/lib/systemd/system/lattop.service \
		/lib/systemd/system/lattop.service 2>/dev/null | head -n 1')
	out=$(distro_run "$ROOT" systemd-analyze verify "$unit" 2>&1)
	if [ -n "$unit" ] && [ -z "$out" ]; then pass "$suite-unit-verify"; else
		fail "$suite-unit-verify" "systemd-analyze verify '$unit': $out"; fi
	expect_eq "$suite-unit-not-enabled" "$(distro_run "$ROOT" \
		systemctl is-enabled lattop.service 2>&1)" disabled

	# Completion: --li<TAB> offers --listen; every long option of --help is offered.
	out=$(distro_run "$ROOT" bash -c '. /usr/share/bash-completion/completions/lattop
		COMP_WORDS=(lattop --li); COMP_CWORD=1; _lattop; echo "${COMPREPLY[*]}"')
	expect_eq "$suite-complete-listen" "$out" --listen
	out=$(distro_run "$ROOT" bash -c '. /usr/share/bash-completion/completions/lattop
		COMP_WORDS=(lattop -m ""); COMP_CWORD=2; _lattop; echo "${COMPREPLY[*]}"')
	expect_eq "$suite-complete-mode" "$out" "programs helpers segments"
	out=$(distro_run "$ROOT" bash -c '. /usr/share/bash-completion/completions/lattop
		COMP_WORDS=(lattop --); COMP_CWORD=1; _lattop; printf "%s\n" "${COMPREPLY[@]}" | sort
		echo ==; lattop --help | grep -oE "^  (-., |    )--[a-z-]+" | grep -oE -- "--[a-z-]+" | sort')
	expect_eq "$suite-complete-all-options" "$(sed -n '1,/^==$/p' <<<"$out" | grep -v '^==$')" \
		"$(sed -n '/^==$/,$p' <<<"$out" | grep -v '^==$')"

	# Purge (with the dependencies it pulled in): nothing of the package is left.
	distro_run "$ROOT" apt-get purge -y -q --autoremove lattop >"$TMP/$suite-purge" 2>&1 ||
		fail "$suite-purge" "apt-get purge failed: $(tail -n 3 "$TMP/$suite-purge")"
	# Paths that are new since before the install and belong to no installed package (a
	# dependency another package recommends may stay, with its files), or that went away.
	distro_snapshot "$ROOT" >"$TMP/after"
	diff "$TMP/before" "$TMP/after" | sed -n 's/^> \.//p' >"$TMP/added"
	out=$( (diff "$TMP/before" "$TMP/after" | sed -n 's/^< \./gone: /p'
		[ -s "$TMP/added" ] && xargs -a "$TMP/added" -d '\n' chroot "$ROOT" \
			dpkg-query -S 2>&1 >/dev/null | sed -n 's/.*no path found matching pattern //p'
		) | head -n 10)
	if [ -z "$out" ]; then pass "$suite-purge-clean"; else
		fail "$suite-purge-clean" "left after the purge: $(echo $out)"; fi
	echo "# $suite: $(wc -l <"$TMP/added") paths of dependencies other packages recommend stay"
	expect_eq "$suite-purge-status" "$(distro_run "$ROOT" dpkg-query -W \
		-f='${db:Status-Abbrev}' lattop 2>/dev/null | tr -d ' ' | grep -v '^un$')" ""
	distro_leave "$ROOT" && ROOT=
	echo "# $suite: chroot test took $((SECONDS - t1)) s"
}

for s in ${PKG_SUITES:-bookworm trixie}; do
	chroot_test "$s"
done
end_suite
