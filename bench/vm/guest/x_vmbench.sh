# The VM benchmark (bench/vm/run.sh, `make vmbench`): an empty XDP program driven by
# bpf_prog_test_run under each observer, in one boot, interleaved: per round and per observer,
# the bare program first (solo, then one driver per vCPU), then the observer attached and the
# same two runs (only when it attached: a failed attach must not show as a cost of 0). Prints
# raw "VMB ..." lines (bench/vm/table.py makes the table) and PASS/FAIL lines for the exact
# counts only: nothing here is a timed assertion. The helpers-mode observers (hstats, href,
# hrefstats, hlattop) watch bench_update instead (one hash-map update per run), each after bare
# runs of that program (mode=hbare).
. /tests/lib.sh
T=/tmp/vmbench
mkdir -p $T
[ -f /tests/vmbench.conf ] && . /tests/vmbench.conf
ROUNDS=${VMB_ROUNDS:-3}
CALLS=${VMB_CALLS:-5}
REPEAT=${VMB_REPEAT:-20000}
OBS=" ${VMB_OBS:-stats ref refstats agg aggplain lattopring lattop lattopnostats href hlattop hlattopnostats ctxsw} "
# on NAME: is observer NAME in this run (VMB_OBS)?
on() { case $OBS in *" $1 "*) return 0 ;; esac; return 1; }
NCPU=$(grep -c '^processor' /proc/cpuinfo)
CS=/sys/devices/system/clocksource/clocksource0/current_clocksource
echo "VMB info ncpu=$NCPU rounds=$ROUNDS calls=$CALLS repeat=$REPEAT kernel=$(uname -r)" \
	"icount=${VMB_ICOUNT:-0} clocksource=$(cat $CS)"

rm -f $T/in $T/out
mkfifo $T/in
xdpbench <$T/in >$T/out 2>$T/err &
exec 3>$T/in
wait_line '^ready' $T/out 600 || { fail vmbench-driver "xdpbench did not start: $(cat $T/out $T/err)"; exit 1; }
ID=$(awk '$1=="id"{print $2}' $T/out)
IDU=$(awk '$1=="id_update"{print $2}' $T/out)
# bench_update's map update must stay a call of htab_map_update_elem (the verifier does not
# inline an update), or the function's probes (href, hrefstats, hlattop) would not see every
# run.
update_calls_htab() { bpftool prog dump xlated id "$IDU" | grep -q 'call htab_map_update_elem'; }
if on hstats || on href || on hrefstats || on hlattop || on hlattopnostats; then
	ok vmbench-update-calls-htab update_calls_htab ||
		bpftool prog dump xlated id "$IDU" | grep call
