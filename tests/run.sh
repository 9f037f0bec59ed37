#!/usr/bin/env bash
# lattop's one test runner: the include rule, unit, sanitizers, host BPF, tmux UI, the Debian
# package and VM suites.
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
touch "$LOG/.run-start" # what this run built is newer than this
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

# Run one suite command into its log; its exit status and seconds go to NAME.rc and NAME.time
# beside the log (so that suites run in the background can be reported later).
suite_run() {
	local name=$1; shift
	local t0=$SECONDS rc
	"$@" >"$LOG/$name.log" 2>&1
	rc=$?
	echo "$rc" >"$LOG/$name.rc"
	echo "$((SECONDS - t0))" >"$LOG/$name.time"
}

# Echo the PASS/FAIL lines of a suite that suite_run ran, tally them, check its END line.
suite_report() {
	local name=$1; shift
	local log="$LOG/$name.log" rc
	rc=$(cat "$LOG/$name.rc")
	echo "== $name ($(cat "$LOG/$name.time") s)"
	grep -E '^(PASS|FAIL|SKIP) ' "$log" || true
	local p f
	p=$(grep -c '^PASS ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	passed=$((passed + p))
	failed=$((failed + f))
	# The VM suites' lines all read "FAIL vm/...": the list names the kernel's suite too.
	local tag=
	[[ $name == vm* ]] && tag=" [$name]"
	while read -r l; do failures+=("$l$tag"); done < <(grep '^FAIL ' "$log")
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

# Run one suite command, echo its PASS/FAIL lines, tally them.
suite() {
	suite_run "$@"
	suite_report "$@"
}

# VM: stock Debian kernels under QEMU (fentry/kprobes/vhost), when the harness exists: the
# EventHeader suite on the user_events kernel the tests build (tests/vm/uevents), Debian 13's
# 6.12 PREEMPT_RT, Debian 12's 6.1, Debian 13's 6.12, and 6.12 booted with preempt=full for
# the preemption test; Debian 12's 6.1 PREEMPT_RT too with VM_61RT=1 (6.12-rt took its place
# as the RT kernel: both do not fit the CI time).
# Single-threaded TCG keeps each boot on one host core, and a boot keeps it ~70% busy (its
# tests wait on sessions' intervals too). So every lane (VM_JOBS, 2) starts at once, in the
# background, beside the host suites; each lane takes the next suite of the list that no other
# lane has claimed (mkdir is the claim). Each suite has its own log and is reported, in the
# list's order, once all are done.
vm_suites=()
if [ -f tests/vm/run.sh ] && [ "${SKIP_VM:-0}" != 1 ]; then
	# NAME:TARGET[:TESTS:INSTANCE]: each big kernel suite in two boots, its segments tests
	# (t_5*, about half its time) in a run directory of their own (VM_INSTANCE), so that the
	# lanes end together instead of one kernel's whole suite running alone at the end. The RT
	# kernel runs what preemption can break: the programs' exact counts (t_10), nesting
	# (t_11), the in-kernel aggregates (t_15), preempted runs (t_18), helpers (t_20) and the
	# segments' pairing and FIFOs (t_50-t_52). What does not depend on preemption (the count
	# boundary, --no-stats, flight, the default watch, helper variants, spans, Prometheus,
	# the degraded kernels, the segments' filter, IPv6 and paths) runs on the standard 6.12,
	# the same kernel version: on RT it took ~1,000 s of a CI run's ~2,000 s of lane time.
	# The 6.1 boot also runs x_61_fleet (the host's Prometheus scraping the guest's lattop:
	# the dashboard's probe queries, ~20 s) rather than a boot of its own.
	# The kernels CI does not run whole get a smoke boot each: programs (t_10: exact counts),
	# helpers (t_20) and spans (on 5.10, which has no BPF link cookies, the sentence that says
	# so), plus the guest with CPU 256 online (vm-bigcpu: t_16b, exact per-CPU counts past 255).
	# Tests whose kernel side is the same on 6.1 and 6.12 run once, on 6.12 (the faster
	# boot): the count boundary (t_14), --no-stats (t_16), the flight recorder (t_17), the
	# helper probes' share of the budget (t_19b: user space over the helpers t_20 checks on
	# both) and the spans' breakdown (t_45: its groups are slots of the aggregates t_41 and t_43
	# check on both); and
	# the segments' filter, IPv6 and paths (t_53-t_55: flow matching and path handling in user
	# space and the same probes as t_50-t_52) on 6.1 only.
	# The arm64 lane (Debian 13's arm64 6.12, cross-built binaries: make vmtest-arm64) is a
	# smoke test: TCG runs an arm64 guest 3 to 18 times slower than an x86 one, test by test
	# (t_0* t_1* t_2* t_4* take ~35 minutes there: make vmtest-arm64, tests/vm/README.md). One
	# boot for fentry's exact counts (t_00), programs mode with the flight recorder (t_17),
	# helpers' exact per-map counts (t_20), spans on fentry (t_41) and on uprobes keyed by an
	# argument register (t_43): 222 s of wall time and one core at host load ~3.
	VM_ARM64_SMOKE=${VM_ARM64_SMOKE:-t_00* t_17* t_20* t_41* t_43*}
	vm_suites+=(vm-uevents:vmtest-uevents
		"vm-612-rt:vmtest-612-rt:t_0* t_1[0158]* t_20*:" "vm-612-rt-seg:vmtest-612-rt:t_5[0-2]*:seg"
		"vm-seg:vmtest:t_5*:seg" "vm:vmtest:t_0* t_1[0158]* t_19_* t_[236-9]* t_4[0-4]* x_61*:"
		"vm-612-seg:vmtest-612:t_5[0-2]*:seg" "vm-612:vmtest-612:t_[0-46-9]*:"
		vm-bigcpu:vmtest-bigcpu "vm-arm64:vmtest-arm64:$VM_ARM64_SMOKE:"
		"vm-510-smoke:vmtest-510:t_00* t_10* t_20* t_4*:smoke"
		"vm-619-smoke:vmtest-619:t_00* t_10* t_20* t_41*:smoke"
		vm-612-full:vmtest-612-full)
	[ "${VM_61RT:-0}" = 1 ] && vm_suites+=(vm-rt:vmtest-rt)
fi

# Run (or report, with suite_report) one entry of vm_suites.
vm_suite() {
	local how=$1 name target tests instance
	IFS=: read -r name target tests instance <<<"$2"
	if [ -n "$tests" ]; then
		"$how" "$name" env VM_TESTS="$tests" VM_INSTANCE="$instance" $MAKE -s "$target"
	else
		"$how" "$name" $MAKE -s "$target"
	fi
}
vm_jobs=${VM_JOBS:-2}
[[ $vm_jobs =~ ^[1-9][0-9]*$ ]] || vm_jobs=2
vm_lanes=()
rm -rf "$LOG/vm-claims"

# One lane: run every suite of the list not yet claimed by another lane, in order.
vm_lane() {
	local s
	for s in "${vm_suites[@]}"; do
		mkdir "$LOG/vm-claims/${s%%:*}" 2>/dev/null || continue
		vm_suite suite_run "$s"
	done
}

# Start one more lane in the background (none when the binaries did not build).
vm_lane_start() {
	[ "${#vm_suites[@]}" -gt 0 ] && [ -d "$LOG/vm-claims" ] || return 0
	[ "${#vm_lanes[@]}" -lt "$vm_jobs" ] || return 0
	vm_lane &
	vm_lanes+=($!)
}

# Stopped (Ctrl-C, a CI timeout): the lanes and everything under them (their boots) stop too.
kill_tree() {
	local c
	for c in $(pgrep -P "$1"); do kill_tree "$c"; done
	kill "$1" 2>/dev/null
}
trap 'trap - INT TERM; for p in "${vm_lanes[@]}" ${quiet_pid:-}; do kill_tree "$p"; done; exit 130' INT TERM
vm_t0=$SECONDS
if [ "${#vm_suites[@]}" -gt 0 ]; then
	# The binaries first, once: makes started side by side would build them twice at once.
	suite_run vm-build $MAKE -s vmtest-bins
	# (the arm64 lane's cross build too, before t_arm64_build builds into the same directory
	# in the quiet stream: the lane's make then finds it done; it SKIPs without make deps-arm64,
	# and a failure shows in the lane, which builds again)
	suite_run vm-build-arm64 $MAKE -s vmtest-bins-arm64
	if [ "$(cat "$LOG/vm-build.rc")" = 0 ]; then
		mkdir -p "$LOG/vm-claims"
		for ((l = 0; l < vm_jobs; l++)); do vm_lane_start; done
	fi
fi

# The quiet suites: they load no BPF program and read none (source checks, unit tests, the
# clang UBSan build of the readers, fuzzing, replays and reports of recordings, the EventHeader
# reference's file format). They run in one stream in the background at nice 10, beside the
# host BPF suites below (which see every BPF program on the kernel, so nothing else may load
# one while they run) and the VM lanes, taking the CPU those leave; reported after them.
quiet=(
	"funclen bash tools/check-funclen.sh"       # no function in src/ over 80 lines
	"include bash tools/check-includes.sh"      # src/ folders only include downwards
	"ubsan-clang bash tests/sanitize.sh clang-undefined" # readers under clang UBSan
)
for t in "$OUTPUT"/tests/test_*; do # unit tests (pure C)
	[ -x "$t" ] && quiet+=("unit-$(basename "$t") $t")
done
# The arm64 cross build and package (t_arm64_build: make ARCH=arm64 and make deb ARCH=arm64,
# no BPF loaded) goes here too, last: the longest of the stream, on the CPU the others leave.
for t in fuzz readers escape replay_cost replay_helpers compare html_compare html eh_reference \
	arm64_build; do
	[ -f "tests/host/t_$t.sh" ] && quiet+=("host-t_$t bash tests/host/t_$t.sh")
done
quiet_names=" "
for q in "${quiet[@]}"; do quiet_names+="${q%% *} "; done
(
	renice -n 10 -p "$BASHPID" >/dev/null
	for q in "${quiet[@]}"; do
		read -ra c <<<"$q"
		suite_run "${c[@]}"
	done
) &
quiet_pid=$!

# ASan/UBSan: unit tests and a short live demo run under the sanitizers.
suite asan bash tests/sanitize.sh address,undefined
# TSan: the queue and collector tests (two threads) under ThreadSanitizer (the collector test
# loads a BPF producer).
suite tsan bash tests/sanitize.sh thread

# Host integration: real BPF on this kernel (root).
for t in tests/host/t_*.sh; do
	n=host-$(basename "$t" .sh)
	[ -f "$t" ] && [[ $quiet_names != *" $n "* ]] && suite "$n" bash "$t"
done

# UI: the real binary in tmux.
for t in tests/ui/t_*.sh; do
	[ -f "$t" ] && suite "ui-$(basename "$t" .sh)" bash "$t"
done

# Package: the .deb built, lintian-clean, installed with apt into fresh Debian 12 and 13
# chroots and purged (tests/pkg; the chroots are cached in tests/distro/.cache).
# The .deb that t_fleet_image's `make image` built in this run from this tree (make deb, the
# same command t_deb runs) is the one t_deb tests: one build of 60 to 90 s of CPU, not two
# beside the VM lanes. Any older .deb is built again.
if [ "${SKIP_PKG:-0}" != 1 ]; then
	deb=$OUTPUT/deb/lattop_$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)_$(dpkg --print-architecture).deb
	[ -z "${DEB:-}" ] && [ "$deb" -nt "$LOG/.run-start" ] && export DEB=$deb
	for t in tests/pkg/t_*.sh; do
		[ -f "$t" ] && suite "pkg-$(basename "$t" .sh)" bash "$t"
	done
fi

# The quiet stream's suites, in its order.
wait "$quiet_pid"
for q in "${quiet[@]}"; do
	read -ra c <<<"$q"
	suite_report "${c[@]}"
done

# The VM suites: once the lanes are done, every suite is reported in the list's order.
if [ "${#vm_suites[@]}" -gt 0 ]; then
	if [ "$(cat "$LOG/vm-build.rc")" != 0 ]; then
		echo "FAIL vm-build: make vmtest-bins exited $(cat "$LOG/vm-build.rc") (log: $LOG/vm-build.log)"
		tail -n 20 "$LOG/vm-build.log" | sed 's/^/    /'
		failed=$((failed + 1))
		failures+=("FAIL vm-build: make vmtest-bins")
	else
		wait "${vm_lanes[@]}"
		for s in "${vm_suites[@]}"; do
			vm_suite suite_report "$s"
		done
	fi
	echo "== VM suites: ${#vm_suites[@]} boots, $vm_jobs lanes, $((SECONDS - vm_t0)) s since the first boot"
fi

echo
if [ "$failed" -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
