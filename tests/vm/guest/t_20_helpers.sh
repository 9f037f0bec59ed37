# Helpers mode on a stock kernel (issue 4): exact per-helper call counts attributed to the
# watched program only; the bigger map's update is slower; leaving helpers mode (batch exit or
# the TUI's p key) leaves no helper probe attached.
. /tests/lib.sh
T=/tmp/helpers
mkdir -p $T
use_tmux

start_target helpers || exit 1

# Per run target_maps does 3 updates, 5 lookups, 2 deletes on tgt_hash, 4 push and 4 pop on
# tgt_queue and 1 update on tgt_big (2 KiB values); target_maps2 (not watched) updates tgt_hash.
lattop -m helpers -b -o csv -c -d 0.5 -D 120 -p "$maps" >$T/h.csv 2>$T/h.err &
lp=$!
wait_line 'fentry' $T/h.csv 300
attached=$(bpftool prog show | grep -c 'name lat_helper_')
cmd "run maps 1000" >/dev/null
cmd "run maps2 700" >/dev/null
sleep 1
kill -INT $lp
wait $lp
expect lattop-exit $? 0
echo "  helper probes attached: $attached programs"
cat $T/h.err
expect update-count "$(hcol count bpf_map_update_elem tgt_hash $T/h.csv)" 3000 ||
	{ head -n 1 $T/h.csv; tail -n 12 $T/h.csv; bpftool prog dump xlated id "$maps" | grep call; }
expect lookup-count "$(hcol count bpf_map_lookup_elem tgt_hash $T/h.csv)" 5000
expect delete-count "$(hcol count bpf_map_delete_elem tgt_hash $T/h.csv)" 2000
queue_count push-count push $T/h.csv 4000
queue_count pop-count pop $T/h.csv 4000
expect big-update-count "$(hcol count bpf_map_update_elem tgt_big $T/h.csv)" 1000
expect helper-id "$(hcol helper_id bpf_map_push_elem tgt_queue $T/h.csv)" 87
expect helpers-no-drops "$(csv_drops $T/h.csv)" 0
expect map-type "$(hcol map_type bpf_map_pop_elem tgt_queue $T/h.csv)" queue
small=$(hcol p50_ns bpf_map_update_elem tgt_hash $T/h.csv)
big=$(hcol p50_ns bpf_map_update_elem tgt_big $T/h.csv)
echo "  update p50: tgt_hash (8 B values) $small ns, tgt_big (2 KiB values) $big ns"
ok bigger-map-work-is-slower [ "$big" -gt "$small" ]
ok program-row-context grep -q ",(program)," $T/h.csv
ok probes-were-attached [ "$attached" -ge 2 ]
expect no-helper-probes-after-exit "$(bpftool prog show | grep -c 'name lat_helper_')" 0

# The TUI: h enters helpers mode (probes attach), p leaves it (every helper probe detached).
tmux -f /dev/null new-session -d -s lh -x 200 -y 40 "TERM=tmux-256color lattop -d 0.5 -p $maps 2>$T/tui.err; echo EXITED \$?; sleep 30"
i=0
while ! tmux capture-pane -p -t lh | grep -q target_maps && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
# hslots: how many program-probe copies have their helper-call slot test on (VALUE 1) or off (0)
# (progtrace.bpf.c hslots_on: off until helpers mode first hands the slots out, then on).
hslots() { bpftool map dump name progtrac.bss 2>/dev/null | grep -c "\"hslots_on\": $1"; }
# slots_only VALUE OTHER: some copies read VALUE, none OTHER.
slots_only() { [ "$(hslots $1)" -ge 1 ] && [ "$(hslots $2)" -eq 0 ]; }
i=0 # the program probes attach once the program is shown
while [ "$(hslots 0)" -lt 1 ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
ok slot-test-off-in-programs-mode slots_only 0 1 || bpftool map dump name progtrac.bss
tmux send-keys -t lh h
# Analysis and loading the probes take a few seconds under TCG.
i=0
while [ "$(bpftool prog show | grep -c 'name lat_helper_')" -lt 2 ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
in_helpers=$(bpftool prog show | grep -c 'name lat_helper_')
ok tui-helpers-attach [ "$in_helpers" -ge 2 ] || { tmux capture-pane -p -t lh | head -n 12; cat $T/tui.err; }
ok slot-test-on-in-helpers-mode slots_only 1 0 || bpftool map dump name progtrac.bss
# The screen is redrawn after the key's work (the probes) is done: wait for it.
i=0
while ! tmux capture-pane -p -t lh | grep -q 'bpf_map_update_elem' && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
tmux capture-pane -p -t lh >$T/scr
ok tui-helper-rows grep -q 'bpf_map_update_elem' $T/scr || head -n 12 $T/scr
tmux send-keys -t lh p
i=0
while [ "$(bpftool prog show | grep -c 'name lat_helper_')" -gt 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect tui-programs-detach "$(bpftool prog show | grep -c 'name lat_helper_')" 0
tmux send-keys -t lh q
sleep 1
tmux kill-server 2>/dev/null
stop_target
