# The VM benchmark (bench/vm/run.sh, `make vmbench`): an empty XDP program driven by
# bpf_prog_test_run under each observer, in one boot, interleaved: per round and per observer,
# the bare program first (solo, then one driver per vCPU), then the observer attached and the
# same two runs (only when it attached: a failed attach must not show as a cost of 0). Prints
# raw "VMB ..." lines (bench/vm/table.py makes the table) and PASS/FAIL lines for the exact
# counts only: nothing here is a timed assertion.
. /tests/lib.sh
T=/tmp/vmbench
mkdir -p $T
[ -f /tests/vmbench.conf ] && . /tests/vmbench.conf
ROUNDS=${VMB_ROUNDS:-3}
CALLS=${VMB_CALLS:-5}
REPEAT=${VMB_REPEAT:-20000}
OBS=" ${VMB_OBS:-stats ref refstats agg aggplain lattopring lattop} "
# on NAME: is observer NAME in this run (VMB_OBS)?
on() { case $OBS in *" $1 "*) return 0 ;; esac; return 1; }
NCPU=$(grep -c '^processor' /proc/cpuinfo)
echo "VMB info ncpu=$NCPU rounds=$ROUNDS calls=$CALLS repeat=$REPEAT kernel=$(uname -r) icount=${VMB_ICOUNT:-0}"

rm -f $T/in $T/out
mkfifo $T/in
xdpbench <$T/in >$T/out 2>$T/err &
exec 3>$T/in
wait_line '^ready' $T/out 600 || { fail vmbench-driver "xdpbench did not start: $(cat $T/out $T/err)"; exit 1; }
ID=$(awk '$1=="id"{print $2}' $T/out)

