#!/usr/bin/env bash
# Segments mode in a real terminal (tmux): with -u given but -m programs, `s` switches to the
# spans table (SPAN, KIND, COUNT ... loss columns) and the span's calls are counted; `o` switches
# the span's pane between its wall, on-CPU and runnable time; `p` goes back to programs.
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
# o: the span's pane shows its on-CPU time (a -u span is split: both ends on its thread; the
# calls spin, so they ran), then its runnable time, sleeping time and the wall time again.
tmux send-keys -t "$S" o
check span-pane-oncpu wait_for '^ +0 spanfix_work: cumulative on-CPU latency histogram, 1,100 runs' 30
check span-pane-oncpu-footer wait_for 'pane: on-CPU time' 30
tmux send-keys -t "$S" o
check span-pane-runq wait_for '^ +0 spanfix_work: cumulative runnable latency histogram, 1,100 runs' 30
tmux send-keys -t "$S" o o
check span-pane-wall wait_for '^ +0 spanfix_work: cumulative latency histogram' 30
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
