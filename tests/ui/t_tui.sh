#!/usr/bin/env bash
# The real binary in a real terminal (tmux): screens, keys, resize, colour and clean exit.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui
S=lattop-ui-$$
LAT=$(readlink -f "$LATTOP")
tmux kill-session -t "$S" 2>/dev/null

# ours: the PID of the lattop this suite started in session $S (never another session's).
ours() { pgrep -P "$(tmux display -p -t "$S" '#{pane_pid}')" -x lattop; }
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
# A live session's ? gives + - Home End their live meanings and lists no replay clock key.
scr=$(screen)
check help-live-title grep -q '^lattop .* keys (any key closes this help)' <<<"$scr"
check help-live-plus grep -qE '(^| )  \+ +add the selected program to the filter' <<<"$scr"
check help-live-home grep -qE '(^| )  Home +first row' <<<"$scr"
check help-live-space grep -qE '(^| )  space Z +pause the display' <<<"$scr"
no_replay_keys() { ! grep -qE 'replay|interval$' <<<"$scr"; }
check help-live-no-replay-keys no_replay_keys
tmux send-keys -t "$S" 'x'
check help-closed wait_for 'demo_xdp_hash' 20
# A replay's key says so in a live session.
tmux send-keys -t "$S" '.'
check replay-key-in-live wait_for '^\. is for replays \(lattop -r FILE\): step to the next interval' 20

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

# z resets the statistics: cumulative counts (c) drop back after it.
# count NAME: the COUNT cell of NAME's row, without separators.
count() {
	screen | awk -v n="$1" '{ for (i = 1; i < NF; i++) if ($i == n) { gsub(",", "", $(i + 1)); print $(i + 1); exit } }'
}
tmux send-keys -t "$S" c
sleep 1.5
before=$(count demo_xdp_hash)
tmux send-keys -t "$S" z
check reset-says wait_for 'cumulative statistics reset' 20
sleep 0.4
after=$(count demo_xdp_hash)
check reset-counts-drop test -n "$before" -a -n "$after" -a "${after:-0}" -lt "${before:-0}"
check reset-counts-grow-again wait_for "demo_xdp_hash +[0-9,]+ " 20
tmux send-keys -t "$S" c

# q quits with status 0 and the terminal restored: out of the alternate screen, the cursor
# shown again, and the shell's echo appears after endwin.
tmux send-keys -t "$S" 'q'
check quits wait_for '^EXITED 0' 30
expect_eq quit-alternate-screen-off "$(tmux display -p -t "$S" '#{alternate_on}')" 0
expect_eq quit-cursor-shown "$(tmux display -p -t "$S" '#{cursor_flag}')" 1
tmux kill-session -t "$S"
wait_gone

# Scrolling: a 12-line pane shows 7 of the rows (the demo's 4, 20 of the test's own and any
# the host has), sorted by name; End, Home and PgDn move the selection and the visible rows
# follow it.
coproc M { "$OUTPUT/tests/host/many" 20; }
for _ in $(seq 21); do read -r _ <&"${M[0]}"; done
# names: the NAME cell of each table row on stdin (escapes stripped); visible: the rows shown;
# selected: the highlighted row (the selection colour, or reverse video without colours).
names() {
	local col
	col=$(screen | awk '/^ +ID /{print index($0, " NAME") + 1; exit}')
	sed 's/\x1b\[[0-9;]*m//g' | awk -v c="$col" '$1 ~ /^[0-9]+$/ {split(substr($0, c), w, " "); print w[1]}'
}
visible() { screen | names; }
selected() { tmux capture-pane -e -p -t "$S" | grep -P '\e\[([0-9;]*;)?(46|7)m' | names | head -n 1; }
# (TERM=screen-256color: tmux's own keys, so Home/End/PgDn arrive as the keys they are.)
tmux new-session -d -s "$S" -x 120 -y 12 "LC_ALL=C.UTF-8 TERM=screen-256color $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
check scroll-starts wait_for 'programs (2[4-9]|[3-9][0-9])' 50
tmux send-keys -t "$S" '<'
check scroll-by-name wait_for 'NAME[v^] ' 20
tmux send-keys -t "$S" Home # the selection followed its program across the sort
sleep 0.4
first=$(visible | head -n 1)
nvis=$(visible | wc -l)
check scroll-some-rows test "$nvis" -ge 4 -a "$nvis" -lt 25
check scroll-home-selected test "$(selected)" = "$first"
tmux send-keys -t "$S" End
sleep 0.5
# (one capture: rows are shown, and the first one is not among them)
vis=$(visible)
check scroll-end-moves test -n "$first" -a "$(grep -c . <<<"$vis")" -ge 4 -a -z "$(grep -xF "$first" <<<"$vis")"
check scroll-end-selects-last test "$(selected)" = "$(visible | tail -n 1)"
tmux send-keys -t "$S" Home
sleep 0.5
check scroll-home-back test "$(visible | head -n 1)" = "$first" -a "$(selected)" = "$first"
tmux send-keys -t "$S" NPage
sleep 0.4
sel1=$(selected)
check scroll-pgdn-selects test -n "$sel1" -a "$sel1" != "$first"
tmux send-keys -t "$S" NPage
sleep 0.4
vis=$(visible)
check scroll-pgdn-scrolls test -z "$(grep -xF "$first" <<<"$vis")" -a -n "$(grep -xF "$(selected)" <<<"$vis")"
tmux send-keys -t "$S" q
check scroll-quits wait_for '^EXITED 0' 30
tmux kill-session -t "$S"
echo quit >&"${M[1]}"
wait_gone

