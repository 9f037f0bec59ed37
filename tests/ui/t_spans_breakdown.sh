#!/usr/bin/env bash
# A span's breakdown in a real terminal (tmux): -u --by arg0:2 gives the span's first two
# argument values a row each under it and the rest one "other" row, with exact cumulative
# counts; K hides the selected span's groups and shows them again; Enter on a group row opens
# that group's histogram.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-spans-breakdown
S=lattop-spans-by-$$
LAT=$(readlink -f "$LATTOP")
FIX=$(readlink -f "$OUTPUT/tests/host/spanfix")

wait_gone
trap 'tmux kill-session -t "$S" 2>/dev/null; tmux kill-server 2>/dev/null; rm -rf "$TMP"; jobs -p | xargs -r kill 2>/dev/null' EXIT

# gone_for PATTERN: until the pane no longer shows PATTERN (3 s at most).
gone_for() {
	for _ in $(seq 30); do screen | grep -qE -- "$1" || return 0; sleep 0.1; done
	return 1
}
tmux new-session -d -s "$S" -x 150 -y 30 \
	"TERM=xterm-256color $LAT -d 0.3 -u $FIX:spanfix_sized --by arg0:2; echo EXITED \$?; sleep 30"
check segments-mode wait_for ' ID SPAN +KIND +COUNT' 50
check span-row wait_for '^ +0 spanfix_sized +uprobe ' 30
tmux send-keys -t "$S" c
check cumulative wait_for 'cumulative' 30
# v calls with argument v for v = 1..4: groups 1 and 2, the other 3 + 4 calls in "other".
printf 'args 4\n' | "$FIX" >/dev/null
check span-count wait_for '^ +0 spanfix_sized +uprobe +10 ' 50
check group-1 wait_for '^ +0 +  arg0=1 +1 ' 30
check group-2 wait_for '^ +0 +  arg0=2 +2 ' 30
check group-other wait_for '^ +0 +  other +7 ' 30
tmux send-keys -t "$S" K
check k-hides gone_for '  other +7 '
check k-keeps-span wait_for '^ +0 spanfix_sized +uprobe +10 ' 30
tmux send-keys -t "$S" K
check k-shows wait_for '^ +0 +  other +7 ' 30
# The groups follow their span sorted by count: span, other, arg0=2, arg0=1; the second row
# down is "other"'s: its pane.
tmux send-keys -t "$S" Down Enter
check group-pane wait_for '^ +0 spanfix_sized \[other\]: cumulative latency histogram, 7 runs' 30
tmux send-keys -t "$S" q
check quits wait_for 'EXITED 0' 50
wait
end_suite
