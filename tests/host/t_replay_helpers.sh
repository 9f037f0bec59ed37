#!/usr/bin/env bash
# Replaying a helpers-mode recording with the real binary. This kernel cannot trace helpers
# (no fentry), so test_rec_helpers --write records a generated helpers-mode session through the
# real writer and prints the helper rows it recorded; the replay must print the same numbers,
# with the map names, each program's row followed by its helpers. No root, no BPF.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-replay-helpers
GEN=$OUTPUT/tests/test_rec_helpers

if ! "$GEN" --write "$TMP/h.lrec" >"$TMP/expect.json" 2>"$TMP/gen.err"; then
	fail generate "$(cat "$TMP/gen.err")"
	exit 0
fi
pass generate

# Per interval: the replay's helper rows equal the recorded ones, value for value.
$LATTOP -r "$TMP/h.lrec" -b -n 3 -o json >"$TMP/rep.json" 2>"$TMP/rep.err"
expect_eq replay-exit $? 0
expect_eq replay-no-stderr "$(cat "$TMP/rep.err")" ""
expect_eq replay-intervals "$(json 'len(L)' "$TMP/rep.json")" 3
expect_eq replay-mode "$(json '[l["mode"] for l in L]' "$TMP/rep.json")" "['helpers', 'helpers', 'helpers']"
cmp=$(python3 - "$TMP/expect.json" "$TMP/rep.json" <<'EOF'
import json, sys
E = [json.loads(l) for l in open(sys.argv[1])]
R = [json.loads(l) for l in open(sys.argv[2])]
key = lambda r: (r["prog_id"], r["helper_id"], r["map_id"])
bad = []
for k, (e, r) in enumerate(zip(E, R)):
    got = sorted((x for x in r["rows"] if x["helper"] != "(program)"), key=key)
    want = sorted(e["rows"], key=key)
    got = [{c: x.get(c) for c in w} for x, w in zip(got, want)]
    if len(got) != 3 or got != want:
        bad.append((k + 1, got, want))
print("ok" if len(E) == 3 and not bad else bad[:1])
EOF
)
expect_eq helper-rows-equal-recorded "$cmp" ok
expect_eq helper-count-interval-2 "$(json '[r["count"] for r in L[1]["rows"] if r["map_name"] == "cfg"]' "$TMP/rep.json")" "[0]"
expect_eq map-names "$(json 'sorted({r["map_name"] for r in L[0]["rows"] if r["map_name"]})' "$TMP/rep.json")" "['cfg', 'flows']"
# Each program's row, then its helpers by count.
expect_eq row-order "$(json '[(r["prog_id"], r["helper"]) for r in L[0]["rows"]]' "$TMP/rep.json")" \
	"[(10, '(program)'), (10, 'map_update_elem'), (10, 'map_lookup_elem'), (11, '(program)'), (11, 'map_lookup_elem')]"
# The text table too: the helper line with its map name and count.
$LATTOP -r "$TMP/h.lrec" -b -n 1 >"$TMP/rep.txt"
check text-helper-row grep -qE '^ +10 xdp_fw +map_update_elem +2 +5 flows +hash +200 ' "$TMP/rep.txt"
check text-heading grep -qE '^ +ID PROGRAM +HELPER +FN +MAP ID +MAP +MAP TYPE +COUNT' "$TMP/rep.txt"
# -p on the replay filters the helper view like the program view.
$LATTOP -r "$TMP/h.lrec" -b -n 1 -o json -p tc_nat >"$TMP/p.json"
expect_eq filter-helper-rows "$(json '[(r["prog_id"], r["helper"]) for r in L[0]["rows"]]' "$TMP/p.json")" \
	"[(11, '(program)'), (11, 'map_lookup_elem')]"
# -m on a replay picks the view from what was recorded; a mode not recorded is a usage error.
$LATTOP -r "$TMP/h.lrec" -b -n 2 -o json -m programs >"$TMP/m.json"
expect_eq m-programs-view "$(json '[(l["mode"], len(l["rows"])) for l in L]' "$TMP/m.json")" "[('programs', 2), ('programs', 2)]"
$LATTOP -r "$TMP/h.lrec" -b -n 1 -m segments >/dev/null 2>"$TMP/m.err"
expect_eq m-not-recorded-exit $? 2
expect_eq m-not-recorded-message "$(cat "$TMP/m.err")" "lattop: segments mode was not recorded in $TMP/h.lrec (-m)"

# Totals report: the program table, then a helper table per program (heading, helper and map
# columns), counts equal to the sums of the recorded intervals.
$LATTOP -r "$TMP/h.lrec" -b >"$TMP/tot.txt"
expect_eq totals-text-exit $? 0
expect_eq totals-text-order "$(grep -E '^(programs|helpers of|segments)' "$TMP/tot.txt" | tr '\n' '|')" \
	"programs|helpers of xdp_fw (ID 10)|helpers of tc_nat (ID 11)|"
