#!/usr/bin/env bash
# Record and replay (-w, -r, --raw, --events): a live demo session and its replay give the same
# per-interval numbers; damaged files replay up to the damage and name its offset; bad magic,
# newer versions and bad option combinations are refused in one sentence; --raw exports hold
# exactly the recorded events; a non-root user replays; SIGKILL and a full disk leave readable
# files.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-record
chmod 755 "$TMP"

# Round trip: the replay's per-interval JSON equals the live JSON row for row (except ts_ns).
live $LATTOP --demo -b -n 4 -d 0.3 -o json -w "$TMP/a.lrec" >"$TMP/live.json"
expect_eq live-exit $? 0
$LATTOP -r "$TMP/a.lrec" -b -n 100 -o json >"$TMP/rep.json" 2>"$TMP/rep.err"
expect_eq replay-exit $? 0
expect_eq replay-intervals "$(json 'len(L)' "$TMP/rep.json")" 4
same=$(python3 - "$TMP/live.json" "$TMP/rep.json" <<'EOF'
import json, sys
A = [json.loads(l) for l in open(sys.argv[1])]
B = [json.loads(l) for l in open(sys.argv[2])]
for a, b in zip(A, B):
    a.pop("ts_ns"); b.pop("ts_ns")
print(A == B and len(A) == 4)
EOF
)
expect_eq round-trip-json-equal "$same" True
expect_eq replay-has-demo "$(json 'sum(1 for l in L for r in l["rows"] if r["prog_name"].startswith("demo_"))' "$TMP/rep.json")" 16
# The metadata's integers are whole: start_realtime_ns (about 1.8e18, above 2^53) used to go
# through a double and came out as 1.76...e+18. The header is magic (12), version (4), length
# (4), then the JSON.
meta=$(python3 - "$TMP/a.lrec" <<'EOF'
import json, re, struct, sys, time
b = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", b, 16)[0]
txt = b[20:20 + n].decode()
m = json.loads(txt)
whole = re.search(r'"start_realtime_ns":([0-9]+)[,}]', txt) is not None
near = abs(m["start_realtime_ns"] - time.time_ns()) < 600 * 10**9
print(whole, near, isinstance(m["interval_ns"], int), m["interval_ns"])
EOF
)
expect_eq meta-integers-whole "$meta" "True True True 300000000"
# CSV and text replay carry the same rows as JSON (same formats as live batch).
$LATTOP -r "$TMP/a.lrec" -b -n 2 -o csv >"$TMP/rep.csv"
expect_eq replay-csv-rows "$(grep -c ',demo_' "$TMP/rep.csv")" 8
$LATTOP -r "$TMP/a.lrec" -b -n 1 >"$TMP/rep.txt"
check replay-text-header grep -q '^lattop .* mode programs  source stats+self' "$TMP/rep.txt"

# Totals: without -n, one table over the whole recording; counts are the interval sums.
$LATTOP -r "$TMP/a.lrec" -b -o json >"$TMP/tot.json"
expect_eq totals-exit $? 0
sums=$(python3 - "$TMP/live.json" "$TMP/tot.json" <<'EOF'
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
T = json.load(open(sys.argv[2]))
want = {}
for l in L:
    for r in l["rows"]:
        want[r["prog_id"]] = want.get(r["prog_id"], 0) + r["count"]
got = {p["id"]: p["count"] for p in T["programs"]}
ok = got == want and T["intervals"] == 4
ok = ok and all(p["p50_ns"] <= p["p95_ns"] <= p["p99_ns"] <= p["p999_ns"] <= p["max_ns"]
                for p in T["programs"] if p["name"].startswith("demo_"))
ok = ok and T["events"] == sum(l["events"] for l in L)
print(ok)
EOF
)
expect_eq totals-are-interval-sums "$sums" True
$LATTOP -r "$TMP/a.lrec" -b >"$TMP/tot.txt"
check totals-text-table grep -qE '^ +ID TYPE +NAME +COUNT +AVG +P50 +P95 +P99 +P99.9 +MAX' "$TMP/tot.txt"
check totals-text-programs-first grep -qx 'programs' "$TMP/tot.txt"
$LATTOP -r "$TMP/a.lrec" -b -o csv >"$TMP/tot.csv"
expect_eq totals-csv-header "$(head -n1 "$TMP/tot.csv")" "kind,id,aux,aux2,type,name,count,avg_ns,p50_ns,p95_ns,p99_ns,p999_ns,max_ns,gone,prog_name,map_name,count_source"
expect_eq totals-csv-demo "$(grep -c ',demo_' "$TMP/tot.csv")" 4

