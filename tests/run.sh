#!/usr/bin/env bash
# lattop's one test runner: the include rule, unit, sanitizers, host BPF, tmux UI and VM
# suites.
# Every suite prints "PASS <suite>/<name>", "FAIL <suite>/<name>: why" or "SKIP <suite>/<name>:
# why" lines and, last, "END <suite> <n>" (n: how many of those lines it printed). This script
# counts them, treats a suite that exits non-zero without a FAIL line as one failure, and a
# suite whose END line is missing (it stopped early) or disagrees with its lines as another;
# it ends with "N passed, M failed" (exit 1 when M > 0).
set -uo pipefail
cd "$(dirname "$0")/.."
OUTPUT=${OUTPUT:-.output}
MAKE=${MAKE:-make}
export OUTPUT
LOG=$OUTPUT/test-logs
mkdir -p "$LOG"
passed=0 failed=0
failures=()

# What a suite run by `suite NAME CMD...` must add to print its END line.
end_hint() {
	local cmd="$*"
	case "$cmd" in
	"bash tests/"*/t_*.sh) echo "add 'end_suite' (tests/lib.sh) as the last line of ${cmd#bash }" ;;
	"bash tests/sanitize.sh"*) echo "tests/sanitize.sh must end with its END line" ;;
	*/tests/test_*) echo "return TEST_EXIT() (tests/unit/test.h) at the end of main() in tests/unit/$(basename "$1").c" ;;
	*vmtest*) echo "tests/vm/run.sh must end with 'END vm <n>'" ;;
	*) echo "print 'END <suite> <number of PASS/FAIL/SKIP lines>' as its last line" ;;
	esac
}

# The END line check: one FAIL line (echoed and tallied) when the marker is missing or its
# count differs from the PASS/FAIL/SKIP lines in the log.
check_end() {
	local name=$1 log=$2 end n why=; shift 2
	end=$(grep -E '^END ' "$log" | tail -n 1)
	n=$(grep -cE '^(PASS|FAIL|SKIP) ' "$log")
	if [ -z "$end" ]; then
		why="no 'END <suite> <n>' line: it stopped early, or it does not print one ($(end_hint "$@"))"
	elif [ "${end##* }" != "$n" ]; then
		why="'$end' but it printed $n PASS/FAIL/SKIP lines (a check printed in the wrong format, or lost)"
	fi
	[ -n "$why" ] || return 0
	echo "FAIL $name/end: $why"
	failed=$((failed + 1))
	failures+=("FAIL $name/end: $why")
}

# Run one suite command, echo its PASS/FAIL lines, tally them.
suite() {
	local name=$1; shift
	local log="$LOG/$name.log" rc t0=$SECONDS
	"$@" >"$log" 2>&1
	rc=$?
	echo "== $name ($((SECONDS - t0)) s)"
	grep -E '^(PASS|FAIL|SKIP) ' "$log" || true
	local p f
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	passed=$((passed + p))
	failed=$((failed + f))
	while read -r l; do failures+=("$l"); done < <(grep '^FAIL ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $name: exited $rc without a FAIL line (log: $log)"
		tail -n 20 "$log" | sed 's/^/    /'
		failed=$((failed + 1))
		failures+=("FAIL $name: exit $rc")
	elif [ "$f" -gt 0 ]; then
		grep -B3 -A4 '^FAIL ' "$log" | grep -v '^PASS' | sed 's/^/    /' | head -n 40
	fi
	check_end "$name" "$log" "$@"
}

# Source checks: no function in src/ over 80 lines (tools/funclen-allow.txt lists the ones
# still being split).
suite funclen bash tools/check-funclen.sh

# The include rule of src/ (tools/check-includes.sh): folders only include downwards, no cycle.
suite include bash tools/check-includes.sh

# Unit tests (pure C).
for t in "$OUTPUT"/tests/test_*; do
	[ -x "$t" ] && suite "unit-$(basename "$t")" "$t"
done

# ASan/UBSan: unit tests and a short live demo run under the sanitizers.
suite asan bash tests/sanitize.sh address,undefined
# clang UBSan (float-cast-overflow, no recovery): the readers of recordings, profiles and
# spans files, on crafted files.
suite ubsan-clang bash tests/sanitize.sh clang-undefined
# TSan: the queue and collector tests (two threads) under ThreadSanitizer.
suite tsan bash tests/sanitize.sh thread

# Host integration: real BPF on this kernel (root).
for t in tests/host/t_*.sh; do
	[ -f "$t" ] && suite "host-$(basename "$t" .sh)" bash "$t"
done

# UI: the real binary in tmux.
for t in tests/ui/t_*.sh; do
	[ -f "$t" ] && suite "ui-$(basename "$t" .sh)" bash "$t"
done

# VM: stock Debian kernel under QEMU (fentry/kprobes/vhost), when the harness exists.
if [ -f tests/vm/run.sh ] && [ "${SKIP_VM:-0}" != 1 ]; then
	suite vm $MAKE -s vmtest
	# The same on Debian's PREEMPT_RT kernel (its checks that need /dev/kvm skip there).
	suite vm-rt $MAKE -s vmtest-rt
fi

echo
if [ "$failed" -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
