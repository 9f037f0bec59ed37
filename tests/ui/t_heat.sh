#!/usr/bin/env bash
# The detail pane's heatmap (m) in a real terminal (tmux), on a recording with a known shape
# (tests/ui/mkstep.py): one program whose 1,000 runs an interval take 1 us for 20 intervals,
# then 100 us for 20. In mono (NO_COLOR, and an 8-colour terminal) the densest character sits in
# the 512ns row (1 us is in [512, 1023]) on the left half and in the 65.5us row on the right
# half; in colour 256-colour backgrounds fill those cells and no others; m brings the histogram
# back; a seek redraws the heatmap from the recording; a tiny terminal gets one line.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-heat
S=lattop-heat-$$
LAT=$(readlink -f "$LATTOP")
chmod 755 "$TMP"
python3 tests/ui/mkstep.py "$TMP/step.lrec" 40 1000 100000 1000
chmod 644 "$TMP/step.lrec"

# open ENV...: replay the step recording in a 120x30 tmux with ENV, at its end, heatmap open.
open() {
	tmux kill-session -t "$S" 2>/dev/null
	tmux new-session -d -s "$S" -x 120 -y 30 "env $* setpriv --reuid=nobody --regid=nogroup --clear-groups $LAT -r $TMP/step.lrec; echo EXITED \$?; sleep 30"
	wait_for 'step_prog' 100 || return 1
	tmux send-keys -t "$S" End
	wait_for 'x1 END' 100 || return 1
	tmux send-keys -t "$S" Enter
	wait_for 'interval latency histogram' 50 || return 1
	tmux send-keys -t "$S" m
	wait_for 'latency heatmap of the last intervals' 50
}

# Mono: the character ramp, the densest '@' exactly where the runs were.
check mono-opens open NO_COLOR=1 TERM=screen-256color
scr=$(screen)
check mono-left-1us grep -qE '^   512ns @{20}$' <<<"$scr"
check mono-right-100us grep -qE '^  65\.5us {21}@{20}$' <<<"$scr"
check mono-rows-between grep -qE '^  2\.05us$' <<<"$scr"
expect_eq mono-dense-rows "$(grep -cE '@@' <<<"$scr")" 2
# p50 and p99 share the busy row here: underline and reverse on all 20 of its cells.
check mono-marks grep -qP '^ +512ns \x1b\[4;7m@{20}' <(tmux capture-pane -e -p -t "$S")
check mono-legend grep -qF 'shade " .:-=+*#%@": runs up to 1,000; p50 underlined, p99 reversed' <<<"$scr"
# c (cumulative) cannot apply to columns of one interval each: the title says so, and the
# heatmap stays as it was; c again takes the words back.
tmux send-keys -t "$S" c
check mono-cumulative-says-why wait_for 'latency heatmap of the last intervals, one per column: c does not apply \(m histogram' 50
check mono-cumulative-same-heat grep -qE '^  65\.5us {21}@{20}$' <(screen)
tmux send-keys -t "$S" c
check mono-interval-again wait_for 'latency heatmap of the last intervals \(m histogram' 50
# m again: the histogram bars are back.
tmux send-keys -t "$S" m
check mono-back-to-histogram wait_for '^  \[ +65\.5us, +131us\) +1,000 #+$' 50
check mono-no-heat-rows bash -c '! tmux capture-pane -p -t "$1" | grep -q "@@@"' _ "$S"
tmux send-keys -t "$S" m
check mono-heat-again wait_for '^  65\.5us {21}@{20}$' 50
# A seek rebuilds it from the recording: Home shows the first interval only, '.' adds one.
tmux send-keys -t "$S" ' ' Home
check seek-home wait_for '^   512ns @$' 50
check seek-home-no-100us bash -c '! tmux capture-pane -p -t "$1" | grep -q "65.5us"' _ "$S"
tmux send-keys -t "$S" '.'
check seek-step wait_for '^   512ns @@$' 50
tmux send-keys -t "$S" End
check seek-end wait_for '^  65\.5us {21}@{20}$' 50
# Resize: narrower shows the newest intervals that fit; tiny says so in one line.
tmux resize-window -t "$S" -x 45 -y 30
check narrow-newest wait_for '^  65\.5us {16}@{20}$' 50
tmux resize-window -t "$S" -x 60 -y 10
check tiny-one-line wait_for 'heatmap: too small' 50
tmux resize-window -t "$S" -x 120 -y 30
check resize-back wait_for '^  65\.5us {21}@{20}$' 50

# An 8-colour terminal shades with characters too.
check eight-colour-opens open TERM=screen
check eight-colour-chars grep -qE '^   512ns @{20}$' <(screen)

# 256 colours: background ramp escapes on the 40 busy cells, none on the empty ones.
check colour-opens open TERM=screen-256color
ansi=$(tmux capture-pane -e -p -t "$S")
line() { grep -aP "^(\x1b\[[0-9;]*m)* +$1( |\$)" <<<"$ansi" | head -n 1; }
check colour-left-1us grep -qP '512ns (\x1b\[[0-9;]*m)*\x1b\[(38;5;\d+;)?48;5;\d+m[xoX ]{20}(\x1b\[[0-9;]*m)*$' <<<"$(line 512ns)"
check colour-right-100us grep -qP '65\.5us {21}(\x1b\[[0-9;]*m)*\x1b\[(38;5;\d+;)?48;5;\d+m[xoX ]{20}(\x1b\[[0-9;]*m)*$' <<<"$(line '65\.5us')"
check colour-empty-row-plain grep -qP '2\.05us$' <<<"$(line '2\.05us')"
check colour-markers grep -qE 'o p50, x p99, X both' <(screen)
tmux send-keys -t "$S" m
check colour-back-to-histogram wait_for '^  \[ +65\.5us, +131us\) +1,000 #+$' 50
tmux kill-session -t "$S"
end_suite
