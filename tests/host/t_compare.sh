#!/usr/bin/env bash
# The A/B comparison (lattop -r A --compare B) on two generated recordings with known
# differences (tests/host/mkab.py): one program 2x slower, one unchanged, one noisy, one only
# in each, one with bpf_stats counts only that runs twice as often, a helper and a span under
# new IDs. Exact verdicts, changes within the bucket error,
# the same in text, CSV and JSON, byte-identical on a second run; bad pairs are one sentence and
# status 2. No root, no BPF.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-compare
GEN=tests/host/mkab.py

python3 $GEN a "$TMP/a.lrec" && python3 $GEN b "$TMP/b.lrec" && python3 $GEN helpers "$TMP/h.lrec"
expect_eq generate $? 0

# CSV: the verdict of every series, exactly.
$LATTOP -r "$TMP/a.lrec" --compare "$TMP/b.lrec" -b -o csv >"$TMP/ab.csv" 2>"$TMP/ab.err"
expect_eq csv-exit $? 0
expect_eq csv-no-stderr "$(cat "$TMP/ab.err")" ""
csv() { # csv EXPR: a python expression over R, the rows as dicts keyed by (kind, name)
	python3 -c 'import csv, sys
R = {(r["kind"], r["name"]): r for r in csv.DictReader(open(sys.argv[2]))}
print(eval(sys.argv[1]))' "$1" "$TMP/ab.csv"
}
expect_eq csv-verdicts "$(csv 'sorted((k[1], r["status"]) for k, r in R.items())')" \
	"[('bpf_map_lookup_elem', 'unchanged'), ('new_prog', 'only_b'), ('noisy', 'slower'), ('old_prog', 'only_a'), ('rpc_span', 'unchanged'), ('same_prog', 'unchanged'), ('slow_prog', 'slower'), ('stats_prog', 'changed')]"
# slow_prog: every latency figure +100% within the bucket error (1.575%), significant but the
# max (one run: never); the rate the same (1000 runs a second on both sides), not significant.
S='R[("programs", "slow_prog")]'
expect_eq slow-2x-within-bucket-error "$(csv "[abs(float($S[s + '_change_pct']) - 100) <= 1.575 for s in ('p50', 'p95', 'p99', 'p999', 'max')]")" \
	"[True, True, True, True, True]"
expect_eq slow-2x-significant "$(csv "[$S[s + '_significant'] for s in ('p50', 'p95', 'p99', 'p999', 'max')]")" \
	"['1', '1', '1', '1', '0']"
expect_eq slow-p50-values "$(csv "($S['p50_a'], $S['p50_b'])")" "('2095', '4191')"
expect_eq slow-rate "$(csv "($S['rate_a'], $S['rate_b'], $S['rate_change_pct'], $S['rate_significant'])")" \
	"('1000.000', '1000.000', '0.00', '0')"
expect_eq slow-counts "$(csv "($S['count_a'], $S['count_b'])")" "('20000', '20000')"
# same_prog: the same values on both sides: every change 0, nothing significant.
S='R[("programs", "same_prog")]'
expect_eq same-unchanged "$(csv "[($S[s + '_change_pct'], $S[s + '_significant']) for s in ('rate', 'p50', 'p99', 'max')]")" \
	"[('0.00', '0'), ('0.00', '0'), ('0.00', '0'), ('0.00', '0')]"
# noisy: p50 moved 2.8%, beyond the bucket error but within the bootstrap's noise (its
# intervals alternate between two modes); p99 moved 3% in every interval: significant.
S='R[("programs", "noisy")]'
expect_eq noisy-p50-beyond-buckets "$(csv "1.575 < float($S['p50_change_pct']) < 3.1")" True
expect_eq noisy-p50-within-noise "$(csv "(float($S['p50_noise_pct']) > float($S['p50_change_pct']), $S['p50_significant'])")" "(True, '0')"
expect_eq noisy-p99-significant "$(csv "(abs(float($S['p99_change_pct']) - 3) <= 1.575, $S['p99_significant'])")" "(True, '1')"
# Counts only (bpf_stats): the rate doubled, significant; no percentiles on either side.
S='R[("programs", "stats_prog")]'
expect_eq stats-rate "$(csv "[$S[c] for c in ('count_a', 'count_b', 'rate_a', 'rate_b', 'rate_change_pct', 'rate_significant', 'p50_a', 'p50_b', 'p50_change_pct', 'p50_significant')]")" \
	"['2000', '4000', '100.000', '200.000', '100.00', '1', '', '', '', '0']"
