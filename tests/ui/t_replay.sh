#!/usr/bin/env bash
# Replay in a real terminal (tmux) as a non-root user: the sample recording shows the demo
# programs under a REPLAY header; the replay keys step, jump, change speed and pause. In a live
# session, w starts and stops a recording that then replays.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-replay
S=lattop-replay-$$
LAT=$(readlink -f "$LATTOP")
chmod 755 "$TMP"
cp tests/data/sample.lrec "$TMP/sample.lrec"
chmod 644 "$TMP/sample.lrec"
tmux kill-session -t "$S" 2>/dev/null


tmux new-session -d -s "$S" -x 170 -y 30 "TERM=screen-256color setpriv --reuid=nobody --regid=nogroup --clear-groups $LAT -r $TMP/sample.lrec; echo EXITED \$?; sleep 30"
check starts wait_for 'demo_xdp_hash'
check replay-header grep -qE '^lattop .* REPLAY sample.lrec [0-9:]+ \(0:00:0[0-9.]+/0:00:02.5\) x1' <(screen)
expect_eq four-demo-rows "$(screen | grep -c ' demo_')" 4
tmux send-keys -t "$S" End
check end-key wait_for 'REPLAY sample.lrec .*\(0:00:02.5/0:00:02.5\) x1 END' 20
# (paused first: a playing replay leaves 0:00:00.5 after half a second, which a loaded
# machine's polling can miss, and the steps below would start from wherever it got to)
tmux send-keys -t "$S" ' ' Home
check home-key wait_for '\(0:00:00.5/0:00:02.5\) x1 PAUSED' 20
tmux send-keys -t "$S" '.'
check step-forward wait_for '\(0:00:01.0/0:00:02.5\) x1 PAUSED' 20
tmux send-keys -t "$S" '.' ','
check step-back wait_for '\(0:00:01.0/0:00:02.5\) x1 PAUSED' 20
tmux send-keys -t "$S" '+' '+' '+'
check faster wait_for 'x8 PAUSED' 20
tmux send-keys -t "$S" '-' '-' '-' '-' '-' '-'
check slower-floor wait_for 'x0.25 PAUSED' 20
tmux send-keys -t "$S" g
check jump-prompt wait_for 'jump to \(seconds from start' 20
tmux send-keys -t "$S" '2' Enter
check jump wait_for '\(0:00:02.0/0:00:02.5\)' 20
# The line under the header names the replay clock keys, from the key table.
check replay-keys-line grep -q '^replay keys:  space  + =  -  \.  ,  g b  Home  End  (? says what each does)' <(screen)
# ? in a replay describes space, + - and Home End as the replay clock keys they are here (one key
# table, with a live/replay/both field), not as the live session's pause, filter and row keys
# (two columns at this size: an entry starts a line or follows spaces).
tmux send-keys -t "$S" '?'
check help-replay-title wait_for 'replay keys \(any key closes this help\)' 20
scr=$(screen)
while IFS='|' read -r name pat; do
	check "help-replay-$name" grep -qE "(^| )  $pat( |\$)" <<<"$scr"
done <<'EOF'
space|space +pause / resume the replay
plus|\+ = +replay faster, up to x64
minus|- +replay slower, down to x0\.25
home|Home +first interval
end|End +last interval
step|\. +step to the next interval
jump|g b +jump to a time
EOF
lacks() { ! grep -qE "$1" <<<"$scr"; }
while IFS='|' read -r name pat; do
	check "help-replay-not-$name" lacks "$pat"
