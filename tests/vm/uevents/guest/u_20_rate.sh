# What --activities costs and sustains, on the user_events kernel under TCG (absolute times are
# emulated: the figures printed are for ratios and for the report). Checked: every event
# written is accounted for (2 x paired + unmatched + orphan + lost), whatever was lost; printed:
# - the cost per event to the writing application: the reference's TraceLoggingWrite with
#   nothing listening (its enabled bit is clear: no system call), then with lattop listening;
# - floods of pairs written as fast as 2 threads go: their event rate and what lattop lost.
. /tests/lib.sh
T=/tmp/ehrate
mkdir -p $T
N=20000

ok user-events-present [ -e /sys/kernel/tracing/user_events_data ] || exit 0

# acc FILE: the events lattop accounted for so far (cumulative CSV: the last row).
acc() {
	awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]=="Inner"{p=$h["count"]}
		{c=$h["counters"]} END{n=split(c,kv,";"); s=2*p;
		for(i=1;i<=n;i++){split(kv[i],q,"="); if(q[1]~/^eh_(unmatched|orphan|lost)$/) s+=q[2]}
		print s+0}' "$1"
}
# wait_acc WANT: until lattop has accounted for WANT events (120 s at most); false if not.
wait_acc() {
	i=0
	while [ "$(acc $T/a.csv)" != "$1" ]; do
		[ $i -ge 1200 ] && return 1
		sleep 0.1
		i=$((i + 1))
	done
}

# Nothing listening.
quiet=$(eh-producer cost $N)
echo "  nothing listening: $quiet"
ok cost-quiet-not-listened [ "${quiet##*=}" = 0 ]

rm -f $T/a.csv
lattop --activities LatTestProvider_L4K1 --span-timeout 1 -b -c -o csv -d 1 -D 900 \
	>$T/a.csv 2>$T/a.err &
lp=$!
wait_line '^ts_ns' $T/a.csv 600 || fail lattop-started "$(cat $T/a.err)"
expect producer-sees-listener "$(eh-producer wait)" listening
loud=$(eh-producer cost $N)
echo "  lattop listening: $loud"
ok cost-loud-listened [ "${loud##*=}" = 1 ]
q=$(echo "$quiet" | awk '{print $5}') l=$(echo "$loud" | awk '{print $5}')
echo "  cost per event: nothing listening $((q / N)) ns, lattop listening $((l / N)) ns," \
	"ratio $((l / (q > 0 ? q : 1)))"
# The cost run's N events (N/2 pairs from one thread), then floods from 2 threads: each one
# accounted for before the next, with what lattop lost of it.
total=0 lost=0
report() { # report NAME EVENTS NS
	total=$((total + $2))
	ok "$1-accounted" wait_acc $total
	now=$(ctr eh_lost $T/a.csv)
	echo "  $1: $2 events in $3 ns, $(($2 * 1000000 / ($3 / 1000 + 1))) events/s, lost $((now - lost))"
	lost=$now
}
report cost $N "$l"
for pairs in 2000 20000 100000; do
	flood=$(eh-producer flood 2 $((pairs / 2)))
	report "flood-$pairs" $((2 * pairs)) "$(echo "$flood" | awk '{print $5}')"
done
kill -INT $lp
wait $lp
expect lattop-exit $? 0
expect final-accounted "$(acc $T/a.csv)" $total
echo "  counters at the end: $(awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
	{c=$h["counters"]} END{print c}' $T/a.csv)"
