#!/usr/bin/env bash
# The TUI over a crafted recording (test_rec_escape --write: ESC ] 2 ; X BEL, CR LF, a quote,
# a comma, an invalid byte, a C1 CSI, a tab and a backslash in every string): names, the
# notice, host, kernel, source, counter names and the detail pane's title show their visible
# form (\x1b]2;X\x07...), each table row stays on its line, and the pane's title is not set.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-escape
S=lattop-escape-$$
LAT=$(readlink -f "$LATTOP")
if ! "$OUTPUT/tests/test_rec_escape" --write "$TMP/e.lrec" 2>"$TMP/gen.err"; then
	fail generate "$(cat "$TMP/gen.err")"
	exit 0
fi
pass generate

tmux new-session -d -s "$S" -x 400 -y 30 "TERM=screen-256color LANG=C.UTF-8 $LAT -r $TMP/e.lrec; echo EXITED \$?; sleep 30"
tmux select-pane -t "$S" -T untouched
check starts wait_for '^ +42 '
# Step to the end and pause, so the screen holds still while it is read.
tmux send-keys -t "$S" End
check end wait_for ' END' 40
screen >"$TMP/s1"
vis='\\x1b\]2;X\\x07\\x0d\\x0a'
check header-host-kernel grep -qE "^lattop .* host$vis.* kern$vis" "$TMP/s1"
check source-visible grep -qE "src$vis" "$TMP/s1"
check notice-visible grep -qE "notice$vis" "$TMP/s1"
# The program's row: its ID, type and name on one line, the note at its end, on the same line.
check row-one-line grep -qE "^ +42 T\\\\x1b\]2;X.* P\\\\x1b\]2;X.* \[note$vis" "$TMP/s1"
# Who and where, each crafted: the OWNER, CONTAINER and ATTACH cells on the row's line.
check row-attr-one-line grep -qE "^ +42 .*O$vis\"q\"\[7\] +D$vis.* xdp W$vis" "$TMP/s1"
check no-forged-line bash -c "! grep -qE '^\"q\"' '$TMP/s1'"
expect_eq pane-title-kept "$(tmux display-message -p -t "$S" '#{pane_title}')" untouched
# The detail pane's title names the program visibly.
tmux send-keys -t "$S" Enter
check pane-title-visible wait_for " 42 P$vis\"q\",\\\\xff\\\\u009b\\\\x09\\\\\\\\: " 20
# Its owner, container, unit, cgroup and attach point, in the pane's lines.
check pane-owner-visible wait_for "^  owner: O$vis\"q\"\[7\]  container D$vis" 20
check pane-attach-visible wait_for "^  attach: xdp W$vis" 20
tmux send-keys -t "$S" Enter
# Segments mode: the span's row and the session-wide counter's name.
tmux send-keys -t "$S" s
check span-row-one-line wait_for "^ +3 S$vis.* K$vis" 20
check counter-visible wait_for "^counters: C$vis\"q\"" 20
tmux send-keys -t "$S" q
check quits wait_for '^EXITED 0' 40
end_suite
