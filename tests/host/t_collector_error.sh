#!/usr/bin/env bash
# A failed ring_buffer__poll never stops the collector silently. The test knob
# LATTOP_POLL_FAIL_MS=MS makes every poll fail for real from MS ms on (libbpf's epoll fd is
# replaced with /dev/null: epoll_wait says EINVAL): each failure is counted (collector_errors),
# said in one sentence (stderr in batch, on screen in the TUI) and the run ends with status 1;
# the ring is read on a timer meanwhile, so the demo's self-timed runs keep being counted.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-collector-error
LAT=$(readlink -f "$LATTOP")
SENTENCE="reading the BPF ring buffer failed (ring_buffer__poll: Invalid argument): events are now read every 20 ms instead; failures counted in collector_errors"


# Batch: the first interval (before the failure) is clean, the later ones count it.
LATTOP_POLL_FAIL_MS=700 live $LATTOP --demo -b -d 0.3 -n 6 -o json >"$TMP/o.json" 2>"$TMP/o.err"
expect_eq batch-exit $? 1
expect_eq batch-one-sentence "$(cat "$TMP/o.err")" "lattop: $SENTENCE"
expect_eq batch-intervals "$(json 'len(L)' "$TMP/o.json")" 6
expect_eq before-failure-clean "$(json 'L[0].get("counters", {}).get("collector_errors", 0)' "$TMP/o.json")" 0
check counted test "$(json 'L[-1].get("counters", {}).get("collector_errors", 0)' "$TMP/o.json")" -gt 0
expect_eq no-loss "$(json 'sum(d["drops"]["ringbuf"] + d["drops"]["queue"] for d in L)' "$TMP/o.json")" 0
# After the failure (the last three intervals) the demo's self-timed events still arrive: as
# many as the kernel counted runs (bpf_stats), give or take what crosses an interval boundary.
cat >"$TMP/flow.py" <<'EOF'
demo = lambda d: [r for r in d["rows"] if r["prog_name"].startswith("demo_")]
runs = sum(r["run_cnt"] for r in demo(L[-1])) - sum(r["run_cnt"] for r in demo(L[-4]))
events = sum(r["count"] for d in L[-3:] for r in demo(d))
print("ok" if runs > 0 and 0.7 * runs <= events <= 1.3 * runs else "events %d runs %d" % (events, runs))
EOF
expect_eq events-keep-flowing "$(json "exec(open('$TMP/flow.py').read()) or ''" "$TMP/o.json")" ok

# TUI: the sentence and the collector_errors counter are on screen (programs mode too); q
# ends with status 1 and the sentence on stderr.
tmux_private
S=pollerr
for _ in $(seq 60); do
	wait_gone
	tmux new-session -d -s "$S" -x 160 -y 30 "TERM=screen-256color LATTOP_POLL_FAIL_MS=500 $LAT --demo -d 0.3 2>$TMP/tui.err; echo EXITED \$?; sleep 30"
	wait_for 'demo_xdp_hash|another lattop session' >/dev/null
	screen | grep -q 'another lattop session' || break
	tmux kill-session -t "$S"
done
check tui-sentence wait_for "^reading the BPF ring buffer failed \(ring_buffer__poll: Invalid argument\)" 100
check tui-counter wait_for '^counters: .*collector_errors [1-9]' 50
check tui-rows-still-shown wait_for 'demo_xdp_hash' 20
tmux send-keys -t "$S" q
check tui-exit-1 wait_for '^EXITED 1' 50
expect_eq tui-stderr "$(cat "$TMP/tui.err")" "lattop: $SENTENCE"
end_suite
