#!/usr/bin/env bash
# lattop's one test runner: unit, sanitizers, host BPF, tmux UI and VM suites.
# Every suite prints "PASS <suite>/<name>" or "FAIL <suite>/<name>: why" lines; this script
# counts them, treats a suite that exits non-zero without a FAIL line as one failure, and ends
# with "N passed, M failed" (exit 1 when M > 0).
set -uo pipefail
cd "$(dirname "$0")/.."
OUTPUT=${OUTPUT:-.output}
MAKE=${MAKE:-make}
export OUTPUT
LOG=$OUTPUT/test-logs
mkdir -p "$LOG"
passed=0 failed=0
failures=()

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
}

# Unit tests (pure C).
for t in "$OUTPUT"/tests/test_*; do
	[ -x "$t" ] && suite "unit-$(basename "$t")" "$t"
done

# ASan/UBSan: unit tests and a short live demo run under the sanitizers.
suite asan bash tests/sanitize.sh address,undefined
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
