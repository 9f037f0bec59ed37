#!/usr/bin/env bash
# The documentation stays true: the man page renders without warnings and names every option
# --help lists; the README's two commands are the ones .ci/run and the man page give.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=docs

out=$(groff -man -ww -z man/lattop.8 2>&1)
expect_eq man-no-warnings "$out" ""
for opt in $($LATTOP --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	esc=$(echo "$opt" | sed 's/-/\\\\-/g')
	if grep -q -- "$esc" man/lattop.8; then pass "man-has$opt"; else fail "man-has$opt" "man page lacks $opt"; fi
done
test_cmd=$(grep -m2 -E '^    apt-get update' README.md | tail -n1 | sed 's/^    //')
check readme-test-cmd-in-ci grep -qF "${test_cmd#apt-get update && }" .ci/run
check readme-demo-cmd grep -qE '^    apt-get update .*\./lattop --demo$' README.md

# make install puts the binary and the man page under PREFIX (DESTDIR for staging).
make -s install DESTDIR="$TMP/stage" PREFIX=/usr >"$TMP/inst.log" 2>&1
check install-binary test -x "$TMP/stage/usr/sbin/lattop"
check install-man test -f "$TMP/stage/usr/share/man/man8/lattop.8"
check install-spans test -f "$TMP/stage/usr/share/lattop/spans/sched-wakeup.json"
