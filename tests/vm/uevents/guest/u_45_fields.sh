# EventHeader fields, parents and providers (--activities), against Microsoft's reference
# TraceLogging producer on the user_events kernel. The producer (eh-producer fields N LATE)
# writes N Requests in a known order: fields size and status, 0, 1 or 2 "Inner" children each,
# plain events Tick and Tock; then registers a new tracepoint of the same provider (level 5,
# keyword 2) mid-session and writes LATE "Late" events and "LateAct" activities on it.
# Session A follows the whole provider (LatTestProvider:level=5): every row, its parent and
# kind, and the new tracepoint's rows, exact. Session B splits the Requests whose status is
# not 0 by size (top 3, then other) and takes Tick's field n as its value: exact counts per
# field value, folded and filtered counted exactly. Busybox ash; lattop's CSV read with awk.
. /tests/lib.sh
T=/tmp/ehf
mkdir -p $T
N=40 LATE=12

ok user-events-present [ -e /sys/kernel/tracing/user_events_data ] || exit 0

# scol NAME SPAN FILE: CSV column NAME of the last row of span SPAN.
scol() {
	awk -F, -v want="$1" -v sp="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		$h["span"]==sp{v=$h[want]} END{print v}' "$3"
}

# wait_count SPAN WANT FILE: until the last row of SPAN counts WANT (60 s at most).
wait_count() {
	i=0
	while [ "$(scol count "$1" $3)" != "$2" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# show F: lattop's stderr and last CSV rows of session F.
show() {
	[ -s $T/$1.err ] && echo "  lattop $1 stderr: $(cat $T/$1.err)"
	echo "  lattop $1's last CSV rows:"
	head -n 1 $T/$1.csv | sed 's/^/    /'
	tail -n 9 $T/$1.csv | sed 's/^/    /'
}

# Session B (one live session at a time: B, then A), on the tracepoint it registers.
lattop --activities 'LatTestProvider_L4K1:Request,by=size,top=3,if=status!=0' \
	--activities LatTestProvider_L4K1:Tick,value=n -b -c -o csv -d 1 -D 600 \
	>$T/b.csv 2>$T/b.err &
lb=$!
wait_line '^ts_ns' $T/b.csv 600 || fail lattop-b-started "$(cat $T/b.err)"
expect producer-b "$(eh-producer fields $N 0)" "late none"
wait_count Tick $N $T/b.csv
kill -INT $lb
wait $lb
expect lattop-b-exit $? 0
show b
# Session A: the whole provider, before its level-5 tracepoint exists.
ok late-tracepoint-absent [ ! -e /sys/kernel/tracing/events/user_events/LatTestProvider_L5K2 ]
lattop --activities LatTestProvider:level=5 -b -c -o csv -d 1 -D 600 -w $T/a.lrec \
	>$T/a.csv 2>$T/a.err &
la=$!
wait_line '^ts_ns' $T/a.csv 600 || fail lattop-a-started "$(cat $T/a.err)"
expect producer-a "$(eh-producer fields $N $LATE)" "late listening"
wait_count LateAct $LATE $T/a.csv
kill -INT $la
wait $la
expect lattop-a-exit $? 0
show a

# A: the whole provider. Children: 2 per Request i % 4 == 0, 1 per i % 4 == 2; the Requests
# with children each have a self-time sample.
expect a-request "$(scol count Request $T/a.csv)" $N
expect a-request-kind "$(scol kind Request $T/a.csv)" activity
expect a-request-parent "$(scol parent Request $T/a.csv)" ""
expect a-inner "$(scol count Inner $T/a.csv)" $((N / 4 * 2 + N / 4))
expect a-inner-parent "$(scol parent Inner $T/a.csv)" Request
expect a-self "$(scol count 'Request self' $T/a.csv)" $((N / 2))
expect a-self-kind "$(scol kind 'Request self' $T/a.csv)" self
expect a-self-parent "$(scol parent 'Request self' $T/a.csv)" Request
expect a-tick "$(scol count Tick $T/a.csv)" $N
expect a-tick-kind "$(scol kind Tick $T/a.csv)" event
expect a-tock "$(scol count Tock $T/a.csv)" $(((N + 2) / 3))
# The tracepoint registered mid-session: followed, its rows exact.
expect a-late "$(scol count Late $T/a.csv)" $LATE
expect a-late-kind "$(scol kind Late $T/a.csv)" event
expect a-lateact "$(scol count LateAct $T/a.csv)" $LATE
for c in eh_orphan eh_unmatched eh_malformed eh_foreign eh_lost eh_filtered eh_folded; do
	expect "a-$c" "$(ctr $c $T/a.csv)" 0
done
# Rows as a tree: Request's children right after it (by count: Inner, then Request self).
order=$(awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {ts[NR]=$1; sp[NR]=$h["span"]}
	END{for(i=2;i<=NR;i++) if(ts[i]==ts[NR]) printf "%s;", sp[i]}' $T/a.csv)
echo "  last interval's rows in order: $order"
case "$order" in
*"Request;Inner;Request self;"*) pass a-tree-order ;;
*) fail a-tree-order "$order" ;;
esac
# The recording keeps each row's kind and parent (the replay's JSON report).
lattop -r $T/a.lrec -b -c -o json >$T/r.json 2>$T/r.err
expect rec-exit $? 0
ok rec-inner grep -q '"parent":"Request","type":"activity","name":"Inner","count":30,' $T/r.json
ok rec-self grep -q '"parent":"Request","type":"self","name":"Request self","count":20,' $T/r.json
ok rec-late grep -q '"parent":"","type":"event","name":"Late","count":12,' $T/r.json

# B: Requests with status -5 (i % 5 == 0: 8 of 40, sizes 100 200 300 400 twice each, first
# seen in that order), split by size: 3 rows, then "other".
NE=$(((N + 4) / 5))
expect b-request "$(scol count Request $T/b.csv)" $NE
for sz in 100 200 300; do
	expect "b-size-$sz" "$(scol count "Request size=$sz" $T/b.csv)" $((NE / 4))
	expect "b-size-$sz-parent" "$(scol parent "Request size=$sz" $T/b.csv)" Request
done
expect b-size-other "$(scol count 'Request size=other' $T/b.csv)" $((NE / 4))
expect b-size-400-folded "$(scol count 'Request size=400' $T/b.csv)" ""
expect b-folded "$(ctr eh_folded $T/b.csv)" $((NE / 4))
expect b-filtered "$(ctr eh_filtered $T/b.csv)" $((N - NE))
# Tick's n (0 .. N-1) as the value: its count, kind, and its largest value within the bucket
# error (2^-7).
expect b-tick "$(scol count Tick $T/b.csv)" $N
expect b-tick-kind "$(scol kind Tick $T/b.csv)" value
mx=$(scol max_ns Tick $T/b.csv)
if [ "${mx:-0}" -ge $((N - 2)) ] && [ "${mx:-0}" -le $N ]; then
	pass b-tick-max
else
	fail b-tick-max "Tick max '$mx', want $((N - 1))"
fi
