#!/usr/bin/env bash
# Named counters (a span's unmatched/evicted/collided/overflow): counted per interval, not as
# running totals, recorded with -w and the same again in a replay (per interval and as the
# report's totals).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-counters
FIX=$OUTPUT/tests/host/spanfix
FIXABS=$(readlink -f "$FIX")


coproc SF { "$FIX"; }
read -r _ fixpid <&"${SF[0]}"

# 100 requests keyed by thread: one pending slot, so 99 starts replace a pending one.
cat >"$TMP/c.json" <<JSON
{ "spans": [
  { "name": "request_by_tid",
    "start": { "kind": "uprobe", "probe": "$FIXABS:spanfix_submit" },
    "end": { "kind": "uprobe", "probe": "$FIXABS:spanfix_complete" } } ] }
JSON
wait_gone
$LATTOP -b -o json -d 0.3 -D 2.4 --spans "$TMP/c.json" -w "$TMP/c.lrec" >"$TMP/c.out" \
	2>"$TMP/c.err" &
lat=$!
for _ in $(seq 100); do [ -s "$TMP/c.out" ] && break; sleep 0.05; done
echo "async 100" >&"${SF[1]}"; read -r _ <&"${SF[0]}"
wait $lat
expect_eq live-exit $? 0
ivals() { json "[r['$1'] for l in L for r in l['rows'] if r['span']=='request_by_tid']" "$2"; }
# Per interval: the collisions land in the intervals they happened in, and add up to 99.
expect_eq live-sum "$(json "sum(r['collided'] for l in L for r in l['rows'])" "$TMP/c.out")" 99
# The requests take ~3 ms: the last interval has none (a running total would show 99 there).
expect_eq live-last-interval "$(json "[r['collided'] for r in L[-1]['rows']][0]" "$TMP/c.out")" 0
expect_eq live-count "$(json "sum(r['count'] for l in L for r in l['rows'])" "$TMP/c.out")" 1

# Replay, interval by interval: the same figures as live.
$LATTOP -r "$TMP/c.lrec" -b -n 1000 -o json >"$TMP/r.out" 2>"$TMP/r.err"
expect_eq replay-exit $? 0
expect_eq replay-intervals "$(ivals collided "$TMP/r.out")" "$(ivals collided "$TMP/c.out")"
# The report's totals carry the span's counters.
$LATTOP -r "$TMP/c.lrec" -b -o json >"$TMP/t.out" 2>"$TMP/t.err"
expect_eq report-exit $? 0
expect_eq report-collided "$(json "L[0]['segments'][0]['counters']['collided']" "$TMP/t.out")" 99
# Their 100 ends find the one pending start once: 99 unmatched.
expect_eq report-unmatched "$(json "L[0]['segments'][0]['counters']['unmatched']" "$TMP/t.out")" 99
$LATTOP -r "$TMP/c.lrec" -b >"$TMP/t.txt" 2>&1
check report-text grep -qE 'request_by_tid .*\[unmatched 99, collided 99\]' "$TMP/t.txt"
echo quit >&"${SF[1]}"
end_suite