done <<'EOF'
filter-add|(^| )  \+ +add the selected program
filter-remove|(^| )  - +remove the selected program
first-row|(^| )  Home +first row
last-row|(^| )  End +last row
space-display|(^| )  space( Z)? +pause the display
record|(^| )  w +start / stop recording
EOF
tmux send-keys -t "$S" x
# A live session's key says so in a replay.
tmux send-keys -t "$S" w
check w-live-only wait_for '^w is for live sessions, not replays: start / stop recording' 20
check help-closed wait_for 'demo_xdp_hash' 20
# A filter edited in the replay is a view that stays: across steps back, Home and g (the
# recorded filter and the rebuilt model must not replace it).
demo_rows() { screen | grep -cE '^ +[0-9]+ +[a-z_]+ +demo_'; }
tmux send-keys -t "$S" f C-u 'demo_xdp_hash' Enter
check filter-applied wait_for '^filter applied' 20
check filter-in-header grep -q 'filter demo_xdp_hash$' <(screen)
expect_eq filter-one-row "$(demo_rows)" 1
tmux send-keys -t "$S" ','
check filter-after-step-back wait_for 'PAUSED  filter demo_xdp_hash$' 20
expect_eq filter-rows-after-step-back "$(demo_rows)" 1
tmux send-keys -t "$S" Home
check filter-after-home wait_for '\(0:00:00.5/0:00:02.5\).* filter demo_xdp_hash$' 20
expect_eq filter-rows-after-home "$(demo_rows)" 1
tmux send-keys -t "$S" g
check jump-prompt wait_for 'jump to' 20
tmux send-keys -t "$S" '1.5' Enter
check filter-after-jump wait_for '\(0:00:01.5/0:00:02.5\).* filter demo_xdp_hash$' 20
expect_eq filter-rows-after-jump "$(demo_rows)" 1
tmux send-keys -t "$S" f C-u 'nosuch' Enter
check filter-unknown wait_for "^no recorded program is named 'nosuch'" 20
check filter-unknown-kept grep -q 'filter demo_xdp_hash$' <(screen)
tmux send-keys -t "$S" f C-u Enter
check filter-cleared wait_for '^filter cleared' 20
tmux send-keys -t "$S" Home
check filter-cleared-stays wait_for '\(0:00:00.5/0:00:02.5\).* filter all$' 20
expect_eq filter-cleared-rows "$(demo_rows)" 4
# Mode keys are views of the recording: a mode it holds nothing of says so in one sentence.
tmux send-keys -t "$S" h
check mode-not-recorded wait_for "^helpers mode was not recorded in $TMP/sample.lrec" 20
check mode-unchanged grep -q ' mode programs ' <(screen)
tmux send-keys -t "$S" q
check quits wait_for '^EXITED 0' 30
tmux kill-session -t "$S"

# A helpers-mode recording (generated: this kernel cannot trace helpers): p, h and s switch the
# view over what was recorded, and the chosen mode stays across steps, Home and End.
"$OUTPUT/tests/test_rec_helpers" --write "$TMP/h.lrec" >/dev/null
chmod 644 "$TMP/h.lrec"
tmux new-session -d -s "$S" -x 170 -y 30 "TERM=screen-256color setpriv --reuid=nobody --regid=nogroup --clear-groups $LAT -r $TMP/h.lrec; echo EXITED \$?; sleep 30"
check helpers-starts wait_for 'xdp_fw +map_update_elem +2 +5 flows +hash'
check helpers-header grep -q ' mode helpers ' <(screen)
tmux send-keys -t "$S" p
check p-programs-mode wait_for '^programs mode' 20
check p-heading wait_for '^ +ID TYPE +NAME +COUNT' 20
# (one capture: the programs heading and no helper rows)
scr=$(screen)
check p-no-helper-rows bash -c 'grep -qE "^ +ID TYPE +NAME +COUNT" <<<"$1" && ! grep -q map_ <<<"$1"' _ "$scr"
# (paused at the start: a replay that reached its end meanwhile would show END after a step)
tmux send-keys -t "$S" ' ' Home '.'
check p-stays-after-step wait_for 'mode programs .*\(0:00:02.0/0:00:03.0\) x1 PAUSED' 20
tmux send-keys -t "$S" Home
check p-stays-after-home wait_for 'mode programs .*\(0:00:01.0/0:00:03.0\)' 20
tmux send-keys -t "$S" End
check p-stays-after-end wait_for 'mode programs .*\(0:00:03.0/0:00:03.0\) x1 END' 20
tmux send-keys -t "$S" s
check s-not-recorded wait_for "^segments mode was not recorded in $TMP/h.lrec" 20
check s-mode-unchanged grep -q ' mode programs ' <(screen)
tmux send-keys -t "$S" h
check h-helpers-mode wait_for '^helpers mode' 20
check h-heading wait_for '^ +ID PROGRAM +HELPER +FNv? +MAP ID +MAP +MAP TYPE' 20
tmux send-keys -t "$S" Home
check h-stays-after-home wait_for 'mode helpers .*\(0:00:01.0/0:00:03.0\)' 20
check h-rows-after-home wait_for 'tc_nat +map_lookup_elem +1 +7 cfg +array +300 ' 20
# Tab skips a mode that was not recorded (segments) instead of stopping at its sentence.
tmux send-keys -t "$S" Tab
check tab-skips-unrecorded wait_for '^programs mode' 20
check tab-skips-heading wait_for '^ +ID TYPE +NAME +COUNT' 20
tmux send-keys -t "$S" Tab
check tab-next-recorded wait_for '^helpers mode' 20
tmux send-keys -t "$S" q
check helpers-quits wait_for '^EXITED 0' 30
tmux kill-session -t "$S"

