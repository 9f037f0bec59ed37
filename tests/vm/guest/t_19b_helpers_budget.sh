# Helpers mode's probes count in the probes' cost and the budget's plan (issue 32): what the
# helper probes' own programs took (bpf_stats, read here with bpftool, independently of lattop)
# is shared among the watched programs by their helper calls. One program is watched, so all of
# it is that program's: the calls of target_maps2 (not watched) reach the probed map functions
# too, and their time counts, since watching causes it.
. /tests/lib.sh
T=/tmp/helpcost
mkdir -p $T

start_target helpcost || exit 1
t0=$(cut -d' ' -f1 /proc/uptime)
lattop -m helpers -b -o json -c -d 0.5 -D 240 -p "$maps" >$T/h.json 2>$T/h.err &
lp=$!
i=0
while [ "$(bpftool prog show | grep -c 'name lat_helper_')" -lt 2 ] && [ $i -lt 3000 ]; do
	sleep 0.1
	i=$((i + 1))
done
cmd "run maps2 700" >/dev/null
cmd "run maps 1000" >/dev/null
# Two closes after the last call: each one shares out what the probes took before it.
sleep 1.5
probe_t=$(bpftool prog show | awk '/ name lat_helper_/{for(i=1;i<NF;i++) if($i=="run_time_ns") t+=$(i+1)} END{print t+0}')
kill -INT $lp
wait $lp
expect helpcost-exit $? 0
t1=$(cut -d' ' -f1 /proc/uptime)
cat $T/h.err
row=$(tail -n 1 $T/h.json | sed 's/},{/}\n{/g' | grep "\"prog_id\":$maps," | grep '"helper_probe_ns"')
got=$(echo "$row" | sed -n 's/.*"helper_probe_ns":\([0-9]*\).*/\1/p')
per_run=$(echo "$row" | sed -n 's/.*"helper_ns":\([0-9]*\).*/\1/p')
echo "  helper probes' run time: bpftool $probe_t ns, lattop's share for target_maps ${got:-none} ns (${per_run:-?} ns a run)"
ok helpcost-measured [ "${probe_t:-0}" -gt 0 ]
# All of it, to the rounding of the shares (under 1 ns per helper row and close).
ok helpcost-all-shared awk -v a="${got:-0}" -v b="$probe_t" 'BEGIN{exit !(a <= b && a >= b - 2000)}'
ok helpcost-per-run [ "${per_run:-0}" -gt 0 ]
# The probes' cost includes it: the cumulative share of the machine is at least lattop's share
# of the helper probes' time over the session's wall time (the report's window is shorter).
mach=$(tail -n 1 $T/h.json | sed -n 's/.*"machine_pct":\([0-9.e+-]*\).*/\1/p')
cpus=$(tail -n 1 $T/h.json | sed -n 's/.*"cpus":\([0-9]*\).*/\1/p')
echo "  machine_pct $mach over $cpus CPUs, session $t0 .. $t1 s"
ok helpcost-in-machine-share awk -v m="${mach:-0}" -v g="${got:-0}" -v c="${cpus:-1}" -v a="$t0" -v b="$t1" \
	'BEGIN{exit !(m > 0 && m >= g / ((b - a) * 1e9 * c) * 100)}'
stop_target
