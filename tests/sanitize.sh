#!/usr/bin/env bash
# Build a sanitizer variant (SAN=address,undefined or thread) in its own OUTPUT and run the
# tests that exercise threads and memory under it. Prints PASS/FAIL lines, then "END san-SAN N".
# clang-undefined: the readers of files from elsewhere (recordings, profiles, spans files)
# built by clang with UBSan, float-cast-overflow included and no recovery, running their unit
# tests and replays of crafted files (tests/host/t_readers.sh, t_escape.sh): an out-of-range
# JSON number converted to an integer aborts there, which gcc's -fsanitize=undefined misses.
set -uo pipefail
cd "$(dirname "$0")/.."
san=$1
out=${OUTPUT:-.output}/san-${san//,/-}
n=0
# say LINE: print a PASS/FAIL line and count it for the END line.
say() {
	echo "$1"
	n=$((n + 1))
}
build=(SAN="$san")
if [ "$san" = clang-undefined ]; then
	build=(CC=clang SAN=undefined,float-cast-overflow
		CFLAGS="-O1 -g -fno-sanitize-recover=all -Wno-unknown-warning-option")
fi
if ! make -s OUTPUT="$out" "${build[@]}" "$out/lattop" unit >"$out.build.log" 2>&1; then
	say "FAIL san-$san/build: see $out.build.log"
	tail -n 20 "$out.build.log"
	echo "END san-$san $n"
	exit 1
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
if [ "$san" = thread ]; then
	tests="$out/tests/test_spsc $out/tests/test_flight $out/tests/host/collector_test $out/tests/host/spanage_test"
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
	# (a program that exits 0 before its END line stopped early: a failure too)
	if "$t" >"$out.$name.log" 2>&1 && [ "$(grep '^END ' "$out.$name.log" | sed 's/.* //')" = \
		"$(grep -cE '^(PASS|FAIL|SKIP) ' "$out.$name.log")" ]; then
		say "PASS san-$san/$name"
	else
		say "FAIL san-$san/$name: see $out.$name.log"
		tail -n 30 "$out.$name.log"
	fi
done
# host_suite T: run tests/host/T.sh with the sanitized binary; its checks print PASS/FAIL lines
# under this suite's name and count towards its END line; its own END line is checked here.
host_suite() {
	LATTOP=$out/lattop OUTPUT=$out SUITE_PREFIX="san-$san/" bash "tests/host/$1.sh" \
		>"$out.$1.log" 2>&1
	grep -v '^END ' "$out.$1.log"
	k=$(grep -cE '^(PASS|FAIL|SKIP) ' "$out.$1.log")
	n=$((n + k))
	[ "$(grep '^END ' "$out.$1.log" | tail -n 1 | sed 's/.* //')" = "$k" ] ||
		say "FAIL san-$san/$1-end: it stopped before its END line (see $out.$1.log)"
}
# The readers under clang's UBSan: crafted recordings, profiles, spans files and perf.data
# files replayed and refused by the real binary.
if [ "$san" = clang-undefined ]; then
	for t in t_readers t_escape t_perfdata; do
		host_suite $t
	done
	echo "END san-$san $n"
	exit 0
fi
# The whole binary live under ASan/UBSan: demo load, collector, queues, model, batch output.
if [ "$san" != thread ]; then
	if "$out/lattop" --demo -b -n 2 -d 0.3 -o json >"$out.live.log" 2>&1 &&
		[ "$(grep -c '"rows"' "$out.live.log")" = 2 ]; then
		say "PASS san-$san/live-demo"
	else
		say "FAIL san-$san/live-demo: see $out.live.log"
		tail -n 30 "$out.live.log"
	fi
	# Spans: spans file parsing, the spans object's load/attach/teardown, segments rows.
	if "$out/lattop" -b -n 2 -d 0.3 -o json --spans spans/sched-wakeup.json \
		-u "$out/tests/host/spanfix:spanfix_work" >"$out.spans.log" 2>&1 &&
		[ "$(grep -c '"mode":"segments"' "$out.spans.log")" = 2 ]; then
		say "PASS san-$san/live-spans"
	else
		say "FAIL san-$san/live-spans: see $out.spans.log"
		tail -n 30 "$out.spans.log"
	fi
fi
# perf.data files read offline under ASan/UBSan: crafted ones (cut short, huge sizes, bad
# offsets, overlapping sections, absurd counts) refused or played without a sanitizer report.
if [ "$san" != thread ]; then
	host_suite t_perfdata
fi
# --listen under both sanitizers: the UI thread publishing snapshots every 0.2 s while
# libmicrohttpd's thread renders all three formats for back-to-back scrapes (TSan checks the
# hand-over, ASan/UBSan the rendering and the snapshots' lifetime).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$out/lattop" --demo --listen "$port" -d 0.2 -D 120 >"$out.listen.log" 2>&1 &
lpid=$!
for _ in $(seq 400); do # up to 40 s for the sanitized binary to load the demo and listen
	curl -s -o /dev/null "http://127.0.0.1:$port/metrics" && break
	kill -0 "$lpid" 2>/dev/null || break
	sleep 0.1
done
scrapes=0
for _ in $(seq 30); do
	for a in '*/*' 'application/openmetrics-text;version=1.0.0' \
		'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited'; do
		curl -s -m 5 -H "Accept: $a" "http://127.0.0.1:$port/metrics" 2>/dev/null |
			grep -qa lattop_intervals && scrapes=$((scrapes + 1))
	done
done
kill -INT "$lpid" 2>/dev/null
wait "$lpid"
rc=$?
if [ "$rc" = 0 ] && [ "$scrapes" -ge 30 ] && ! grep -q 'Sanitizer' "$out.listen.log"; then
	say "PASS san-$san/live-listen"
else
	say "FAIL san-$san/live-listen: exit $rc, $scrapes scrapes; see $out.listen.log"
	tail -n 30 "$out.listen.log"
fi
echo "END san-$san $n"