check totals-text-helper-heading grep -qE '^  HELPER +FN +MAP ID +MAP +MAP TYPE +COUNT +AVG +P50 +P95 +P99 +P99.9 +MAX$' "$TMP/tot.txt"
expect_eq totals-text-tc-nat "$(sed -n '/^helpers of tc_nat/,/^$/p' "$TMP/tot.txt" | grep -cE '^  map_lookup_elem +1 +7 cfg +array +1,200 ')" 1
expect_eq totals-text-xdp-fw "$(sed -n '/^helpers of xdp_fw/,/^$/p' "$TMP/tot.txt" | grep -oE '^  map_[a-z]+_elem +[0-9] +5 flows +hash +[0-9,]+' | tr -s ' ' | tr '\n' '|')" \
	" map_update_elem 2 5 flows hash 1,200| map_lookup_elem 1 5 flows hash 600|"
$LATTOP -r "$TMP/h.lrec" -b -o json >"$TMP/tot.json"
tot=$(python3 - "$TMP/expect.json" "$TMP/tot.json" <<'EOF2'
import json, sys
E = [json.loads(l) for l in open(sys.argv[1])]
T = json.load(open(sys.argv[2]))
want = {}
for e in E:
    for r in e["rows"]:
        k = (r["prog_id"], r["prog_name"], r["helper_id"], r["map_id"], r["map_name"], r["map_type"])
        want[k] = want.get(k, 0) + r["count"]
got = {(h["prog_id"], h["prog_name"], h["helper"], h["map_id"], h["map_name"], h["map_type"]):
       h["count"] for h in T["helpers"]}
order = [h["prog_id"] for h in T["helpers"]]
print(got == want and order == sorted(order) and len(T["programs"]) == 2)
EOF2
)
expect_eq totals-json-helpers-per-program "$tot" True
$LATTOP -r "$TMP/h.lrec" -b -o csv >"$TMP/tot.csv"
expect_eq totals-csv-header "$(head -n1 "$TMP/tot.csv")" "kind,id,aux,aux2,type,name,count,avg_ns,p50_ns,p95_ns,p99_ns,p999_ns,max_ns,gone,prog_name,map_name,count_source"
expect_eq totals-csv-helpers "$(grep '^helpers,' "$TMP/tot.csv" | cut -d, -f2-7,15,16 | tr '\n' '|')" \
	"10,2,5,hash,map_update_elem,1200,xdp_fw,flows|10,1,5,hash,map_lookup_elem,600,xdp_fw,flows|11,1,7,array,map_lookup_elem,1200,tc_nat,cfg|"
# -p narrows the report to the program and its helpers.
$LATTOP -r "$TMP/h.lrec" -b -p tc_nat >"$TMP/totp.txt"
expect_eq totals-filter "$(grep -E '^(programs|helpers of)' "$TMP/totp.txt" | tr '\n' '|')" "programs|helpers of tc_nat (ID 11)|"

# A format 1.1 file (no map names; the seed tests/fuzz/mkseeds.py makes) still reads, and the
# frame its writer lost before the last interval shows as the lost_frames loss counter.
OLD=tests/fuzz/corpus/helpers_v11_small.lrec
$LATTOP -r "$OLD" -b -n 3 -o json >"$TMP/old.json" 2>"$TMP/old.err"
expect_eq v11-exit "$?:$(cat "$TMP/old.err")" "0:"
expect_eq v11-rows "$(json '[len(l["rows"]) for l in L]' "$TMP/old.json")" "[5, 5, 5]"
expect_eq v11-blank-map-names "$(json 'sorted({r["map_name"] for r in L[0]["rows"] if r["helper"] != "(program)"})' "$TMP/old.json")" "['']"
# (the counter appears with the first loss)
expect_eq lost-frames-per-interval "$(json '[l["counters"].get("lost_frames") for l in L]' "$TMP/old.json")" "[None, None, 1]"
$LATTOP -r "$OLD" -b -o json >"$TMP/old-tot.json"
expect_eq lost-frames-report "$(json 'L[0]["counters"]["lost_frames"]' "$TMP/old-tot.json")" 1
$LATTOP -r "$OLD" -b >"$TMP/old-tot.txt"
check lost-frames-report-text grep -q '^counters: gen_ticks 30  lost_frames 1$' "$TMP/old-tot.txt"

# The report's timestamps are exact JSON integers: the first interval's start on the recorded
# wall clock, to the nanosecond (not a double in scientific notation).
start=$(python3 - "$TMP/h.lrec" "$TMP/tot.json" <<'EOF2'
import json, re, struct, sys
d = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", d, 16)[0]
meta, off = json.loads(d[20:20 + n]), 20 + n
while struct.unpack_from("<I", d, off)[0] != 2:
    off += 12 + struct.unpack_from("<I", d, off + 4)[0]
first = struct.unpack_from("<Q", d, off + 8)[0]
want = first + int(float(meta["start_realtime_ns"]) - float(meta["start_monotonic_ns"]))
txt = open(sys.argv[2]).read()
m = re.search(r'"start_ns":(\d+),"duration_ns":(\d+),', txt)
print(bool(m) and int(m.group(1)) == want and int(m.group(2)) == 3000000000)
EOF2
)
expect_eq totals-json-exact-ns "$start" True