# Frames the recorder lost show in the header from the interval they were lost before (the
# seed made by tests/fuzz/mkseeds.py lost one before its last interval).
cp tests/fuzz/corpus/helpers_v11_small.lrec "$TMP/lost.lrec"
chmod 644 "$TMP/lost.lrec"
tmux new-session -d -s "$S" -x 170 -y 30 "TERM=screen-256color setpriv --reuid=nobody --regid=nogroup --clear-groups $LAT -r $TMP/lost.lrec; echo EXITED \$?; sleep 30"
check lost-starts wait_for 'xdp_fw +map_update_elem'
tmux send-keys -t "$S" ' ' Home
check lost-none-at-first wait_for '\(0:00:01.0/0:00:03.0\) x1 PAUSED  filter' 20
tmux send-keys -t "$S" End
check lost-shown-at-end wait_for '\(0:00:03.0/0:00:03.0\) x1 END  frames lost 1  filter' 20
tmux send-keys -t "$S" q
check lost-quits wait_for '^EXITED 0' 30
tmux kill-session -t "$S"

# w in a live session records to lattop-DATE-TIME.lrec in the current directory.
# (Other suites share the one-live-session lock: wait for it, and start again if refused.)
for _ in $(seq 60); do
	for _ in $(seq 1200); do flock -n "${LATTOP_LOCK:-/run/lattop.lock}" true && break; sleep 0.1; done
	tmux new-session -d -s "$S" -x 170 -y 30 -c "$TMP" "TERM=screen-256color $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
	wait_for 'demo_xdp_hash|another lattop session' >/dev/null
	screen | grep -q 'another lattop session' || break
	tmux kill-session -t "$S"
done
check live-starts wait_for 'demo_xdp_hash'
tmux send-keys -t "$S" w
check w-starts wait_for 'recording to lattop-[0-9]+-[0-9]+\.lrec' 20
check rec-in-header wait_for 'LIVE  REC' 20
sleep 1.2
tmux send-keys -t "$S" w
check w-stops wait_for 'recording stopped: lattop-' 20
# W asks for the file name (the default filled in); Esc cancels, Enter starts, W again stops.
tmux send-keys -t "$S" W
check W-prompt wait_for '^record to file \(Enter start, Esc cancel\): lattop-[0-9]+-[0-9]+\.lrec' 20
tmux send-keys -t "$S" Escape
check W-cancel wait_for '^cancelled' 20
scr=$(screen)
check W-cancel-not-recording bash -c 'grep -q "  LIVE  " <<<"$1" && ! grep -q "LIVE  REC" <<<"$1"' _ "$scr"
tmux send-keys -t "$S" W C-u 'mine.lrec' Enter
check W-starts wait_for '^recording to mine\.lrec \(w stops\)' 20
check W-rec-in-header wait_for 'LIVE  REC' 20
sleep 1.2
tmux send-keys -t "$S" W
check W-stops wait_for '^recording stopped: mine\.lrec' 20
tmux send-keys -t "$S" q
check live-quits wait_for '^EXITED 0' 30
tmux kill-session -t "$S"
$LATTOP -r "$TMP/mine.lrec" -b -n 100 -o json >"$TMP/mine.json" 2>/dev/null
expect_eq W-file-replays $? 0
check W-file-intervals test "$(json 'len(L)' "$TMP/mine.json")" -ge 2
expect_eq W-one-default-file "$(ls "$TMP"/lattop-*.lrec | wc -l)" 1
f=$(ls "$TMP"/lattop-*.lrec 2>/dev/null | head -n1)
$LATTOP -r "$f" -b -n 100 -o json >"$TMP/w.json" 2>/dev/null
expect_eq w-file-replays $? 0
check w-file-intervals test "$(json 'len(L)' "$TMP/w.json")" -ge 2
end_suite
