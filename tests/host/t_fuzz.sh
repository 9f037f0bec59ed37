#!/usr/bin/env bash
# A brief libFuzzer run of the recording reader (ASan+UBSan) on the seed corpus: no crash, no
# hang (10 s per input), no leak, no sanitizer report. The harness recomputes each record's CRC,
# so mutations reach the payload checks. `make fuzz` runs it longer.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=fuzz

if ! make -s "$OUTPUT/fuzz/fuzz_rec" >"$TMP/build.log" 2>&1; then
	fail build "$(tail -n 5 "$TMP/build.log")"
	end_suite
	exit 0
fi
pass build
mkdir -p "$TMP/corpus"
"$OUTPUT/fuzz/fuzz_rec" -max_total_time=15 -timeout=10 -max_len=16384 -seed=1 "$TMP/corpus" \
	tests/fuzz/corpus >"$TMP/fuzz.log" 2>&1
rc=$?
execs=$(grep -oE 'Done [0-9]+ runs' "$TMP/fuzz.log" | grep -oE '[0-9]+')
if [ $rc = 0 ] && [ -n "$execs" ]; then
	echo "fuzz: $execs execs in 15 s"
	pass reader
else
	fail reader "exit $rc: $(grep -m3 -E 'ERROR|SUMMARY|==' "$TMP/fuzz.log" | tr '\n' ' ')"
fi
# The seeds themselves replay (no crash, exit 0) through the real binary.
for f in tests/fuzz/corpus/*; do
	$LATTOP -r "$f" -b -o json >/dev/null 2>&1
	expect_eq "seed-$(basename "$f" .lrec)-replays" $? 0
done
end_suite
