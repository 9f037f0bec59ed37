# Segments mode with -p naming chain segments: only those rows are reported (the filter list
# applies to segment names in segments mode); a name that is neither a program nor a segment
# is refused in one sentence.
# The same runs prove the fentry -> kprobe fallback on an ATTACH failure (not only a load
# failure), without LATTOP_VHOST_PROBES: the debug variable LATTOP_VHOST_FENTRY_FAIL makes the
# fentry attach on handle_tx_kick fail (EBUSY) after the probes before it attached; the notice
# says kprobes and why, and the counts stay exact, aggregated in the kernel (the kprobe set
# loaded after the failed fentry one sizes and maps its own lat_agg array). Then the segments'
# records past LATTOP_AGG_BUDGET: the ring buffer, counted in agg_over_budget, counts exact.
. /tests/lib.sh
. /tests/vhost.sh
. /tests/seg.sh
T=/tmp/t53
mkdir -p $T
unset LATTOP_VHOST_PROBES
export LATTOP_VHOST_FENTRY_FAIL=handle_tx_kick
sn=filter
seg_fixture $sn --count 32 --burst 32 --kick write --repeat 4 || exit 1
seg_discover $sn || exit 1
ok fallback-discover-notice grep -qF '(vhost chain: 10 kprobes/kretprobes (fentry/fexit: cannot attach an fentry to handle_tx_kick: Device or resource busy))' $T/disc.out
if seg_measure $sn 2 -p S0,S2; then
	ok fallback-notice grep -qF '"notice":"vhost chain: 10 kprobes/kretprobes (fentry/fexit: cannot attach an fentry to handle_tx_kick: Device or resource busy)"' $T/last.json
	expect filter-S0 "$(scount S0)" 32
	expect filter-S2 "$(scount S2)" 32
	expect filter-no-S1 "$(scount S1)" ""
	expect filter-no-total "$(scount total)" ""
	expect filter-matched "$(vcount pkts_matched)" 32
	for c in fifo_overflow fifo_underflow s0_miss s1_miss work_eventfd_miss; do
		expect "fallback-$c" "$(vcount $c)" 0
	done
	ok fallback-agg-path grep -qx "$(seg_records)" $T/agg || sed 's/^/seg: lat_agg: /' $T/agg
	expect fallback-in-budget "$(vcount agg_over_budget)" ""
fi
# 4 KiB of aggregates allowed: the segments' records do not fit and their samples take the ring.
export LATTOP_AGG_BUDGET=4096
if seg_measure $sn 3; then
	for s in S0 S1 S2 total; do
		expect "budget-$s" "$(scount $s)" 32
	done
	expect budget-matched "$(vcount pkts_matched)" 32
	expect budget-over "$(vcount agg_over_budget)" 1
	ok budget-ring-path sh -c "! grep -qx $(seg_records) $T/agg"
	ok budget-no-drops grep -q '"drops":{"ringbuf":0,"queue":0,"recursion":0,"nest":0}' $T/last.json
fi
unset LATTOP_AGG_BUDGET
# (While the fixture still waits for round 3: its device and worker exist.)
lattop -m segments --profile $T/p.json -b -n 1 -p S9 >/dev/null 2>$T/bad.err
expect filter-unknown-exit $? 2
ok filter-unknown-message grep -q "no loaded BPF program or segment is named 'S9'" $T/bad.err ||
	sed 's/^/seg: bad: /' $T/bad.err
seg_round 4
seg_end
