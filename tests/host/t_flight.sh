#!/usr/bin/env bash
# The flight recorder (--flight): a SIGUSR2 dump holds exactly the last intervals, with the
# counts and percentiles -o json printed for them; the byte cap holds with hundreds of series
# (gauge and RSS); POST /dump with --flight-http (404 without); --flight-files keeps the newest
# files lattop wrote and nothing else; bad options and expressions are one sentence and status
# 2; a dump into a full, missing or symlinked directory is one sentence, counted, and the
# session goes on.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-flight
chmod 755 "$TMP"
# lib.sh's cleanup, with the tmpfs unmounted once nothing runs on it (never rm -rf a tree
# with a mount in it).
trap 'jobs -p | xargs -r kill 2>/dev/null; sleep 0.2; umount "$TMP/small" 2>/dev/null;
if findmnt -rn -o TARGET | grep -q "^$TMP"; then echo "FAIL $SUITE/cleanup: $TMP still mounted"; else rm -rf "$TMP"; fi' EXIT

# lines_at_least FILE N [TENTHS]: wait (up to 30 s unless told) until FILE has N lines.
lines_at_least() {
	for _ in $(seq "${3:-300}"); do
		[ "$(wc -l <"$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
# wait_text FILE PATTERN: wait (up to 30 s) until FILE has a line matching PATTERN.
wait_text() {
	for _ in $(seq 300); do grep -qE -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}
# meta FILE KEY: the dump metadata's KEY (a recording's JSON header, "dump" object).
meta() {
	python3 - "$1" "$2" <<'EOF'
import json, struct, sys
d = open(sys.argv[1], 'rb').read()
n = struct.unpack('<I', d[16:20])[0]
print(json.loads(d[20:20 + n])['dump'][sys.argv[2]])
EOF
}

# 1. SIGUSR2: the dump holds the last 5 intervals (1.5 s of 0.3 s ones) with the very counts
# and percentiles the session printed for them.
mkdir -p "$TMP/d1"
wait_lock
$LATTOP --demo -b -o json -d 0.3 -n 14 --flight 1.5s --flight-dir "$TMP/d1" \
	>"$TMP/live.json" 2>"$TMP/live.err" &
pid=$!
lines_at_least "$TMP/live.json" 8
kill -USR2 $pid
wait $pid
expect_eq usr2-exit $? 0
dump=$(ls "$TMP"/d1/lattop-flight-*-signal.lrec 2>/dev/null)
check usr2-one-file test "$(echo "$dump" | grep -c .)" = 1
check usr2-said grep -qE "^lattop: flight recorder: wrote $TMP/d1/lattop-flight-[0-9]{8}-[0-9]{6}-signal\.lrec \(5 intervals, signal\)$" "$TMP/live.err"
expect_eq usr2-mode "$(stat -c %a "$dump")" 600
expect_eq usr2-trigger "$(meta "$dump" trigger)" signal
expect_eq usr2-meta-intervals "$(meta "$dump" intervals)" 5
$LATTOP -r "$dump" -b -o json -n 100 >"$TMP/dump.json" 2>"$TMP/dump.err"
expect_eq usr2-replays $? 0
expect_eq usr2-replay-intervals "$(json 'len(L)' "$TMP/dump.json")" 5
# Each replayed interval is a live one (the same instant, within a clock reading), the five
# in a row, and every series has the same count, rate and percentiles.
match=$(python3 - "$TMP/live.json" "$TMP/dump.json" <<'EOF'
import json, sys
live = [json.loads(l) for l in open(sys.argv[1])]
dump = [json.loads(l) for l in open(sys.argv[2])]
keys = ('count', 'p50_ns', 'p95_ns', 'p99_ns', 'p999_ns', 'max_ns', 'avg_ns')
def rows(d):
    return {r['prog_name']: tuple(r[k] for k in keys) for r in d['rows']
            if r['prog_name'].startswith('demo_')}
at = [i for i, l in enumerate(live) if abs(l['ts_ns'] - dump[0]['ts_ns']) < 50_000_000]
if len(at) != 1:
    print('first interval not found'); sys.exit()
i = at[0]
for k, d in enumerate(dump):
    l = live[i + k]
    if abs(l['ts_ns'] - d['ts_ns']) > 50_000_000:
        print('interval', k, 'at another time'); sys.exit()
    if rows(l) != rows(d) or len(rows(d)) != 4:
        print('interval', k, 'differs', rows(l), rows(d)); sys.exit()
print('same', i + len(dump) <= len(live), sum(r[0] for d in dump for r in rows(d).values()) > 0)
EOF
)
expect_eq usr2-same-figures "$match" "same True True"

# 2. The byte cap with 256 busy programs: the gauge stays under --flight-max while the
# intervals closed would need many times more, and the RSS over a session without --flight
# stays within the cap and 2 MiB of allocator slack.
"$OUTPUT/tests/host/many" 256 --run >"$TMP/many.out" 2>&1 &
mpid=$!
wait_text "$TMP/many.out" '^ready$'
# rss_after ARGS...: a session of 150 intervals of 0.2 s (each one with runs of every program)
# with ARGS; prints its VmRSS (KiB) at interval 140, and keeps the gauges then.
rss_after() {
	local port=$((20000 + RANDOM % 20000)) rss
	wait_lock
	$LATTOP -b -o json -d 0.2 -n 150 --listen 127.0.0.1:$port "$@" >"$TMP/cap.json" \
		2>"$TMP/cap.err" &
	local p=$!
	lines_at_least "$TMP/cap.json" 140 600
	rss=$(awk '/^VmRSS/ {print $2}' /proc/$p/status)
	curl -s "http://127.0.0.1:$port/metrics" >"$TMP/cap.prom"
	wait $p
	echo "$rss"
}
base_rss=$(rss_after)
cap_rss=$(rss_after --flight 1h --flight-max 128K --flight-dir "$TMP")
gauge=$(awk '/^lattop_flight_bytes / {print $2}' "$TMP/cap.prom")
held=$(awk '/^lattop_flight_intervals / {print $2}' "$TMP/cap.prom")
per=$(json "max(sum(1 for r in l['rows'] if r['prog_name'].startswith('many_') and r['count']) for l in L)" "$TMP/cap.json")
check cap-hundreds-of-series test "${per:-0}" -ge 250
# 256 programs' entries (about 90 bytes each) a 0.2 s interval: 140 intervals would need
# 3 MiB; the cap keeps a handful.
check cap-gauge-under-cap test "${gauge:-999999999}" -le 131072 -a "${gauge:-0}" -gt 32768
check cap-evicted test "${held:-999}" -lt 20 -a "${held:-0}" -ge 2
check cap-rss test $((cap_rss - base_rss)) -le $((128 + 1536))
echo "# cap: RSS $base_rss KiB without --flight, $cap_rss KiB with a 128 KiB cap; gauge $gauge bytes, $held intervals held"
kill $mpid 2>/dev/null
wait $mpid 2>/dev/null

# 3. POST /dump: 404 unless --flight-http; with it, 202 and a dump of the last 1 s asked.
mkdir -p "$TMP/d3"
port=$((20000 + RANDOM % 20000))
wait_lock
$LATTOP --demo --listen 127.0.0.1:$port -d 0.25 -D 60 --flight 1m --flight-dir "$TMP/d3" \
	2>"$TMP/p1.err" &
pid=$!
wait_text "$TMP/p1.err" serving
sleep 1
expect_eq post-off-404 "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/dump")" 404
expect_eq post-off-metrics "$(curl -s "http://127.0.0.1:$port/metrics" | grep -c '^lattop_flight_dumps_total{trigger=')" 4
kill $pid
wait $pid
expect_eq post-off-no-file "$(ls "$TMP/d3" | wc -l)" 0
port=$((20000 + RANDOM % 20000))
wait_lock
$LATTOP --demo --listen 127.0.0.1:$port -d 0.25 -D 60 --flight 1m --flight-dir "$TMP/d3" \
	--flight-http 2>"$TMP/p2.err" &
pid=$!
wait_text "$TMP/p2.err" serving
sleep 2
expect_eq post-get-405 "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/dump")" 405
expect_eq post-bad-last-400 "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/dump?last=soon")" 400
expect_eq post-202 "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/dump?last=1s")" 202
wait_text "$TMP/p2.err" 'wrote .*-http\.lrec'
sleep 0.5 # the next interval close publishes the count
expect_eq post-gauge "$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^lattop_flight_dumps_total\{trigger="http"\}/ {print $2}')" 1
kill $pid
wait $pid
f=$(ls "$TMP"/d3/*-http.lrec)
expect_eq post-window "$(meta "$f" window_asked_ns) $(meta "$f" intervals)" "1000000000 4"
expect_eq post-replays "$($LATTOP -r "$f" -b -o json -n 100 | wc -l)" 4

# 4. --flight-files 2: four dumps leave the newest two; a file lattop did not write (named
# like a dump) stays.
mkdir -p "$TMP/d4"
echo mine >"$TMP/d4/lattop-flight-20000101-000000-signal.lrec"
wait_lock
$LATTOP --demo -b -o json -d 0.2 -D 60 --flight 10s --flight-files 2 --flight-dir "$TMP/d4" \
	>"$TMP/rot.json" 2>"$TMP/rot.err" &
pid=$!
# An interval closed: the SIGUSR2 handler is in place (before it, the signal's default kills).
lines_at_least "$TMP/rot.json" 2
for i in 1 2 3 4; do
	kill -USR2 $pid
	for _ in $(seq 100); do [ "$(grep -c wrote "$TMP/rot.err")" -ge $i ] && break; sleep 0.1; done
	sleep 1.1 # a new second: a new name (the -N suffix is tested by the name check below)
done
kill $pid
wait $pid
expect_eq rotate-written "$(grep -c 'wrote' "$TMP/rot.err")" 4
expect_eq rotate-kept "$(ls "$TMP"/d4/*.lrec | wc -l)" 3
expect_eq rotate-foreign-kept "$(cat "$TMP/d4/lattop-flight-20000101-000000-signal.lrec")" mine
last2=$(grep -o "$TMP/d4/[^ ]*" "$TMP/rot.err" | tail -n 2 | sort | tr '\n' ' ')
expect_eq rotate-newest "$(ls "$TMP"/d4/*.lrec | grep -v 20000101 | sort | tr '\n' ' ')" "$last2"

# 5. Refusals: one sentence each, status 2, nothing started.
# refused NAME SENTENCE ARGS...
refused() {
	local name=$1 want=$2
	shift 2
	$LATTOP "$@" >"$TMP/r.out" 2>"$TMP/r.err"
	expect_eq "$name-status" $? 2
	expect_eq "$name-message" "$(cat "$TMP/r.err")" "lattop: $want"
}
refused bad-unit "--trigger 'demo_xdp_hash:p99>20': the value '20' is not a duration: p99 takes a number and a unit, ns, us, ms or s (e.g. 20us)" \
	--demo --flight 1m --trigger 'demo_xdp_hash:p99>20'
refused bad-metric "--trigger 'demo_xdp_hash:p98>20us': unknown metric 'p98' of series demo_xdp_hash: use p50, p95, p99, p999, max, avg, rate, count or lost" \
	--demo --flight 1m --trigger 'demo_xdp_hash:p98>20us'
refused no-op "--trigger 'demo_xdp_hash:p99=20us': no comparison: write [SERIES:]METRIC>VALUE, e.g. demo_xdp_hash:p99>20us" \
	--demo --flight 1m --trigger 'demo_xdp_hash:p99=20us'
refused bad-session-metric "--trigger 'dropz>0': unknown session-wide metric 'dropz': use drops, rb_drops, queue_drops, recursion, nest or lost, or SERIES:METRIC for a series (e.g. demo_xdp_hash:p99>20us)" \
	--demo --flight 1m --trigger 'dropz>0'
refused bad-rate "--trigger 'x:rate>fast': the value 'fast' is not a number: rate takes a plain number of runs per second (e.g. 1000)" \
	--demo --flight 1m --trigger 'x:rate>fast'
refused trigger-alone "--trigger applies to the flight recorder: give --flight DURATION too (e.g. --flight 15m)" \
	--demo --trigger 'drops>0'
refused http-alone "--flight-http adds POST /dump to the --listen endpoint: give --listen too" \
	--demo --flight 1m --flight-http
refused after-too-long "--trigger-after must be shorter than --flight (the dump would hold nothing from before the trigger): shorten it or lengthen --flight" \
	--demo --flight 10s --trigger 'drops>0' --trigger-after 10s
refused small-cap "bad size '1K' for --flight-max: give 64K or more, e.g. 64M (K, M, G are binary)" \
	--demo --flight 1m --flight-max 1K
refused bad-duration "bad duration '15x' for --flight: give 1s or more with a unit, e.g. 15m" \
	--demo --flight 15x
refused replay "--flight keeps the last minutes of a live session: it does not apply to -r" \
	-r "$dump" --flight 1m

# 6. Dumps that cannot be written: one sentence each, counted; the session goes on (every
# interval printed) and ends with status 1; no partial file is left.
# dump_fails NAME DIR SENTENCE-PATTERN: a session whose SIGUSR2 dump into DIR fails.
dump_fails() {
	local name=$1 dir=$2 want=$3 pid
	wait_lock
	$LATTOP --demo -b -o json -d 0.2 -n 12 --flight 1m --flight-dir "$dir" \
		>"$TMP/f.json" 2>"$TMP/f.err" &
	pid=$!
	lines_at_least "$TMP/f.json" 4
	kill -USR2 $pid
	wait $pid
	expect_eq "$name-exit" $? 1
	expect_eq "$name-goes-on" "$(json 'len(L)' "$TMP/f.json")" 12
	check "$name-sentence" grep -qxE -- "lattop: $want" "$TMP/f.err"
	expect_eq "$name-one-line" "$(wc -l <"$TMP/f.err")" 1
}
dump_fails missing-dir "$TMP/nothere" \
	"flight recorder: cannot open the dump directory $TMP/nothere: No such file or directory; create it or give another with --flight-dir"
mkdir "$TMP/real"
ln -s "$TMP/real" "$TMP/linked"
dump_fails symlinked-dir "$TMP/linked" \
	"flight recorder: the dump directory $TMP/linked is a symbolic link: lattop never writes through one; give a real directory with --flight-dir"
expect_eq symlinked-dir-untouched "$(ls "$TMP/real" | wc -l)" 0
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=64k,mode=755 tmpfs "$TMP/small" 2>/dev/null; then
	dd if=/dev/zero of="$TMP/small/fill" bs=4k count=14 2>/dev/null
	dump_fails disk-full "$TMP/small" \
		"flight recorder: cannot write the dump $TMP/small/lattop-flight-[0-9]{8}-[0-9]{6}-signal\.lrec: No space left on device; the partial file is removed \(free space or give another --flight-dir\)"
	expect_eq disk-full-no-partial "$(ls "$TMP/small")" fill
	# Unwritable (root passes permission bits: a read-only mount).
	mount -o remount,ro "$TMP/small"
	dump_fails read-only "$TMP/small" \
		"flight recorder: cannot create a dump in $TMP/small: Read-only file system; make the directory writable or give another with --flight-dir"
	umount "$TMP/small"
	check disk-full-unmounted test -z "$(findmnt -rn -o TARGET | grep "^$TMP")"
else
	skip disk-full "cannot mount a tmpfs"
fi
end_suite
