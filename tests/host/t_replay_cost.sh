#!/usr/bin/env bash
# Replaying a stranger's recording costs what the file holds. tests/fuzz/mkhostile.py writes
# well-formed recordings of the shapes that used to cost far more than their size (a 1.76 MB file
# of series entries took 1.06 GB; many counters, orphan helpers, idle intervals and the helpers
# view were quadratic). Each replays under an address-space limit (prlimit --as) that the model
# fits in several times over and the old dense histograms exceeded fourfold, in every output
# format; and the model's own counts (LATTOP_REPLAY_COST) bound its memory and the work of its
# interval closes by the file's size. No wall-clock assertion: `timeout` only turns a hang into
# a failure. No root, no BPF.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-replay-cost
LIMIT_MB=256 # the fixed model needs < 100 MB for any shape here; the old one 1.06 GB for "series"

# run NAME FILE ARGS...: replay under the limit; output in $TMP/NAME.out, stderr in .err.
run() {
	local name=$1 f=$2
	shift 2
	LATTOP_REPLAY_COST=1 timeout 600 prlimit --as=$((LIMIT_MB << 20)) \
		$LATTOP -r "$f" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
}

# field NAME KEY: the number before KEY in NAME's cost line ("model 123 bytes" -> 123).
field() {
	grep -m1 'replay cost:' "$TMP/$1.err" | grep -oE "$2 [0-9]+" | grep -oE '[0-9]+$'
}

for spec in series:1760000 spread:880000 counters:880000 orphans:880000 idle:880000 \
	helpers:880000; do
	shape=${spec%%:*} size=${spec#*:}
	f=$TMP/$shape.lrec
	if ! python3 tests/fuzz/mkhostile.py "$shape" "$size" "$f" 2>"$TMP/gen.err"; then
		fail "$shape-generate" "$(cat "$TMP/gen.err")"
		continue
	fi
	bytes=$(stat -c %s "$f")
	for o in text csv json; do
		run "$shape-$o" "$f" -b -o "$o"
		rc=$?
		if [ $rc = 0 ]; then
			pass "$shape-$o-fits-${LIMIT_MB}M"
		else
			fail "$shape-$o-fits-${LIMIT_MB}M" \
				"exit $rc under prlimit --as=${LIMIT_MB}M: $(head -c 200 "$TMP/$shape-$o.err")"
		fi
	done
	check "$shape-json-parses" python3 -c 'import json,sys
try: json.load(open(sys.argv[1]))
except ValueError: sys.exit(1)' \
		"$TMP/$shape-json.out"
	# The model's bytes: at most 64 per byte of file (measured: 22 to 44, the series table
	# growing by doubling); the dense layout took 600.
	model=$(field "$shape-json" model)
	if [ -n "$model" ] && [ "$model" -le $((64 * bytes)) ]; then
		pass "$shape-model-bytes"
	else
		fail "$shape-model-bytes" "model '${model}' bytes for a $bytes-byte file (limit x64)"
	fi
	# Closes visit what changed: each visit needs a record entry of 28 bytes or more, twice.
	visits=$(field "$shape-json" "close visits")
	if [ -n "$visits" ] && [ "$visits" -le $((bytes / 8)) ]; then
		pass "$shape-close-visits"
	else
		fail "$shape-close-visits" "'${visits}' close visits for a $bytes-byte file (limit /8)"
	fi
done

# The helpers view (batch -n, the TUI's rows), which groups helpers by program once: every
# program's helper follows it (a file small enough that all rows fit one report).
python3 tests/fuzz/mkhostile.py helpers 200000 "$TMP/hv.lrec"
run helpers-view "$TMP/hv.lrec" -b -n 1 -m helpers -o csv
expect_eq helpers-view-exit $? 0
awk -F, 'NR > 1 { print $5 }' "$TMP/helpers-view.out" >"$TMP/hv.ids"
n=$(wc -l <"$TMP/hv.ids")
check helpers-view-rows [ "$n" -gt 1000 ]
check helpers-view-pairs python3 -c 'import sys
ids = open(sys.argv[1]).read().split()
sys.exit(not (len(ids) % 2 == 0 and all(ids[i] == ids[i + 1] for i in range(0, len(ids), 2))))' \
	"$TMP/hv.ids"
end_suite
