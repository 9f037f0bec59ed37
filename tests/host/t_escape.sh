#!/usr/bin/env bash
# Strings read from a recording reach the terminal only in their visible form. A crafted
# recording (test_rec_escape --write) puts ESC ] 2 ; X BEL (sets the window title), CR LF
# (forges a line), a quote, a comma, an invalid byte, a C1 CSI, a tab and a backslash into
# every string it holds (program name, type, note, map, span, kind, counter names, host,
# kernel, source, notices); every replay output (text, CSV, JSON, per interval in each mode,
# totals, --events) must hold no raw control byte, be valid UTF-8, and parse back: CSV per
# RFC 4180 to the strings' visible forms, JSON to the strings. No root, no BPF.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=${SUITE_PREFIX:-}host-escape
GEN=$OUTPUT/tests/test_rec_escape

if ! "$GEN" --write "$TMP/e.lrec" 2>"$TMP/gen.err"; then
	fail generate "$(cat "$TMP/gen.err")"
	exit 0
fi
pass generate

# The checker: python3 - KIND FILE. KIND: text, csv, json (JSON Lines or one document),
# trace. Prints "ok" or what is wrong. vis() is the visible form as the man page defines it.
cat >"$TMP/check.py" <<'EOF'
import csv, io, json, sys
EVIL = b'\x1b]2;X\x07\r\n"q",\xff\xc2\x9b\t\\'
RAW = {t: t.encode() + EVIL for t in ["P", "T", "note", "H", "M", "MT", "S", "K", "C", "SC",
                                      "host", "kern", "src", "notice", "segnotice"]}
# Who and where (the attr record): container, cgroup, unit, attach point (alone and as the
# ATTACH cell), and the comm (15 bytes at most: cut before the comma) alone and as OWNER.
RAW.update({t: t.encode() + EVIL for t in ["D", "/G", "U", "W", "xdp W"]})
RAW.update({"O": b'O\x1b]2;X\x07\r\n"q"', "O7": b'O\x1b]2;X\x07\r\n"q"[7]'})
def vis(b):
    out, i = "", 0
    while i < len(b):
        c = b[i]
        if c < 0x20 or c == 0x7f:
            out += "\\x%02x" % c; i += 1; continue
        if c == 0x5c:
            out += "\\\\"; i += 1; continue
        if c < 0x80:
            out += chr(c); i += 1; continue
        for n in (4, 3, 2):
            try:
                ch = b[i:i + n].decode("utf-8")
                if len(ch) == 1: break
            except UnicodeDecodeError:
                pass
        else:
            out += "\\x%02x" % c; i += 1; continue
        cp = ord(ch)
        if 0x80 <= cp <= 0x9f or cp in (0x61c, 0x200e, 0x200f) or 0x202a <= cp <= 0x202e or 0x2066 <= cp <= 0x2069:
            out += "\\u%04x" % cp
        else:
            out += ch
        i += n
    return out
def jsonval(b):  # what a JSON writer holds: the string, invalid bytes in their visible form
    return b.replace(b"\xff", b"\\xff").decode()
VIS = {vis(v) for v in RAW.values()}
JS = {jsonval(v) for v in RAW.values()}
kind, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
bad = []
try:
    text = data.decode("utf-8")
except UnicodeDecodeError as e:
    print("not valid UTF-8: %s" % e); sys.exit()
for i, ch in enumerate(text):
    cp = ord(ch)
    if (cp < 0x20 and ch != "\n") or cp == 0x7f or 0x80 <= cp <= 0x9f or 0x202a <= cp <= 0x202e:
        bad.append("raw U+%04X at %d: %r" % (cp, i, text[max(0, i - 20):i + 5])); break
if not text.endswith("\n"):
    bad.append("no final newline")
lines = text.split("\n")[:-1]
if kind == "text":
    for l in lines:
        if l.startswith('"q"') or l.startswith("\\x0a"):
            bad.append("forged line %r" % l)
    need = sys.argv[3:]
    for n in need:
        if n not in text:
            bad.append("%r missing" % n)
elif kind == "csv":
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if len(rows) != len(lines):
        bad.append("%d CSV records on %d lines" % (len(rows), len(lines)))
    hdr = rows[0] if rows else []
    seen = set()
    for r in rows[1:]:
        if len(r) != len(hdr):
            bad.append("%d fields, header has %d: %r" % (len(r), len(hdr), r)); break
        for k, v in zip(hdr, r):
            if "\\x1b" in v:
                if v not in VIS and not any(v.startswith(x + "=") for x in VIS):
                    bad.append("%s=%r is no crafted string's visible form" % (k, v))
                seen.add(k)
    need = set(sys.argv[3:])
    if not need <= seen:
        bad.append("columns without a crafted string: %s" % sorted(need - seen))
