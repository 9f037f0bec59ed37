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
seg_fixture $sn --count 64 --burst 64 --kick write --repeat 3 || exit 1
seg_discover $sn || exit 1
if seg_measure $sn 2 --fifo-slots 8; then
	ok fifo-overflow [ "$(vcount fifo_overflow)" -gt 0 ]
	expect fifo-overflow-exact "$(vcount fifo_overflow)" 56
	expect fifo-underflow-exact "$(vcount fifo_underflow)" 56
	expect fifo-matched "$(vcount pkts_matched)" 64
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
sleep 1
tmux kill-server 2>/dev/null
seg_end
# The fixture has exited: its vhost worker is gone, and the profile is stale.
lattop -m segments --profile $T/p.json -b -n 1 >$T/stale.out 2>$T/stale.err
expect stale-status $? 2
ok stale-message grep -q "stale profile $T/p.json: its vhost worker thread [0-9]* (vhost-[0-9]*) no longer exists" $T/stale.err ||
	cat $T/stale.err
