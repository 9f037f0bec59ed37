#!/usr/bin/env bash
# The flight recorder in the TUI: the header shows its memory, cap, intervals and dumps; the
# footer offers D only with --flight; D writes a dump, which replays with the reason under
# the header and its instant marked in it.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-flight
S=lattop-flight-$$
LAT=$(readlink -f "$LATTOP")
mkdir -p "$TMP/d"

# start ARGS...: lattop ARGS in session $S (160 columns), once the lock is ours.
start() {
	for _ in $(seq 60); do
		wait_gone
		tmux new-session -d -s "$S" -x 160 -y 40 "TERM=xterm-256color $LAT $*; echo EXITED \$?; sleep 30"
		wait_for 'demo_xdp_hash|another lattop session' >/dev/null
		screen | grep -q 'another lattop session' || return 0
		tmux kill-session -t "$S"
	done
}

# Without --flight: no D in the footer, and D says how to turn the recorder on.
start --demo -d 0.3
check off-footer-no-d bash -c "! tmux capture-pane -p -t $S | tail -n 1 | grep -q 'D dump'"
check off-footer-keys grep -qE 'q quit +\? help' <(screen | tail -n 1)
tmux send-keys -t "$S" D
check off-d-says wait_for '^the flight recorder is off: start lattop with --flight DURATION' 20
tmux send-keys -t "$S" q
check off-exit wait_for '^EXITED 0' 50
tmux kill-session -t "$S"

# With --flight: the header's figures, D in the footer, a dump on D.
start --demo -d 0.3 --flight 1m --flight-dir "$TMP/d"
check on-header wait_for '  LIVE  flight [0-9.]+/64 MiB [0-9]+ intervals 0 dumps' 30
check on-footer-d grep -q 'D dump the flight recorder' <(screen | tail -n 1)
sleep 1
tmux send-keys -t "$S" D
check on-d-flash wait_for '^flight recorder: dumping [0-9]+ intervals' 20
check on-header-one-dump wait_for 'intervals 1 dumps' 30
tmux send-keys -t "$S" q
check on-exit wait_for '^EXITED 0' 50
tmux kill-session -t "$S"
f=$(ls "$TMP"/d/lattop-flight-*-key.lrec 2>/dev/null)
check dump-written test -n "$f" -a "$(stat -c %a "$f" 2>/dev/null)" = 600

# The dump replays: the reason under the header, the instant named in it.
tmux new-session -d -s "$S" -x 160 -y 40 "TERM=xterm-256color $LAT -r $f; echo EXITED \$?; sleep 30"
check replay-reason wait_for '^flight recorder dump \(key\) asked for at [0-9-]+ [0-9:]+$' 30
check replay-fired grep -qE 'REPLAY .*  fired [0-9]{2}:[0-9]{2}:[0-9]{2}' <(screen)
tmux send-keys -t "$S" q
check replay-exit wait_for '^EXITED 0' 50
end_suite
