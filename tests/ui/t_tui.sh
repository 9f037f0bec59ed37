#!/usr/bin/env bash
# The real binary in a real terminal (tmux): screens, keys, resize, colour and clean exit.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=ui
S=lattop-ui-$$
LAT=$(readlink -f "$LATTOP")
tmux kill-session -t "$S" 2>/dev/null

# screen: the pane's text now.

tmux new-session -d -s "$S" -x 150 -y 40 "TERM=xterm-256color $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
check starts wait_for 'demo_xdp_hash'
check header grep -qE '^lattop .* mode programs  source stats\+self  interval 0.30s  LIVE' <(screen)
check counters-line grep -qE '^drops: ringbuf 0  queue 0  recursion 0  nest 0 +events [0-9,]+ +programs [0-9]+' <(screen)
check notice-line grep -q 'no per-invocation latency: this kernel refuses fentry/fexit (EPERM); showing bpf_stats counts and averages (demo programs time themselves)' <(screen)
check heading grep -qE 'ID TYPE +NAME +COUNTv +RATE/S' <(screen)
check footer grep -qE 'q quit +\? help' <(screen)
expect_eq four-demo-rows "$(screen | grep -c ' demo_')" 4

# Sorting: > moves the sort marker to the next column; r reverses it.
tmux send-keys -t "$S" '>'
check sort-next wait_for 'RATE/Sv' 20
tmux send-keys -t "$S" 'r'
check sort-reverse wait_for 'RATE/S\^' 20
# Sort by name (two < from RATE/S lands on NAME): rows come out alphabetical.
tmux send-keys -t "$S" '<' '<' 'r'
sleep 0.5
order=$(screen | grep -oE 'demo_[a-z_]+' | tr '\n' ' ')
expect_eq sort-by-name "$order" "demo_sk_queue demo_xdp_array demo_xdp_hash demo_xdp_lru "

# Help lists the keys from the same table the dispatcher uses; any key closes it.
tmux send-keys -t "$S" '?'
check help-shown wait_for 'keys \(any key closes this help\)' 20
check help-has-reverse grep -q 'reverse the sort order' <(screen)
tmux send-keys -t "$S" 'x'
check help-closed wait_for 'demo_xdp_hash' 20

# Unknown keys say so in the footer.
tmux send-keys -t "$S" 'Q'
check unknown-key wait_for 'unknown key; press \? for the list of keys' 20

# Pause freezes the display.
tmux send-keys -t "$S" ' '
check paused wait_for 'PAUSED' 20
tmux send-keys -t "$S" ' '
check resumed wait_for 'LIVE' 20

# Resize to tiny and back: it says so, survives, and redraws.
tmux resize-window -t "$S" -x 30 -y 8
check too-small wait_for 'terminal too small' 30
tmux resize-window -t "$S" -x 150 -y 40
check resized-back wait_for 'demo_xdp_hash' 30

# Colour: escapes present normally.
# (colour = SGR 30-37/40-47/90-97/38;x/48;x; 39/49 are "default colour" resets, not colour)
COLOUR_SGR='\e\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|38;|48;)'
check has-colour grep -qP "$COLOUR_SGR" <(tmux capture-pane -e -p -t "$S")

# q quits with status 0; the terminal is restored (the shell's echo shows after endwin).
tmux send-keys -t "$S" 'q'
check quits wait_for '^EXITED 0' 30
tmux kill-session -t "$S"
wait_gone

# NO_COLOR: a readable screen without colour escapes.
tmux new-session -d -s "$S" -x 150 -y 40 "NO_COLOR=1 TERM=xterm-256color $LAT --demo -d 0.3; sleep 30"
check mono-starts wait_for 'demo_xdp_hash'
if tmux capture-pane -e -p -t "$S" | grep -qP "$COLOUR_SGR"; then
	fail no-colour-escapes "colour escapes with NO_COLOR=1"
else
	pass no-colour-escapes
fi
tmux kill-session -t "$S"
wait_gone

# SIGTERM ends it cleanly too (status 0, demo programs unloaded).
tmux new-session -d -s "$S" -x 150 -y 40 "TERM=xterm-256color $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
wait_for 'demo_xdp_hash' >/dev/null
pkill -TERM -x lattop
check sigterm-exit wait_for '^EXITED 0' 30
expect_eq sigterm-unloaded "$(bpftool prog show | grep -c demo_)" 0
tmux kill-session -t "$S"
wait_gone

# Ctrl-C and SIGHUP end it the same way: status 0, terminal restored, programs unloaded.
for how in ctrl-c sighup; do
	tmux new-session -d -s "$S" -x 150 -y 40 "TERM=xterm-256color $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
	wait_for 'demo_xdp_hash' >/dev/null
	if [ "$how" = ctrl-c ]; then tmux send-keys -t "$S" C-c; else pkill -HUP -x lattop; fi
	check "$how-exit" wait_for '^EXITED 0' 30
	expect_eq "$how-unloaded" "$(bpftool prog show | grep -c demo_)" 0
	tmux kill-session -t "$S"
	wait_gone
done
