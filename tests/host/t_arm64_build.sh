#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The arm64 cross build as a user runs it on this amd64 machine: make ARCH=arm64 builds an
# aarch64 lattop whose skeletons embed the BPF objects built for arm64 (their probes read
# arguments from x0-x7: bpf/arm64_regs.h), leaving ./lattop alone, and make deb ARCH=arm64
# builds an arm64 package that lintian passes like the amd64 one (tests/pkg/t_deb.sh). Loads
# no BPF program: tests/run.sh runs it in the quiet stream. Skipped until make deps-arm64.
set -uo pipefail
cd "$(dirname "$0")/../.."
SUITE=arm64
. tests/lib.sh

VERSION=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
XOUT=$OUTPUT-arm64
why=
for t in aarch64-linux-gnu-gcc aarch64-linux-gnu-pkg-config clang bpftool; do
	command -v $t >/dev/null || why="$t is not installed (make deps-arm64)"
done
[ -n "$why" ] || [ -f /usr/lib/aarch64-linux-gnu/pkgconfig/libbpf.pc ] ||
	why="libbpf-dev:arm64 is not installed (make deps-arm64)"
if [ -n "$why" ]; then
	skip arm64 "$why"
	end_suite
	exit 0
fi

# The ELF machine of a file, as readelf names it.
machine() { readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'; }

# The cross build, beside the native one (whose mkcomp it runs: HOST_OUTPUT, set before OUTPUT
# changes). OUTPUT comes from the environment, as tests/run.sh gives it, so that make deb's
# copy of the tree does not inherit it (make deb unsets it there).
t0=$SECONDS
before=$(sha256sum lattop 2>/dev/null)
HOST_OUTPUT=$OUTPUT OUTPUT=$XOUT nice -n 10 make -s ARCH=arm64 >"$TMP/build.log" 2>&1 ||
	tail -n 30 "$TMP/build.log"
echo "# make ARCH=arm64: $((SECONDS - t0)) s"
expect_eq binary-aarch64 "$(machine "$XOUT/lattop")" AArch64
expect_eq host-binary-untouched "$(sha256sum lattop 2>/dev/null)" "$before"
# Nor would the arm64 VM image's build (make vmtest-arm64 builds vmtest-bins-arm64): it once
# copied the arm64 lattop over ./lattop, which every host test then failed to run (status 126).
expect_eq vm-bins-leave-host-binary "$(HOST_OUTPUT=$OUTPUT OUTPUT=$XOUT make -n ARCH=arm64 vmtest-bins-arm64 2>&1 |
	grep -c -e ' lattop.tmp' -e '> *lattop$')" 0
check completions test -s "$XOUT/completion/lattop.bash" -a -s "$XOUT/completion/_lattop"

# Every BPF object is BPF, and the uprobe's arguments are arm64's registers.
bad=
for o in "$XOUT"/bpf/*.bpf.o; do
	[ "$(machine "$o")" = "Linux BPF" ] || bad="$bad $(basename "$o")"
done
expect_eq bpf-objects "$bad" ""
check bpf-arm64-regs grep -q "STRUCT 'user_pt_regs'" <(bpftool btf dump file "$XOUT/bpf/spans.bpf.o")

# Each arm64 skeleton embeds its arm64 object byte for byte: the string its __elf_bytes()
# returns, decoded from the C text (a program including the skeleton would need bpf/'s types).
cat >"$TMP/skelbytes.py" <<'PY'
import codecs, re, sys
text = open(sys.argv[1]).read()
m = re.search(r'__elf_bytes\(size_t \*sz\)\n\{\n\t\*sz = (\d+);\n\treturn \(const void \*\)"\\\n'
              r'(.*?)";\n\}', text, re.S)
data = codecs.escape_decode(m.group(2).replace('\\\n', '').encode())[0] if m else b""
sys.exit(0 if m and len(data) == int(m.group(1)) and data == open(sys.argv[2], "rb").read() else 1)
PY
bad= n=0
for o in "$XOUT"/bpf/*.bpf.o; do
	name=$(basename "$o" .bpf.o)
	if python3 "$TMP/skelbytes.py" "$XOUT/$name.skel.h" "$o"; then n=$((n + 1)); else
		bad="$bad $name"; fi
done
expect_eq skeletons-embed-arm64-objects "$bad" ""
check skeletons-checked test "$n" -ge 10

# The package: cross-built, arm64, its binary aarch64, lintian as strict as for amd64.
t1=$SECONDS
OUTPUT=$XOUT nice -n 10 make -s deb ARCH=arm64 >"$TMP/deb.log" 2>&1 || tail -n 30 "$TMP/deb.log"
DEB=$XOUT/deb/lattop_${VERSION}_arm64.deb
echo "# make deb ARCH=arm64: $((SECONDS - t1)) s"
if [ ! -s "$DEB" ]; then
	fail deb "no $DEB (log above)"
	end_suite
	exit 1
fi
pass deb
expect_eq deb-architecture "$(dpkg-deb -f "$DEB" Architecture)" arm64
dpkg-deb -x "$DEB" "$TMP/root"
expect_eq deb-binary-aarch64 "$(machine "$TMP/root/usr/sbin/lattop")" AArch64
lintian --fail-on error,warning "$DEB" >"$TMP/lintian" 2>&1
rc=$?
grep -v 'running with root privileges' "$TMP/lintian" | sed 's/^/# lintian: /'
if [ $rc -eq 0 ] && ! grep -qE '^[EW]: ' "$TMP/lintian"; then pass lintian; else
	fail lintian "lintian reports errors or warnings (above)"; fi
echo "# total: $((SECONDS - t0)) s"
end_suite
