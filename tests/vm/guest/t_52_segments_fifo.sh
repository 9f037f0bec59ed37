# Segments mode with FIFOs shrunk to 8 slots (--fifo-slots): one kick of 64 frames is one
# tun_sendmsg batch of 64, so the S2 FIFO overflows (counted) and later packets underflow;
# then the TUI shows the S0..total rows and the overflow counter.
. /tests/lib.sh
. /tests/vhost.sh
. /tests/seg.sh
T=/tmp/t52
mkdir -p $T
use_tmux
sn=fifo
seg_fixture $sn --count 64 --burst 64 --kick write --repeat 4 || exit 1
# RPS on the device is warned about (packets may leave the worker's CPU).
rps=/sys/class/net/$IFNAME/queues/rx-0/rps_cpus
ok rps-file [ -w $rps ] && echo 1 >$rps
seg_discover $sn || exit 1
ok rps-warning grep -q "lattop: warning: $IFNAME has RPS enabled" $T/disc.err
[ -w $rps ] && echo 0 >$rps
# With --details: the 56 packets that underflowed have no S2 sample, and their time is the end
# of the last sample they have, within the session, not the boot clock's zero (the guest
# booted before the session started).
t0=$(date +%s)
if seg_measure $sn 2 --fifo-slots 8 --details; then
	t1=$(($(date +%s) + 1))
	ok fifo-overflow [ "$(vcount fifo_overflow)" -gt 0 ]
	expect fifo-overflow-exact "$(vcount fifo_overflow)" 56
	expect fifo-underflow-exact "$(vcount fifo_underflow)" 56
	expect fifo-matched "$(vcount pkts_matched)" 64
	expect fifo-details "$(wc -l <$T/pkts)" 64
	expect fifo-details-no-s2 "$(grep -c '"s2_ns":null' $T/pkts)" 56
	expect fifo-details-ts-in-session "$(sed -n 's/.*"ts_ns":\([0-9]*\).*/\1/p' $T/pkts |
		awk -v a=$t0 -v b=$t1 '{ s = substr($1, 1, length($1) - 9) + 0; if (s >= a && s <= b) n++ } END { print n + 0 }')" 64
fi
# The TUI: rows S0, S1, S2, total and the vhost counters line (cumulative: the c key).
tmux -f /dev/null new-session -d -s seg -x 200 -y 40 \
	"TERM=tmux-256color lattop -m segments --profile $T/p.json --fifo-slots 8 -d 0.5 2>$T/tui.err; echo EXITED \$?; sleep 30"
i=0
while ! tmux capture-pane -p -t seg | grep -q 'fifo_overflow' && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
seg_round 3
sleep 1.5
tmux send-keys -t seg c
sleep 1.5
tmux capture-pane -p -t seg >$T/scr
sed 's/^/seg: tui: /' $T/scr | head -n 14
for s in S0 S1 S2 total; do
	ok "tui-row-$s" grep -qE "^ *[0-9]+ +$s +vhost" $T/scr
done
ok tui-fifo-overflow grep -q 'fifo_overflow 56' $T/scr
tmux send-keys -t seg q
# The next lattop needs the session lock: wait until this one has exited.
i=0
while ! tmux capture-pane -p -t seg | grep -q '^EXITED' && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
tmux capture-pane -p -t seg >$T/scr2
ok tui-exit grep -q '^EXITED 0' $T/scr2 || tail -n 3 $T/scr2
tmux kill-server 2>/dev/null
# A profile whose eventfd is not the fixture's (as after a device reset): the one kick arrives on
# another eventfd, so its run has no S0 (work_eventfd_miss) while S1 and S2 are still measured
# on the profile's worker, and the notice says the profile is stale.
cp $T/p.json $T/p.orig
sed 's/"ctx":[[:space:]]*"0x[0-9a-f]*"/"ctx": "0xffff888000000040"/g' $T/p.orig >$T/p.json
if seg_measure $sn-ctx 4; then
	expect stale-ctx-matched "$(vcount pkts_matched)" 64
	expect stale-ctx-filtered "$(vcount kicks_filtered)" 1
	expect stale-ctx-work-miss "$(vcount work_eventfd_miss)" 1
	expect stale-ctx-S0 "$(scount S0)" 0
	expect stale-ctx-S2 "$(scount S2)" 64
	ok stale-ctx-notice grep -q '"notice":"stale profile .* kicks arrived on other eventfds and none on the profile' $T/last.json
fi
cp $T/p.orig $T/p.json
seg_end
# The fixture has exited: its TAP device is gone, and so is its vhost worker. Both make the
# profile stale (the device is checked first; on lo, the worker).
lattop -m segments --profile $T/p.json -b -n 1 >$T/stale.out 2>$T/stale.err
expect stale-device-status $? 2
ok stale-device-message grep -q "no network device 'vtap0' (the profile's device: stale profile" $T/stale.err ||
	cat $T/stale.err
sed 's/"device":[[:space:]]*"vtap0"/"device": "lo"/' $T/p.json >$T/plo.json
lattop -m segments --profile $T/plo.json -b -n 1 >$T/stale.out 2>$T/stale.err
expect stale-worker-status $? 2
ok stale-worker-message grep -q "stale profile $T/plo.json: its vhost worker thread [0-9]* (vhost-[0-9]*) no longer exists" $T/stale.err ||
	cat $T/stale.err
# A TAP with NAPI (IFF_NAPI) is warned about; with no traffic discover finds nothing (status 1).
sn=napi
# With RPS on too, both warnings are given (one used to overwrite the other).
if seg_fixture $sn --count 4 --kick write --napi; then
	[ -w $rps ] && echo 1 >$rps
	lattop --discover --device $IFNAME --flow "$FLOW" --profile-out $T/pn.json -D 2 \
		>$T/napi.out 2>$T/napi.err
	expect napi-discover-status $? 1
	ok napi-warning grep -q "lattop: warning: $IFNAME has NAPI enabled (IFF_NAPI)" $T/napi.err ||
		cat $T/napi.err
	ok napi-and-rps-warnings grep -q "lattop: warning: $IFNAME has NAPI enabled .*; $IFNAME has RPS enabled" $T/napi.err
	ok napi-nothing-found grep -q "lattop: no packet of flow .* reached $IFNAME from a vhost worker" $T/napi.err
	seg_round 1
	seg_end
fi
