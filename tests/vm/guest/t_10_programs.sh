# Programs mode with fentry/fexit on a stock kernel (issue 3): exact counts, ordering by cost,
# the filter editor detaching probes, one live session at a time, a target unloaded while
# watched. Runs in busybox ash; lattop's CSV is read with awk.
. /tests/lib.sh
T=/tmp/progs
mkdir -p $T
use_tmux

# 1+2: exact counts; the heavy target is slower at p50 and p99, and its p50 agrees with the
# kernel's own test_run average.
start_target counts || exit 1
cmd "loops 3000" >/dev/null
cmd "loops2 1000" >/dev/null
lattop -b -o csv -c -d 0.5 -D 120 -p "$light,$heavy,$heavy2" -w $T/a.lrec >$T/a.csv 2>$T/a.err &
lp=$!
wait_line 'fentry' $T/a.csv 300
r1=$(cmd "run light 20000")
# heavy (3000 loops) and heavy2 (1000 loops) in alternating chunks, so that a TCG vCPU slowed
# by a busy host slows both alike; heavy's test_run average is the mean of its chunks'.
hsum=0
for i in 1 2 3 4 5; do
	r2=$(cmd "run heavy 400")
	hsum=$((hsum + ${r2##* }))
	cmd "run heavy2 400" >/dev/null
done
# Stop after the work: SIGINT reports the last partial interval, so nothing is lost.
sleep 1
kill -INT $lp
wait $lp
expect lattop-exit $? 0
light_avg=${r1##* }
heavy_avg=$((hsum / 5))
expect light-count-exact "$(col count "$light" $T/a.csv | tail -n 1)" 20000
expect heavy-count-exact "$(col count "$heavy" $T/a.csv | tail -n 1)" 2000 || tail -n 3 $T/a.csv
expect heavy2-count-exact "$(col count "$heavy2" $T/a.csv | tail -n 1)" 2000
expect source-fentry "$(awk -F, 'NR==2{print $4}' $T/a.csv)" fentry
# Every loss counter: ring buffer, queue, our probes' recursion misses, nesting-stack misses.
ok csv-loss-columns grep -q '^ts_ns,.*,rb_drops,queue_drops,recursion_drops,nest_drops,' $T/a.csv
expect no-drops "$(csv_drops $T/a.csv)" 0
lp50=$(col p50_ns "$light" $T/a.csv | tail -n 1)
hp50=$(col p50_ns "$heavy" $T/a.csv | tail -n 1)
lp99=$(col p99_ns "$light" $T/a.csv | tail -n 1)
hp99=$(col p99_ns "$heavy" $T/a.csv | tail -n 1)
echo "  light p50 $lp50 p99 $lp99 (test_run avg $light_avg); heavy p50 $hp50 p99 $hp99 (test_run avg $heavy_avg)"
ok heavy-slower-p50 [ "$hp50" -gt $((lp50 * 10)) ]
ok heavy-slower-p99 [ "$hp99" -gt "$lp99" ]
# fentry times the program body; test_run's figure is a mean over the whole timed loop (the
# trampolines, the loop, and every emulation stall of a TCG vCPU on a busy 2-core host: seen
# from 74 us to 137 us for the same program while the fentry p50 stayed at 59.6 us, and at
# 203 us against a p50 of 33 us and a p99 of 2.4 ms on a host loaded by builds and other VMs).
# A median cannot be held to a mean that stalls inflate, so: the p50 must not exceed the mean
# by more than the histogram's 1% plus noise (1.2 x), and lattop's own mean of the same runs,
# which takes the same stalls inside the body, must be within [0.5, 1.2] x the test_run mean
# (all but the per-run overhead, ~the light program's test_run average, is the body).
havg=$(col avg_ns "$heavy" $T/a.csv | tail -n 1)
havg=${havg%%.*}
echo "  heavy mean: lattop ${havg:-?} ns, test_run $heavy_avg ns"
ok heavy-p50-vs-test-run [ "$hp50" -gt 0 -a $((hp50 * 10)) -le $((heavy_avg * 12)) ]
ok heavy-avg-vs-test-run [ $((${havg:-0} * 10)) -ge $((heavy_avg * 5)) -a $((${havg:-0} * 10)) -le $((heavy_avg * 12)) ]

# A program fentry cannot target (a tp_btf tracing program on 6.1) keeps its row, with the
# reason, and the others are still probed. Newer kernels allow one level of tracing on tracing
# (fentry on a tp_btf program: kernel commit "bpf: Relax tracing prog recursive attach rules",
# 6.8), so on 6.12 the row is probed like any other, no note, and counts
# the tp_btf program's runs (0: the fixture loads it without attaching it).
lattop -b -o csv -n 1 -d 0.5 -p "$light,$tracing" >$T/t.csv 2>&1
if kver_ge 6 8; then
	expect tracing-row-probed "$(col note "$tracing" $T/t.csv | tail -n 1)/$(col count "$tracing" $T/t.csv | tail -n 1)/$(col source "$tracing" $T/t.csv | tail -n 1)" \
		"/0/fentry" || cat $T/t.csv
else
	expect untargetable-row "$(col note "$tracing" $T/t.csv | tail -n 1)" \
		"fentry/fexit/tp_btf programs cannot be traced on this kernel" || cat $T/t.csv
fi
# (its row is there, with no note)
expect targetable-still-probed "$(col prog_id "$light" $T/t.csv | tail -n 1)/$(col note "$light" $T/t.csv | tail -n 1)" "$light/"

# Probe floor measured at start-up and shown, with the cost of what is attached.
lattop -b -n 1 -d 0.3 -p "$light,$heavy" >$T/floor.txt 2>&1
ok floor-shown grep -qE 'probe floor [0-9]+ ns per invocation' $T/floor.txt
ok cost-shown grep -qE '^probes: 2 programs \(4 fentry/fexit programs\), [0-9]+ ns a run \(measured\), [0-9.]+% of a CPU' $T/floor.txt
floor=$(sed -n 's/.*probe floor \([0-9]*\) ns per invocation.*/\1/p' $T/floor.txt | head -n 1)
echo "  probe floor ${floor:-?} ns"

# 2, the light target: its body is empty, so what fentry reports for it IS the probe floor
# (lattop measures the floor on its own copy of target_light). Its test_run average is no
# reference: that figure is (total time of the repeat loop) / N and includes, per run, the
# fentry and fexit trampolines and our two probe programs (~the floor again, outside the
# timed window), test_run's own loop (xdp frame setup, the repeat bookkeeping) and TCG's
# stalls. Measured: p50 1495 ns vs test_run avg 6440 ns (0.23). So the light p50 must sit
# near the floor and below the average (at most 1.2 x, the histogram's error plus noise).
# The floor that counts is the one measured by the light run's own session (from its
# recording: seconds apart, not a session apart), with the second session's as the spread:
# TCG's speed follows the host's load, and a floor taken in another session was once twice
# the light p50 (509 vs 1019 ns) with nothing wrong. "Near" is [0.5 x the lower floor, 5 x
# the higher]: two p50s of the same empty program under TCG gave 731 vs a 659 ns floor on an
# idle host and 1895 vs 707 ns in the next boot; the heavy program, at 17-70 us, is far
# outside either.
floor=${floor:-0}
floor1=$(rec_floor $T/a.lrec)
floor1=${floor1:-0}
flo=$floor fhi=$floor1
[ "$floor1" -lt "$floor" ] && flo=$floor1 fhi=$floor
echo "  probe floor $floor1 ns in the light run's session, $floor ns in the next"
ok light-p50-near-floor [ "$flo" -gt 0 -a $((lp50 * 2)) -ge "$flo" -a "$lp50" -le $((fhi * 5)) ]
ok light-p50-below-test-run [ $((lp50 * 10)) -le $((light_avg * 12)) ]
# The known factor is the work inside the program: heavy runs 3000 bpf_loop iterations and
# heavy2 1000, side by side (alternating chunks), so heavy's p50 excess over light's (the
# floor) must clearly exceed heavy2's. It is not exactly 3 x under TCG: measured 2.07 on an
# idle 2-CPU host (62.2 us vs 30.3 us), and 2.80, 2.97, 3.21, 4.68 and 5.1 on the same host
# loaded with builds and fuzzers (load 1.3-3.5; TCG stretches the longer runs more). The
# band is therefore [1.5, 7.5]: below 1.5 x for 3 x the work the probes would not be timing
# the program's work, above 7.5 x the duration is not this program's.
h1p50=$(col p50_ns "$heavy2" $T/a.csv | tail -n 1)
ex3=$((hp50 - lp50))
ex1=$((h1p50 - lp50))
echo "  heavy p50: 3000 loops $hp50 ns, 1000 loops $h1p50 ns; excess over light $ex3 / $ex1 ns (ratio x100: $((ex3 * 100 / (ex1 > 0 ? ex1 : 1))))"
ok heavy-scales-with-loops [ "$ex1" -gt 0 -a $((ex3 * 10)) -ge $((ex1 * 15)) -a $((ex3 * 10)) -le $((ex1 * 75)) ]
stop_target

# 3: removing a program from the filter in the TUI detaches its probes at once.
start_target filter || exit 1
tmux -f /dev/null new-session -d -s lt -x 160 -y 40 "TERM=tmux-256color lattop -d 0.5 -p $light,$heavy 2>$T/tui.err; echo EXITED \$?; sleep 30"
i=0
while ! tmux capture-pane -p -t lt | grep -q target_heavy && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
# Two probe programs per watched program, four where tasks preempt BPF programs (lib.sh).
pp=2
probe_copies && pp=4
expect probes-attached "$(bpftool prog show | grep -c 'name lat_prog_')" $((2 * pp)) ||
	{ tmux capture-pane -p -t lt | head -n 12; cat $T/tui.err; bpftool prog show | grep name; }
tmux send-keys -t lt f C-u "$heavy" Enter
sleep 1.5
expect probes-detached "$(bpftool prog show | grep -c 'name lat_prog_')" $pp
expect tracing-links "$(bpftool link show | grep -cE '^[0-9]+: tracing')" $pp
tmux capture-pane -p -t lt >$T/scr2
ok filter-rows-changed [ "$(grep -c target_heavy $T/scr2)" -ge 1 -a "$(grep -c target_light $T/scr2)" = 0 ]
# An unknown ID in the editor: an inline message, the filter unchanged.
tmux send-keys -t lt f C-u "4000000000" Enter
# The message stays 4 s from when the key is read: wait for it (a loaded TCG guest has taken
# over a second to read the key), up to 10 s. (Capture to a file first: `ok NAME cmd | grep`
# would pipe ok's own PASS/FAIL line into grep.)
i=0
while tmux capture-pane -p -t lt >$T/scr3 && ! grep -q 'no loaded BPF program has ID' $T/scr3 && [ $i -lt 50 ]; do
	sleep 0.2
	i=$((i + 1))
done
ok inline-error grep -q 'no loaded BPF program has ID 4000000000' $T/scr3 || head -n 8 $T/scr3
expect filter-kept "$(bpftool prog show | grep -c 'name lat_prog_')" $pp
tmux send-keys -t lt q
sleep 1
expect nothing-left "$(bpftool prog show | grep -c 'name lat_prog_')" 0
tmux kill-server 2>/dev/null

# 4: a second live session is refused with the holder's pid; the first one is unaffected.
lattop -b -d 0.5 -D 4 -p "$light" >$T/first.txt 2>&1 &
first=$!
sleep 1.5
lattop -b -n 1 -p "$light" >$T/second.out 2>$T/second.err
expect second-refused-status $? 1
ok second-names-pid grep -q "another lattop session (pid $first) is already tracing" $T/second.err
wait $first
expect first-unaffected $? 0
stop_target

# 5: the target is unloaded by its owner while watched: marked gone, probes released, no crash.
start_target gone || exit 1
lattop -b -o csv -d 0.5 -D 120 -p "$light,$heavy" >$T/g.csv 2>$T/g.err &
lp=$!
wait_line 'fentry' $T/g.csv 300
cmd "run light 1000" >/dev/null
cmd "unload" >/dev/null
sleep 2
# (bpftool lists programs, and that ID is not among them)
ok target-freed [ -n "$(bpftool prog show 2>/dev/null | head -n 1)" -a "$(bpftool prog show 2>/dev/null | grep -c "^$light: ")" = 0 ]
kill -INT $lp
wait $lp
expect gone-exit $? 0
expect gone-marked "$(col gone "$light" $T/g.csv | tail -n 1)" 1
expect gone-counted "$(col count "$light" $T/g.csv | awk '{s+=$1}END{print s}')" 1000
expect no-probes-left "$(bpftool prog show | grep -c 'name lat_prog_')" 0
stop_target

# The probes built for kernels without compare-and-swap (5.10 loads them by itself, and the
# sections above ran on them there), forced here on a newer kernel: the same exact counts.
if kver_ge 5 12; then
	start_target compat || exit 1
	cmd "loops2 50" >/dev/null
	LATTOP_BPF_COMPAT=1 lattop -b -o csv -c -d 0.5 -D 120 -p "$light,$heavy2" >$T/c.csv 2>$T/c.err &
	lp=$!
	wait_line 'fentry' $T/c.csv 300
	expect compat-no-cmpxchg "$(bpftool prog dump xlated name lat_prog_exit | grep -c cmpxchg)" 0
	cmd "run light 5000" >/dev/null
	cmd "run heavy2 300" >/dev/null
	sleep 1
	kill -INT $lp
	wait $lp
	expect compat-exit $? 0
	expect compat-light-count "$(col count "$light" $T/c.csv | tail -n 1)" 5000 || cat $T/c.err
	expect compat-heavy2-count "$(col count "$heavy2" $T/c.csv | tail -n 1)" 300
	expect compat-no-drops "$(csv_drops $T/c.csv)" 0
	stop_target
fi

# A kernel without bpf_loop (Linux 5.17; 5.10 here) cannot run the demo's programs: one
# sentence and status 1, instead of a verifier's EINVAL.
if ! kver_ge 5 17; then
	lattop --demo -b -n 1 -d 0.3 >$T/demo.out 2>$T/demo.err
	expect demo-refused-status $? 1
	ok demo-refused-sentence grep -qx "lattop: the demo's programs need bpf_loop (Linux 5.17), which this kernel lacks: no demo here" $T/demo.err ||
		cat $T/demo.err
fi