# Truncation at every record boundary and at random offsets: exit 0, the intervals before the
# cut replay, and a cut inside a record names the record's offset.
trunc=$(python3 - "$TMP/a.lrec" "$LATTOP" "$TMP" <<'EOF'
import json, random, struct, subprocess, sys
path, lattop, tmp = sys.argv[1:4]
data = open(path, "rb").read()
meta_len = struct.unpack_from("<I", data, 16)[0]
off = 20 + meta_len
bounds, ivals = [off], [0]
while off < len(data):
    t, n = struct.unpack_from("<II", data, off)
    off += 12 + n
    bounds.append(off)
    ivals.append(ivals[-1] + (t == 2))
random.seed(7)
cuts = bounds + [random.randrange(20 + meta_len, len(data)) for _ in range(25)]
bad = []
for cut in cuts:
    f = "%s/cut.lrec" % tmp
    open(f, "wb").write(data[:cut])
    p = subprocess.run([lattop, "-r", f, "-b", "-n", "1000", "-o", "json"],
                       capture_output=True, text=True)
    last = max(i for i, b in enumerate(bounds) if b <= cut)
    n = len([l for l in p.stdout.splitlines() if l.strip()])
    want_msg = "" if cut == bounds[last] else \
        "lattop: %s: truncated/corrupt record at byte %d: " % (f, bounds[last])
    if p.returncode != 0 or n != ivals[last] or (want_msg and not p.stderr.startswith(want_msg)) \
            or (not want_msg and p.stderr):
        bad.append((cut, p.returncode, n, ivals[last], p.stderr.strip()))
print("ok %d" % len(cuts) if not bad else bad[:3])
EOF
)
check truncation-every-boundary-and-random test "${trunc%% *}" = ok
# A flipped byte in the middle: CRC mismatch named, what comes before replays.
python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[len(d)*2//3]^=0x55; open(sys.argv[2],"wb").write(d)' "$TMP/a.lrec" "$TMP/flip.lrec"
$LATTOP -r "$TMP/flip.lrec" -b -n 100 -o json >"$TMP/flip.json" 2>"$TMP/flip.err"
expect_eq corrupt-exit $? 0
check corrupt-message grep -qE "flip.lrec: truncated/corrupt record at byte [0-9]+: " "$TMP/flip.err"

# Bad magic, newer major version, missing file: one sentence, exit 1.
printf 'NOTLATTOP-----------------------' >"$TMP/magic.lrec"
$LATTOP -r "$TMP/magic.lrec" -b 2>"$TMP/m.err" >/dev/null
expect_eq bad-magic-exit $? 1
expect_eq bad-magic-message "$(cat "$TMP/m.err")" "lattop: $TMP/magic.lrec: not a lattop recording (bad magic)"
python3 -c 'import sys; d=bytearray(open(sys.argv[1],"rb").read()); d[12]=0; d[14]=9; open(sys.argv[2],"wb").write(d)' "$TMP/a.lrec" "$TMP/v9.lrec"
$LATTOP -r "$TMP/v9.lrec" -b 2>"$TMP/v.err" >/dev/null
expect_eq newer-version-exit $? 1
check newer-version-message grep -q 'recorded with format version 9.0, newer than this lattop reads (1.x)' "$TMP/v.err"
$LATTOP -r "$TMP/none.lrec" -b 2>"$TMP/n.err" >/dev/null
expect_eq missing-file-exit $? 1
check missing-file-message grep -q "cannot read the recording $TMP/none.lrec: No such file or directory" "$TMP/n.err"

# Bad combinations: usage errors, exit 2.
for spec in "read-and-write|-r $TMP/a.lrec -w $TMP/x.lrec" "raw-without-write|--raw" \
	"events-without-read|--events" "trace-without-events|-r $TMP/a.lrec -b -o trace" \
	"read-with-demo|-r $TMP/a.lrec --demo" "events-json|-r $TMP/a.lrec --events -o json"; do
	name=usage-${spec%%|*}
	# shellcheck disable=SC2086
	$LATTOP ${spec#*|} >/dev/null 2>"$TMP/u.err"
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$TMP/u.err")" = 1 ]; then pass "$name"; else fail "$name" "rc $rc: $(cat "$TMP/u.err")"; fi
done

# --raw: every event recorded; CSV and trace exports hold exactly the recorded count.
live $LATTOP --demo -b -n 2 -d 0.3 -o json --raw -w "$TMP/raw.lrec" >"$TMP/raw.json"
expect_eq raw-exit $? 0
events=$(json 'sum(l["events"] for l in L)' "$TMP/raw.json")
$LATTOP -r "$TMP/raw.lrec" --events -o csv >"$TMP/ev.csv"
expect_eq events-csv-exit $? 0
expect_eq events-csv-count "$(($(wc -l <"$TMP/ev.csv") - 1))" "$events"
expect_eq events-csv-header "$(head -n1 "$TMP/ev.csv")" "kind,prog_id,prog_name,aux,aux2,cpu,pid,tid,start_ns,dur_ns"
$LATTOP -r "$TMP/raw.lrec" --events -o trace >"$TMP/trace.json"
trace=$(python3 -c 'import json,sys
T=json.load(open(sys.argv[1]))["traceEvents"]
ok=all(e["ph"]=="X" and e["dur"]>=0 and e["ts"]>=0 and e["name"].startswith("demo_") for e in T)
print(len(T) if ok else "bad")' "$TMP/trace.json" 2>&1)
expect_eq trace-valid-json-count "$trace" "$events"
$LATTOP -r "$TMP/a.lrec" --events -o csv >/dev/null 2>"$TMP/ne.err"
expect_eq events-without-raw-exit $? 1

# Replay needs no root: a non-root user replays (no lock, no BPF, no privilege check).
cp tests/data/sample.lrec "$TMP/sample.lrec"
chmod 644 "$TMP/sample.lrec"
setpriv --reuid=nobody --regid=nogroup --clear-groups "$(readlink -f "$LATTOP")" \
	-r "$TMP/sample.lrec" -b -o json >"$TMP/nr.json" 2>"$TMP/nr.err"
expect_eq nonroot-replay-exit $? 0
expect_eq nonroot-replay-demo "$(json 'sorted(p["name"] for p in L[0]["programs"] if p["name"].startswith("demo_"))' "$TMP/nr.json")" "['demo_sk_queue', 'demo_xdp_array', 'demo_xdp_hash', 'demo_xdp_lru']"
check sample-small test "$(stat -c %s tests/data/sample.lrec)" -lt 102400

# SIGKILL mid-session: the file replays up to its last complete record.
for _ in $(seq 60); do
	wait_lock
	: >"$TMP/k.live" # there before the background shell opens it, for the wc below
	$LATTOP --demo -b -d 0.2 -o json -w "$TMP/k.lrec" >"$TMP/k.live" 2>"$TMP/k.start" &
	kpid=$!
	# Kill once five intervals were reported (each is flushed to the file first), however
	# slowly the machine starts the session.
	for _ in $(seq 200); do
		[ "$(wc -l <"$TMP/k.live")" -ge 5 ] && break
		kill -0 $kpid 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL $kpid 2>/dev/null
	wait $kpid 2>/dev/null
	grep -q 'another lattop session' "$TMP/k.start" || break
done
$LATTOP -r "$TMP/k.lrec" -b -n 1000 -o json >"$TMP/k.json" 2>"$TMP/k.err"
expect_eq sigkill-replay-exit $? 0
check sigkill-intervals test "$(json 'len(L)' "$TMP/k.json")" -ge 4

# A full disk stops the recording with one sentence on stderr; the session goes on, and ends
# with exit status 1 (tests/host/t_files.sh has more).
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=96k tmpfs "$TMP/small" 2>/dev/null; then
	# Leave 12 KiB free whatever the demo's event rate: four intervals of the demo's
	# series alone (~14 KiB without --raw) cannot fit, so the disk fills every time.
	dd if=/dev/zero of="$TMP/small/fill" bs=4k count=21 2>/dev/null
	live $LATTOP --demo -b -n 4 -d 0.3 -o json --raw -w "$TMP/small/f.lrec" >"$TMP/full.json" \
		2>"$TMP/full.err"
	expect_eq disk-full-exit $? 1
	expect_eq disk-full-session-goes-on "$(json 'len(L)' "$TMP/full.json")" 4
	check disk-full-message grep -q "recording stopped: cannot write $TMP/small/f.lrec: No space left on device" "$TMP/full.err"
	$LATTOP -r "$TMP/small/f.lrec" -b -n 100 -o json >/dev/null 2>&1
	expect_eq disk-full-file-readable $? 0
	umount "$TMP/small"
else
	skip disk-full "cannot mount a tmpfs"
fi

# Under ASan/UBSan (the build the asan suite made): recording with --raw (writer thread) and
# every replay path, whole and damaged, without a sanitizer report or a leak.
SAN_LAT=$OUTPUT/san-address-undefined/lattop
if [ -x "$SAN_LAT" ]; then
	export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	live "$SAN_LAT" --demo -b -n 2 -d 0.3 -o json --raw -w "$TMP/san.lrec" >/dev/null 2>"$TMP/san.rec.err"
	expect_eq asan-record-raw "$?:$(grep -c -E 'Sanitizer|runtime error' "$TMP/san.rec.err")" "0:0"
	head -c 70000 "$TMP/san.lrec" >"$TMP/san-cut.lrec"
	n=0
	for args in "-b -o json" "-b -n 5 -o csv" "-b -n 5" "--events -o trace" "--events -o csv"; do
		n=$((n + 1))
		for f in san san-cut; do
			# shellcheck disable=SC2086
			"$SAN_LAT" -r "$TMP/$f.lrec" $args >/dev/null 2>"$TMP/san.err"
			rc=$?
			if [ $rc = 0 ] && ! grep -qE 'Sanitizer|runtime error' "$TMP/san.err"; then
				pass "asan-replay-$n-$f"
			else
				fail "asan-replay-$n-$f" "rc $rc: $(grep -m3 -E 'ERROR|runtime error|SUMMARY' "$TMP/san.err")"
			fi
		done
	done
else
	skip asan-replay "no $SAN_LAT: tests/sanitize.sh address,undefined builds it"
fi

# Under TSan (the build the tsan suite made): the UI thread queueing frames and the writer
# thread writing them.
if [ -x "$OUTPUT/san-thread/tests/test_recorder" ]; then
	if TSAN_OPTIONS=halt_on_error=1 "$OUTPUT/san-thread/tests/test_recorder" >"$TMP/tsan.log" 2>&1; then
		pass tsan-recorder
	else
		fail tsan-recorder "$(grep -m3 -E 'WARNING|ERROR|FAIL' "$TMP/tsan.log")"
	fi
else
	skip tsan-recorder "no $OUTPUT/san-thread/tests/test_recorder: tests/sanitize.sh thread builds it"
fi
end_suite