# xcmd LINE: one command to the driver, its one-line answer printed.
xcmd() {
	before=$(wc -l <$T/out)
	echo "$1" >&3
	i=0
	while [ "$(wc -l <$T/out)" -le "$before" ] && [ $i -lt 6000 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sed -n "$((before + 1))p" $T/out
}
# cpu_ns PID TID: CPU time of one thread (schedstat's first field, ns).
cpu_ns() { cut -d' ' -f1 /proc/$1/task/$2/schedstat 2>/dev/null || echo 0; }
# others_ns PID: CPU time of every thread but the main one (lattop's collector).
others_ns() {
	s=0
	for d in /proc/$1/task/*; do
		tid=${d##*/}
		[ "$tid" = "$1" ] || s=$((s + $(cpu_ns $1 $tid)))
	done
	echo $s
}
# measure ROUND MODE THREADS [PID]: one run; with PID, lattop's thread CPU around it.
measure() {
	if [ -n "$4" ]; then
		c0=$(others_ns $4)
		u0=$(cpu_ns $4 $4)
	fi
	out=$(xcmd "run $3 $CALLS $REPEAT")
	case $out in
	ran*) ;;
	*) fail "vmbench-run-$2-$3" "$out"; return 1 ;;
	esac
	extra=
	[ -n "$4" ] && extra=" coll_ns=$(($(others_ns $4) - c0)) ui_ns=$(($(cpu_ns $4 $4) - u0))"
	echo "VMB round=$1 mode=$2 threads=$3 ${out#ran }$extra"
}
# bare ROUND: the program alone, solo and on every vCPU (the baseline of the next observer).
bare() {
	measure $1 bare 1
	measure $1 bare $NCPU
}
runs_of() { echo $(($1 * CALLS * REPEAT)); }
# lattop_obs ROUND MODE [BINARY]: lattop (or BINARY) watching the program (batch, cumulative
# CSV) through the runs of one measurement pair: exact count, every loss counter, its threads'
# CPU. The path comes from the environment (LATTOP_PATH=ring: an event per run).
lattop_obs() {
	rm -f $T/l.csv $T/l.err
	${3:-lattop} -b -o csv -c -d 0.5 -D 3000 -p "$ID" >$T/l.csv 2>$T/l.err &
	lp=$!
	if ! wait_line 'fentry' $T/l.csv 1200; then
		fail vmbench-$2-$1 "lattop did not attach: $(tail -n 3 $T/l.err)"
		kill -INT $lp 2>/dev/null
		wait $lp
		return 1
	fi
	measure $1 $2 1 $lp
	measure $1 $2 $NCPU $lp
	i=0
	while [ "$(col count "$ID" $T/l.csv | tail -n 1)" != "$expected" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT $lp
	wait $lp
	row=$(awk -F, -v id="$ID" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["prog_id"]==id{
		r = "count=" $h["count"] " rb_drops=" $h["rb_drops"] " queue_drops=" $h["queue_drops"] \
		    " recursion_drops=" $h["recursion_drops"] " nest_drops=" $h["nest_drops"] \
		    " counters=" $h["counters"]} END{print r}' $T/l.csv)
	echo "VMB round=$1 $2report expected=$expected $row"
	expect vmbench-$2-count-$1 "$(col count "$ID" $T/l.csv | tail -n 1)" "$expected"
	expect vmbench-$2-drops-$1 "$(csv_drops $T/l.csv)" 0
}

expected=$(($(runs_of 1) + $(runs_of $NCPU)))

r=1
while [ $r -le $ROUNDS ]; do
	# bpf_stats through an fd, as lattop enables it.
	if on stats; then
		bare $r
		if expect vmbench-stats-on-$r "$(xcmd 'stats on')" ok; then
			measure $r stats 1
			measure $r stats $NCPU
		fi
		xcmd 'stats off' >/dev/null
	fi

	# The reference probe: per-CPU start, per-CPU log2 histogram.
	if on ref; then
		bare $r
		if expect vmbench-ref-on-$r "$(xcmd 'ref on')" ok; then
			measure $r ref 1
			measure $r ref $NCPU
		fi
		got=$(xcmd 'ref off')
		echo "VMB round=$r refreport expected=$expected $got"
		expect vmbench-ref-count-$r "$got" "ref count $expected"
	fi

	# The reference probe with bpf_stats on, as lattop's sessions have it: the stats then
	# time the probes' own programs too (their trampolines read the clock around each).
	if on refstats; then
		bare $r
		if expect vmbench-refstats-on-$r "$(xcmd 'stats on') $(xcmd 'ref on')" "ok ok"; then
			measure $r refstats 1
			measure $r refstats $NCPU
		fi
		got=$(xcmd 'ref off')
		xcmd 'stats off' >/dev/null
		echo "VMB round=$r refstatsreport expected=$expected $got"
		expect vmbench-refstats-count-$r "$got" "ref count $expected"
	fi

	# The in-kernel aggregation prototype (log-linear per-CPU histogram, count/sum/max).
	if on agg; then
		bare $r
		if expect vmbench-agg-on-$r "$(xcmd 'agg on')" ok; then
			measure $r agg 1
			measure $r agg $NCPU
		fi
		got=$(xcmd 'agg off')
		echo "VMB round=$r aggreport expected=$expected $got"
		expect vmbench-agg-count-$r "$(echo "$got" | awk '{print $3, $5, $7}')" "$expected $expected 0"
	fi

	# The same with plain adds: what the atomics cost here (not a correct observer).
	if on aggplain; then
		bare $r
		if expect vmbench-aggplain-on-$r "$(xcmd 'agg plain')" ok; then
			measure $r aggplain 1
			measure $r aggplain $NCPU
		fi
		got=$(xcmd 'agg off')
		echo "VMB round=$r aggplainreport expected=$expected $got"
	fi

	# lattop watching it, both paths: each run an event through the ring buffer
	# (LATTOP_PATH=ring, as before issue 13), then aggregated in the kernel (the default), then
	# the binary of an earlier commit (VMB_BEFORE) the same way.
	if on lattopring; then
		bare $r
		LATTOP_PATH=ring lattop_obs $r lattopring
	fi
	if on lattop; then
		bare $r
		lattop_obs $r lattop
	fi
	if on lattopbefore; then
		bare $r
		lattop_obs $r lattopbefore lattop-before
	fi
	r=$((r + 1))
done
echo quit >&3
exec 3>&-
wait
