#!/usr/bin/env bash
# The readers of files from elsewhere: -r refuses what is not a regular file with one
# sentence (a FIFO is not waited on), numbers in a recording's metadata and in a profile are
# range-checked (out of range, fractional, 1e300: one sentence naming the field and the range,
# never a silent or undefined conversion), and a spans file over the 1 MiB limit says so.
# No root, no BPF.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=${SUITE_PREFIX:-}host-readers

# one NAME STATUS PATTERN ARGS...: lattop ARGS exits STATUS with one stderr line matching
# PATTERN and nothing on stdout, within 10 s (a FIFO must not block).
one() {
	local name=$1 want=$2 pat=$3; shift 3
	timeout 10 $LATTOP "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	local rc=$?
	if [ "$rc" != "$want" ]; then fail "$name" "exit $rc, expected $want ($(cat "$TMP/err"))"
	elif [ -s "$TMP/out" ]; then fail "$name" "printed to stdout: $(head -c 200 "$TMP/out")"
	elif [ "$(wc -l <"$TMP/err")" != 1 ]; then fail "$name" "stderr is not one line: $(cat "$TMP/err")"
	elif ! grep -qE -- "$pat" "$TMP/err"; then fail "$name" "stderr '$(cat "$TMP/err")' lacks /$pat/"
	else pass "$name"; fi
}

# -r of what is not a regular file.
mkfifo "$TMP/fifo"
one replay-fifo 1 "^lattop: $TMP/fifo is a FIFO, not a recording: give a file written with lattop -w\$" -r "$TMP/fifo" -b
one replay-dev-null 1 "^lattop: /dev/null is a character device, not a recording: give a file written with lattop -w\$" -r /dev/null -b
one replay-directory 1 "^lattop: $TMP is a directory, not a recording" -r "$TMP" -b
one replay-missing 1 "^lattop: cannot read the recording $TMP/nope: No such file or directory\$" -r "$TMP/nope" -b

# Metadata numbers: the crafted recording with one number replaced.
if ! "$OUTPUT/tests/test_rec_escape" --write "$TMP/e.lrec" 2>"$TMP/gen.err"; then
	fail generate "$(cat "$TMP/gen.err")"
	exit 0
fi
# meta KEY JSON-VALUE: $TMP/m.lrec is e.lrec (or $SRC) with metadata KEY set to the literal
# JSON-VALUE.
meta() {
	python3 - "${SRC:-$TMP/e.lrec}" "$TMP/m.lrec" "$1" "$2" <<'EOF'
import json, struct, sys
src, dst, key, val = sys.argv[1:]
d = open(src, "rb").read()
n = struct.unpack_from("<I", d, 16)[0]
# Latin-1 both ways: the crafted strings hold bytes that are not UTF-8, kept as they are.
meta = json.loads(d[20:20 + n].decode("latin-1"))
meta[key] = "@@"
text = json.dumps(meta, ensure_ascii=False).replace('"@@"', val).encode("latin-1")
open(dst, "wb").write(d[:16] + struct.pack("<I", len(text)) + text + d[20 + n:])
EOF
}
I63=9223372036854775807
for case in "floor_ns 1e300 is 1e\\+300: give a whole number from 0 to 60000000000" \
	"floor_ns -1 is -1: give a whole number from 0 to 60000000000" \
	"floor_ns 12.5 is 12.5: give a whole number from 0 to 60000000000" \
	"run_cost_ns 1e300 is 1e\\+300: give a whole number from 0 to 60000000000" \
	"run_cost_ns -3 is -3: give a whole number from 0 to 60000000000" \
	"interval_ns 1e999 is inf: give a whole number from 0 to 86400000000000" \
	"start_realtime_ns 9223372036854775808 is 9.22337203685478e\\+18: give a whole number from 0 to $I63" \
	"start_monotonic_ns -1e300 is -1e\\+300: give a whole number from 0 to $I63" \
	"start_monotonic_ns \"5\" is not a number: give a whole number from 0 to $I63"; do
	set -- $case
	key=$1 val=$2; shift 2
	meta "$key" "$val"
	one "meta-$key-$val" 1 "^lattop: $TMP/m.lrec: header metadata \"$key\" $*\$" -r "$TMP/m.lrec" -b
done
# The bounds themselves replay.
meta floor_ns 60000000000
$LATTOP -r "$TMP/m.lrec" -b -o json >"$TMP/ok.json" 2>"$TMP/ok.err"
expect_eq meta-bound-replays "$?:$(cat "$TMP/ok.err")" "0:"
# A recorded run cost at its bound replays; one of 7 ns with a floor of 40 ns is what the
# replay reports, and the probes' CPU share is the crafted file's 100 timed runs in its 1 s
# interval times the run cost (7e-05 %), not times the floor (4e-04 %).
meta run_cost_ns 60000000000
$LATTOP -r "$TMP/m.lrec" -b -o json >"$TMP/ok.json" 2>"$TMP/ok.err"
expect_eq meta-run-cost-bound-replays "$?:$(cat "$TMP/ok.err")" "0:"
meta run_cost_ns 7
cp "$TMP/m.lrec" "$TMP/e2.lrec"
SRC="$TMP/e2.lrec" meta floor_ns 40
$LATTOP -r "$TMP/m.lrec" -b -n 1 -o json >"$TMP/ok.json" 2>"$TMP/ok.err"
expect_eq meta-run-cost-replayed "$(json '[L[0]["probes"][k] for k in ("floor_ns", "run_cost_ns", "cost_pct")]' "$TMP/ok.json")" "[40, 7, 7e-05]"
meta start_realtime_ns 0
$LATTOP -r "$TMP/m.lrec" -b -o json >"$TMP/ok.json" 2>"$TMP/ok.err"
expect_eq meta-zero-replays "$?:$(json 'L[0]["start_ns"] < 10**13' "$TMP/ok.json")" "0:True"

# A profile's tid beyond 2^32 (it used to become 1): one sentence, usage status.
printf '{"device":"lo","flow":"proto=udp","eventfds":[{"ctx":"0x12"}],"workers":[{"tid":4294967297,"ctx":"0x12"}]}\n' >"$TMP/p.json"
one profile-tid-2-32 2 "workers\\[0\\]\\.\"tid\" is 4294967297: give a whole number from 1 to 4194304 \\(run lattop --discover again\\)" --profile "$TMP/p.json" -b -n 1

# A spans file over 1 MiB names the limit.
python3 -c 'import sys; sys.stdout.write("{\"spans\": []" + " " * (1 << 20) + "}")' >"$TMP/big.json"
one spans-over-1mib 2 "the spans file $TMP/big.json is larger than 1 MiB, the most lattop reads: split it into several --spans files" --spans "$TMP/big.json" -b -n 1
end_suite
