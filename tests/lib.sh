# Shared helpers for lattop's shell test suites (sourced). Each check prints one
# "PASS <suite>/<name>" or "FAIL <suite>/<name>: why" line.
OUTPUT=${OUTPUT:-.output}
LATTOP=${LATTOP:-./lattop}
SUITE=${SUITE:-host}
TMP=$(mktemp -d /tmp/lattop-test.XXXXXX)
trap '[ -n "${TMUX_TMPDIR:-}" ] && tmux kill-server 2>/dev/null; rm -rf "$TMP"; jobs -p | xargs -r kill 2>/dev/null' EXIT

pass() { echo "PASS $SUITE/$1"; }
fail() { echo "FAIL $SUITE/$1: $2"; }
# check NAME CONDITION-COMMAND...: pass when the command succeeds.
check() {
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name" "$*"; fi
}
# expect_eq NAME ACTUAL EXPECTED
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', expected '$3'"; fi
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
