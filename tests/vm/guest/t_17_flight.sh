# The flight recorder's threshold trigger (issue 23): target_heavy2's latency is raised at a
# known moment (its bpf_loop count, heavy2_loops, a value in the program's .data map, set by
# the target fixture). The trigger fires at the close of the first interval over the threshold,
# once; the dump, replayed, shows the step, intervals under the threshold before it, and after
# it exactly the intervals that reach --trigger-after past the instant; a second step within
# the cooldown writes nothing. Busybox ash.
. /tests/lib.sh
T=/tmp/flight
mkdir -p $T/d
start_target flight || exit 1

# Calibrate in one session: target_heavy2's p50 per 0.5 s interval with runs, 2 s at 5 loops
# then 2 s at 500; the threshold 3 times the lowest (TCG's speed is the host's: no fixed figure
# holds; the step multiplies the p50 by 5 to 15, and the highest is noisy).
rm -f $T/c.csv
lattop -b -o csv -d 0.5 -D 300 -p "$heavy2" >$T/c.csv 2>$T/c.err &
cp=$!
wait_line '^ts_ns' $T/c.csv 300
cmd "loops2 5" >/dev/null
cmd "spin heavy2 2000" >/dev/null
cmd "loops2 500" >/dev/null
cmd "spin heavy2 2000" >/dev/null
kill -INT $cp
wait $cp
awk -F, -v id="$heavy2" 'NR==1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["prog_id"] == id && $h["count"] > 0 && $h["p50_ns"] != "" { print $h["p50_ns"] }' \
	$T/c.csv | sort -n >$T/p50s
lo=$(head -n 1 $T/p50s)
hi=$(tail -n 1 $T/p50s)
echo "  p50 from $lo ns (5 loops) to $hi ns (500 loops)"
ok flight-step-visible [ "${hi:-0}" -gt $((4 * ${lo:-999999999})) ] || exit 0
th=$((3 * lo))

# The session: 0.5 s intervals, 2 s kept after firing (4 intervals), a 60 s cooldown.
cmd "loops2 5" >/dev/null
rm -f $T/m.csv $T/m.err
lattop -b -o csv -d 0.5 -D 300 -p "$heavy2" --flight 30s --flight-dir $T/d \
	--trigger "target_heavy2:p50>${th}ns" --trigger-after 2s --trigger-cooldown 60s \
	>$T/m.csv 2>$T/m.err &
lp=$!
wait_line '^ts_ns' $T/m.csv 300 || fail flight-started "$(cat $T/m.err)"
cmd "spin heavy2 3000" >/dev/null
cmd "loops2 500" >/dev/null
cmd "spin heavy2 3000" >/dev/null
wait_line 'wrote' $T/m.err 150
# A second step within the cooldown: down, then up again.
cmd "loops2 5" >/dev/null
cmd "spin heavy2 1500" >/dev/null
cmd "loops2 500" >/dev/null
cmd "spin heavy2 2500" >/dev/null
kill -INT $lp
wait $lp
expect flight-exit $? 0 || cat $T/m.err
expect flight-fired-once "$(grep -c "trigger 'target_heavy2:p50>${th}ns' fired" $T/m.err)" 1 || cat $T/m.err
expect flight-one-dump "$(ls $T/d | wc -l)" 1
f=$(ls $T/d/*-threshold.lrec 2>/dev/null | head -n 1)
ok flight-dump-named [ -n "$f" ] || exit 0

# The instant it fired (wall-clock ns, from the dump's metadata) is the end of the first
# interval over the threshold: the replay's interval within 50 ms of it.
# (The metadata: meta_len at byte 16, the JSON from byte 20.)
# The instant is taken on the clock the replay's ts_ns is on: fired_monotonic_ns (the close's
# own timestamp) plus the recording's start_realtime_ns - start_monotonic_ns, as the replay
# converts every interval end. (fired_realtime_ns reads the two clocks apart at dump time: a
# starved RT guest under TCG once put 50 ms between the reads, and no interval matched.)
n=$(od -An -tu4 -j16 -N4 "$f" | tr -d ' ')
dd if="$f" bs=1 skip=20 count="$n" 2>/dev/null >$T/meta.json
metan() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" $T/meta.json; }
fired=$(awk -v m="$(metan fired_monotonic_ns)" -v r="$(metan start_realtime_ns)" \
	-v s="$(metan start_monotonic_ns)" 'BEGIN { printf "%.0f\n", m + (r - s) }')
lattop -r "$f" -b -o csv -n 1000 >$T/r.csv 2>$T/r.err
expect flight-replays $? 0 || cat $T/r.err
awk -F, -v id="$heavy2" -v th="$th" -v fired="$fired" '
	NR==1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["prog_id"] == id {
		n++
		over = ($h["p50_ns"] + 0 > th)
		if (over && !first) first = n
		if (!over && !first) under++
		d = $h["ts_ns"] - fired
		if (d < 0) d = -d
		if (d < 50000000) at = n
		# How far past the instant each interval reaches (half an interval of slack, as the
		# dump waits): the last must reach 2 s, the one before it must not.
		prev = last
		last = $h["ts_ns"] - fired + $h["interval_ns"] / 2
	}
	END {
		reach = (last >= 2e9)
		short = (n - at < 2 || prev < 2e9)
		printf "%d %d %d %d %d %d\n", first, at, n - at, under, reach, short
	}' $T/r.csv >$T/facts
read first at after under reach short <$T/facts
echo "  dump: first over $first, fired at $at, $after after, $under under before"
ok flight-history-before [ "${under:-0}" -ge 3 ]
expect flight-fired-at-step "$at" "$first"
# --trigger-after 2s of 0.5 s intervals: 4 of them, fewer when TCG makes them longer; the
# dump holds the intervals that reach 2 s past the instant, and none beyond.
ok flight-after-intervals [ "${after:-0}" -ge 2 -a "${after:-9}" -le 4 ]
expect flight-after-reaches "$reach" 1
expect flight-after-no-more "$short" 1
stop_target
