#!/usr/bin/env bash
# Spans aggregated in the kernel (the default) against the ring-buffer path (LATTOP_PATH=ring,
# --raw): exact counts at a high rate, the same counts and percentiles for the same calls,
# every sample still in a --raw recording, and the aggregates' budget.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-span-agg
FIX=$OUTPUT/tests/host/spanfix
FIXABS=$(readlink -f "$FIX")
# Possible CPUs (what each span has a record for), from the kernel's list ("0-1", "0,2-5").
NCPU=$(python3 -c 'import sys; print(sum(int(b) - int(a) + 1 if "-" in r else 1 for r in open("/sys/devices/system/cpu/possible").read().strip().split(",") for a, b in [r.split("-") if "-" in r else (r, r)]))')

coproc SF { "$FIX"; }
read -r _ fixpid <&"${SF[0]}"

# agg_entries PID: the entries of each in-kernel aggregate array (9,024-byte lat_agg values)
# the session PID holds, from its fds: what proves which path its spans take. (No -p and no
# helpers mode: no program is watched, so the spans' array is the session's only one.)
agg_entries() {
	local f out=
	for f in /proc/"$1"/fdinfo/*; do
		grep -q '^value_size:[[:space:]]*9024$' "$f" 2>/dev/null || continue
		out+="$(awk '/^max_entries:/ { print $2 }' "$f") "
	done
	echo "${out% }" | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# start_session NAME ARGS...: a batch JSON session in the background (env settings before
# the binary: `env LATTOP_PATH=ring`), waited for until its first report (attached); sets lat.
# (The caller waits for the previous session's lock: wait_gone.)
start_session() {
	local name=$1; shift
	env "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" &
	lat=$!
	wait_report "$TMP/$name.json"
}
# field NAME EXPR: a Python expression over the last report of session NAME (d; its span
# rows by name in r).
field() {
	python3 -c 'import json,sys
d=[json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
r={x["span"]: x for x in d["rows"]}
print(eval(sys.argv[2]))' "$TMP/$1.json" "$2"
}

# A span on a hot pair of tracepoints: getppid's syscall enter and exit, keyed by thread,
# filtered to the fixture (whose threads share its name). Two threads of 1,000,000 calls
# each: every call is one sample.
cat >"$TMP/hot.json" <<JSON
{ "spans": [ { "name": "hot_getppid", "filter": { "comm": "spanfix" },
  "start": { "kind": "tracepoint", "probe": "syscalls:sys_enter_getppid" },
  "end": { "kind": "tracepoint", "probe": "syscalls:sys_exit_getppid" } } ] }
JSON
N=1000000 T=2
# hot NAME [ENV...]: one session alone on the hot span while the fixture drives it; sets
# calls, rate (calls/s the fixture drove) and entries (agg_entries while it ran).
hot() {
	local name=$1 ns; shift
	wait_gone
	start_session "$name" "$@" $LATTOP -b -o json -c -d 0.5 -D 600 --spans "$TMP/hot.json"
	entries=$(agg_entries $lat)
	echo "hot $N $T" >&"${SF[1]}"; read -r _ calls ns <&"${SF[0]}"
	rate=$((calls * 1000000000 / ns))
	end_session $lat "$TMP/$name.json"
	expect_eq "$name-exit" $? 0
}
hot hot-agg
expect_eq hot-agg-calls "$calls" $((N * T))
# Four records per (span, CPU), the span's wall time and its on-CPU, runnable and sleeping
# parts (a span keyed by thread is split): the samples were aggregated in the kernel, not sent
# as events.
expect_eq hot-agg-path "$entries" "$((4 * NCPU))"
agg_count=$(field hot-agg "r['hot_getppid']['count']")
echo "measured: aggregated path: $calls calls at $rate spans/s, counted $agg_count"
expect_eq hot-agg-count-exact "$agg_count" $((N * T))
expect_eq hot-agg-no-drops "$(field hot-agg "d['drops']['ringbuf'] + d['drops']['queue']")" 0
expect_eq hot-agg-losses "$(field hot-agg "'/'.join(str(r['hot_getppid'][k]) for k in ('unmatched', 'evicted', 'collided', 'overflow'))")" 0/0/0/0
agg_p50=$(field hot-agg "r['hot_getppid']['p50_ns']")

hot hot-ring LATTOP_PATH=ring
# The ring path keeps no aggregate (a 1-entry array, never written).
expect_eq hot-ring-path "$entries" 1
ring_count=$(field hot-ring "r['hot_getppid']['count']")
ring_drops=$(field hot-ring "d['drops']['ringbuf'] + d['drops']['queue']")
echo "measured: ring path: $calls calls at $rate spans/s, counted $ring_count, $ring_drops dropped; p50 $(field hot-ring "r['hot_getppid']['p50_ns']") ns (aggregated: $agg_p50 ns)"
# Every sample counted or dropped on screen, never lost silently; what arrived matches the
# aggregated path's count once the drops are added back.
expect_eq hot-ring-accounted "$((ring_count + ring_drops))" "$agg_count"
if [ "$ring_drops" = 0 ]; then
	expect_eq hot-ring-count-same "$ring_count" "$agg_count"
else
	skip hot-ring-count-same "the ring path dropped $ring_drops of $calls samples at $rate/s (counted)"
fi

# The same calls timed by two sessions at once, one per path (each with its own session
# lock): the aggregated session and a --raw recording (the ring path). 1,000 calls of 500 us
# to 3,000 us in steps of 25 us (each percentile's rank mid-step). The two sessions' probes
# run one after the other, which moves a sample by a microsecond or two (<= 0.4%); each
# session reports a percentile as its bucket's upper bound, and two values that close may
# still fall in adjacent buckets, so they agree within one bucket's width (2^-6 of the
# value's power of two: 0.8% to 1.6%, the histogram's resolution) plus 0.4%.
# near A B: true when A and B agree that closely.
near() {
	python3 -c "import sys; a, b = $1, $2; m = max(a, b); sys.exit(not (abs(a - b) <= 2 ** (m.bit_length() - 1 - 6) + 0.004 * m))"
}
ARGS=(-b -o json -c -d 0.5 -D 600 -u "$FIXABS:spanfix_work")
wait_gone
start_session pair-agg $LATTOP "${ARGS[@]}"
pa=$lat
start_session pair-raw LATTOP_LOCK="$TMP/second.lock" $LATTOP "${ARGS[@]}" -w "$TMP/pair.lrec" --raw
pr=$lat
expect_eq pair-paths "$(agg_entries $pa)/$(agg_entries $pr)" "$((4 * NCPU))/1"
echo "ladder 1000" >&"${SF[1]}"; read -r _ laddered <&"${SF[0]}"
end_session $pa "$TMP/pair-agg.json"
expect_eq pair-agg-exit $? 0
end_session $pr "$TMP/pair-raw.json"
expect_eq pair-raw-exit $? 0
expect_eq pair-calls "$laddered" 1000
expect_eq pair-counts "$(field pair-agg "r['spanfix_work']['count']")/$(field pair-raw "r['spanfix_work']['count']")" 1000/1000
# (Not the max: one sample, which a preemption between the two sessions' probes moves.)
for p in p50_ns p95_ns p99_ns avg_ns; do
	a=$(field pair-agg "r['spanfix_work']['$p']"); b=$(field pair-raw "r['spanfix_work']['$p']")
	echo "measured: $p aggregated $a ns, ring $b ns"
	check "pair-$p-match" near "$a" "$b"
done
# The recording holds every sample as an event (--raw), and their exact percentiles lie as
# close to the aggregated session's.
$LATTOP -r "$TMP/pair.lrec" --events -o csv >"$TMP/pair-ev.csv" 2>"$TMP/pair-ev.err"
expect_eq pair-events-exit $? 0
read -r nev e50 e99 < <(python3 - "$TMP/pair-ev.csv" <<'PY'
import csv, math, sys
d = sorted(int(r['dur_ns']) for r in csv.DictReader(open(sys.argv[1]))
           if r['prog_name'] == 'spanfix_work' and r['kind'] == '3')  # not its parts (kind 6)
q = lambda p: d[max(1, math.ceil(p * len(d))) - 1] if d else 0
print(len(d), q(0.5), q(0.99))
PY
)
expect_eq pair-raw-events "$nev" 1000
a50=$(field pair-agg "r['spanfix_work']['p50_ns']"); a99=$(field pair-agg "r['spanfix_work']['p99_ns']")
echo "measured: recorded events p50 $e50 ns, p99 $e99 ns; aggregated p50 $a50 ns, p99 $a99 ns"
check pair-events-p50 near "$a50" "$e50"
check pair-events-p99 near "$a99" "$e99"

# The aggregates' budget: spans whose records do not fit go through the ring buffer, counted
# in agg_over_budget, and still count every sample.
wait_gone
start_session budget LATTOP_AGG_BUDGET=4096 $LATTOP -b -o json -c -d 0.5 -D 600 \
	-u "$FIXABS:spanfix_work"
entries=$(agg_entries $lat)
echo mix >&"${SF[1]}"; read -r _ mixed _ <&"${SF[0]}"
end_session $lat "$TMP/budget.json"
expect_eq budget-exit $? 0
expect_eq budget-path "$entries" 1
expect_eq budget-count "$(field budget "r['spanfix_work']['count']")/$mixed" 1100/1100
expect_eq budget-counted "$(field budget "d.get('counters', {}).get('agg_over_budget')")" 1

echo quit >&"${SF[1]}"
wait
end_suite
