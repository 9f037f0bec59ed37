#!/usr/bin/env bash
# perf.data files of EventHeader tracepoints read offline (lattop -r FILE), on files written by
# tests/host/mkperf.py as LinuxTracepoints' perf-collect lays them out: exact counts per
# activity and per interval (the file's CPUs written out of time order, a stop before its
# start; both sample layouts), the loss counters, host and kernel of the file; the file found
# by its magic under any name; -b text, CSV and JSON, --html, --compare; read without root.
# Damaged files (cut short, huge sizes, bad offsets, overlapping sections, absurd counts, bad
# records and samples, an absurd time span, big-endian) are one sentence and status 1 as
# damaged recordings are, or play what is readable with one sentence saying what is not;
# terminal escapes in the file never reach the terminal. No BPF. (The kernel's side,
# perf-collect itself against a live session, is tests/vm/uevents/guest/u_40_perfdata.sh.)
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=${SUITE_PREFIX:-}host-perfdata
GEN=tests/host/mkperf.py

python3 $GEN "$TMP/good.data"
expect_eq generate $? 0

# jq-like: a python expression over J, the JSON document in FILE.
js() {
	python3 -c 'import json, sys
J = json.load(open(sys.argv[2]))
print(eval(sys.argv[1]))' "$1" "$2"
}

# Totals (-b -o json): every activity, the counters, the file's host and kernel.
$LATTOP -r "$TMP/good.data" -b -o json -d 1 >"$TMP/t.json" 2>"$TMP/t.err"
expect_eq json-exit $? 0
expect_eq json-no-stderr "$(cat "$TMP/t.err")" ""
expect_eq json-counts "$(js '[(s["name"], s["type"], s["count"]) for s in J["segments"]]' "$TMP/t.json")" \
	"[('Request', 'activity', 40), ('Inner', 'activity', 10)]"
expect_eq json-counters "$(js 'J["counters"]' "$TMP/t.json")" \
	"{'eh_orphan': 0, 'eh_unmatched': 1, 'eh_malformed': 0, 'eh_foreign': 0, 'eh_lost': 3, 'eh_filtered': 0, 'eh_folded': 0}"
expect_eq json-file "$(js '(J["host"], J["kernel"], J["source"], J["intervals"])' "$TMP/t.json")" \
	"('perfhost', '6.12.0-test', 'perf.data', 4)"
# Each duration as written: Requests of 1 to 8 ms, Inners of 0.3 ms, within the bucket error.
expect_eq json-durations "$(js '[(s["name"], abs(s["max_ns"] - (8000000 if s["name"] == "Request" else 300000)) <= 8000000 / 128) for s in J["segments"]]' "$TMP/t.json")" \
	"[('Request', True), ('Inner', True)]"

# Per interval (-n, CSV): -d cuts the file into intervals from its first event.
$LATTOP -r "$TMP/good.data" -b -o csv -d 1 -n 10 >"$TMP/i.csv" 2>"$TMP/i.err"
expect_eq csv-exit $? 0
expect_eq csv-per-interval "$(awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
	{printf "%s=%s ", $h["span"], $h["count"]}' "$TMP/i.csv")" \
	"Request=10 Inner=3 Request=10 Inner=2 Request=10 Inner=3 Request=10 Inner=2 "
$LATTOP -r "$TMP/good.data" -b -o csv -d 2 -n 10 >"$TMP/i2.csv" 2>/dev/null
expect_eq csv-d2 "$(awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
	{printf "%s=%s/%s ", $h["span"], $h["count"], $h["interval_ns"]}' "$TMP/i2.csv")" \
	"Request=20/2000000000 Inner=5/2000000000 Request=20/2000000000 Inner=5/2000000000 "
# Text: the replay header names the file's host and the activities' rows.
$LATTOP -r "$TMP/good.data" -b >"$TMP/t.txt" 2>&1
expect_eq text-exit $? 0
check text-header grep -q 'host perfhost  kernel 6.12.0-test' "$TMP/t.txt"
check text-request-row grep -qE '^ +2000 activity +Request +40 ' "$TMP/t.txt"

# The other sample layout (ID, not IDENTIFIER, after IP, TID, TIME and ADDR; STREAM_ID,
# PERIOD, a callchain): the same intervals, counts and counters.
python3 $GEN "$TMP/st.data" sample-types
$LATTOP -r "$TMP/st.data" -b -o csv -d 1 -n 10 >"$TMP/st.csv" 2>"$TMP/st.err"
expect_eq sample-types "$? $(cat "$TMP/st.err")" "0 "
expect_eq sample-types-same "$(cut -d, -f2- "$TMP/st.csv" | md5sum)" "$(cut -d, -f2- "$TMP/i.csv" | md5sum)"

