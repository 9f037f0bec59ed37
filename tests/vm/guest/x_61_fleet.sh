# The fleet dashboard on a kernel with fentry (issue 35): a lattop with fentry probes on a
# program of its own serves --listen on the guest's NIC while the host's Prometheus scrapes it
# through QEMU's forwarded port and runs every dashboard query (tests/vm/fleet.sh), the probe
# panel's floor, run cost and cost rule included. run.sh gives the guest the NIC and starts
# the host side when VM_TESTS names this test; the host's checks come back over a second
# forwarded port (nc) and are printed here, so they count in this suite.
. /tests/lib.sh
T=/tmp/fleet
mkdir -p $T
# "on", or why the host cannot scrape (run.sh: no Prometheus on the host...).
why=$(cat /etc/vmtest/fleet 2>/dev/null)
if [ "$why" != on ]; then
	skip fleet "${why:-no host side (run.sh starts it when VM_TESTS names x_61_fleet)}"
	exit 0
fi
# The host starts its Prometheus servers on this line, the checks on the ready line below.
echo "fleet: start"
# The NIC (virtio-net, modules-net.txt) with QEMU user networking's guest address.
nic=
for d in /sys/class/net/*; do
	[ "$(basename "$(readlink "$d/device/driver" 2>/dev/null)")" = virtio_net ] && nic=${d##*/}
done
ok fleet-nic [ -n "$nic" ] || exit 1
ip link set lo up
ip link set "$nic" up
ip addr add 10.0.2.15/24 dev "$nic" 2>/dev/null # (there already in a repetition)
URL=http://10.0.2.15:9364/metrics

start_target fleet || exit 1
lattop --listen 10.0.2.15:9364 -p "$light" -d 1 -D 3600 >$T/l.out 2>$T/l.err &
lp=$!
expect fleet-probed "$(wait_value '^lattop_probed_programs ' 1)" 1 || { cat $T/l.err; exit 1; }
ok fleet-floor-exported grep -qE '^lattop_probe_floor_seconds [0-9.e-]+$' $T/m
# Runs while the host scrapes: 1000 every quarter second or so, so that every rate over the
# dashboard's windows has runs in it (a pace, not a wait).
rm -f $T/stop
(while [ ! -e $T/stop ]; do cmd "run light 1000" >/dev/null; sleep 0.25; done) &
load=$!
# The host's report arrives on 9365; nc listens (the port in state 0A in /proc/net/tcp6: busybox
# nc takes an IPv6 socket, which IPv4 reaches too) before the ready line tells the host to
# scrape.
rm -f $T/host
timeout 240 nc -l -p 9365 >$T/host </dev/null &
nc=$!
i=0
while ! cat /proc/net/tcp6 /proc/net/tcp 2>/dev/null |
	grep -q "^ *[0-9]*: [0-9A-F]*:$(printf %04X 9365) [0-9A-F]*:0000 0A " &&
	[ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
ok fleet-report-port [ $i -lt 300 ] || exit 1
t0=$(cut -d' ' -f1 /proc/uptime)
echo "fleet: ready at $t0 s"
wait $nc
echo "# the host's report came $(awk -v a="$t0" '{print $1 - a}' /proc/uptime) s after the ready line"
: >$T/stop
wait $load
# The host's lines, then its end line: as many checks as it printed (a report cut short, or
# none within 240 s, fails here).
grep -E '^(PASS|FAIL|SKIP|#) ' $T/host
n=$(grep -cE '^(PASS|FAIL|SKIP) ' $T/host)
expect fleet-host-report "$(sed -n 's/^END fleet-host \([0-9]*\)$/\1/p' $T/host)" "$n" ||
	tail -n 5 $T/host
kill -INT $lp
wait $lp
expect fleet-lattop-exit $? 0
stop_target
