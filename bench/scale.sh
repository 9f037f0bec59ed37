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
echo "scale: $N programs against 10, ${SECS} s at 1 s intervals (bpf_stats$(grep -q '"probes"' "$TMP/out.json" && echo ' and probes' || echo ' only: no fentry here'))"
printf '  %-28s %12s %12s %8s\n' "" "10 programs" "$N programs" ratio
awk -v a="$bs" -v b="$ss" 'BEGIN { printf "  %-28s %11.3fs %11.3fs %8.2f\n", "start to first report (-d 1)", a, b, (a > 0 ? b / a : 0) }'
awk -v a="$bu" -v b="$su" 'BEGIN { printf "  %-28s %11.2f%% %11.2f%% %8.2f\n", "UI thread CPU (% of a core)", a, b, (a > 0 ? b / a : 0) }'
awk -v a="$bp" -v b="$sp" 'BEGIN { printf "  %-28s %11.2f%% %11.2f%% %8.2f\n", "process CPU (% of a core)", a, b, (a > 0 ? b / a : 0) }'
awk -v a="$bm" -v b="$sm" 'BEGIN { printf "  %-28s %10d KiB %8d KiB %8.2f\n", "peak memory (VmHWM)", a, b, (a > 0 ? b / a : 0) }'
