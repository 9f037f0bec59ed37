# lattop's figures as EventHeader events (--eventheader), read by Microsoft's reference
# consumer: its perf-collect records tracepoint user_events:lattop_L4K1 to a perf.data file and
# its perf-decode turns that into JSON; every decoded Series field equals what lattop printed
# (-b -o csv) for the same interval, the Losses events carry the loss counters, and the session
# is one activity (a start, a stop, every event with its id).
. /tests/lib.sh
T=/tmp/ehc
mkdir -p $T
N=3

ok user-events-present [ -e /sys/kernel/tracing/user_events_data ] || exit 0

# field KEY LINE: the value of "KEY" in one JSON event line (quotes dropped).
field() {
	echo "$2" | sed -n 's/.*"'"$1"'": *"\{0,1\}\([^",}]*\)"\{0,1\}.*/\1/p'
}
# scol_k NAME SPAN K FILE: CSV column NAME of span SPAN in the K-th interval.
scol_k() {
	awk -F, -v want="$1" -v sp="$2" -v k="$3" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		$h["ts_ns"]!=ts{ts=$h["ts_ns"];n++} n==k && $h["span"]==sp{print $h[want]}' "$4"
}

perf-collect -o $T/lat.data user_events:lattop_L4K1 >$T/pc.out 2>&1 &
pc=$!
# perf-collect pre-registers the tracepoint; lattop's writes need it listening first.
wait_line . /sys/kernel/tracing/events/user_events/lattop_L4K1/id 300 ||
	fail perf-collect-started "$(cat $T/pc.out)"
sleep 2
eh-producer acts 2 60 $T/prod.txt &
pp=$!
lattop --activities LatTestProvider_L4K1 --eventheader -b -o csv -d 1 -n $N >$T/a.csv 2>$T/a.err
expect lattop-exit $? 0
wait $pp
sleep 1
kill -INT $pc
wait $pc
perf-decode $T/lat.data >$T/lat.json 2>$T/pd.err
expect perf-decode-exit $? 0

grep '"lattop:Series"' $T/lat.json >$T/series.json
grep '"lattop:Losses"' $T/lat.json >$T/losses.json
grep '"lattop:Session"' $T/lat.json >$T/session.json
expect session-events "$(wc -l <$T/session.json)" 2
expect losses-events "$(wc -l <$T/losses.json)" $N
expect series-events "$(grep -c '"name": *"Request"' $T/series.json)" $N
act=$(field activity "$(head -n 1 $T/session.json)")
ok session-activity-id [ -n "$act" ]
expect all-in-session "$(grep -c "\"activity\": *\"$act\"" $T/lat.json)" \
	"$(grep -c '"lattop:' $T/lat.json)"
expect session-interval-ns "$(field interval_ns "$(head -n 1 $T/session.json)")" 1000000000
expect session-intervals "$(field intervals "$(tail -n 1 $T/session.json)")" $N
# Each interval's Request event against the CSV row of the same interval.
bad=0 k=1
while [ $k -le $N ]; do
	line=$(grep '"name": *"Request"' $T/series.json | sed -n "${k}p")
	expect "interval-$k" "$(field interval "$line")" $k || bad=1
	for f in count p50_ns p99_ns p999_ns max_ns kind; do
		expect "interval-$k-$f" "$(field $f "$line")" "$(scol_k $f Request $k $T/a.csv)" ||
			bad=1
	done
	expect "interval-$k-interval_ns" "$(field interval_ns "$line")" \
		"$(scol_k interval_ns Request $k $T/a.csv)" || bad=1
	k=$((k + 1))
done
[ $bad = 0 ] || { echo "  decoded:"; cat $T/series.json; echo "  csv:"; cat $T/a.csv; }
# The loss counters of the last interval, decoded, against the CSV's.
last=$(tail -n 1 $T/losses.json)
for c in eh_orphan eh_unmatched eh_malformed eh_foreign eh_lost; do
	expect "losses-$c" "$(field $c "$last")" "$(ctr $c $T/a.csv)"
done
expect losses-rb-drops "$(field rb_drops "$last")" 0
