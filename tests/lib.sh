# Shared helpers for lattop's shell test suites (sourced). Each check prints one
# "PASS <suite>/<name>" or "FAIL <suite>/<name>: why" line.
OUTPUT=${OUTPUT:-.output}
LATTOP=${LATTOP:-./lattop}
SUITE=${SUITE:-host}
TMP=$(mktemp -d /tmp/lattop-test.XXXXXX)
trap '[ -n "${TMUX_TMPDIR:-}" ] && tmux kill-server 2>/dev/null; rm -rf "$TMP"; jobs -p | xargs -r kill 2>/dev/null' EXIT

# Every PASS/FAIL/SKIP line also adds a line to $TMP/checks (a file, so checks made in
# subshells count too); end_suite prints the total.
: >"$TMP/checks"
pass() { echo "PASS $SUITE/$1"; echo >>"$TMP/checks"; }
fail() { echo "FAIL $SUITE/$1: $2"; echo >>"$TMP/checks"; }
# skip NAME WHY: a check this machine cannot make, with the reason.
skip() { echo "SKIP $SUITE/$1: $2"; echo >>"$TMP/checks"; }
# end_suite: the last line of every suite: "END <suite> <n>", n the PASS/FAIL/SKIP lines it
# printed. tests/run.sh fails a suite without it (it stopped early) or whose count differs.
end_suite() { echo "END $SUITE $(wc -l <"$TMP/checks")"; }
# c_suite BIN [ARGS...]: run a C test program (tests/unit/test.h) as part of this suite: its
# PASS/FAIL lines count as this suite's, and a program that stops before its own END line (or
# whose count differs) is a FAIL.
c_suite() {
	local out=$TMP/c_suite.out rc n end
	"$@" >"$out" 2>&1
	rc=$?
	grep -v '^END ' "$out"
	n=$(grep -cE '^(PASS|FAIL|SKIP) ' "$out")
	for _ in $(seq "$n"); do echo >>"$TMP/checks"; done
	end=$(grep '^END ' "$out" | tail -n 1)
	if [ -z "$end" ]; then
		fail "$(basename "$1")-end" "exited $rc before its END line"
	elif [ "${end##* }" != "$n" ]; then
		fail "$(basename "$1")-end" "'$end' but it printed $n PASS/FAIL/SKIP lines"
	fi
	return "$rc"
}
# check NAME CONDITION-COMMAND...: pass when the command succeeds.
check() {
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}
# expect_eq NAME ACTUAL EXPECTED
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', expected '$3'"; fi
}
# demo_loaded: how many demo_ programs the kernel has loaded, from a bpftool listing that
# worked (a failed listing prints why instead of a count, so "0" always means none).
demo_loaded() {
	local o
	o=$(bpftool prog show 2>&1) || { echo "bpftool prog show failed: $o"; return; }
	grep -c 'demo_' <<<"$o"
}
# json QUERY FILE: evaluate a python expression over the list of JSON lines `L` in FILE.
json() {
	python3 -c 'import json,sys
L=[json.loads(l) for l in open(sys.argv[2]) if l.strip()]
print(eval(sys.argv[1]))' "$1" "$2"
}
# wait_gone: the previous live session of this suite has exited: nothing holds the session
# lock lattop takes ($LATTOP_LOCK), so the next one will not be refused. (Not "no lattop
# process at all": other people's sessions on a shared machine use other locks.)
wait_gone() {
	local lock=${LATTOP_LOCK:-/run/lattop.lock}
	for _ in $(seq 100); do flock -n "$lock" true 2>/dev/null && return 0; sleep 0.1; done
	return 1
}
# expect_usage NAME EXPECTED-STATUS STDERR-PATTERN ARGS...: lattop ARGS exits with the status,
# prints nothing on stdout and one line on stderr that matches the (extended) pattern.
expect_usage() {
	local name=$1 want=$2 pat=$3; shift 3
	$LATTOP "$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" != "$want" ]; then fail "$name" "exit $rc, expected $want ($(cat "$TMP/err"))"
	elif [ -s "$TMP/out" ]; then fail "$name" "printed to stdout"
	elif [ "$(wc -l <"$TMP/err")" != 1 ]; then fail "$name" "stderr is not one line: $(cat "$TMP/err")"
	elif ! grep -qE "$pat" "$TMP/err"; then fail "$name" "stderr '$(cat "$TMP/err")' lacks /$pat/"
	else pass "$name"; fi
}
# wait_report FILE: until a session's first report is in FILE (it has attached), up to 60 s.
wait_report() {
	for _ in $(seq 1200); do [ -s "$1" ] && return 0; sleep 0.05; done
	return 1
}
# end_session PID FILE: the workload a batch session (-D 600: a guard, not the end) measures is
# done; wait until FILE holds two more reports than now (the second closed after the
# workload's last call, however slow the host), then end the session with SIGINT (it reports
# its last, partial interval) and return its status. A session that ends meanwhile is waited
# for as it is. Ending on a -D clock instead loses the calls a loaded host made late.
end_session() {
	local n
	n=$(wc -l <"$2")
	for _ in $(seq 1200); do
		[ "$(wc -l <"$2")" -ge $((n + 2)) ] && break
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	kill -INT "$1" 2>/dev/null
	wait "$1"
}
# live CMD...: run a live session; while another one holds the lock ($LATTOP_LOCK), wait for
# it (up to 2 minutes) and try again (a refused session writes nothing, not even a recording's
# header). Its stderr goes to this stderr; returns its status.
live() {
	local rc
	for _ in $(seq 240); do
		"$@" 2>"$TMP/live.stderr"
		rc=$?
		if ! grep -q 'another lattop session' "$TMP/live.stderr"; then
			cat "$TMP/live.stderr" >&2
			return $rc
		fi
		wait_lock
	done
	return $rc
}
# wait_lock: like wait_gone, for up to 2 minutes (another suite's session may hold the lock).
wait_lock() {
	for _ in $(seq 1200); do flock -n "${LATTOP_LOCK:-/run/lattop.lock}" true && return 0; sleep 0.1; done
	return 1
}
# tmux_private: this suite's own tmux server (socket under $TMP), kept up by an idle session,
# so other suites' sessions (and their servers exiting when their last session closes) cannot
# interfere; the EXIT trap stops it.
tmux_private() {
	export TMUX_TMPDIR=$TMP
	tmux new-session -d -s keep 'sleep 86400'
}
# tmux suites (session name in $S): screen prints the pane; wait_for PATTERN [TRIES] polls it
# every 0.1 s until the extended regex PATTERN appears (60 tries unless told).
screen() { tmux capture-pane -p -t "$S"; }
wait_for() {
	for _ in $(seq "${2:-60}"); do screen | grep -qE -- "$1" && return 0; sleep 0.1; done
	return 1
}
# many_start N: load N tiny programs named many_NNN (tests/host/many) as coprocess M (write
# "quit" to ${M[1]} to unload them); sets ids[] and names[], and many_ready to the fixture's
# last line ("ready" once every program is loaded).
many_start() {
	coproc M { "$OUTPUT/tests/host/many" "$1"; }
	ids=() names=()
	for _ in $(seq "$1"); do
		read -r id name <&"${M[0]}" || break
		ids+=("$id") names+=("$name")
	done
	read -r many_ready <&"${M[0]}"
}
