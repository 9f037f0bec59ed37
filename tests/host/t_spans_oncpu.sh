#!/usr/bin/env bash
# Spans split into on-CPU, runnable and sleeping time (the task clocks of bpf/span.bpf.h, kept by
# sched_switch and sched_wakeup tp_btf programs), on the host kernel (uprobes and tp_btf work
# here). The spans fixture (tests/host/spanfix.c) measures each call with the kernel's own
# accounting (/proc/thread-self/schedstat: run time and run-queue wait) and prints the medians:
# - oncpu: 20 calls each running 20 ms of CPU time, then sleeping 30 ms;
# - runq: 20 calls each waking a SCHED_FIFO thread pinned with it on CPU 0 that holds the CPU
#   for 20 ms (the caller is runnable and off the CPU meanwhile), then running 10 ms.
# Each part's p50 lies between the nominal time (what the fixture asked for: 20 ms on-CPU and
# 30 ms asleep, or 20 ms runnable; 0 runnable for oncpu) and the kernel's figure for the
# fixture's window, which holds the span and the uprobes' traps, within the histogram's error
# (a bucket is 1/128 of its value: hist.h) plus 250 us. A span keyed by a field (its end may run
# in another task) and one that says "split": false have no split (null); the parts are in the
# recording, its replay and --listen; "split" errors are one sentence and status 2.
cd "$(dirname "$0")/../.." && . tests/lib.sh && . tests/host/prom_lib.sh
SUITE=host-spans-oncpu
FIX=$(readlink -f "$OUTPUT/tests/host/spanfix")

cat >"$TMP/s.json" <<J
{ "spans": [
  { "name": "oncpu", "start": { "kind": "uprobe", "probe": "$FIX:spanfix_oncpu" },
    "end": { "kind": "uretprobe", "probe": "$FIX:spanfix_oncpu" } },
  { "name": "runq", "start": { "kind": "uprobe", "probe": "$FIX:spanfix_runq" },
    "end": { "kind": "uretprobe", "probe": "$FIX:spanfix_runq" } },
  { "name": "request",
    "start": { "kind": "uprobe", "probe": "$FIX:spanfix_submit", "field": "arg0" },
    "end": { "kind": "uprobe", "probe": "$FIX:spanfix_complete", "field": "arg0" } },
  { "name": "work", "split": false,
    "start": { "kind": "uprobe", "probe": "$FIX:spanfix_work" },
    "end": { "kind": "uretprobe", "probe": "$FIX:spanfix_work" } } ] }
J

coproc SF { "$FIX"; }
read -r _ fixpid <&"${SF[0]}"
port=$(free_port)
wait_gone
$LATTOP -b -o json -c -d 0.5 -D 600 --spans "$TMP/s.json" -w "$TMP/s.lat" \
	--listen "127.0.0.1:$port" >"$TMP/s.out" 2>"$TMP/s.err" &
lat=$!
wait_report "$TMP/s.out"
echo "oncpu 20 20000 30000" >&"${SF[1]}"; read -r _ on_n _ on_run _ on_wait _ on_sleep <&"${SF[0]}"
echo "runq 20 20000 10000" >&"${SF[1]}"; read -r _ rq_n _ rq_run _ rq_wait _ rq_sleep <&"${SF[0]}"
echo "async 10" >&"${SF[1]}"; read -r _ _ <&"${SF[0]}"
echo "mix" >&"${SF[1]}"; read -r _ _ _ _ _ _ <&"${SF[0]}"
sleep 1.2
metrics=$(curl -s "http://127.0.0.1:$port/metrics")
end_session $lat "$TMP/s.out"
expect_eq exit $? 0
[ -s "$TMP/s.err" ] && cat "$TMP/s.err"
echo "fixture: oncpu run ${on_run} wait ${on_wait} sleep ${on_sleep} ns; runq ($rq_n) run ${rq_run} wait ${rq_wait} sleep ${rq_sleep} ns"
row() { json "[r for r in L[-1]['rows'] if r['span']=='$1'][0]['$2']" "$TMP/s.out"; }
# within NAME GOT MIN MAX: MIN less a bucket <= GOT <= MAX plus a bucket (1/128) and 250 us.
# MIN is what the fixture asked for; MAX the kernel's accounting of the fixture's window, which
# holds the span (and the uprobe traps, and whatever preempts the fixture around the call): a
# bound per call, so it holds for the medians too, however loaded the machine is. (A two-sided
# match with the window's figure failed under CI's load: runnable 11.7 ms in the span against
# 13.5 ms in the window.)
within() {
	echo "measured: $1 lattop $2 ns, nominal $3 ns, the kernel's accounting of the window $4 ns"
	check "$1" python3 -c "import sys; sys.exit(not $3 * 127 / 128 <= $2 <= $4 * 129 / 128 + 250000)"
}
expect_eq oncpu-count "$(row oncpu count)" 20
within oncpu-oncpu "$(row oncpu oncpu_p50_ns)" 20000000 "$on_run"
within oncpu-sleep "$(row oncpu sleep_p50_ns)" 30000000 "$on_sleep"
within oncpu-runq "$(row oncpu runq_p50_ns)" 0 "$on_wait"
check oncpu-oncpu-nominal python3 -c "import sys; sys.exit(not $(row oncpu oncpu_p50_ns) >= 20e6 * 127 / 128)"
check oncpu-sleep-nominal python3 -c "import sys; sys.exit(not $(row oncpu sleep_p50_ns) >= 30e6 * 127 / 128)"
# The shares add up to the wall time.
check oncpu-shares python3 -c "import sys; sys.exit(not abs($(row oncpu oncpu_pct) + $(row oncpu runq_pct) + $(row oncpu sleep_pct) - 100) < 1e-6)"
if [ "$rq_n" = -1 ]; then
	skip runq "the fixture cannot run a SCHED_FIFO thread here: $rq_run $rq_wait"
