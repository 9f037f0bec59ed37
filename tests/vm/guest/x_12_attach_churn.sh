# Probes attached to a busy program (issue 11): four threads drive churn_light and churn_maps
# (tests/vm/fixtures/churn.c, one run per bpf_prog_test_run call) at full rate while one
# helpers-mode TUI session attaches and detaches their probes CYCLES (10) times with filter
# edits (`f`). Each cycle is the same attach and detach under load: 10 (20 until 2026-11-27)
# let a VM_REPEAT loop run twice the repetitions in the same guest time (98-160 s each on 6.1
# at host load 3-7), the cycles adding up across them.
# Afterwards its recording must show: every run made while everything was attached counted,
# no run counted twice or from outside the attached spans, helper_busy 0, no stale entry
# (prog_stale, helper_stale), no loss counter moved, and no sample longer than the longest
# test_run call the fixture made (every run happens inside one call).
. /tests/lib.sh
T=/tmp/churn
mkdir -p $T
use_tmux
# A test killed by its timeout must not leave lattop attached (tmux runs it in its own session).
trap "tmux kill-server 2>/dev/null" EXIT

rm -f $T/in $T/out $T/c.lrec
mkfifo $T/in
churn <$T/in >$T/out 2>&1 &
exec 3>$T/in
wait_line '^ready' $T/out || { fail churn-fixture "did not start: $(cat $T/out)"; exit 1; }
light=$(awk '$1=="light"{print $2}' $T/out)
maps=$(awk '$1=="maps"{print $2}' $T/out)

# links: our tracing links (fentry/fexit on the programs and on the map functions).
links() { bpftool link show 2>/dev/null | grep -cE '^[0-9]+: tracing'; }
# wait_links OP N: poll until the link count compares OP N (-eq, -ge ...); give up when the
# count has not moved for 30 s. Attaching the 8 links is many program loads, and on a loaded
# host TCG gives the guest a fraction of a core (one attach took over 30 s while the count still
# rose), so a stuck count is the failure, not a slow one. The last count is in $nlinks.
wait_links() {
	nlinks=$(links)
	end=$(($(date +%s) + 30))
	while ! [ "$nlinks" "$1" "$2" ] && [ "$(date +%s)" -lt $end ]; do
		sleep 0.1
		n=$(links)
		[ "$n" = "$nlinks" ] || end=$(($(date +%s) + 30))
		nlinks=$n
	done
	[ "$nlinks" "$1" "$2" ]
}
# stuck WHAT: the failure of a cycle, with the TUI's screen and lattop's stderr.
stuck() {
	fail "$1" "cycle $cycle: $nlinks of $full links, unchanged for 30 s"
	tmux capture-pane -p -t ch | head -n 12
	sed 's/^/  tui.err: /' $T/tui.err
}
# field NAME LINE: the number after NAME in a count line ("light S D maps S D max_ns X").
started() { echo "$2" | awk -v k="$1" '{for(i=1;i<NF;i++)if($i==k){print $(i+1);exit}}'; }
done_() { echo "$2" | awk -v k="$1" '{for(i=1;i<NF;i++)if($i==k){print $(i+2);exit}}'; }

tmux -f /dev/null new-session -d -s ch -x 200 -y 40 \
	"TERM=tmux-256color lattop -m helpers -d 0.5 -w $T/c.lrec 2>$T/tui.err; echo EXITED \$?; sleep 60"
# screen_wait PATTERN SECS: poll the TUI until a line matches (tmux itself is slow under TCG:
# a deadline, not a number of tries); on a timeout print the screen and lattop's stderr.
screen_wait() {
	end=$(($(date +%s) + $2))
	while ! tmux capture-pane -p -t ch | grep -q "$1"; do
		if [ "$(date +%s)" -ge $end ]; then
			tmux capture-pane -p -t ch | head -n 12
			cat $T/tui.err
			return 1
		fi
		sleep 0.2
	done
}
screen_wait 'mode helpers' 60 || {
	fail churn-tui "no helpers-mode screen"
	tmux kill-server 2>/dev/null
	sleep 1
	LATTOP_LIBBPF_LOG=1 lattop -b -n 1 -d 0.5 -p "$light" 2>&1 | grep -v '^libbpf: \(elf\|sec\|map\|CO-RE\)' | tail -n 60
	exit 1
}
expect churn-threads "$(cmd 'go 2 2')" going || exit 1

