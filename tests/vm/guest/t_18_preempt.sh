# Tasks that preempt each other inside one watched program (issue 22): the preempt fixture's
# uprobe program (tests/vm/fixtures/preempt.bpf.c) run by PREEMPT_THREADS threads (default 4:
# two per vCPU) PREEMPT_RUNS times each at full rate. On a preemptible kernel (PREEMPT_RT, or
# preempt=full through VM_APPEND) preemption lands inside the program; the fixture counts the
# runs that began while another was inside it on the same CPU. Checks, programs mode: every
# run counted (N of N), no loss counter (recursion, nest, prog_stale), every sample within
# [the program's shortest body, the longest call a thread timed]; helpers mode: one map update
# counted per run. Every figure is printed, so that a failing run still measures the loss, and
# so is the kernel's own recursion count of lattop's probes (`kernel skips`): where tasks
# preempt BPF programs lattop attaches each probe twice, and a skip of one copy loses nothing.
# On a kernel where nothing preempts a uprobe program (6.1, 6.12 voluntary) it still checks N
# of N; only the overlap check is skipped, naming why.
. /tests/lib.sh
T=/tmp/preempt
mkdir -p $T
THREADS=${PREEMPT_THREADS:-4}
RUNS=${PREEMPT_RUNS:-5000}
N=$((THREADS * RUNS))

preemptible=no
uname -v | grep -q PREEMPT_RT && preemptible=rt
[ $preemptible = no ] && grep -q '(full)\|(lazy)' /sys/kernel/debug/sched/preempt 2>/dev/null && preemptible=full
echo "  kernel $(uname -r), preemption: $preemptible ($(cat /sys/kernel/debug/sched/preempt 2>/dev/null))"

rm -f $T/in $T/out
mkfifo $T/in
preempt <$T/in >$T/out 2>&1 &
exec 3>$T/in
wait_line '^ready' $T/out || { fail preempt-fixture "did not start: $(cat $T/out)"; exit 1; }
body=$(awk '$1=="body"{print $2}' $T/out)

# session MODE FILE: lattop in MODE on the body program while the threads run; the fixture's
# answer goes to FILE.ran.
session() {
	rm -f $2 $2.err
	lattop -m $1 -b -o csv -c --hist -d 0.5 -D 900 -p "$body" >$2 2>$2.err &
	lp=$!
	wait_line 'fentry' $2 300 || { fail preempt-$1-lattop "no report: $(cat $2.err)"; kill $lp; return 1; }
	before=$(wc -l <$T/out)
	echo "run $THREADS $RUNS" >&3
	i=0 # up to 600 s: the runs take minutes of TCG time
	while [ "$(wc -l <$T/out)" -le "$before" ] && [ $i -lt 6000 ]; do sleep 0.1; i=$((i + 1)); done
	tail -n 1 $T/out >$2.ran
	sleep 1
	bpftool prog show | awk '/name lat_/{for(i=1;i<NF;i++)if($i=="recursion_misses")s+=$(i+1)}
		END{print s+0}' >$2.kmiss
	kill -INT $lp
	wait $lp
}
# fig NAME FILE: a figure of the fixture's answer line.
fig() { awk -v k="$1" '{for(i=1;i<NF;i++)if($i==k)print $(i+1)}' "$2"; }

if session programs $T/p.csv; then
	ran=$(fig ran $T/p.csv.ran)
	ov=$(fig overlaps $T/p.csv.ran)
	floor=$(fig floor_ns $T/p.csv.ran)
	longest=$(fig longest_ns $T/p.csv.ran)
	count=$(col count "$body" $T/p.csv | tail -n 1)
	rec=$(col recursion_drops "$body" $T/p.csv | tail -n 1)
	nest=$(col nest_drops "$body" $T/p.csv | tail -n 1)
	stale=$(ctr prog_stale $T/p.csv)
	# The lowest and the highest log2 range holding a sample (--hist: lo:hi:count;...).
	min=$(col hist "$body" $T/p.csv | tail -n 1 | tr ';' '\n' | awk -F: '$3>0{print $2; exit}')
	max=$(col max_ns "$body" $T/p.csv | tail -n 1)
	echo "  programs: $ran runs, $ov overlaps; lattop counted $count, recursion $rec, nest $nest," \
		"prog_stale $stale (kernel skips of one probe copy $(cat $T/p.csv.kmiss)); lowest range up to $min ns, max $max ns, body floor $floor ns, longest call $longest ns"
	expect preempt-fixture-runs "$ran" $N
	if [ $preemptible = no ]; then
		skip preempt-overlaps "kernel not preemptible inside uprobe programs"
	elif ! kver_ge 6 12; then
		# 6.1 runs uprobe programs with preemption disabled, even on PREEMPT_RT (0 overlaps
		# measured on 6.1-rt): the runs stay exact, but nothing preempts them.
		skip preempt-overlaps "uprobe programs run with preemption disabled on $(uname -r)"
	else
		ok preempt-overlaps [ "${ov:-0}" -gt 0 ]
	fi
	expect preempt-count "$count" $N
	expect preempt-recursion "$rec" 0
	expect preempt-nest "$nest" 0
	expect preempt-prog-stale "${stale:-0}" 0
	ok preempt-min-above-floor [ "${min:-0}" -ge "${floor:-1}" ]
	ok preempt-max-below-longest [ "${max:-1}" -le "${longest:-0}" -a "${max:-0}" -gt 0 ]
	grep -i 'note\|warn' $T/p.csv.err
fi
if session helpers $T/h.csv; then
	ran=$(fig ran $T/h.csv.ran)
	ov=$(fig overlaps $T/h.csv.ran)
	upd=$(hcol count bpf_map_update_elem preempt_hash $T/h.csv)
	echo "  helpers: $ran runs, $ov overlaps; updates counted $upd, helper_foreign" \
		"$(ctr helper_foreign $T/h.csv), helper_stale $(ctr helper_stale $T/h.csv)," \
		"prog_stale $(ctr prog_stale $T/h.csv), drops $(csv_drops $T/h.csv)" \
		"(kernel skips of one probe copy $(cat $T/h.csv.kmiss))"
	expect preempt-helpers-runs "$ran" $N
	expect preempt-helpers-updates "$upd" $N
	expect preempt-helpers-no-drops "$(csv_drops $T/h.csv)" 0
fi
echo quit >&3
exec 3>&-
wait
