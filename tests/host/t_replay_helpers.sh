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