else
	expect_eq runq-count "$(row runq count)" 20
	within runq-runq "$(row runq runq_p50_ns)" 20000000 "$rq_wait"
	within runq-oncpu "$(row runq oncpu_p50_ns)" 10000000 "$rq_run"
	check runq-runq-nominal python3 -c "import sys; sys.exit(not $(row runq runq_p50_ns) >= 20e6 * 127 / 128)"
	check runq-sleep-small python3 -c "import sys; sys.exit(not $(row runq sleep_p50_ns) <= 250000)"
fi
# No split: a field-keyed span, and one that asked for none.
expect_eq request-count "$(row request count)" 10
expect_eq request-no-split "$(row request oncpu_pct)/$(row request runq_p99_ns)" None/None
expect_eq work-no-split "$(row work count)/$(row work oncpu_pct)" 1100/None
# A part is the same sample again: the events are the spans' samples alone.
expect_eq events-not-doubled "$(json "L[-1]['events'] == sum(r['count'] for r in L[-1]['rows'])" "$TMP/s.out")" True

# The recording's replay: the same parts (cumulative, -b), none for the spans not split.
$LATTOP -r "$TMP/s.lat" -b -o json >"$TMP/r.json" 2>"$TMP/r.err"
expect_eq replay-exit $? 0
part() { json "[r['$3'] for r in L[0]['span_parts'] if r['name']=='$1' and r['type']=='$2']" "$TMP/r.json"; }
expect_eq replay-oncpu "$(part oncpu oncpu p50_ns)" "[$(row oncpu oncpu_p50_ns)]"
expect_eq replay-sleep "$(part oncpu sleep p50_ns)" "[$(row oncpu sleep_p50_ns)]"
expect_eq replay-count "$(part oncpu runq count)" "[20]"
expect_eq replay-no-split "$(part request oncpu count)/$(part work oncpu count)" "[]/[]"

# --listen: a histogram per part of each split span.
get() { sed -n "s/^$1 //p" <<<"$metrics"; }
expect_eq prom-oncpu-count "$(get 'lattop_span_part_seconds_count{span="oncpu",part="oncpu"}')" 20
expect_eq prom-sleep-count "$(get 'lattop_span_part_seconds_count{span="oncpu",part="sleep"}')" 20
expect_eq prom-no-split "$(grep -c 'lattop_span_part_seconds_count{span="request"' <<<"$metrics")" 0
echo quit >&"${SF[1]}"

# "split" errors: one sentence, status 2.
sed 's/"name": "request",/"name": "request", "split": true,/' "$TMP/s.json" >"$TMP/bad1.json"
expect_usage split-refused 2 "span 'request' cannot be split into on-CPU and off-CPU time" \
	-b -n 1 --spans "$TMP/bad1.json"
sed 's/"split": false/"split": "no"/' "$TMP/s.json" >"$TMP/bad2.json"
expect_usage split-not-bool 2 "'split' in span 'work' must be true or false" \
	-b -n 1 --spans "$TMP/bad2.json"
end_suite
