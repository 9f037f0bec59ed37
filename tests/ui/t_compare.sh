#!/usr/bin/env bash
# The comparison's screen (lattop -r A --compare B) in a real terminal (tmux), as an
# unprivileged user, on the two recordings of tests/host/mkab.py (slow_prog 2x slower in B,
# new_prog only in B, ...): the tally and the table of changes, the pane's figures and
# histograms side by side, m's heatmaps stacked (A's and B's busy rows where the runs were, in
# mono and in colour), the comparison's own help, a key of the other screens refused, q.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-compare
S=lattop-cmp-$$
LAT=$(readlink -f "$LATTOP")
chmod 755 "$TMP"
python3 tests/host/mkab.py a "$TMP/a.lrec" && python3 tests/host/mkab.py b "$TMP/b.lrec"
chmod 644 "$TMP/a.lrec" "$TMP/b.lrec"

# open ENV...: the comparison in a 120x40 tmux with ENV, once its last line (the footer) is
# drawn. Each check below waits for the last line a key redraws before reading the others.
open() {
	tmux kill-session -t "$S" 2>/dev/null
	tmux new-session -d -s "$S" -x 120 -y 40 "env $* setpriv --reuid=nobody --regid=nogroup --clear-groups $LAT -r $TMP/a.lrec --compare $TMP/b.lrec; echo EXITED \$?; sleep 30"
	wait_for '^q quit  \? help' 100
}

check mono-opens open NO_COLOR=1 TERM=screen-256color
scr=$(screen)
check header grep -qE "^lattop [^ ]+  compare  A a\.lrec \(20 intervals, 20\.0s\)  B b\.lrec \(20 intervals, 20\.0s\)$" <<<"$scr"
check tally grep -qF '2 slower, 0 faster, 1 changed, 3 unchanged, 1 only in A, 1 only in B' <<<"$scr"
check heading grep -qE '^NAME +VERDICT +RATE +P50 +P95 +P99 +P99\.9 +MAX$' <<<"$scr"
check row-slow grep -qE '^slow_prog \(xdp\) +slower +\+0\.0% \+100\.0%\* \+100\.0%\* \+100\.0%\* \+100\.0%\* +\+100\.0%$' <<<"$scr"
check row-same grep -qE '^same_prog \(xdp\) +unchanged +(\+0\.0% +){5}\+0\.0%$' <<<"$scr"
check row-stats grep -qE '^stats_prog \(xdp\) +changed +\+100\.0%\* +(- +){4}-$' <<<"$scr"
check row-new grep -qE '^new_prog \(xdp\) +only B +(- +){5}-$' <<<"$scr"
check row-noisy grep -qE '^noisy \(xdp\) +slower +\+0\.0% +\+2\.8% +\+3\.0%\*' <<<"$scr"
check row-helper grep -qE '^slow_prog: bpf_map_lookup_elem \(map flows\) +unchanged' <<<"$scr"
check footer grep -qE '^q quit  \? help  Enter pane: A and B of the series  m pane: histograms / heatmaps' <<<"$scr"

# The pane of slow_prog (the fifth row): both sides' figures, the histograms side by side.
tmux send-keys -t "$S" Down Down Down Down Enter
check pane-opens wait_for '^  \[ 8\.19us,  16\.4us\) A +0 +B +2,000 #+$' 50
scr=$(screen)
check pane-title grep -qE '^ slow_prog \(xdp\): slower, A before, B after \(m heatmaps, Enter closes\)' <<<"$scr"
check pane-a grep -qE '^  A  20,000 runs  1,000/s  p50 2\.10us  p95 8\.00us  p99 8\.00us  p999 8\.00us  max 8\.00us$' <<<"$scr"
check pane-b grep -qE '^  B  20,000 runs  1,000/s  p50 4\.19us  p95 16\.0us  p99 16\.0us  p999 16\.0us  max 16\.0us$' <<<"$scr"
check hist-a-only grep -qE '^  \[ 1\.02us,  2\.05us\) A +9,000 #+ +B +0$' <<<"$scr"
check hist-both grep -qE '^  \[ 2\.05us,  4\.10us\) A +9,000 #+  B +9,000 #+$' <<<"$scr"
check hist-b-only grep -qE '^  \[ 8\.19us,  16\.4us\) A +0 +B +2,000 #+$' <<<"$scr"