# One side only: the other side's count and figures are empty.
expect_eq only-b "$(csv "[R[('programs', 'new_prog')][c] for c in ('count_a', 'count_b', 'p50_a', 'p50_b', 'p50_change_pct')]")" \
	"['', '200', '', '5000', '']"
expect_eq only-a "$(csv "[R[('programs', 'old_prog')][c] for c in ('count_a', 'count_b')]")" "['200', '']"
# The helper matched across program IDs (102/202) and map IDs (7/9) by program and map name.
expect_eq helper-key "$(csv "[R[('helpers', 'bpf_map_lookup_elem')][c] for c in ('prog_name', 'map_name', 'count_a', 'count_b')]")" \
	"['slow_prog', 'flows', '10000', '10000']"
expect_eq span-matched "$(csv "[R[('segments', 'rpc_span')][c] for c in ('count_a', 'count_b', 'p50_a', 'p50_b')]")" \
	"['2000', '2000', '50000', '50000']"

# JSON: the same figures as the CSV, null where a side lacks one.
$LATTOP -r "$TMP/a.lrec" --compare "$TMP/b.lrec" -b -o json >"$TMP/ab.json"
expect_eq json-exit $? 0
expect_eq json-one-document "$(wc -l <"$TMP/ab.json")" 1
same=$(python3 - "$TMP/ab.json" "$TMP/ab.csv" <<'EOF'
import csv, json, sys
J = json.load(open(sys.argv[1]))
C = {(r["kind"], r["name"]): r for r in csv.DictReader(open(sys.argv[2]))}
bad = []
for s in J["series"]:
    c = C[(s["kind"], s["name"])]
    if s["status"] != c["status"] or str(s["count_a"] or "") != c["count_a"]:
        bad.append(s["name"])
    for st in ("rate", "p50", "p95", "p99", "p999", "max"):
        f = s[st]
        for k, col in (("a", "_a"), ("b", "_b"), ("change_pct", "_change_pct")):
            want = c[st + col]
            got = f[k]
            if (got is None) != (want == "") or (got is not None and abs(got - float(want)) > 0.01):
                bad.append((s["name"], st, k, got, want))
        if int(f["significant"]) != int(c[st + "_significant"]):
            bad.append((s["name"], st, "significant"))
print("ok" if len(J["series"]) == 8 and not bad else bad[:3])
EOF
)
expect_eq json-equals-csv "$same" ok
expect_eq json-head "$(python3 -c 'import json,sys; J=json.load(open(sys.argv[1])); print(J["a"]["intervals"], J["b"]["intervals"], J["a"]["duration_ns"], J["resamples"], round(J["bucket_error_pct"], 3))' "$TMP/ab.json")" \
	"20 20 20000000000 200 1.575"
expect_eq json-only-b-null "$(python3 -c 'import json,sys; J=json.load(open(sys.argv[1])); s=[x for x in J["series"] if x["name"]=="new_prog"][0]; print(s["count_a"], s["p50"]["a"], s["p50"]["change_pct"], s["count_b"])' "$TMP/ab.json")" \
	"None None None 200"

# Text: the verdict under the name, the changes marked significant with '*'.
$LATTOP -r "$TMP/a.lrec" --compare "$TMP/b.lrec" -b >"$TMP/ab.txt"
expect_eq text-exit $? 0
check text-summary grep -qx 'series: 2 slower, 0 faster, 1 changed, 3 unchanged, 1 only in A, 1 only in B' "$TMP/ab.txt"
expect_eq text-slow "$(grep -A3 '^slow_prog ' "$TMP/ab.txt" | awk '{$1=$1; print}')" \
"slow_prog xdp A 20,000 1,000 2.10us 8.00us 8.00us 8.00us 8.00us
slower B 20,000 1,000 4.19us 16.0us 16.0us 16.0us 16.0us
change +0.0% +100.0%* +100.0%* +100.0%* +100.0%* +100.0%
noise +-0.0% +-10.6% +-0.0% +-0.0% +-0.0% +-0.0%"
expect_eq text-only-b "$(grep -A1 '^new_prog ' "$TMP/ab.txt" | awk '{$1=$1; print}')" \
"new_prog xdp B 200 10 5.00us 5.00us 5.00us 5.00us 5.00us
only in B"
expect_eq text-stats "$(grep -A2 '^stats_prog ' "$TMP/ab.txt" | awk '{$1=$1; print}')" \
"stats_prog xdp A 2,000 100 - - - - -
changed B 4,000 200 - - - - -
change +100.0%* - - - - -"
check text-helper grep -q '^slow_prog: bpf_map_lookup_elem *map flows *A ' "$TMP/ab.txt"

