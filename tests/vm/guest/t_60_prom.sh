# --listen on a stock kernel (issue 14): a fentry-watched program and a helpers-mode session
# export their histograms with exact counts, fetched over loopback by busybox wget.
. /tests/lib.sh
T=/tmp/prom
mkdir -p $T
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
URL=http://127.0.0.1:9364/metrics

start_target prom || exit 1
# med3 CMD: the median of the avg_ns the fixture prints for three runs of CMD.
med3() {
	for _ in 1 2 3; do cmd "$1" | awk '{print $4}'; done | sort -n | sed -n 2p
}
# What a run of the light target costs the kernel before any probe is on it (test runs timed by
# the kernel, as lattop times its own empty program at start-up).
bare=$(med3 "run light 20000")

# Programs mode: fentry/fexit on the light target, 5000 runs.
lattop --listen 9364 -p "$light" -d 0.5 -D 300 >$T/p.out 2>$T/p.err &
lp=$!
PROG="^lattop_program_latency_seconds_count\{prog_id=\"$light\",prog_name=\"[^\"]*\",prog_type=\"xdp\"\}"
# The probes are attached (a histogram appears with the first run).
expect prog-probed "$(wait_value '^lattop_probed_programs ' 1)" 1 || { cat $T/p.err; head -n 5 $T/m; }
cmd "run light 5000" >/dev/null
expect prog-count "$(wait_value "$PROG" 5000)" 5000
ok busybox-wget-fetches scrape
INF="^lattop_program_latency_seconds_bucket\{prog_id=\"$light\",.*le=\"\+Inf\"\}"
expect prog-inf-bucket "$(value "$INF")" 5000
ok prog-sum-positive awk -v v="$(value "^lattop_program_latency_seconds_sum\{prog_id=\"$light\"")" 'BEGIN{exit !(v > 0)}'
expect prog-runs-total "$(value "^lattop_program_runs_total\{prog_id=\"$light\"")" 5000
expect probed-programs "$(value '^lattop_probed_programs ')" 1
ok probe-floor-exported grep -qE '^lattop_probe_floor_seconds [0-9.e-]+$' $T/m
# What the probes add to each run, as lattop measured it at start-up on its own empty program:
# exported, more than nothing and less than a millisecond. Beside it, for the reader, the same
# measure taken here on the fixture's light target with lattop's probes on it. It is printed,
# not compared: the two are timed minutes apart on an emulated CPU whose speed follows the
# host's load (in a loop with two guests side by side the test's figure was 0.68 to 3.9 times
# lattop's), so how close they come is a benchmark's figure, not a test's.
cost=$(value '^lattop_probe_run_cost_seconds ')
probed=$(med3 "run light 20000")
echo "  run cost: lattop ${cost} s; the test: ${bare} ns bare, ${probed} ns probed"
ok run-cost-exported awk -v c="$cost" 'BEGIN{exit !(c > 0 && c < 1e-3)}'
ok probe-cpu-exported grep -qE '^lattop_probe_cpu_ratio [0-9.e-]+$' $T/m
for r in ringbuf queue recursion nest; do
	ok "loss-$r" grep -q "^lattop_lost_events_total{reason=\"$r\"} " $T/m
done
kill -INT $lp
wait $lp
expect prog-exit $? 0

# Helpers mode: per run target_maps does 3 updates on tgt_hash and 4 pushes on tgt_queue.
lattop --listen 9364 -m helpers -p "$maps" -d 0.5 -D 300 >$T/h.out 2>$T/h.err &
lp=$!
HUPD="^lattop_helper_latency_seconds_count\{prog_id=\"$maps\",prog_name=\"[^\"]*\",helper=\"bpf_map_update_elem\",map_id=\"[0-9]+\",map_name=\"tgt_hash\"\}"
HPUSH="^lattop_helper_latency_seconds_count\{prog_id=\"$maps\",prog_name=\"[^\"]*\",helper=\"bpf_map_push_elem\",map_id=\"[0-9]+\",map_name=\"tgt_queue\"\}"
expect helpers-probed "$(wait_value '^lattop_probed_programs ' 1)" 1 || cat $T/h.err
# The helper probes attach after the program's (analysis takes a few seconds under TCG).
i=0
while [ "$(bpftool prog show | grep -c 'name lat_helper_')" -lt 2 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
ok helper-probes-attached [ "$(bpftool prog show | grep -c 'name lat_helper_')" -ge 2 ]
cmd "run maps 1000" >/dev/null
expect helper-update-count "$(wait_value "$HUPD" 3000)" 3000
# (where the queue's calls cannot be timed, lib.sh queue_hooked, there is no push series at all)
if queue_hooked; then
	expect helper-push-count "$(wait_value "$HPUSH" 4000)" 4000
else
	expect helper-push-no-series "$(value "$HPUSH")" ""
fi
ok helper-buckets grep -qE "^lattop_helper_latency_seconds_bucket\{prog_id=\"$maps\",.*map_name=\"tgt_hash\",le=\"\+Inf\"\} 3000$" $T/m
for r in helper_busy helper_foreign; do
	ok "loss-$r" grep -q "^lattop_lost_events_total{reason=\"$r\"} " $T/m
done
kill -INT $lp
wait $lp
expect helpers-exit $? 0
stop_target
