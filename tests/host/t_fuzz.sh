#!/usr/bin/env bash
# Brief libFuzzer runs (ASan+UBSan) on the seed corpus: the recording reader alone (fuzz_rec),
# then `lattop -r` as a whole (fuzz_replay: metadata, apply path, seeks, every output format),
# then perf.data files read offline (fuzz_perf: the reader, the pairing, the recording of them).
# No crash, no hang (10 s per input), no process over 512 MB and no single allocation over
# 64 MB (a replay that costs far more than its input), no leak, no sanitizer report. The
# harnesses recompute each record's CRC, so mutations reach the payloads. About 40 s of CPU in
# all; `make fuzz` runs each longer.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=fuzz
LIMITS="-timeout=10 -rss_limit_mb=512 -malloc_limit_mb=64 -max_len=16384 -seed=1"

# fuzz NAME BIN SECONDS [ARGS...]: one run into its own corpus directory.
fuzz() {
	local name=$1 bin=$2 secs=$3 rc execs
	shift 3
	mkdir -p "$TMP/corpus-$name"
	"$bin" -max_total_time="$secs" $LIMITS -artifact_prefix="$TMP/" "$@" "$TMP/corpus-$name" \
		tests/fuzz/corpus >"$TMP/$name.log" 2>&1
	rc=$?
	execs=$(grep -oE 'Done [0-9]+ runs' "$TMP/$name.log" | grep -oE '[0-9]+')
	if [ $rc = 0 ] && [ -n "$execs" ]; then
		echo "fuzz: $name $execs execs in $secs s"
		pass "$name"
	else
		fail "$name" "exit $rc: $(grep -m4 -E 'ERROR|SUMMARY|runtime error|==' \
			"$TMP/$name.log" | tr '\n' ' ')"
	fi
}

if ! make -s "$OUTPUT/fuzz/fuzz_rec" "$OUTPUT/fuzz/fuzz_replay" "$OUTPUT/fuzz/fuzz_perf" \
	>"$TMP/build.log" 2>&1; then
	fail build "$(tail -n 5 "$TMP/build.log")"
	end_suite
	exit 0
fi
pass build
fuzz reader "$OUTPUT/fuzz/fuzz_rec" 10
fuzz replay "$OUTPUT/fuzz/fuzz_replay" 30 -dict=tests/fuzz/rec.dict
fuzz perf "$OUTPUT/fuzz/fuzz_perf" 20
# The seeds themselves replay (no crash, exit 0) through the real binary.
for f in tests/fuzz/corpus/*; do
	$LATTOP -r "$f" -b -o json >/dev/null 2>&1
	expect_eq "seed-$(basename "$f" .lrec)-replays" $? 0
done
end_suite
