# Segments mode on a real vhost-net, kicked by write() on the kick eventfd (eventfd_write):
# discover the fixture's worker and kick eventfd, then measure S0/S1/S2/total per target packet,
# on the batched XDP path and on the per-packet path (--sndbuf); then --details in text and CSV.
# (t_55 measures the same traffic aggregated and through the ring buffer.)
. /tests/lib.sh
. /tests/vhost.sh
. /tests/seg.sh
T=/tmp/t51
mkdir -p $T
K=64 M=16 B=16

for v in xdp sndbuf; do
	sn=write-$v
	extra=
	[ $v = sndbuf ] && extra="--sndbuf 1048576"
	# shellcheck disable=SC2086
	seg_fixture $sn --count $K --decoys $M --burst $B --kick write --repeat 4 $extra || continue
	if seg_discover $sn && seg_measure $sn 2 --details; then
		seg_checks $sn $K $M
	fi
	# --details in text, then CSV (rounds 3 and 4): one line per target packet.
	for f in text csv; do
		r=3
		[ $f = csv ] && r=4
		rec=
		[ $f = csv ] && rec="-w $T/rec.lrec"
		rm -f $T/d.$f $T/d.err $T/rec.lrec # an earlier case's lines are not this session's
		# shellcheck disable=SC2086
		lattop -m segments --profile $T/p.json -b -o $f -D 3600 --details $rec >$T/d.$f 2>$T/d.err &
		lp=$!
		wait_line 'vhost' $T/d.$f 600 || fail "$sn-details-$f-start" "$(cat $T/d.err | xargs)"
		seg_round $r
		sleep 1.5
		kill -INT $lp
		wait $lp
		head -n 3 $T/d.$f | sed "s/^/seg: $sn: $f: /"
	done
	expect "$sn-details-text" "$(grep -cE '^packet [0-9:]+\.[0-9]{9} tid [0-9]+ queue 0 s0 [0-9]+ s1 [0-9]+ s2 [0-9]+ total [0-9]+$' $T/d.text)" $K
	expect "$sn-details-csv-header" "$(grep -c '^packet,ts_ns,tid,queue,s0_ns,s1_ns,s2_ns,total_ns$' $T/d.csv)" 1
	expect "$sn-details-csv" "$(grep -cE '^packet,[0-9]{19},[0-9]+,0,[0-9]+,[0-9]+,[0-9]+,[0-9]+$' $T/d.csv)" $K
	# The CSV run was recorded: its replay totals hold the same rows and counters.
	lattop -r $T/rec.lrec -b -o json >$T/last.json 2>$T/r.err
	expect "$sn-replay-status" $? 0 || cat $T/r.err
	sed "s/^/seg: $sn: replay: /" $T/last.json | cut -c1-400
	for s in S0 S1 S2 total; do
		got=$(tr '{' '\n' <$T/last.json | grep "\"type\":\"vhost\",\"name\":\"$s\"" |
			sed -n 's/.*"count":\([0-9]*\).*/\1/p')
		expect "$sn-replay-$s" "$got" $K
	done
	expect "$sn-replay-matched" "$(vcount pkts_matched)" $K
	seg_end
done