else:
    docs = [json.loads(l) for l in lines] if kind == "json" else [json.loads(text)]
    found = set()
    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                walk(k); walk(v)
        elif isinstance(o, list):
            for v in o: walk(v)
        elif isinstance(o, str) and "\x1b" in o:
            if o not in JS:
                bad.append("JSON string %r is no crafted string" % o)
            found.add(o)
    for d in docs: walk(d)
    need = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    if len(found) != need:
        bad.append("%d distinct crafted strings in the JSON, expected %d" % (len(found), need))
print("; ".join(bad[:3]) if bad else "ok")
EOF

# run NAME KIND [CHECK-ARGS...] -- LATTOP-ARGS...: replay, then check stdout and stderr.
run() {
	local name=$1 kind=$2 cargs=(); shift 2
	while [ "$1" != -- ]; do cargs+=("$1"); shift; done; shift
	$LATTOP -r "$TMP/e.lrec" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	local rc=$?
	if [ "$rc" != 0 ] || [ -s "$TMP/$name.err" ]; then
		fail "$name" "exit $rc: $(head -c 300 "$TMP/$name.err" | cat -v)"
		return
	fi
	expect_eq "$name" "$(python3 "$TMP/check.py" "$kind" "$TMP/$name.out" "${cargs[@]}")" ok
}

# Totals over the recording.
run totals-text text 'host host\x1b]2;X\x07\x0d\x0a"q",\xff\u009b\x09\\' \
	'P\x1b]2;X\x07\x0d\x0a"q",\xff' 'helpers of P\x1b]2;X' 'SC\x1b]2;X\x07\x0d\x0a"q",\xff' -- -b
run totals-csv csv type name prog_name map_name -- -b -o csv
run totals-json json 12 -- -b -o json
# Per interval, each mode, each format.
# JSON: the distinct crafted strings each mode's rows, source, notice and counters hold (with
# a program row's owner, container and attach cells and its attr object: 7 more).
for mode_n in programs:13 helpers:13 segments:4; do
	mode=${mode_n%:*}
	run "$mode-text" text 'note: ' '\x1b]2;X\x07' -- -b -n 2 -m "$mode"
	run "$mode-json" json "${mode_n#*:}" -- -b -n 2 -m "$mode" -o json
done
run programs-csv csv source prog_type prog_name counters note owner container attach -- -b -n 2 -m programs -o csv
run helpers-csv csv prog_name helper map_name map_type -- -b -n 2 -m helpers -o csv
run segments-csv csv source span kind -- -b -n 2 -m segments -o csv
run segments-hist-text text '[' -- -b -n 1 -m segments --hist
run cumulative-csv csv prog_name note -- -b -n 2 -c -o csv
# Event by event.
run events-csv csv prog_name -- --events -o csv
run events-trace trace 3 -- --events -o trace
# Integers above 2^53 keep every digit in JSON (a double would print the span's "big"
# counter, 2 x (2^53 + 1), as 18014398509481984).
$LATTOP -r "$TMP/e.lrec" -b -o json >"$TMP/big.json" 2>&1
expect_eq totals-json-exact "$(json 'L[0]["segments"][0]["counters"]["big"]' "$TMP/big.json")" \
	18014398509481986

# A file name that carries the same bytes: the totals header names it visibly; an error
# naming it is one clean line on stderr.
evil_name=$TMP/$'f\e]2;F\a\r\nx'.lrec
cp "$TMP/e.lrec" "$evil_name"
$LATTOP -r "$evil_name" -b >"$TMP/name.out" 2>&1
expect_eq file-name-visible "$(python3 "$TMP/check.py" text "$TMP/name.out" 'f\x1b]2;F\x07\x0d\x0ax.lrec')" ok
$LATTOP -r "$evil_name.missing" -b >"$TMP/miss.out" 2>"$TMP/miss.err"
expect_eq missing-file-status $? 1
expect_eq missing-file-stderr "$(python3 "$TMP/check.py" text "$TMP/miss.err" 'f\x1b]2;F\x07\x0d\x0ax.lrec.missing')" ok
end_suite
