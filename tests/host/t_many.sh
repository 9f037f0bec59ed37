#!/usr/bin/env bash
# The most programs a filter may hold (FILTER_MAX = 256): 256 tiny programs loaded by the test,
# watched by name and by ID in batch mode, every one a row; a 257th entry is refused; and the
# soft open-files limit is raised to the hard one (each watched program holds fds).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-many

many_start 256
expect_eq many-ready "$many_ready" ready
byname=$(IFS=,; echo "${names[*]}")
byid=$(IFS=,; echo "${ids[*]}")

# By name (2,303 characters) and by ID: all 256 rows, none missing, under a low soft limit.
(ulimit -Sn 64; $LATTOP -p "$byname" -b -n 1 -d 0.2 -o json >"$TMP/n.json" 2>"$TMP/n.err")
expect_eq by-name-exit $? 0
expect_eq by-name-rows "$(json 'len({r["prog_name"] for r in L[0]["rows"] if r["prog_name"].startswith("many_")})' "$TMP/n.json")" 256
$LATTOP -p "$byid" -b -n 1 -d 0.2 -o json >"$TMP/i.json" 2>"$TMP/i.err"
expect_eq by-id-exit $? 0
expect_eq by-id-rows "$(json 'sorted(r["prog_id"] for r in L[0]["rows"])' "$TMP/i.json")" \
	"$(printf '%s\n' "${ids[@]}" | sort -n | paste -sd, | sed 's/,/, /g; s/^/[/; s/$/]/')"

# A 257th entry: one sentence, exit 2.
out=$($LATTOP -p "$byname,many_extra" -b -n 1 2>&1); rc=$?
expect_eq too-many-exit "$rc" 2
expect_eq too-many-says "$out" "lattop: too many entries in -p: at most 256"

# The soft open-files limit is raised to the hard one at start-up.
(ulimit -Sn 64; exec $LATTOP -p "$byname" -b -D 3 -d 0.5 -o json >/dev/null 2>&1) &
lat=$!
for _ in $(seq 30); do grep -q 'Max open files' /proc/$lat/limits 2>/dev/null && break; sleep 0.1; done
sleep 0.5
read -r soft hard < <(awk '/Max open files/{print $4, $5}' /proc/$lat/limits)
check nofile-raised test -n "$soft" -a "$soft" = "$hard" -a "$soft" != 64
kill -INT $lat 2>/dev/null
wait $lat

# A recording of the 256-entry session replays with all 256 rows (its filter record holds the
# whole list, not the first 2 KiB of it).
$LATTOP -p "$byname" -b -n 2 -d 0.2 -o json -w "$TMP/many.lrec" >"$TMP/live.json" 2>"$TMP/live.err"
expect_eq record-exit $? 0
$LATTOP -r "$TMP/many.lrec" -b -n 2 -o json >"$TMP/replay.json" 2>"$TMP/replay.err"
expect_eq replay-exit $? 0
expect_eq replay-rows "$(json '[len(l["rows"]) for l in L]' "$TMP/replay.json")" "[256, 256]"
echo quit >&"${M[1]}"
wait "$M_PID" 2>/dev/null
end_suite