# Deterministic: the bootstrap's seed is fixed, so a second run prints the same bytes.
$LATTOP -r "$TMP/a.lrec" --compare "$TMP/b.lrec" -b -o csv >"$TMP/ab2.csv"
check deterministic cmp -s "$TMP/ab.csv" "$TMP/ab2.csv"
# The other way round: slow_prog is faster by half, new_prog is only in A.
$LATTOP -r "$TMP/b.lrec" --compare "$TMP/a.lrec" -b -o csv >"$TMP/ba.csv"
expect_eq reverse "$(python3 -c 'import csv,sys
R={r["name"]: r for r in csv.DictReader(open(sys.argv[1]))}
print(R["slow_prog"]["status"], abs(float(R["slow_prog"]["p99_change_pct"]) + 50) <= 1.575, R["new_prog"]["status"], R["old_prog"]["status"], R["stats_prog"]["rate_change_pct"])' "$TMP/ba.csv")" \
	"faster True only_a only_b -50.00"
# A recording against itself: nothing changed.
$LATTOP -r "$TMP/a.lrec" --compare "$TMP/a.lrec" -b -o csv >"$TMP/aa.csv"
expect_eq self-unchanged "$(python3 -c 'import csv,sys; print(sorted({r["status"] for r in csv.DictReader(open(sys.argv[1]))}))' "$TMP/aa.csv")" \
	"['unchanged']"

# Bad pairs: one sentence on stderr, nothing on stdout, status 2.
echo "not a recording" >"$TMP/text.txt"
head -c 3000 "$TMP/b.lrec" >"$TMP/cut.lrec"
bad() { # bad NAME EXPECTED-STDERR ARGS...
	local name=$1 want=$2; shift 2
	$LATTOP "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	expect_eq "bad-$name-status" $? 2
	expect_eq "bad-$name-sentence" "$(cat "$TMP/bad.err")" "$want"
	expect_eq "bad-$name-no-stdout" "$(wc -c <"$TMP/bad.out")" 0
}
bad not-a-recording-b "lattop: $TMP/text.txt: not a lattop recording (bad magic)" \
	-r "$TMP/a.lrec" --compare "$TMP/text.txt" -b
bad not-a-recording-a "lattop: $TMP/text.txt: not a lattop recording (bad magic)" \
	-r "$TMP/text.txt" --compare "$TMP/a.lrec" -b
bad truncated "lattop: $TMP/cut.lrec: truncated/corrupt record at byte 2692: length 719 runs past the end of the file: a comparison needs whole recordings" \
	-r "$TMP/a.lrec" --compare "$TMP/cut.lrec" -b
bad truncated-a-tui "lattop: $TMP/cut.lrec: truncated/corrupt record at byte 2692: length 719 runs past the end of the file: a comparison needs whole recordings" \
	-r "$TMP/cut.lrec" --compare "$TMP/a.lrec"
bad other-mode "lattop: $TMP/a.lrec was recorded in programs mode and $TMP/h.lrec in helpers mode: compare recordings of one mode" \
	-r "$TMP/a.lrec" --compare "$TMP/h.lrec" -b -o json
bad compare-twice "lattop: --compare given twice ('$TMP/b.lrec' and '$TMP/a.lrec'): give it once" \
	-r "$TMP/a.lrec" --compare "$TMP/b.lrec" --compare "$TMP/a.lrec" -b
bad read-twice "lattop: -r given twice ('$TMP/a.lrec' and '$TMP/b.lrec'): give it once" \
	-r "$TMP/a.lrec" -r "$TMP/b.lrec" --compare "$TMP/b.lrec" -b
bad without-r "lattop: --compare compares two recordings: give the first with -r, e.g. lattop -r before.lrec --compare after.lrec" \
	--compare "$TMP/b.lrec" -b
bad missing "lattop: cannot read the recording $TMP/none.lrec: No such file or directory" \
	-r "$TMP/a.lrec" --compare "$TMP/none.lrec" -b
bad device "lattop: /dev/null is a character device, not a recording: give a file written with lattop -w" \
	-r "$TMP/a.lrec" --compare /dev/null -b
bad with-n "lattop: --events, -n, -c and --hist do not apply to --compare: a comparison covers both whole recordings" \
	-r "$TMP/a.lrec" --compare "$TMP/b.lrec" -b -n 2
bad with-p "lattop: -p and -m do not apply to --compare: every recorded series is matched by name" \
	-r "$TMP/a.lrec" --compare "$TMP/b.lrec" -b -p slow_prog
end_suite