# The counters line turns to the warning colour (red) when something was lost in the
# interval: a copy of the sample recording whose intervals each lost 5 ring-buffer records
# (there is no debug option to shrink the live queues, so the replay feeds the same line).
python3 - tests/data/sample.lrec "$TMP/lossy.lrec" <<'PY'
import struct, sys, zlib
d = bytearray(open(sys.argv[1], "rb").read())
off = 20 + struct.unpack_from("<I", d, 16)[0]
while off + 8 <= len(d):
    typ, ln = struct.unpack_from("<II", d, off)
    if typ == 2:  # REC_INTERVAL: rb_drops at payload offset 32
        struct.pack_into("<Q", d, off + 8 + 32, 5)
        struct.pack_into("<I", d, off + 8 + ln, zlib.crc32(bytes(d[off:off + 8 + ln])))
    off += 12 + ln
open(sys.argv[2], "wb").write(d)
PY
counters_line() { tmux capture-pane -e -p -t "$S" | grep -a 'drops:' | head -n 1; }
RED='\e\[([0-9;]*;)?(31|91)(;[0-9;]*)?m'
for f in sample lossy; do
	src=tests/data/sample.lrec
	[ $f = lossy ] && src=$TMP/lossy.lrec
	tmux new-session -d -s "$S" -x 150 -y 30 "TERM=xterm-256color $LAT -r $(readlink -f "$src"); echo EXITED \$?; sleep 30"
	check "$f-starts" wait_for 'demo_xdp_hash'
	tmux send-keys -t "$S" End
	check "$f-end" wait_for 'x1 END' 30
	if [ $f = lossy ]; then
		check lost-counted grep -q 'drops: ringbuf 5 ' <(screen)
		check lost-warning-colour grep -qP "$RED" <(counters_line)
	else
		line=$(counters_line)
		check whole-counters-line grep -q 'drops: ringbuf 0 ' <<<"$line"
		check whole-normal-colour bash -c '! grep -qP "$1" <<<"$2"' _ "$RED" "$line"
	fi
	tmux send-keys -t "$S" q
	check "$f-quits" wait_for '^EXITED 0' 30
	tmux kill-session -t "$S"
done

# NO_COLOR: a readable screen without colour escapes.
tmux new-session -d -s "$S" -x 150 -y 40 "NO_COLOR=1 TERM=xterm-256color $LAT --demo -d 0.3; sleep 30"
check mono-starts wait_for 'demo_xdp_hash'
esc=$(tmux capture-pane -e -p -t "$S")
if ! grep -q 'demo_' <<<"$esc"; then
	fail no-colour-escapes "the screen shows no rows: $(head -n 1 <<<"$esc")"
elif grep -qP "$COLOUR_SGR" <<<"$esc"; then
	fail no-colour-escapes "colour escapes with NO_COLOR=1"
else
	pass no-colour-escapes
fi
tmux kill-session -t "$S"
wait_gone

# SIGTERM ends it cleanly too (status 0, demo programs unloaded).
tmux new-session -d -s "$S" -x 150 -y 40 "TERM=xterm-256color $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
check sigterm-starts wait_for 'demo_xdp_hash'
kill -TERM "$(ours)"
check sigterm-exit wait_for '^EXITED 0' 30
expect_eq sigterm-unloaded "$(demo_loaded)" 0
tmux kill-session -t "$S"
wait_gone

# Ctrl-C and SIGHUP end it the same way: status 0, terminal restored, programs unloaded.
for how in ctrl-c sighup; do
	tmux new-session -d -s "$S" -x 150 -y 40 "TERM=xterm-256color $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
	check "$how-starts" wait_for 'demo_xdp_hash'
	if [ "$how" = ctrl-c ]; then tmux send-keys -t "$S" C-c; else kill -HUP "$(ours)"; fi
	check "$how-exit" wait_for '^EXITED 0' 30
	expect_eq "$how-unloaded" "$(demo_loaded)" 0
	tmux kill-session -t "$S"
	wait_gone
done
end_suite