fi

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
	[ "${VMB_DIAG:-}" != 1 ] || echo "VMD round=$1 mode=$2 threads=$3 clocksource=$(cat $CS)" \
		"uptime=$(cut -d' ' -f1 /proc/uptime)"
	out=$(xcmd "run $3 $CALLS $REPEAT")
	case $out in
	ran*) ;;
	*) fail "vmbench-run-$2-$3" "$out"; return 1 ;;
	esac
	extra=
	[ -n "$4" ] && extra=" coll_ns=$(($(others_ns $4) - c0)) ui_ns=$(($(cpu_ns $4 $4) - u0))"
	echo "VMB round=$1 mode=$2 threads=$3 ${out#ran }$extra"
}
# bare ROUND [MODE]: the driven program alone, solo and on every vCPU (the baseline of the
# next observer); MODE hbare for bench_update.
bare() {
	measure $1 ${2:-bare} 1
	measure $1 ${2:-bare} $NCPU
}
runs_of() { echo $(($1 * CALLS * REPEAT)); }
# prog_count PROG [MAP]: the watched program's cumulative count in lattop's CSV (in helpers
# mode, with MAP, its "(program)" row).
prog_count() {
	if [ -n "$2" ]; then
		hcol count '(program)' '' $T/l.csv
	else
		col count "$1" $T/l.csv | tail -n 1
	fi
}
# diag ROUND MODE: with VMB_DIAG=1, where the BPF code attached now lies (VMD lines, which
# table.py skips): each program's and trampoline's address (/proc/kallsyms) and the programs'
# JITed and xlated sizes (bpftool; xlated / 8 is the count of BPF instructions after the
# verifier), to tell boots apart by their code's placement.
diag() {
	[ "${VMB_DIAG:-}" = 1 ] || return 0
	grep -E '\[bpf\]' /proc/kallsyms |
		awk -v p="VMD round=$1 mode=$2" '{print p " sym=" $3 " addr=" $1}'
	bpftool prog show | awk -v p="VMD round=$1 mode=$2" '
		/ name /{for (i = 1; i <= NF; i++) if ($i == "name") n = $(i + 1)}
		/jited/{for (i = 1; i <= NF; i++) if ($i == "xlated") x = $(i + 1)
			for (i = 1; i <= NF; i++) if ($i == "jited") print p " prog=" n " jited=" $(i + 1) \
				" xlated=" x}'
}
# lattop_obs ROUND MODE BINARY PROG [MAP]: BINARY (lattop, or an earlier build) watching program
# PROG (batch, cumulative CSV) through the runs of one measurement pair: exact count, every loss
# counter, its threads' CPU. With MAP, in helpers mode (-m helpers): the program's row and its
# (bpf_map_update_elem, MAP) helper row must both count every run. The path comes from the
# environment (LATTOP_PATH=ring: an event per run).
lattop_obs() {
	rm -f $T/l.csv $T/l.err
	$3 ${5:+-m helpers} -b -o csv -c -d 0.5 -D 3000 -p "$4" >$T/l.csv 2>$T/l.err &
	lp=$!
	if ! wait_line 'fentry' $T/l.csv 1200; then
		fail vmbench-$2-$1 "lattop did not attach: $(tail -n 3 $T/l.err)"
		kill -INT $lp 2>/dev/null
		wait $lp
		return 1
	fi
	diag $1 $2
	measure $1 $2 1 $lp
	measure $1 $2 $NCPU $lp
	i=0
	while [ "$(prog_count $4 $5)" != "$expected" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT $lp
	wait $lp
	row=$(awk -F, -v id="$4" -v hm="$5" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		$h["prog_id"]==id && (hm=="" || $h["helper"]=="(program)"){
		r = "count=" $h["count"] " rb_drops=" $h["rb_drops"] " queue_drops=" $h["queue_drops"] \
		    " recursion_drops=" $h["recursion_drops"] " nest_drops=" $h["nest_drops"] \
		    " counters=" $h["counters"]} END{print r}' $T/l.csv)
	[ -z "$5" ] || row="$row hcount=$(hcol count bpf_map_update_elem "$5" $T/l.csv)"
	echo "VMB round=$1 $2report expected=$expected $row"
	expect vmbench-$2-count-$1 "$(prog_count $4 $5)" "$expected"
	[ -z "$5" ] || expect vmbench-$2-helper-count-$1 \
		"$(hcol count bpf_map_update_elem "$5" $T/l.csv)" "$expected"
	expect vmbench-$2-drops-$1 "$(csv_drops $T/l.csv)" 0
}

# calib ROUND PROG: lattop's own start-up figure for what a probed run costs (run_cost_ns: its
# empty program run with and without the probes), from a one-interval session watching PROG,
# for the table to set beside the lattop observer's added ns per run of the same round.
calib() {
	j=$(lattop -b -o json -n 1 -d 0.5 -p "$2" 2>$T/c.err | tail -n 1)
	rc=$(echo "$j" | sed -n 's/.*"run_cost_ns":\([0-9]*\).*/\1/p')
	if [ -z "$rc" ]; then
		fail vmbench-calib-$1 "no run_cost_ns: $(tail -n 2 $T/c.err)"
		return 1
	fi
	echo "VMB round=$1 calib run_cost_ns=$rc"
}
# stats_obs ROUND MODE: bpf_stats through an fd, as lattop enables it.
stats_obs() {
	if expect vmbench-$2-on-$1 "$(xcmd 'stats on')" ok; then
		measure $1 $2 1
		measure $1 $2 $NCPU
	fi
	xcmd 'stats off' >/dev/null
}
# agg_obs ROUND MODE on|plain: the aggregation prototype with atomic or plain adds; the atomic
# one must count every run in its count and its buckets, with no nesting overflow.
agg_obs() {
	if expect vmbench-$2-on-$1 "$(xcmd "agg $3")" ok; then
		measure $1 $2 1
		measure $1 $2 $NCPU
	fi
	got=$(xcmd 'agg off')
	echo "VMB round=$1 $2report expected=$expected $got"
	[ "$3" = on ] || return 0
	expect vmbench-$2-count-$1 "$(echo "$got" | awk '{print $3, $5, $7}')" "$expected $expected 0"
}
# ref_obs ROUND MODE WHICH [stats]: the reference probe WHICH (ref: on the empty program; href:
# on bench_update and on htab_map_update_elem, two instances), with bpf_stats on as well when
# asked (as in a lattop session: the stats then time the probes' own programs too); every
# instance must have seen every run.
ref_obs() {
	ans=$(xcmd "$3 on")
	[ -z "$4" ] || ans="$(xcmd 'stats on') $ans"
	if expect vmbench-$2-on-$1 "$ans" "${4:+ok }ok"; then
		diag $1 $2
		measure $1 $2 1
		measure $1 $2 $NCPU
	fi
	got=$(xcmd "$3 off")
	[ -z "$4" ] || xcmd 'stats off' >/dev/null
	echo "VMB round=$1 $2report expected=$expected $got"
	want="$3 count $expected"
	[ "$3" = ref ] || want="$want $expected"
	expect vmbench-$2-count-$1 "$got" "$want"
}

expected=$(($(runs_of 1) + $(runs_of $NCPU)))

# The split spans' sched programs (bpf/spans.bpf.c lat_split_switch, lat_split_wakeup): what a
# context switch costs with them attached. The loop is the spans fixture's ping-pong (two
# threads on CPU 0 passing a byte through pipes: 2 x PPN switches), timed bare, then under
# lattop with one span: on spanfix_pingpong with "split": false (no sched programs: the
# baseline of lattop itself), on spanfix_nap split (never called: every switch pays the two
# storage lookups that find no clock), and on spanfix_pingpong split (the pinging thread has a
# split span open the whole loop: half its switches update its clock). Prints "VMC ..." lines
# (table.py: ns per switch and the ratio to bare of the same round); the one open span must be
# counted once, with its split.
PPN=${VMB_PINGPONG:-20000}
if on ctxsw; then
	rm -f $T/pin $T/pout
	mkfifo $T/pin
	spanfix <$T/pin >$T/pout 2>&1 &
	exec 4>$T/pin
	wait_line '^ready' $T/pout 600 || fail vmbench-ctxsw-fixture "spanfix did not start"
	for m in nosplit:spanfix_pingpong:false idle:spanfix_nap:true open:spanfix_pingpong:true; do
		set -- $(echo "$m" | tr : ' ')
		printf '{ "spans": [ { "name": "pp", "split": %s, "start": { "kind": "uprobe", "probe": "/bin/spanfix:%s" }, "end": { "kind": "uretprobe", "probe": "/bin/spanfix:%s" } } ] }\n' \
			"$3" "$2" "$2" >$T/pp-$1.json
	done
fi
# pcmd LINE: one command to the spans fixture, its one-line answer printed.
pcmd() {
	before=$(wc -l <$T/pout)
	echo "$1" >&4
	i=0
	while [ "$(wc -l <$T/pout)" -le "$before" ] && [ $i -lt 6000 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	sed -n "$((before + 1))p" $T/pout
}
# pingpong ROUND MODE: one timed ping-pong, as a VMC line.
pingpong() {
	set -- "$1" "$2" $(pcmd "pingpong $PPN")
	[ "$4" = "$PPN" ] || { fail "vmbench-ctxsw-$2-$1" "the ping-pong failed: $*"; return 1; }
	echo "VMC round=$1 mode=$2 switches=$((2 * PPN)) ns=$5"
}
# ctxsw_obs ROUND MODE: the ping-pong under lattop with span file pp-MODE.
ctxsw_obs() {
	rm -f $T/pp.csv
	lattop -b -o csv -c -d 0.5 -D 3000 --spans $T/pp-$2.json >$T/pp.csv 2>$T/pp.err &
	lp=$!
	if ! wait_line ',pp,' $T/pp.csv 1200; then
		fail vmbench-ctxsw-$2-$1 "lattop did not attach: $(tail -n 3 $T/pp.err)"
		kill -INT $lp 2>/dev/null
		wait $lp
		return 1
	fi
	pingpong $1 cs$2
	sleep 1.2
	kill -INT $lp
	wait $lp
	[ "$2" = open ] || return 0
	expect vmbench-ctxsw-open-count-$1 "$(scol pp count $T/pp.csv)" 1
	ok vmbench-ctxsw-open-split-$1 [ -n "$(scol pp oncpu_pct $T/pp.csv)" ]
}
# scol SPAN NAME FILE: CSV column NAME of the last row of SPAN.
scol() {
	awk -F, -v span="$1" -v want="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]==span{v=$h[want]} END{print v}' "$3"
}

r=1
while [ $r -le $ROUNDS ]; do
	if on stats; then
		bare $r
		stats_obs $r stats
	fi

	# The reference probe: per-CPU start, per-CPU log2 histogram; then the same with
	# bpf_stats on, as lattop's sessions have it.
	if on ref; then
		bare $r
		ref_obs $r ref ref
	fi
	if on refstats; then
		bare $r
		ref_obs $r refstats ref stats
	fi

	# The in-kernel aggregation prototype (log-linear per-CPU histogram, count/sum/max), then
	# the same with plain adds: what the atomics cost here (not a correct observer).
	if on agg; then
		bare $r
		agg_obs $r agg on
	fi
	if on aggplain; then
		bare $r
		agg_obs $r aggplain plain
	fi

	# lattop watching it, both paths: each run an event through the ring buffer
	# (LATTOP_PATH=ring, as before issue 13), then aggregated in the kernel (the default), then
	# the binary of an earlier commit (VMB_BEFORE) the same way.
	if on lattopring; then
		bare $r
		LATTOP_PATH=ring lattop_obs $r lattopring lattop "$ID"
	fi
	if on lattop; then
		bare $r
		lattop_obs $r lattop lattop "$ID"
		calib $r "$ID"
	fi
	if on lattopbefore; then
		bare $r
		lattop_obs $r lattopbefore lattop-before "$ID"
	fi
	# The same with --no-stats: no bpf_stats fd, so neither the program nor the probes pay it.
	if on lattopnostats; then
		bare $r
		lattop_obs $r lattopnostats "lattop --no-stats" "$ID"
	fi
	# The variants (VMB_VARIANTS: lattop built with one change each), as lattopnostats.
	for v in ${VMB_VARIANTS:-}; do
		bare $r
		lattop_obs $r "v_$v" "lattop-v-$v --no-stats" "$ID"
	done

	# Helpers mode: bench_update (one htab_map_update_elem per run) under bpf_stats, under the
	# reference probe on both the program and htab_map_update_elem (two instances of ref_*),
	# alone and with bpf_stats on, and under lattop -m helpers (its program probes plus its
	# helper probes, aggregated).
	if on hstats || on href || on hrefstats || on hlattop || on hlattopnostats; then
		expect vmbench-prog-update-$r "$(xcmd 'prog update')" ok
	fi
	if on hstats; then
		bare $r hbare
		stats_obs $r hstats
	fi
	if on href; then
		bare $r hbare
		ref_obs $r href href
	fi
	if on hrefstats; then
		bare $r hbare
		ref_obs $r hrefstats href stats
	fi
	if on hlattop; then
		bare $r hbare
		lattop_obs $r hlattop lattop "$IDU" bench_hash
	fi
	if on hlattopnostats; then
		bare $r hbare
		lattop_obs $r hlattopnostats "lattop --no-stats" "$IDU" bench_hash
	fi
	xcmd 'prog empty' >/dev/null

	if on ctxsw; then
		for m in nosplit idle open; do
			pingpong $r csbare
			ctxsw_obs $r $m
		done
	fi
	r=$((r + 1))
done
if on ctxsw; then
	echo quit >&4
	exec 4>&-
fi
echo quit >&3
exec 3>&-
wait
