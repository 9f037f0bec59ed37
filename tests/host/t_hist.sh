#!/usr/bin/env bash
# --hist: batch output carries each row's log2 histogram, and its ranges add up to the row's
# count in every format (text lines under the row, a CSV column, a JSON array).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-hist

$LATTOP --demo -b -n 2 -d 0.3 --hist -o json >"$TMP/h.json" 2>"$TMP/h.err"
expect_eq json-status $? 0
demo='[r for l in L for r in l["rows"] if r["prog_name"].startswith("demo_")]'
expect_eq json-rows "$(json "len($demo)" "$TMP/h.json")" 8
# Every range's counts sum to the row's count, ranges are power-of-two [2^k, 2^(k+1)-1] and
# ascend without gaps, and p50 lies inside the ranges.
expect_eq json-sums "$(json "all(sum(c for _,_,c in r['hist'])==r['count'] for r in $demo)" "$TMP/h.json")" True
expect_eq json-ranges "$(json "all(hi==2*lo-1 and (i==0 or lo==r['hist'][i-1][1]+1) for r in $demo for i,(lo,hi,c) in enumerate(r['hist']))" "$TMP/h.json")" True
# (A row can count no run in a 0.3 s interval when the demo's driver thread is starved on a
# loaded host: its histogram is empty, and so it has no p50 to lie inside anything; at least
# one row must have runs.)
expect_eq json-some-runs "$(json "any(r['count'] for r in $demo)" "$TMP/h.json")" True
expect_eq json-p50-inside "$(json "all(r['hist'][0][0] <= r['p50_ns'] <= r['hist'][-1][1] for r in $demo if r['count'])" "$TMP/h.json")" True
# Without --hist there is no "hist" key.
$LATTOP --demo -b -n 1 -d 0.3 -o json >"$TMP/n.json"
expect_eq json-no-hist "$(json 'any("hist" in r for l in L for r in l["rows"])' "$TMP/n.json")" False

# CSV: a trailing hist column of lo:hi:count;... whose counts sum to the count column.
$LATTOP --demo -b -n 1 -d 0.3 --hist -o csv >"$TMP/h.csv"
expect_eq csv-header-hist "$(head -n1 "$TMP/h.csv" | awk -F, '{print $NF}')" hist
bad=$(awk -F, 'NR > 1 && $7 ~ /^demo_/ {
	n = split($NF, r, ";"); s = 0
	for (i = 1; i <= n; i++) { split(r[i], f, ":"); s += f[3] }
	if (s != $8) b++
} END { print b + 0 }' "$TMP/h.csv")
expect_eq csv-sums "$bad" 0
expect_eq csv-demo-rows "$(grep -c ',demo_' "$TMP/h.csv")" 4

# Text: "[lo, hi) count ###" lines under each demo row, counts summing to the row's COUNT.
$LATTOP --demo -b -n 1 -d 0.3 --hist >"$TMP/h.txt"
bad=$(awk '
	/ demo_/ { if (name != "" && sum != want) b++; name = $3; want = $4; gsub(",", "", want); sum = 0; next }
	/^ +\[ *[0-9.]+[num]?s, *[0-9.]+[num]?s\) +[0-9,]+ #+$/ { c = $(NF - 1); gsub(",", "", c); sum += c; lines++ }
	END { if (name != "" && sum != want) b++; print b + 0, (lines > 0) }' "$TMP/h.txt")
expect_eq text-sums "$bad" "0 1"
# Ranges share their edges: under one row, each range starts where the one above ended.
edges=$(awk '
	/ demo_/ { prev = ""; next }
	/^ +\[/ { l = $0; sub(/^ +\[ */, "", l); split(l, f, /[,)] */); gsub(/ /, "", f[2])
		if (prev != "") { n++; if (f[1] != prev) b++ } prev = f[2] }
	END { print b + 0, (n > 0) }' "$TMP/h.txt")
expect_eq text-edges-shared "$edges" "0 1"

# --hist is a batch option: without -b it is refused (status 2) and nothing starts.
$LATTOP --hist >"$TMP/o" 2>"$TMP/e"
expect_eq no-batch-status $? 2
check no-batch-message grep -q -- '--hist apply to batch output: add -b' "$TMP/e"
end_suite
