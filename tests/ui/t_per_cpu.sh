#!/usr/bin/env bash
# The C key in a real terminal (tmux): on the demo's live screen it splits the selected program
# by CPU (a "cpu N" row per CPU under it, and none under the others), Enter on a CPU row shows
# that CPU's histogram, whose cumulative title says when the split began; C on a CPU row hides
# them and the selection goes back to the program, C shows them again. In a replay C says when
# the recording has no per-CPU figures, and with --per-cpu the recorded CPU rows are there.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-per-cpu
S=lattop-pcpu-$$
LAT=$(readlink -f "$LATTOP")
NCPU=$(nproc --all)

# cpu_rows: the CPU rows ("ID  cpu N  COUNT ...") of the screen on stdin, as "ID N" lines.
cpu_rows() { sed -nE 's/^ +([0-9]+) +cpu ([0-9]+) +[0-9,]+ .*/\1 \2/p'; }
# id_of NAME: the ID on NAME's program row.
id_of() { screen | sed -nE "s/^ +([0-9]+) +[a-z_]+ +$1 .*/\\1/p" | head -n 1; }

wait_lock
tmux new-session -d -s "$S" -x 160 -y 40 "TERM=xterm-256color $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
check starts wait_for 'demo_xdp_hash' 100
expect_eq no-cpu-rows-before "$(screen | cpu_rows | wc -l)" 0
HASH=$(id_of demo_xdp_hash)
tmux send-keys -t "$S" / xdp_hash Enter
check selected wait_for "'xdp_hash': demo_xdp_hash" 20
tmux send-keys -t "$S" C
check split-said wait_for 'demo_xdp_hash split by CPU from now on' 20
check cpu-rows-appear wait_for '^ +[0-9]+ +cpu [0-9]+ +[0-9,]+ ' 50
sleep 1 # a few intervals: every CPU the generator ran on has its row
scr=$(screen) # one capture for the checks below: the screen moves on every 0.3 s
rows=$(cpu_rows <<<"$scr")
expect_eq cpu-rows-of-hash-only "$(awk -v id="$HASH" '$1 != id' <<<"$rows" | wc -l)" 0
check cpu-rows-at-most-ncpu test "$(wc -l <<<"$rows")" -le "$NCPU"
expect_eq cpu-rows-distinct "$(cut -d' ' -f2 <<<"$rows" | sort | uniq -d | wc -l)" 0
# The rows right under demo_xdp_hash's are its CPU rows.
expect_eq cpu-rows-under-program "$(awk '/ demo_xdp_hash /{p=1; next} p && /^ +[0-9]+ +cpu [0-9]+ /{n++; next} p{exit} END{print n+0}' <<<"$scr")" "$(wc -l <<<"$rows")"

# Enter on the first CPU row: that CPU's histogram; cumulative, since the split.
tmux send-keys -t "$S" j Enter
check cpu-pane wait_for "^ $HASH demo_xdp_hash on cpu [0-9]+: interval latency histogram, [0-9,]+ runs" 30
tmux send-keys -t "$S" c
check cpu-pane-cumulative wait_for "^ $HASH demo_xdp_hash on cpu [0-9]+ \(split at \+[0-9]+s\): cumulative latency histogram" 30
tmux send-keys -t "$S" c
# C on a CPU row hides them; the selection (and the pane) go back to the program.
tmux send-keys -t "$S" C
check hidden bash -c 'for _ in $(seq 50); do tmux capture-pane -p -t "$1" | grep -qE "^ +[0-9]+ +cpu [0-9]+ " || exit 0; sleep 0.1; done; exit 1' _ "$S"
check pane-back-on-program wait_for "^ $HASH demo_xdp_hash: interval latency histogram" 30
# C again: shown again (the split went on meanwhile).
tmux send-keys -t "$S" C
check shown-again wait_for '^ +[0-9]+ +cpu [0-9]+ +[0-9,]+ ' 50
tmux send-keys -t "$S" q
check quits wait_for '^EXITED 0$' 50
tmux kill-session -t "$S" 2>/dev/null

# Replays: a recording without per-CPU figures says so on C; one made with --per-cpu shows
# its CPU rows with --per-cpu.
wait_gone
$LATTOP --demo -b -n 2 -d 0.3 -w "$TMP/plain.lrec" >/dev/null 2>&1
wait_gone
$LATTOP --demo -b -n 2 -d 0.3 --per-cpu -w "$TMP/pc.lrec" >/dev/null 2>&1
tmux new-session -d -s "$S" -x 160 -y 40 "TERM=xterm-256color $LAT -r $TMP/plain.lrec; echo EXITED \$?; sleep 30"
check replay-starts wait_for 'demo_xdp_hash' 100
tmux send-keys -t "$S" C
check replay-no-figures wait_for 'the recording holds no per-CPU figures of demo_' 20
tmux send-keys -t "$S" q
tmux kill-session -t "$S" 2>/dev/null
tmux new-session -d -s "$S" -x 160 -y 40 "TERM=xterm-256color $LAT -r $TMP/pc.lrec --per-cpu; echo EXITED \$?; sleep 30"
check replay-per-cpu-rows wait_for '^ +[0-9]+ +cpu [0-9]+ +[0-9,]+ ' 100
tmux send-keys -t "$S" C
check replay-per-cpu-says wait_for "--per-cpu shows every program's CPU rows" 20
tmux send-keys -t "$S" q
check replay-quits wait_for '^EXITED 0$' 50
end_suite
