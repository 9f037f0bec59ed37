# lattop's figures as EventHeader events (--eventheader), read by Microsoft's reference
# consumer: its perf-collect records tracepoint user_events:lattop_L4K1 to a perf.data file and
# its perf-decode turns that into JSON; every decoded Series field equals what lattop printed
# (-b -o json) for the same interval (p90_ns, which -o json does not print, excepted; a null
# there is a field left out of the event), each
# Losses event equals that interval's "drops" and "counters", and the session is one activity
# (a start, a stop, every event with its id).
. /tests/lib.sh
T=/tmp/ehc
mkdir -p $T
N=3

ok user-events-present [ -e /sys/kernel/tracing/user_events_data ] || exit 0

# field KEY LINE: the value of "KEY" in one JSON event line (quotes dropped).
field() {
	echo "$2" | sed -n 's/.*"'"$1"'": *"\{0,1\}\([^",}]*\)"\{0,1\}.*/\1/p'
}
# jrow SPAN K FILE: the row of span SPAN in the K-th JSON line of lattop (one object per line).
jrow() {
	sed -n "${2}p" "$3" | awk '{gsub(/\},\{/, "}\n{"); print}' | grep "\"span\":\"$1\""
}
# jtop KEY K FILE: member KEY of the K-th JSON line's top level or its "drops"/"counters".
jtop() {
	field "$1" "$(sed -n "${2}p" "$3" | sed 's/"rows":.*//')"
}

perf-collect -o $T/lat.data user_events:lattop_L4K1 >$T/pc.out 2>&1 &
pc=$!
# perf-collect registers the tracepoint, then opens its perf rings: lattop writes only while
# someone listens, so it starts once user_events_status says perf uses the tracepoint.
wait_line '^lattop_L4K1 # Used by.* perf' /sys/kernel/tracing/user_events_status 600 ||
	fail perf-collect-listening "$(cat $T/pc.out; cat /sys/kernel/tracing/user_events_status)"
lattop --activities LatTestProvider_L4K1 --eventheader -b -o json -d 1 -n $N >$T/a.json \
	2>$T/a.err &
lp=$!
expect producer-sees-listener "$(eh-producer wait)" listening
eh-producer acts 2 200 $T/prod.txt
wait $lp
expect lattop-exit $? 0
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
# Each interval's Request event against the JSON row of the same interval.
bad=0 k=1
while [ $k -le $N ]; do
	line=$(grep '"name": *"Request"' $T/series.json | sed -n "${k}p")
	row=$(jrow Request $k $T/a.json)
	expect "interval-$k" "$(field interval "$line")" $k || bad=1
	# (A row without samples: null in -o json, the field left out of the event.)
	for f in count p50_ns p99_ns p999_ns max_ns kind; do
		want=$(field $f "$row")
		[ "$want" = null ] && want=
		expect "interval-$k-$f" "$(field $f "$line")" "$want" || bad=1
	done
	expect "interval-$k-interval_ns" "$(field interval_ns "$line")" \
		"$(jtop interval_ns $k $T/a.json)" || bad=1
	# Each interval's Losses event against that interval's drops and counters.
	line=$(sed -n "${k}p" $T/losses.json)
	for c in eh_orphan eh_unmatched eh_malformed eh_foreign eh_lost; do
		expect "losses-$k-$c" "$(field $c "$line")" "$(jtop $c $k $T/a.json)" || bad=1
	done
	for c in rb_drops:ringbuf queue_drops:queue recursion_drops:recursion nest_drops:nest; do
		expect "losses-$k-${c%%:*}" "$(field ${c%%:*} "$line")" "$(jtop ${c#*:} $k $T/a.json)" ||
			bad=1
	done
	k=$((k + 1))
done
ok request-counted [ "$(field count "$(jrow Request 1 $T/a.json)")" -gt 0 ]
[ $bad = 0 ] || { echo "  decoded:"; cat $T/series.json $T/losses.json; echo "  json:"; cat $T/a.json; }
