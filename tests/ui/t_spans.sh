#!/usr/bin/env bash
# Segments mode in a real terminal (tmux): with -u given but -m programs, `s` switches to the
# spans table (SPAN, KIND, COUNT ... loss columns) and the span's calls are counted; `p` goes
# back to programs.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-spans
S=lattop-spans-$$
LAT=$(readlink -f "$LATTOP")
FIX=$(readlink -f "$OUTPUT/tests/host/spanfix")

wait_gone
trap 'tmux kill-session -t "$S" 2>/dev/null; tmux kill-server 2>/dev/null; rm -rf "$TMP"; jobs -p | xargs -r kill 2>/dev/null' EXIT

coproc SF { "$FIX"; }
read -r _ _ <&"${SF[0]}"
tmux new-session -d -s "$S" -x 150 -y 30 \
	"TERM=xterm-256color $LAT -m programs -d 0.3 -u $FIX:spanfix_work; echo EXITED \$?; sleep 30"
check starts-in-programs wait_for 'mode programs' 50
tmux send-keys -t "$S" s
check segments-mode wait_for 'mode segments' 30
check segments-header wait_for ' ID SPAN +KIND +COUNT' 30
check segments-row wait_for '^ +0 spanfix_work +uprobe ' 30
echo mix >&"${SF[1]}"; read -r _ <&"${SF[0]}"
tmux send-keys -t "$S" c
check segments-counts wait_for '^ +0 spanfix_work +uprobe +1,100 ' 50
tmux send-keys -t "$S" Enter
check span-pane wait_for '^ +0 spanfix_work: (cumulative|interval) latency histogram' 30
tmux send-keys -t "$S" H
tmux send-keys -t "$S" +
check plus-says-filter wait_for 'name spans with f' 30
tmux send-keys -t "$S" p
check back-to-programs wait_for 'mode programs' 30
tmux send-keys -t "$S" q
check quits wait_for 'EXITED 0' 50
echo quit >&"${SF[1]}"
wait
end_suite
