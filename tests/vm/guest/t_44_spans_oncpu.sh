# Spans split into on-CPU, runnable and sleeping time, in the guest (6.1 and 6.12; the host
# suite's t_spans_oncpu checks the same on the host's kernel, with the replay and --listen).
# The spans fixture (tests/host/spanfix.c) measures each call with the kernel's own accounting
# (/proc/thread-self/schedstat: run time and run-queue wait; the rest of the wall time is
# sleeping) and prints the medians:
# - oncpu: 20 calls each running 20 ms of CPU time, then sleeping 30 ms;
# - runq: 20 calls each waking a SCHED_FIFO thread pinned with the caller on CPU 0 that holds
#   the CPU for 20 ms (the caller is runnable and off the CPU meanwhile), then running 10 ms.
# Runnable and sleeping p50 lie between the nominal time and the kernel's figure for the
# fixture's window, within the histogram's error (a bucket is 1/128 of its value:
# src/model/hist.h) plus 250 us. On-CPU lies between the nominal time and the kernel's figure for the
# fixture's window, within the histogram's error: the window also holds the uprobe's and the
# uretprobe's traps, before the entry program reads the clock and after the return program
# does, which TCG emulates slowly (0.35 to 1.1 ms of CPU per call measured on 6.12). A span keyed by a field
# (its end may run in another task) has no split.
# The comparison with the kernel's accounting needs one clock on both sides: lattop times with
# bpf_ktime_get_ns (the clocksource), the scheduler's accounting with sched_clock (the TSC).
# They are the same clock where the clocksource is the TSC (6.12 under TCG: tsc-early). Under
# TCG, 6.1 finds the two vCPUs' TSCs unsynchronized, marks the TSC unstable and switches to
# HPET, while sched_clock stays on the TSC, corrected tick by tick: the two then differ by up to
# 8% over one 20 ms stretch (measured: on-CPU 23.2 ms by ktime, 24.1 ms by sched_clock). There
# the comparisons are skipped, saying so, and only the nominal bounds are checked.
. /tests/lib.sh
T=/tmp/spans-oncpu
mkdir -p $T
FIX=/bin/spanfix
cat >$T/s.json <<J
{ "spans": [
  { "name": "oncpu", "start": { "kind": "uprobe", "probe": "$FIX:spanfix_oncpu" },
    "end": { "kind": "uretprobe", "probe": "$FIX:spanfix_oncpu" } },
  { "name": "runq", "start": { "kind": "uprobe", "probe": "$FIX:spanfix_runq" },
    "end": { "kind": "uretprobe", "probe": "$FIX:spanfix_runq" } },
  { "name": "request",
    "start": { "kind": "uprobe", "probe": "$FIX:spanfix_submit", "field": "arg0" },
    "end": { "kind": "uprobe", "probe": "$FIX:spanfix_complete", "field": "arg0" } } ] }
J
# scol SPAN NAME FILE: CSV column NAME of the last row of SPAN.
scol() {
	awk -F, -v span="$1" -v want="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]==span{v=$h[want]} END{print v}' "$3"
}
# near NAME GOT MIN MAX: MIN less a bucket <= GOT <= MAX plus a bucket and 250 us, MIN what the
# fixture asked for, MAX the kernel's accounting of the fixture's window, which holds the span
# (a bound per call, so it holds for the medians however loaded the host is; a two-sided match
# with the window's figure failed on the host under CI's load). Where the clocksource is not the
# TSC, the kernel's figure is on another clock: SKIP, said.
CS=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
near() {
	echo "  measured: $1 lattop $2 ns, nominal $3 ns, the kernel's accounting $4 ns (clocksource $CS)"
	case $CS in tsc*) ;; *)
		skip "$1" "the clocksource is $CS, not the TSC sched_clock uses: the kernel's accounting is on another clock"
		return 0 ;;
	esac
	ok "$1" awk -v a="$2" -v lo="$3" -v hi="$4" 'BEGIN{exit !(a!="" && a>=lo*127/128 && a<=hi*129/128+250000)}'
}
# within NAME GOT MIN MAX: MIN less a bucket <= GOT <= MAX plus a bucket (1/128).
within() {
	echo "  measured: $1 lattop $2 ns, nominal $3 ns, the kernel's accounting of the window $4 ns"
	ok "$1" awk -v a="$2" -v lo="$3" -v hi="$4" 'BEGIN{exit !(a!="" && a>=lo*127/128 && a<=hi*129/128+250000)}'
}
# atleast NAME GOT MIN: GOT at least MIN less a bucket (1/128).
atleast() {
	ok "$1" awk -v a="$2" -v m="$3" 'BEGIN{exit !(a!="" && a>=m*127/128)}'
}

spans_refused oncpu-span $T/s.json && exit 0
start_fifo $FIX $T/in $T/out 3 || { fail oncpu-fixture "spanfix did not start: $(cat $T/out)"; exit 1; }
LATTOP_LIBBPF_LOG=1 lattop -b -o csv -c -d 0.5 -D 300 --spans $T/s.json >$T/s.csv 2>$T/s.err &
lp=$!
wait_line 'request' $T/s.csv 300 || { fail oncpu-span-start "$(cat $T/s.err)"; exit 1; }
set -- $(cmd "oncpu 20 20000 30000")
on_run=$4 on_wait=$6 on_sleep=$8
set -- $(cmd "runq 20 20000 10000")
rq_n=$2 rq_run=$4 rq_wait=$6 rq_sleep=$8 rq_why="$*"
cmd "async 10" >/dev/null
sleep 1.5
kill -INT $lp
wait $lp
expect oncpu-exit $? 0 || cat $T/s.err
stop_target
expect oncpu-count "$(scol oncpu count $T/s.csv)" 20
within oncpu-oncpu "$(scol oncpu oncpu_p50_ns $T/s.csv)" 20000000 "$on_run"
near oncpu-sleep "$(scol oncpu sleep_p50_ns $T/s.csv)" 30000000 "$on_sleep"
near oncpu-runq "$(scol oncpu runq_p50_ns $T/s.csv)" 0 "$on_wait"
atleast oncpu-oncpu-nominal "$(scol oncpu oncpu_p50_ns $T/s.csv)" 20000000
atleast oncpu-sleep-nominal "$(scol oncpu sleep_p50_ns $T/s.csv)" 30000000
if [ "$rq_n" = -1 ]; then
	fail oncpu-runq-fixture "$rq_why"
else
	expect runq-count "$(scol runq count $T/s.csv)" 20
	near runq-runq "$(scol runq runq_p50_ns $T/s.csv)" 20000000 "$rq_wait"
	within runq-oncpu "$(scol runq oncpu_p50_ns $T/s.csv)" 10000000 "$rq_run"
	atleast runq-runq-nominal "$(scol runq runq_p50_ns $T/s.csv)" 20000000
	ok runq-sleep-small awk -v a="$(scol runq sleep_p50_ns $T/s.csv)" 'BEGIN{exit !(a!="" && a<=250000)}'
fi
expect request-count "$(scol request count $T/s.csv)" 10
expect request-no-split "$(scol request oncpu_pct $T/s.csv)/$(scol request oncpu_p50_ns $T/s.csv)" "/"
