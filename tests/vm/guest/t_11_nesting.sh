# Programs that nest on one CPU (issue 3): nest_outer (XDP, test_run) updates a hash map, and
# the kprobe program nest_inner on htab_map_update_elem runs inside it (tests/vm/fixtures/
# nest.bpf.c). Both watched: each count exact, no nesting-stack miss (missed entry or exit,
# overflow, underflow) and no recursion miss, and the outer latency includes the inner one.
. /tests/lib.sh
T=/tmp/nest
mkdir -p $T

# watch FILE IDS RUNS: lattop -b -o csv -c on IDS while the fixture runs nest_outer RUNS times;
# the fixture's answer goes to $T/ran.
watch() {
	lattop -b -o csv -c -d 0.5 -D 120 -p "$2" -w $1.lrec >$1 2>$1.err &
	lp=$!
	wait_line 'fentry' $1 300 || { fail nest-lattop "no report: $(cat $1.err)"; kill $lp; return 1; }
	cmd "run $3" >$T/ran
	sleep 1
	kill -INT $lp
	wait $lp
}

rm -f $T/in $T/out
mkfifo $T/in
nest <$T/in >$T/out 2>&1 &
exec 3>$T/in
wait_line '^ready' $T/out || { fail nest-fixture "did not start: $(cat $T/out)"; exit 1; }
outer=$(awk '$1=="outer"{print $2}' $T/out)
inner=$(awk '$1=="inner"{print $2}' $T/out)

if watch $T/n.csv "$outer,$inner" 2000; then
	expect nest-fixture-inner-hits "$(awk '{print $6}' $T/ran)" 2000
	expect nest-outer-count "$(col count "$outer" $T/n.csv | tail -n 1)" 2000 || tail -n 3 $T/n.csv
	expect nest-inner-count "$(col count "$inner" $T/n.csv | tail -n 1)" 2000
	expect nest-stack-misses "$(col nest_drops "$outer" $T/n.csv | tail -n 1)" 0
	expect nest-recursion-misses "$(col recursion_drops "$outer" $T/n.csv | tail -n 1)" 0
	expect nest-no-drops "$(csv_drops $T/n.csv)" 0
	op50=$(col p50_ns "$outer" $T/n.csv | tail -n 1)
	ip50=$(col p50_ns "$inner" $T/n.csv | tail -n 1)
fi
# The same runs with the kprobe detached: nest_outer alone.
cmd detach >/dev/null
if watch $T/s.csv "$outer" 2000; then
	expect nest-solo-count "$(col count "$outer" $T/s.csv | tail -n 1)" 2000
	expect nest-solo-inner-hits "$(awk '{print $6}' $T/ran)" 0
	sp50=$(col p50_ns "$outer" $T/s.csv | tail -n 1)
fi
# The solo figure comes from a second session, and TCG's speed follows the host's load: where
# that session's probe floor (measured at its start) is higher than the first's, the solo p50
# is scaled down by the ratio, so a slower second session does not fail the check.
f1=$(rec_floor $T/n.csv.lrec)
f2=$(rec_floor $T/s.csv.lrec)
sp50n=${sp50:-0}
[ "${f2:-0}" -gt "${f1:-0}" ] && [ "${f1:-0}" -gt 0 ] && sp50n=$((sp50n * f1 / f2))
echo "  nest: outer p50 $op50 ns with the inner program, $sp50 ns alone ($sp50n ns at the first" \
	"session's speed: probe floors $f1 / $f2 ns); inner p50 $ip50 ns"
# The outer interval contains the inner one: above it, and the growth over running alone is at
# least the inner p50 (it also pays the kprobe and the inner probes; 0.9 for p50 noise).
ok nest-outer-above-inner [ "${op50:-0}" -gt "${ip50:-0}" -a "${ip50:-0}" -gt 0 ]
ok nest-outer-includes-inner [ $(((${op50:-0} - sp50n) * 10)) -ge $((${ip50:-1} * 9)) ]
echo quit >&3
exec 3>&-
wait
