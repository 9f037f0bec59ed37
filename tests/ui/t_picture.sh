#!/usr/bin/env bash
# The README's picture is not stale: the current `lattop --demo`, in a tmux pane of the size
# tools/screenshot.sh uses, shows the same title fields, column headings and footer as
# docs/lattop.txt, the text of the capture the picture was made from (not the live numbers,
# the host or the kernel).
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-picture
S=lattop-picture-$$
LAT=$(readlink -f "$LATTOP")
REDO="docs/lattop.png is stale: rerun 'bash tools/screenshot.sh' as root and commit docs/lattop.png and docs/lattop.txt"
COLS=$(sed -n 's/^COLS=\${COLS:-\([0-9]*\)}.*/\1/p' tools/screenshot.sh)
ROWS=$(sed -n 's/.* ROWS=\${ROWS:-\([0-9]*\)}.*/\1/p' tools/screenshot.sh)
check size-read test -n "$COLS" -a -n "$ROWS"
check text-committed test -s docs/lattop.txt -a -s docs/lattop.png

# The parts of a capture that do not change from run to run or host to host.
title() { head -n 1 | grep -oE '(lattop [^ ]+|mode [^ ]+|interval [^ ]+|LIVE|filter [^ ]+)' | tr '\n' ' '; }
headings() { grep -m1 -E '^ +ID +TYPE +NAME' | sed 's/ *$//'; }
footer() { grep . | tail -n 1 | sed 's/ *$//'; }

wait_gone
tmux new-session -d -s "$S" -x "$COLS" -y "$ROWS" \
	"LC_ALL=C.UTF-8 TERM=xterm-256color $LAT --demo -d 0.5; echo EXITED \$?; sleep 30"
check starts wait_for 'demo_xdp_hash' 150
screen | sed 's/ *$//' >"$TMP/now.txt"
tmux send-keys -t "$S" q
check quits wait_for '^EXITED 0' 100
for part in title headings footer; do
	want=$($part <docs/lattop.txt)
	got=$($part <"$TMP/now.txt")
	check "$part-found" test -n "$want"
	if [ "$got" = "$want" ]; then pass "$part-current"; else
		fail "$part-current" "the program shows '$got' where the picture shows '$want': $REDO"
	fi
done
end_suite