# m: the heatmaps, A above B, 20 columns each: A's runs alternate between the 1.02us and the
# 2.05us rows every two intervals, B's one row higher; the tail (8 us in A, 16 us in B) is a
# light row.
tmux send-keys -t "$S" m
check heat-opens wait_for 'one scale for A and B' 50
scr=$(screen)
check heat-a-title grep -qE '^  A \(before\), whole recording, oldest left:$' <<<"$scr"
expect_eq heat-a "$(sed -n '/^  A (before)/,/^  B (after)/p' <<<"$scr" | grep -E '^ +[0-9.]+us' )" \
"  8.19us
  4.10us ....................
  2.05us   @@  @@  @@  @@  @@
  1.02us @@  @@  @@  @@  @@"
expect_eq heat-b "$(sed -n '/^  B (after)/,/one scale/p' <<<"$scr" | grep -E '^ +[0-9.]+us' )" \
"  8.19us ....................
  4.10us   @@  @@  @@  @@  @@
  2.05us @@  @@  @@  @@  @@
  1.02us"
check heat-legend grep -qF 'one scale for A and B; shade " .:-=+*#%@": runs up to 900; p50 underlined, p99 reversed' <<<"$scr"
tmux send-keys -t "$S" m
check back-to-histograms wait_for '^  \[ 2\.05us,  4\.10us\) A +9,000 #+  B +9,000 #+$' 50

# Help: the comparison's keys only; a key of the other screens says it is not for this one.
tmux send-keys -t "$S" '?'
check help-opens wait_for '^  End +last series$' 50
scr=$(screen)
check help-title grep -qE 'comparison keys \(any key closes this help\)' <<<"$scr"
check help-enter grep -qE '^  Enter H  pane: A and B of the series$' <<<"$scr"
check help-no-replay-keys bash -c '! grep -qE "jump to a time|pause" <<<"$1"' _ "$scr"
tmux send-keys -t "$S" x
check help-closes wait_for '^q quit  \? help' 50
tmux send-keys -t "$S" c
check other-key wait_for 'c is for sessions and replays, not comparisons' 50
tmux send-keys -t "$S" q
check quits wait_for '^EXITED 0$' 50

# 256 colours: the heat cells of B's busy rows are background-coloured.
check colour-opens open TERM=screen-256color
tmux send-keys -t "$S" Down Down Down Down Enter m
check colour-heat wait_for 'dark red few \.\. yellow 900' 50
ansi=$(tmux capture-pane -e -p -t "$S" | sed -n '/B (after)/,$p')
check colour-b-cells grep -qP '4\.10us (\x1b\[[0-9;]*m)*  (\x1b\[[0-9;]*m)*\x1b\[(38;5;\d+;)?48;5;\d+m[xoX ]{2}' <<<"$ansi"
# Narrower: the header keeps the file names without their directory, then drops the
# durations, a name too long for its column ends in '~'; below 40x10 the screen says it is
# too small; back, the table is whole again.
tmux resize-window -t "$S" -x 100 -y 30
check narrow-header wait_for "^lattop [^ ]+  compare  A a\.lrec \(20 intervals, 20\.0s\)  B b\.lrec \(20 intervals, 20\.0s\)$" 50
check narrow-cut-name wait_for '^slow_prog: bpf_map_lookup_elem \(ma~ unchanged ' 50
tmux resize-window -t "$S" -x 50 -y 20
check narrower-header wait_for "^lattop [^ ]+  compare  A a\.lrec  B b\.lrec$" 50
tmux resize-window -t "$S" -x 30 -y 8
check too-small wait_for '^terminal too small$' 50
tmux resize-window -t "$S" -x 120 -y 40
check resize-back wait_for '^rpc_span +unchanged' 50
tmux send-keys -t "$S" q
check colour-quits wait_for '^EXITED 0$' 50
tmux kill-session -t "$S"
end_suite
