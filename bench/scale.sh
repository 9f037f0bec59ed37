#!/usr/bin/env bash
# What 1,000 loaded programs cost lattop at 1 s intervals (issue 32), against 10 programs
# measured in the same run: its CPU (UI thread and whole process), its peak memory (VmHWM),
# and the time from start to the first report (one interval, the scan, and on a kernel with
# fentry the attaches).
# Every program runs a few times each 100 ms (tests/host/many --run). Root only. Prints the
# figures and their ratios; not a test: nothing passes or fails on a number. On a kernel
# without fentry (the development host) the programs are scanned, not probed: the probes'
# attach cost is measured in the VM (make vmbench; bench/README.md).
#
#   bash bench/scale.sh [SECONDS] [N]   (default 20 s per side after the first report, N 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
OUTPUT=${OUTPUT:-.output}
LATTOP=${LATTOP:-./lattop}
SECS=${1:-20}
N=${2:-1000}
export LATTOP_LOCK=${LATTOP_LOCK:-/tmp/lattop-bench.lock}

if [ "$(id -u)" != 0 ]; then
	echo "scale: skipped (needs root)"
	exit 0
fi
TMP=$(mktemp -d /tmp/lattop-scale.XXXXXX)
fix= lat=
cleanup() {
	[ -n "$lat" ] && kill "$lat" 2>/dev/null
	[ -n "$fix" ] && kill "$fix" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
ulimit -n "$(ulimit -Hn)"

# One side: n programs loaded and running; prints "startup_s ui_pct proc_pct hwm_kib".
side() {
	local n=$1 hz t0 t1 a0 p0 a1 p1
	hz=$(getconf CLK_TCK)
	"$OUTPUT/tests/host/many" "$n" --run >"$TMP/many.out" 2>&1 &
	fix=$!
	for _ in $(seq 300); do grep -q '^ready' "$TMP/many.out" 2>/dev/null && break; sleep 0.1; done
	rm -f "$TMP/out.json"
	t0=$(date +%s.%N)
	"$LATTOP" -b -o json -d 1 >"$TMP/out.json" 2>"$TMP/err" &
	lat=$!
	while [ ! -s "$TMP/out.json" ]; do sleep 0.05; done
	t1=$(date +%s.%N)
	a0=$(awk '{ print $14 + $15 }' "/proc/$lat/task/$lat/stat") p0=$(awk '{ print $14 + $15 }' "/proc/$lat/stat")
	sleep "$SECS"
	a1=$(awk '{ print $14 + $15 }' "/proc/$lat/task/$lat/stat") p1=$(awk '{ print $14 + $15 }' "/proc/$lat/stat")
	hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$lat/status")
	kill -INT "$lat"
	wait "$lat" || true
	lat=
	kill "$fix" 2>/dev/null
	wait "$fix" 2>/dev/null || true
	fix=
	awk -v s0="$t0" -v s1="$t1" -v a="$((a1 - a0))" -v p="$((p1 - p0))" -v hz="$hz" -v secs="$SECS" -v hwm="$hwm" \
		'BEGIN { printf "%.3f %.2f %.2f %d\n", (s1 - s0), a / hz / secs * 100, p / hz / secs * 100, hwm }'
}

read -r bs bu bp bm < <(side 10)
read -r ss su sp sm < <(side "$N")
# The same N programs without attribution (owners, containers, attach points: read when the
# program list changes and every 5 s): what reading them costs the UI thread.
read -r _ nu np _ < <(LATTOP_NO_ATTR=1 side "$N")
echo "scale: $N programs against 10, ${SECS} s at 1 s intervals (bpf_stats$(grep -q '"probes"' "$TMP/out.json" && echo ' and probes' || echo ' only: no fentry here'))"
printf '  %-28s %12s %12s %8s\n' "" "10 programs" "$N programs" ratio
awk -v a="$bs" -v b="$ss" 'BEGIN { printf "  %-28s %11.3fs %11.3fs %8.2f\n", "start to first report (-d 1)", a, b, (a > 0 ? b / a : 0) }'
awk -v a="$bu" -v b="$su" 'BEGIN { printf "  %-28s %11.2f%% %11.2f%% %8.2f\n", "UI thread CPU (% of a core)", a, b, (a > 0 ? b / a : 0) }'
awk -v a="$bp" -v b="$sp" 'BEGIN { printf "  %-28s %11.2f%% %11.2f%% %8.2f\n", "process CPU (% of a core)", a, b, (a > 0 ? b / a : 0) }'
awk -v a="$bm" -v b="$sm" 'BEGIN { printf "  %-28s %10d KiB %8d KiB %8.2f\n", "peak memory (VmHWM)", a, b, (a > 0 ? b / a : 0) }'
awk -v a="$nu" -v b="$su" 'BEGIN { printf "  %-28s %11.2f%% %11.2f%% %8.2f\n", "UI CPU, no attribution/with", a, b, (a > 0 ? b / a : 0) }'
# One attribution scan by itself (collect/attrib.c through tests/host/attrdump), 10 against N
# programs: the least of 30 scans (the mean carries the iterator's load and preemptions).
scan() {
	local n=$1 t
	# (stdin held open: without --run the fixture holds its programs until stdin ends)
	"$OUTPUT/tests/host/many" "$n" < <(sleep 300) >"$TMP/many.out" 2>&1 &
	fix=$!
	for _ in $(seq 300); do grep -q '^ready' "$TMP/many.out" 2>/dev/null && break; sleep 0.1; done
	t=$("$OUTPUT/tests/host/attrdump" -n 30 2>/dev/null | tail -n 1 |
		sed -n 's/.*"min_ns":\([0-9]*\).*/\1/p' | awk '{ printf "%.3f", $1 / 1e6 }')
	kill "$fix" 2>/dev/null
	wait "$fix" 2>/dev/null || true
	fix=
	echo "${t:-0}"
}
a10=$(scan 10)
aN=$(scan "$N")
awk -v a="$a10" -v b="$aN" 'BEGIN { printf "  %-28s %10.2fms %10.2fms %8.2f\n", "one attribution scan", a, b, (a > 0 ? b / a : 0) }'
