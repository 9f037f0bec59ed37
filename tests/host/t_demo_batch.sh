#!/usr/bin/env bash
# The demo in batch mode: real BPF programs driven by the generator show up with growing
# counts, percentiles from their self-timing, and every output format carries the same rows.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-demo

$LATTOP --demo -b -n 3 -d 0.5 -o json >"$TMP/d.json" 2>"$TMP/d.err"
expect_eq exit-status $? 0
expect_eq three-intervals "$(json 'len(L)' "$TMP/d.json")" 3
# Nanosecond wall-clock stamps exceed 2^53: they must be exact integer literals, not doubles
# like 1.7954566020637778e+18, and so must every other count or duration.
expect_eq ts-ns-integer "$(grep -cE '^\{"ts_ns":[0-9]{19},"interval_ns":[0-9]+,' "$TMP/d.json")" 3
expect_eq no-float-exponents "$(grep -c '[0-9]e+[0-9]' "$TMP/d.json")" 0
expect_eq ts-ns-exact "$(json 'all(type(l["ts_ns"]) is int and type(l["events"]) is int for l in L)' "$TMP/d.json")" True
names=$(json 'sorted({r["prog_name"] for l in L for r in l["rows"] if r["prog_name"].startswith("demo_")})' "$TMP/d.json")
expect_eq demo-programs-listed "$names" "['demo_sk_queue', 'demo_xdp_array', 'demo_xdp_hash', 'demo_xdp_lru']"
# Each demo program ran in every interval, and its absolute run count grew.
expect_eq counts-positive "$(json 'all(r["count"]>0 for l in L for r in l["rows"] if r["prog_name"].startswith("demo_"))' "$TMP/d.json")" True
expect_eq runs-grow "$(json '(lambda r: len(r)==3 and r[0]<r[1]<r[2])([r["run_cnt"] for l in L for r in l["rows"] if r["prog_name"]=="demo_xdp_hash"])' "$TMP/d.json")" True
# Self-timed: percentiles present and ordered p50 <= p95 <= p99 <= p99.9 <= max.
expect_eq percentiles-ordered "$(json 'all(r["p50_ns"]<=r["p95_ns"]<=r["p99_ns"]<=r["p999_ns"]<=r["max_ns"] and r["p50_ns"]>0 for l in L for r in l["rows"] if r["prog_name"].startswith("demo_"))' "$TMP/d.json")" True
expect_eq source "$(json 'L[0]["source"]' "$TMP/d.json")" stats+self
expect_eq drops-keys "$(json 'sorted(L[0]["drops"].keys())' "$TMP/d.json")" "['nest', 'queue', 'recursion', 'ringbuf']"
expect_eq interval-ns "$(json 'all(abs(l["interval_ns"]-5e8) < 1e8 for l in L)' "$TMP/d.json")" True
# The rate is count per second of interval.
expect_eq rate-matches-count "$(json 'all(abs(r["rate"]-r["count"]/(l["interval_ns"]/1e9)) <= 1e-6*max(1,r["rate"]) for l in L for r in l["rows"] if r["prog_name"].startswith("demo_"))' "$TMP/d.json")" True

# CSV: a header, then one row per program per interval, every line the same field count.
$LATTOP --demo -b -n 2 -d 0.3 -o csv >"$TMP/d.csv"
expect_eq csv-header "$(head -n1 "$TMP/d.csv" | cut -d, -f1-8)" "ts_ns,interval_ns,mode,source,prog_id,prog_type,prog_name,count"
expect_eq csv-demo-rows "$(grep -c ',demo_' "$TMP/d.csv")" 8
expect_eq csv-fields "$(awk -F, '{print NF}' "$TMP/d.csv" | sort -u | wc -l)" 1

# Text: header line, drops line, column heading, demo rows.
$LATTOP --demo -b -n 1 -d 0.3 >"$TMP/d.txt"
check text-header grep -q '^lattop .* mode programs  source stats+self' "$TMP/d.txt"
check text-drops grep -q '^drops: ringbuf 0  queue 0  recursion 0  nest 0' "$TMP/d.txt"
# Human numbers carry thousands separators (the events total, COUNT and RATE/S alike); CSV and
# JSON keep plain numbers.
check text-events-separators grep -qE '  events ([0-9]{1,3})(,[0-9]{3})*$' "$TMP/d.txt"
bad=$(awk '/ demo_/{ print $4; print $5 }' "$TMP/d.txt" | grep -vE '^([0-9]{1,3}(,[0-9]{3})*|[0-9.]+[kM])$')
expect_eq text-count-rate-separators "$bad" ""
check text-rate-has-separator grep -qE ' demo_[a-z_]+ +[0-9,]+ +[0-9]{1,3},[0-9]{3} ' "$TMP/d.txt"
check csv-rate-plain test -z "$(cut -d, -f9 "$TMP/d.csv" | tail -n +2 | grep -v '^[0-9.]*$')"
check text-columns grep -qE '^ +ID TYPE +NAME +COUNT +RATE/S +AVG +P50 +P95 +P99 +P99.9 +MAX' "$TMP/d.txt"
expect_eq text-demo-rows "$(grep -c ' demo_' "$TMP/d.txt")" 4

# Demo programs are unloaded at exit: nothing of ours stays in the kernel.
expect_eq demo-unloaded "$(demo_loaded)" 0
end_suite
