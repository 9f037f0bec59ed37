#!/usr/bin/env bash
# The filter editor in the real TUI: f edits the list (rows follow at once), an unknown ID is an
# inline message that changes nothing, - removes the selected program, + adds it back.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-filter
S=lattop-filter-$$
LAT=$(readlink -f "$LATTOP")
rows() { screen | grep -cE ' demo_[a-z_]+ '; }
wait_gone

tmux new-session -d -s "$S" -x 160 -y 40 "TERM=xterm-256color $LAT --demo -d 0.3; sleep 30"
check starts wait_for 'demo_xdp_lru'
sleep 0.5
hash_id=$(screen | awk '/ demo_xdp_hash /{print $1; exit}')
lru_id=$(screen | awk '/ demo_xdp_lru /{print $1; exit}')
check ids-found test -n "$hash_id" -a -n "$lru_id"

# f: type a list of two IDs; only those rows remain; the header shows the filter.
tmux send-keys -t "$S" f
check editor-opens wait_for 'filter \(IDs, names, key:value; Enter apply, Esc cancel\):' 20
tmux send-keys -t "$S" "$hash_id,$lru_id" Enter
check filter-applied wait_for 'filter applied' 20
sleep 0.4
expect_eq two-rows "$(rows)" 2
check header-shows-filter grep -q "filter $hash_id,$lru_id" <(screen)

# An unknown ID: an inline message, and the rows stay as they were.
tmux send-keys -t "$S" f C-u 4000000000 Enter
check inline-error wait_for 'no loaded BPF program has ID 4000000000' 20
expect_eq rows-unchanged "$(rows)" 2

# Esc cancels an edit.
tmux send-keys -t "$S" f C-u 1 Escape
check esc-cancels wait_for 'filter unchanged' 20
expect_eq rows-after-esc "$(rows)" 2

# - removes the selected row's program; selecting by name works too.
tmux send-keys -t "$S" Home -
check removed wait_for 'filter applied' 20
sleep 0.4
expect_eq one-row "$(rows)" 1

# Clearing the list shows every program again; + then adds the selected one.
tmux send-keys -t "$S" f C-u Enter
check cleared wait_for 'filter cleared: showing all programs' 20
sleep 0.4
expect_eq all-rows "$(rows)" 4
tmux send-keys -t "$S" Home +
check added wait_for 'filter applied' 20
sleep 0.4
expect_eq added-one "$(rows)" 1

# A name matching the demo program: by name instead of ID.
tmux send-keys -t "$S" f C-u demo_sk_queue Enter
check by-name wait_for 'filter demo_sk_queue' 20
sleep 0.4
expect_eq name-row "$(screen | grep -cE ' demo_sk_queue ')" 1
tmux send-keys -t "$S" q
sleep 0.5
tmux kill-session -t "$S" 2>/dev/null

# 256 watched programs (the most a filter holds): the editor opens on the whole list and
# applies it unchanged, - drops one of them, and a typed list of 256 IDs comes through whole.
many_start 256
byname=$(IFS=,; echo "${names[*]}")
byid=$(IFS=,; echo "${ids[*]}")
S=lattop-filter256-$$
tmux new-session -d -s "$S" -x 160 -y 40 "LC_ALL=C.UTF-8 TERM=xterm-256color $LAT -d 0.3 -p $byname; echo EXITED \$?; sleep 30"
check many-starts wait_for 'programs 256' 50
check many-header wait_for 'filter many_000,many_001,.*…\+[0-9]+ *$' 20
tmux send-keys -t "$S" f
check many-editor wait_for 'filter \(IDs, names, key:value; Enter apply, Esc cancel\): .*many_254,many_255 *$' 20
tmux send-keys -t "$S" Enter
check many-applied wait_for 'filter applied' 20
check many-still-256 wait_for 'programs 256' 20
tmux send-keys -t "$S" End -
check many-removed wait_for 'filter applied' 20
check many-255 wait_for 'programs 255' 20
tmux send-keys -t "$S" f C-u
tmux send-keys -t "$S" -l "$byid"
tmux send-keys -t "$S" Enter
check many-ids-applied wait_for 'filter applied' 50
check many-ids-256 wait_for 'programs 256' 20
check many-ids-header wait_for "filter ${ids[0]},${ids[1]},.*…\+[0-9]+ *$" 20
tmux send-keys -t "$S" q
check many-quits wait_for '^EXITED 0' 30
tmux kill-session -t "$S" 2>/dev/null
echo quit >&"${M[1]}"
end_suite
