#!/usr/bin/env bash
# Build a sanitizer variant (SAN=address,undefined or thread) in its own OUTPUT and run the
# tests that exercise threads and memory under it. Prints PASS/FAIL lines.
# clang-undefined: the readers of files from elsewhere (recordings, profiles, spans files)
# built by clang with UBSan, float-cast-overflow included and no recovery, running their unit
# tests and replays of crafted files (tests/host/t_readers.sh, t_escape.sh): an out-of-range
# JSON number converted to an integer aborts there, which gcc's -fsanitize=undefined misses.
set -uo pipefail
cd "$(dirname "$0")/.."
san=$1
out=${OUTPUT:-.output}/san-${san//,/-}
build=(SAN="$san")
if [ "$san" = clang-undefined ]; then
	build=(CC=clang SAN=undefined,float-cast-overflow
		CFLAGS="-O1 -g -fno-sanitize-recover=all -Wno-unknown-warning-option")
fi
if ! make -s OUTPUT="$out" "${build[@]}" "$out/lattop" unit >"$out.build.log" 2>&1; then
	echo "FAIL san-$san/build: see $out.build.log"
	tail -n 20 "$out.build.log"
	exit 1
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
if [ "$san" = thread ]; then
	tests="$out/tests/test_spsc $out/tests/host/collector_test $out/tests/host/spanage_test"
elif [ "$san" = clang-undefined ]; then
	tests=$(for t in text rec rec_helpers rec_escape recorder profile opts opts_rec model hist \
		columns theme; do echo "$out/tests/test_$t"; done)
else
	tests=$(ls "$out"/tests/test_* "$out"/tests/host/collector_test \
		"$out"/tests/host/spanage_test 2>/dev/null)
fi
for t in $tests; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	if "$t" >"$out.$name.log" 2>&1; then
		echo "PASS san-$san/$name"
	else
		echo "FAIL san-$san/$name: see $out.$name.log"
		tail -n 30 "$out.$name.log"
	fi
done
# The readers under clang's UBSan: crafted recordings, profiles and spans files replayed and
# refused by the real binary (their checks print PASS/FAIL lines under this suite's name).
if [ "$san" = clang-undefined ]; then
	for t in t_readers t_escape; do
		LATTOP=$out/lattop OUTPUT=$out SUITE_PREFIX="san-$san/" bash "tests/host/$t.sh"
	done
	exit 0
fi
# The whole binary live under ASan/UBSan: demo load, collector, queues, model, batch output.
if [ "$san" != thread ]; then
	if "$out/lattop" --demo -b -n 2 -d 0.3 -o json >"$out.live.log" 2>&1 &&
		[ "$(grep -c '"rows"' "$out.live.log")" = 2 ]; then
		echo "PASS san-$san/live-demo"
	else
		echo "FAIL san-$san/live-demo: see $out.live.log"
		tail -n 30 "$out.live.log"
	fi
	# Spans: spans file parsing, the spans object's load/attach/teardown, segments rows.
	if "$out/lattop" -b -n 2 -d 0.3 -o json --spans spans/sched-wakeup.json \
		-u "$out/tests/host/spanfix:spanfix_work" >"$out.spans.log" 2>&1 &&
		[ "$(grep -c '"mode":"segments"' "$out.spans.log")" = 2 ]; then
		echo "PASS san-$san/live-spans"
	else
		echo "FAIL san-$san/live-spans: see $out.spans.log"
		tail -n 30 "$out.spans.log"
	fi
fi
