# What --activities costs and sustains, on the user_events kernel under TCG (absolute times are
# emulated: the figures printed are for ratios). Checked: every event of a flood is accounted
# for (2 x pairs = 2 x count + unmatched + orphan + lost), whatever was lost; the figures are
# printed for the report:
# - the cost per event to the writing application: the reference's TraceLoggingWrite with
#   nothing listening (its enabled bit is clear: no system call), with lattop listening;
# - the rate lattop took without loss: pairs written as fast as 2 threads go.
. /tests/lib.sh
T=/tmp/ehrate
mkdir -p $T
N=20000

ok user-events-present [ -e /sys/kernel/tracing/user_events_data ] || exit 0

# scol NAME SPAN FILE: CSV column NAME of the last row of span SPAN.
scol() {
	awk -F, -v want="$1" -v sp="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		$h["span"]==sp{v=$h[want]} END{print v}' "$3"
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
q=$(echo "$quiet" | awk '{print $4}') l=$(echo "$loud" | awk '{print $4}')
echo "  cost per event: nothing listening $((q / N)) ns, lattop listening $((l / N)) ns (TCG)"
for pairs in 5000 20000; do
	flood=$(eh-producer flood 2 $((pairs / 2)))
	echo "  $flood"
done
sleep 4
kill -INT $lp
wait $lp
expect lattop-exit $? 0
count=$(scol count Inner $T/a.csv)
un=$(ctr eh_unmatched $T/a.csv) or=$(ctr eh_orphan $T/a.csv) lo=$(ctr eh_lost $T/a.csv)
# The cost runs wrote N stops each with no start (N of them while lattop listened).
expect flood-accounted $((2 * count + un - N + or + lo)) $((2 * 25000))
echo "  flood: $count pairs paired, lost $lo, unmatched $((un - N)), orphan $or"