# One cycle attaches both programs' probes and the map functions' probes, waits until all
# are attached, counts the runs made in a window while they are, detaches and waits until
# nothing is attached. lo: runs started after the window opened and done before it closed
# (all made fully attached); hi: runs done after the cycle began or started before it ended
# (the only ones a probe can have seen).
lo_l=0 lo_m=0 hi_l=0 hi_m=0 full=
CYCLES=10
cycle=1
while [ $cycle -le $CYCLES ]; do
	a0=$(cmd count)
	tmux send-keys -t ch f C-u "$light,$maps" Enter
	if [ -z "$full" ]; then
		# The first time: wait for the helper rows, then take the link count as "all".
		screen_wait bpf_map_lookup_elem 60 || { fail churn-rows "no helper rows"; break; }
		sleep 1
		full=$(links)
		echo "  all attached: $full tracing links"
	fi
	wait_links -ge "$full" || { stuck churn-attach; break; }
	w0=$(cmd count)
	sleep 0.2
	w1=$(cmd count)
	tmux send-keys -t ch f C-u Enter
	wait_links -eq 0 || { stuck churn-detach; break; }
	d1=$(cmd count)
	echo "  cycle $cycle at $(cut -d' ' -f1 /proc/uptime) s"
	lo_l=$((lo_l + $(done_ light "$w1") - $(started light "$w0")))
	lo_m=$((lo_m + $(done_ maps "$w1") - $(started maps "$w0")))
	hi_l=$((hi_l + $(started light "$d1") - $(done_ light "$a0")))
	hi_m=$((hi_m + $(started maps "$d1") - $(done_ maps "$a0")))
	cycle=$((cycle + 1))
done
last=$(cmd stop)
echo "  fixture: $last"
longest=$(echo "$last" | awk '{for(i=1;i<NF;i++)if($i=="max_ns")print $(i+1)}')
tmux send-keys -t ch q
i=0
while ! tmux capture-pane -p -t ch | grep -q '^EXITED' && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
expect churn-lattop-exit "$(tmux capture-pane -p -t ch | grep '^EXITED')" "EXITED 0" ||
	{ tmux capture-pane -p -t ch | tail -n 5; cat $T/tui.err; }
tmux kill-server 2>/dev/null
expect churn-cycles "$cycle" $((CYCLES + 1))
expect churn-fixture-errors "$(echo "$last" | awk '{print $NF}')" 0

# The recording, cumulative, as programs (both rows) and as helpers (the map calls).
lattop -r $T/c.lrec -m programs -b -n 1000000 -c -o csv >$T/p.csv 2>$T/p.err
lattop -r $T/c.lrec -m helpers -b -n 1000000 -c -o csv >$T/h.csv 2>$T/h.err
# maxcol NAME PROG HELPER FILE: the largest value of CSV column NAME on the rows of (PROG,
# HELPER) (HELPER "": programs mode, whose CSV has no helper column); cumulative counts only
# grow, so this is the last one.
maxcol() {
	awk -F, -v want="$1" -v id="$2" -v hl="$3" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		$h["prog_id"]==id && (hl=="" || $h["helper"]==hl) && $h[want]+0>m{m=$h[want]+0}
		END{print m+0}' "$4"
}
n_l=$(maxcol count "$light" "" $T/p.csv)
n_m=$(maxcol count "$maps" "" $T/p.csv)
n_u=$(maxcol count "$maps" bpf_map_update_elem $T/h.csv)
n_k=$(maxcol count "$maps" bpf_map_lookup_elem $T/h.csv)
echo "  light counted $n_l in [$lo_l, $hi_l]; maps $n_m, updates $n_u, lookups $n_k in [$lo_m, $hi_m]"
ok churn-light-count [ "$n_l" -ge "$lo_l" -a "$n_l" -le "$hi_l" -a "$lo_l" -gt 0 ] ||
	{ head -n 1 $T/p.csv; tail -n 4 $T/p.csv; cat $T/p.err; }
ok churn-maps-count [ "$n_m" -ge "$lo_m" -a "$n_m" -le "$hi_m" -a "$lo_m" -gt 0 ]
ok churn-update-count [ "$n_u" -ge "$lo_m" -a "$n_u" -le "$hi_m" ] ||
	{ head -n 1 $T/h.csv; tail -n 4 $T/h.csv; cat $T/h.err; }
ok churn-lookup-count [ "$n_k" -ge "$lo_m" -a "$n_k" -le "$hi_m" ]
expect churn-helper-busy "$(ctr helper_busy $T/h.csv)" 0
expect churn-prog-stale "$(ctr prog_stale $T/h.csv)" 0
expect churn-helper-stale "$(ctr helper_stale $T/h.csv)" 0
expect churn-no-drops "$(($(csv_drops $T/p.csv) + $(csv_drops $T/h.csv)))" 0
m_l=$(maxcol max_ns "$light" "" $T/p.csv)
m_m=$(maxcol max_ns "$maps" "" $T/p.csv)
m_u=$(maxcol max_ns "$maps" bpf_map_update_elem $T/h.csv)
m_k=$(maxcol max_ns "$maps" bpf_map_lookup_elem $T/h.csv)
echo "  longest test_run call $longest ns; longest samples: light $m_l, maps $m_m, update $m_u, lookup $m_k ns"
ok churn-no-sample-beyond-a-call [ "$m_l" -le "$longest" -a "$m_m" -le "$longest" -a \
	"$m_u" -le "$longest" -a "$m_k" -le "$longest" -a "$m_l" -gt 0 ]
expect churn-nothing-left "$(links)" 0
echo quit >&3
exec 3>&-
wait
