#!/usr/bin/env bash
# A program loaded by the test, driven an exact number of times while lattop watches it, is
# reported with exactly that count; the -p filter restricts the rows; unloading marks it gone.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-target
TARGET=$OUTPUT/tests/host/target

coproc TGT { "$TARGET"; }
read -r _ light <&"${TGT[0]}"
read -r _ heavy <&"${TGT[0]}"
read -r _ emit <&"${TGT[0]}"
read -r _ maps <&"${TGT[0]}"
read -r _ maps2 <&"${TGT[0]}"
read -r _ tracing <&"${TGT[0]}"
read -r _ heavy2 <&"${TGT[0]}"
read -r ready <&"${TGT[0]}"
expect_eq target-ready "$ready" ready

$LATTOP -b -o json -d 0.25 -D 3 -p "$light,$heavy" >"$TMP/t.json" 2>"$TMP/t.err" &
lat=$!
# Drive only after lattop has enabled stats and printed its first interval.
for _ in $(seq 100); do [ -s "$TMP/t.json" ] && break; sleep 0.05; done
echo "run light 12345" >&"${TGT[1]}"; read -r r1 <&"${TGT[0]}"
echo "run heavy 777" >&"${TGT[1]}"; read -r r2 <&"${TGT[0]}"
# A session turns bpf_stats on (the control for --no-stats, whose positive test needs fentry:
# tests/vm/guest/t_16_no_stats.sh): the kernel counted every run.
echo "stats light" >&"${TGT[1]}"; read -r st <&"${TGT[0]}"
expect_eq stats-on-in-session "${st% run_time_ns *}" "run_cnt 12345"
sleep 0.6
echo "unload" >&"${TGT[1]}"; read -r r3 <&"${TGT[0]}"
wait $lat
expect_eq lattop-exit $? 0
expect_eq driven "$r1 / $r2 / $r3" "ran 12345 avg_ns ${r1##* } / ran 777 avg_ns ${r2##* } / unloaded"

sum() { json "sum(r['count'] for l in L for r in l['rows'] if r['prog_id']==$1)" "$TMP/t.json"; }
expect_eq light-count-exact "$(sum "$light")" 12345
expect_eq heavy-count-exact "$(sum "$heavy")" 777
expect_eq light-run-cnt "$(json "max(r['run_cnt'] for l in L for r in l['rows'] if r['prog_id']==$light)" "$TMP/t.json")" 12345
expect_eq filter-rows-only "$(json 'sorted({r["prog_id"] for l in L for r in l["rows"]})' "$TMP/t.json")" "[$light, $heavy]"
# avg_ns from bpf_stats: the heavy program (1000 loop iterations) costs more than the light one.
expect_eq heavy-slower "$(json "max(r['avg_ns'] for l in L for r in l['rows'] if r['prog_id']==$heavy and r['count']) > 5*max(r['avg_ns'] for l in L for r in l['rows'] if r['prog_id']==$light and r['count'])" "$TMP/t.json")" True
# Stats-only source: no distribution, so percentiles are null.
expect_eq stats-null-percentiles "$(json "all(r['p50_ns'] is None and r['max_ns'] is None for l in L for r in l['rows'])" "$TMP/t.json")" True
expect_eq marked-gone "$(json "L[-1]['rows'][0]['gone'] and L[-1]['rows'][1]['gone']" "$TMP/t.json")" True
expect_eq not-gone-first "$(json "any(r['gone'] for r in L[0]['rows'])" "$TMP/t.json")" False
echo quit >&"${TGT[1]}"
wait
end_suite
