# A perf.data file of Microsoft's reference perf-collect, read offline (lattop -r FILE): while
# perf-collect records tracepoint user_events:LatTestProvider_L4K1 and a live lattop session
# (--activities, recorded with -w) watches the same tracepoint, the reference producer writes
# nested activities from 4 threads, stops without starts and malformed or foreign events. The
# perf.data read by lattop -r -b -o json gives exactly the live session's count per activity
# name and the live session's unmatched, malformed and foreign counts; the producer's own count
# per name agrees; the HTML report and a comparison (--compare) of the two take the file, and
# the file is found by its magic whatever its name.
. /tests/lib.sh
T=/tmp/pd
mkdir -p $T
THREADS=4 PER=40 STOPS=7 ROUNDS=3

ok user-events-present [ -e /sys/kernel/tracing/user_events_data ] || exit 0

# names FILE: "NAME COUNT" per segments row of lattop's -o json totals, sorted.
names() {
	tr '{' '\n' <"$1" | sed -n 's/.*"type":"activity","name":"\([^"]*\)","count":\([0-9]*\).*/\1 \2/p' |
		sort
}
# jctr NAME FILE: the session counter NAME of lattop's -o json totals.
jctr() {
	sed -n 's/.*"'"$1"'":\([0-9]*\).*/\1/p' "$2"
}

perf-collect -o $T/p.data user_events:LatTestProvider_L4K1 >$T/pc.out 2>&1 &
pc=$!
wait_line '^LatTestProvider_L4K1 # Used by.* perf' /sys/kernel/tracing/user_events_status 600 ||
	fail perf-collect-listening "$(cat $T/pc.out; cat /sys/kernel/tracing/user_events_status)"
lattop --activities LatTestProvider_L4K1 -b -o csv -d 1 -D 600 -w $T/live.lrec >$T/a.csv \
	2>$T/a.err &
lp=$!
wait_line '^ts_ns' $T/a.csv 600 || fail lattop-started "$(cat $T/a.err)"
eh-producer acts $THREADS $PER $T/prod.txt
expect producer-wrong "$(eh-producer wrong $STOPS 0 $ROUNDS; echo $?)" 0
# One more interval closes after the last event, so the live session has paired it all.
sleep 2.5
kill -INT $lp
wait $lp
expect lattop-exit $? 0
kill -INT $pc
wait $pc
expect perf-collect-exit $? 0
ok perf-data-written [ -s $T/p.data ]

lattop -r $T/live.lrec -b -o json >$T/live.json 2>$T/live.err
expect live-replay-exit $? 0
# Named otherwise, without root's help: found by its magic.
cp $T/p.data $T/trace.bin
chmod 644 $T/trace.bin
lattop -r $T/trace.bin -b -o json >$T/off.json 2>$T/off.err
expect offline-exit $? 0
[ -s $T/off.err ] && echo "  lattop -r stderr: $(cat $T/off.err)"
expect offline-source "$(sed -n 's/.*"source":"\([^"]*\)".*/\1/p' $T/off.json)" perf.data
names $T/live.json >$T/live.names
names $T/off.json >$T/off.names
echo "  live: $(tr '\n' ' ' <$T/live.names) offline: $(tr '\n' ' ' <$T/off.names)"
expect names-equal "$(cat $T/off.names)" "$(cat $T/live.names)"
expect request-count "$(awk '$1=="Request"{print $2}' $T/off.names)" $((THREADS * PER))
expect inner-count "$(awk '$1=="Inner"{print $2}' $T/off.names)" \
	"$(awk '$1=="Inner"' $T/prod.txt | wc -l)"
for c in eh_unmatched eh_malformed eh_foreign; do
	expect "$c-equal" "$(jctr $c $T/off.json)" "$(jctr $c $T/live.json)"
done
expect unmatched "$(jctr eh_unmatched $T/off.json)" $STOPS
expect malformed "$(jctr eh_malformed $T/off.json)" $((3 * ROUNDS))
expect foreign "$(jctr eh_foreign $T/off.json)" $((2 * ROUNDS))
expect lost "$(jctr eh_lost $T/off.json)" 0

# Per interval (-n): the intervals' counts add up to the totals.
lattop -r $T/trace.bin -b -o csv -n 1000 >$T/off.csv 2>/dev/null
expect offline-csv-exit $? 0
expect interval-sum "$(awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
	$h["span"]=="Request"{s+=$h["count"]} END{print s}' $T/off.csv)" $((THREADS * PER))
lattop -r $T/trace.bin --html $T/off.html 2>$T/html.err
expect html-exit $? 0
ok html-names-request grep -q Request $T/off.html
lattop -r $T/live.lrec --compare $T/trace.bin -b -o json >$T/cmp.json 2>$T/cmp.err
expect compare-exit $? 0
ok compare-has-request grep -q '"Request"' $T/cmp.json
