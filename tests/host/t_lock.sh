#!/usr/bin/env bash
# One live session at a time: a second one is refused naming the first's pid; a session killed
# with SIGKILL leaves its lock file behind but never blocks the next; replay needs no lock.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-lock
for _ in $(seq 100); do pgrep -x lattop >/dev/null || break; sleep 0.1; done

$LATTOP -b -d 0.5 -D 30 >/dev/null 2>&1 &
first=$!
for _ in $(seq 100); do [ -s /run/lattop.lock ] && grep -q "^$first$" /run/lattop.lock && break; sleep 0.05; done
$LATTOP -b -n 1 >"$TMP/out" 2>"$TMP/err"
expect_eq second-refused $? 1
check names-holder grep -q "another lattop session (pid $first) is already tracing" "$TMP/err"
check second-prints-nothing test ! -s "$TMP/out"
# Replay takes no lock: it works while the live session runs.
$LATTOP -r tests/data/sample.lrec -b -n 1 >"$TMP/replay" 2>&1
expect_eq replay-while-live $? 0
# SIGKILL: no cleanup runs, the file stays, the kernel drops the flock.
kill -9 "$first"
wait "$first" 2>/dev/null
check lock-file-left test -s /run/lattop.lock
$LATTOP -b -n 1 -d 0.3 >"$TMP/third" 2>&1
expect_eq stale-lock-does-not-block $? 0
check third-reports grep -q '^lattop ' "$TMP/third"
end_suite