# Found by its magic under any name (even a recording's), read without root.
cp "$TMP/good.data" "$TMP/named.lrec"
$LATTOP -r "$TMP/named.lrec" -b -o json -d 1 >"$TMP/n.json" 2>/dev/null
expect_eq by-magic "$(js '[s["count"] for s in J["segments"]]' "$TMP/n.json")" "[40, 10]"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	pub=$(mktemp -d /tmp/lattop-perfdata.XXXXXX)
	cp "$TMP/good.data" "$pub/p.data"
	chmod 755 "$pub" && chmod 644 "$pub/p.data"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$(realpath "$LATTOP")" -r "$pub/p.data" \
		-b -o json -d 1 >"$TMP/u.json" 2>"$TMP/u.err"
	expect_eq no-root-exit $? 0
	expect_eq no-root-counts "$(js '[s["count"] for s in J["segments"]]' "$TMP/u.json")" "[40, 10]"
	rm -rf "$pub"
else
	skip no-root "not root, or no setpriv: the unprivileged run is every other check's"
fi

# --html and --compare take it like a recording.
$LATTOP -r "$TMP/good.data" --html "$TMP/r.html" 2>"$TMP/h.err"
expect_eq html-exit $? 0
check html-request grep -q Request "$TMP/r.html"
$LATTOP -r "$TMP/good.data" --compare "$TMP/named.lrec" -b -o csv >"$TMP/c.csv" 2>"$TMP/c.err"
expect_eq compare-exit $? 0
expect_eq compare-verdicts "$(awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
	{printf "%s=%s/%s/%s ", $h["name"], $h["status"], $h["count_a"], $h["count_b"]}' "$TMP/c.csv")" \
	"Inner=unchanged/10/10 Request=unchanged/40/40 "

# refused VARIANT WORDS: one line on stderr ("lattop: FILE: ..." holding WORDS), status 1, no
# output, no crash.
refused() {
	python3 $GEN "$TMP/$1.data" "$1"
	$LATTOP -r "$TMP/$1.data" -b -o json >"$TMP/$1.out" 2>"$TMP/$1.err"
	local rc=$? lines
	lines=$(wc -l <"$TMP/$1.err")
	if [ $rc = 1 ] && [ "$lines" = 1 ] && [ ! -s "$TMP/$1.out" ] &&
		grep -q "^lattop: $TMP/$1.data: .*$2" "$TMP/$1.err"; then
		pass "refused-$1"
	else
		fail "refused-$1" "exit $rc, $lines lines: $(head -c 300 "$TMP/$1.err")"
	fi
}
refused cut-header "not a lattop recording"
refused cut-half "lies outside the file"
refused cut-attrs "lies outside the file"
refused huge-data "lies outside the file"
refused huge-attr-size "are 1099511627776 bytes each"
refused bad-attrs-off "lies outside the file"
refused no-attrs "holds 0 bytes"
refused overlap "overlap"
refused many-attrs "not 1 to 4096 events"
refused desc-nr "none of its 2 events is an EventHeader tracepoint"
refused ids-huge "sample ids lie outside the file"
refused time-span "give a longer -d"
refused big-endian "big-endian"

# A bad record: what comes before it plays, one sentence says where it stopped.
python3 $GEN "$TMP/br.data" bad-record
$LATTOP -r "$TMP/br.data" -b -o json -d 1 >"$TMP/br.json" 2>"$TMP/br.err"
expect_eq bad-record-exit $? 0
expect_eq bad-record-sentence "$(cat "$TMP/br.err")" \
	"lattop: $TMP/br.data: the record at byte 1888 of the perf.data is cut short or has a bad size: the events after it are not read"
expect_eq bad-record-counts "$(js '[(s["name"], s["count"]) for s in J["segments"]]' "$TMP/br.json")" \
	"[('Request', 4), ('Inner', 3)]"
$LATTOP -r "$TMP/good.data" --compare "$TMP/br.data" -b >/dev/null 2>"$TMP/brc.err"
expect_eq bad-record-compare "$? $(wc -l <"$TMP/brc.err")" "2 1"
# Bad samples (a raw size past its record, an unknown sample id): counted as lost.
python3 $GEN "$TMP/bs.data" bad-sample
$LATTOP -r "$TMP/bs.data" -b -o json -d 1 >"$TMP/bs.json" 2>"$TMP/bs.err"
expect_eq bad-sample "$? $(js '(J["counters"]["eh_lost"], [s["count"] for s in J["segments"]])' "$TMP/bs.json")" \
	"0 (5, [40, 10])"
# Escapes in the host name and an activity's name: never on the terminal, in any format.
python3 $GEN "$TMP/esc.data" escape
for o in text csv json; do
	$LATTOP -r "$TMP/esc.data" -b -o $o -n 1 >"$TMP/esc.$o" 2>&1
	expect_eq "escape-$o" "$? $(grep -c $'[\x1b\x07]' "$TMP/esc.$o")" "0 0"
done
check escape-shown grep -q 'Bad?\[2J?' "$TMP/esc.text"
end_suite
