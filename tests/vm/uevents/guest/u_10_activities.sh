# EventHeader activities (--activities) against Microsoft's reference TraceLogging producer, on
# the user_events kernel: exact counts per activity name from 4 threads with nested
# activities; each percentile between the producer's own inner and outer measurements (the
# kernel's timestamps lie between them) within the histogram's bucket error; every loss counter
# exactly what the producer did wrong on purpose. Busybox ash; lattop's CSV read with awk.
. /tests/lib.sh
T=/tmp/eh
mkdir -p $T
THREADS=4 PER=40 STOPS=7 ORPHANS=5 ROUNDS=3

ok user-events-present [ -e /sys/kernel/tracing/user_events_data ] || exit 0
# A clock in jiffies (4 ms steps) would make the percentile checks below vacuous.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
case $cs in *jiffies*) fail clocksource "$cs: durations in 4 ms steps" ;; *) pass clocksource ;; esac

# scol NAME SPAN FILE: CSV column NAME of the last row of span SPAN.
scol() {
	awk -F, -v want="$1" -v sp="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		$h["span"]==sp{v=$h[want]} END{print v}' "$3"
}
# rank FILE NAME FIELD Q: the value of rank ceil(Q*n) among FIELD (2 inner, 3 outer) of NAME.
rank() {
	awk -v n="$2" -v f="$3" '$1==n{print $f}' "$1" | sort -n |
		awk -v q="$4" '{v[NR]=$1} END{r=int(q*NR); if (r<q*NR) r++; if (r<1) r=1; print v[r]}'
}
# within NAME VALUE LO HI: LO - LO/128 - 1000 <= VALUE <= HI + HI/128 + 1000 (the bucket's
# 2^-7 relative error, and 1 us for the two clocks' reads).
within() {
	lo=$(($3 - $3 / 128 - 1000)) hi=$(($4 + $4 / 128 + 1000))
	if [ "$2" -ge "$lo" ] && [ "$2" -le "$hi" ]; then
		pass "$1"
	else
		fail "$1" "$2 not in [$lo, $hi]"
	fi
}

# The tracepoint does not exist yet: lattop registers it, so it waits for the application.
ok tracepoint-absent [ ! -e /sys/kernel/tracing/events/user_events/LatTestProvider_L4K1 ]
rm -f $T/a.csv
# Recorded with --raw too: every activity's sample goes into the file as an event.
lattop --activities LatTestProvider_L4K1 --span-timeout 1 -b -c -o csv -d 1 -D 600 \
	-w $T/a.lrec --raw >$T/a.csv 2>$T/a.err &
lp=$!
wait_line '^ts_ns' $T/a.csv 600 || fail lattop-started "$(cat $T/a.err)"
ok tracepoint-registered [ -e /sys/kernel/tracing/events/user_events/LatTestProvider_L4K1 ]
expect producer-sees-listener "$(eh-producer wait)" listening
eh-producer acts $THREADS $PER $T/prod.txt
expect producer-wrong "$(eh-producer wrong $STOPS $ORPHANS $ROUNDS; echo $?)" 0
# Orphans age out after 1 s (--span-timeout 1), looked for once a second: wait for the CSV
# row that counts them all (60 s at most), then stop.
i=0
while [ "$(ctr eh_orphan $T/a.csv)" != $ORPHANS ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $lp
wait $lp
expect lattop-exit $? 0
[ -s $T/a.err ] && echo "  lattop stderr: $(cat $T/a.err)"

echo "  lattop's last CSV rows:"
head -n 1 $T/a.csv | sed 's/^/    /'
tail -n 2 $T/a.csv | sed 's/^/    /'
expect request-count "$(scol count Request $T/a.csv)" $((THREADS * PER))
expect inner-count "$(scol count Inner $T/a.csv)" $((THREADS * PER / 4))
expect kind-activity "$(scol kind Request $T/a.csv)" activity
# The --raw recording holds each activity's samples as events, as many as were counted.
lattop -r $T/a.lrec --events -o csv >$T/ev.csv 2>$T/ev.err
expect raw-events-exit $? 0
expect raw-events-request "$(awk -F, '$3=="Request"' $T/ev.csv | wc -l)" $((THREADS * PER))
expect raw-events-inner "$(awk -F, '$3=="Inner"' $T/ev.csv | wc -l)" $((THREADS * PER / 4))
for q in p50:0.5 p95:0.95 p99:0.99 p999:0.999; do
	col=${q%%:*}_ns f=${q#*:}
	for name in Request Inner; do
		v=$(scol "$col" $name $T/a.csv)
		lo=$(rank $T/prod.txt $name 2 "$f") hi=$(rank $T/prod.txt $name 3 "$f")
		echo "  $name $col: lattop $v, producer inner $lo outer $hi"
		within "$name-$col" "$v" "$lo" "$hi"
	done
done
expect orphan "$(ctr eh_orphan $T/a.csv)" $ORPHANS
expect unmatched "$(ctr eh_unmatched $T/a.csv)" $STOPS
expect malformed "$(ctr eh_malformed $T/a.csv)" $((3 * ROUNDS))
expect foreign "$(ctr eh_foreign $T/a.csv)" $((2 * ROUNDS))
expect lost "$(ctr eh_lost $T/a.csv)" 0
