# Helpers for guest tests (busybox ash; sourced). Each check prints one "PASS vm/NAME" or
# "FAIL vm/NAME: why" line; run.sh counts them from the console.
pass() { echo "PASS vm/$1"; }
fail() { echo "FAIL vm/$1: $2"; }
skip() { echo "SKIP vm/$1: $2"; }

# no_kvm NAME: true (after a SKIP line for NAME) when there is no /dev/kvm because /init found
# that kvm-amd refuses to load on this kernel (PREEMPT_RT under TCG) or that the arm64 guest has
# no EL2 for KVM; false otherwise, so that
# a /dev/kvm missing anywhere else fails the test that needs it.
no_kvm() {
	[ ! -c /dev/kvm ] && [ -s /run/vmtest/nokvm ] || return 1
	skip "$1" "no /dev/kvm: $(cat /run/vmtest/nokvm)"
}

# spans_refused NAME FILE: on a kernel before 5.15 (no BPF link cookies, which every span probe
# needs), check that lattop refuses FILE's spans in one sentence with a failure status, SKIP
# NAME's other checks, and return true; false on newer kernels, where the test goes on.
spans_refused() {
	kver_ge 5 15 && return 1
	lattop -b -n 1 --spans "$2" >/tmp/refused.out 2>/tmp/refused.err
	expect "$1-refused-status" $? 1
	ok "$1-refused-sentence" grep -qx "lattop: spans need BPF link cookies (Linux 5.15), which this kernel lacks: no span can be measured here" /tmp/refused.err ||
		cat /tmp/refused.err
	skip "$1" "this kernel has no BPF link cookies (Linux 5.15), which spans need"
}

# kver_ge MAJOR MINOR: true when the running kernel is at least MAJOR.MINOR (6.1 or 6.12 here:
# the tests that check what changed between the two ask this).
kver_ge() {
	set -- "$1" "$2" "$(uname -r | cut -d. -f1)" "$(uname -r | cut -d. -f2 | cut -d- -f1)"
	[ "$3" -gt "$1" ] || { [ "$3" -eq "$1" ] && [ "$4" -ge "$2" ]; }
}

# probe_copies: true where lattop attaches a second pair of probes, as progtrace__copies decides:
# tasks are preempted inside BPF programs on this kernel (PREEMPT_RT, or a dynamic kernel in
# full or lazy mode).
probe_copies() {
	[ -e /sys/kernel/realtime ] && return 0
	[ -r /sys/kernel/debug/sched/preempt ] ||
		{ grep -q 'preempt=full' /proc/cmdline || grep -q ' PREEMPT ' /proc/sys/kernel/version; return; }
	! grep -q '(none)\|(voluntary)' /sys/kernel/debug/sched/preempt
}

# --- lattop guest tests: checks, waiting, and the target fixture (tests/host/target.c) ---
# T is the test's scratch directory; set it before calling start_target.

# expect NAME ACTUAL EXPECTED: pass when equal (returns 1 otherwise, for `|| diagnose`).
expect() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', expected '$3'"; return 1; fi
}
# queue_hooked: true where the kernel has ftrace's hooks in the queue map's functions. From Linux
# 6.14 queue_stack_maps.c is built without them: no fentry or kprobe attaches there, so nothing
# can time the queue's push and pop.
queue_hooked() {
	grep -q '^queue_stack_map_push_elem$' /sys/kernel/tracing/available_filter_functions
}
# queue_count NAME OP FILE WANT: the count of the queue's bpf_map_OP_elem row (OP push or pop) of
# CSV FILE is WANT where the queue's calls can be timed (queue_hooked); elsewhere the row must say
# why in its sentence and show no count.
queue_count() {
	if queue_hooked; then
		expect "$1" "$(hcol count bpf_map_$2_elem tgt_queue "$3")" "$4"
		return
	fi
	f=queue_stack_map_push_elem
	[ "$2" = pop ] && f=queue_map_pop_elem
	expect "$1-not-traceable" "$(hcol note bpf_map_$2_elem tgt_queue "$3")" \
		"not traceable: this kernel has no tracing hooks in $f (neither fentry nor kprobes can attach to it)"
	expect "$1-no-count" "$(hcol count bpf_map_$2_elem tgt_queue "$3")" ""
}
# ok NAME COMMAND...: pass when the command succeeds.
ok() {
	n=$1
	shift
	if "$@"; then pass "$n"; else fail "$n" "$*"; return 1; fi
}
# csv_drops FILE: the sum of every loss column of a lattop CSV report (ring buffer, queue, our
# probes' recursion misses, nesting-stack misses) and of the audit's unaccounted runs (runs the
# kernel counted that the probes neither timed nor counted as lost).
csv_drops() {
	awk -F, 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		{d+=$h["rb_drops"]+$h["queue_drops"]+$h["recursion_drops"]+$h["nest_drops"]
		 if (h["counters"]) { n=split($h["counters"],kv,";"); for(i=1;i<=n;i++){split(kv[i],p,"="); if(p[1]=="unaccounted") d+=p[2]} }}
		END{print d+0}' "$1"
}
# col NAME ID FILE: values of CSV column NAME for prog_id ID, one per interval.
col() {
	awk -F, -v want="$1" -v id="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["prog_id"]==id{print $h[want]}' "$3"
}
# hcol NAME HELPER MAP FILE: CSV column NAME of the last interval's row for (HELPER, MAP).
hcol() {
	awk -F, -v want="$1" -v hl="$2" -v mp="$3" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next}
		$h["helper"]==hl && $h["map_name"]==mp {v=$h[want]} END{print v}' "$4"
}
# ctr NAME FILE: a session-wide named counter of the last CSV row ("a=1;b=2").
ctr() {
	awk -F, -v want="$1" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} {c=$h["counters"]}
		END{n=split(c,kv,";"); for(i=1;i<=n;i++){split(kv[i],p,"="); if(p[1]==want) print p[2]}}' "$2"
}
# rec_floor FILE: the probe floor (ns) a session measured at its start, from its -w recording
# (a figure to compare that session's latencies with: TCG's speed drifts between sessions).
rec_floor() {
	lattop -r "$1" -b -o json -n 1 2>/dev/null | sed -n 's/.*"floor_ns":\([0-9]*\).*/\1/p' | head -n 1
}
# wait_line PATTERN FILE [TRIES]: poll FILE (every 0.1 s) until a line matches.
wait_line() {
	i=0
	while [ $i -lt "${3:-150}" ]; do
		grep -q "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# --listen sessions (busybox wget): URL is the session's /metrics, T the scratch directory.
# scrape: fetch $URL into $T/m (0 when it answered).
scrape() {
	rm -f $T/m
	wget -q -O $T/m "$URL" 2>/dev/null
}
# value PATTERN: the value of the first sample line of $T/m matching the extended regex PATTERN.
value() {
	grep -E "$1" $T/m 2>/dev/null | head -n 1 | awk '{print $NF}'
}
# wait_value PATTERN WANT: scrape (every 0.5 s, up to 90 s) until PATTERN's value is WANT;
# prints the last value seen.
wait_value() {
	i=0
	while [ $i -lt 180 ]; do
		scrape && [ "$(value "$1")" = "$2" ] && break
		sleep 0.5
		i=$((i + 1))
	done
	value "$1"
}
# start_target NAME: start the fixture on a FIFO (fd 3 writes to it); sets light, heavy,
# heavy2, maps, maps2 and tracing to the program IDs it prints.
start_target() {
	rm -f $T/in $T/out
	mkfifo $T/in
	target <$T/in >$T/out 2>&1 &
	exec 3>$T/in
	wait_line '^ready' $T/out || { fail "$1-target" "fixture did not start: $(cat $T/out)"; return 1; }
	light=$(awk '$1=="light"{print $2}' $T/out)
	heavy=$(awk '$1=="heavy"{print $2}' $T/out)
	heavy2=$(awk '$1=="heavy2"{print $2}' $T/out)
	maps=$(awk '$1=="maps"{print $2}' $T/out)
	maps2=$(awk '$1=="maps2"{print $2}' $T/out)
	tracing=$(awk '$1=="tracing"{print $2}' $T/out)
}
# start_fifo BIN IN OUT FD: start fixture BIN reading the FIFO IN (made anew), writing OUT, with
# this shell's fd FD writing to IN; true once it printed its "ready" line.
start_fifo() {
	rm -f "$2" "$3"
	mkfifo "$2"
	"$1" <"$2" >"$3" 2>&1 &
	eval "exec $4>\"\$2\""
	wait_line '^ready' "$3"
}
# cmd LINE: send a command to the fixture and print its one-line answer.
cmd() {
	before=$(wc -l <$T/out)
	echo "$1" >&3
	i=0
	while [ "$(wc -l <$T/out)" -le "$before" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	tail -n 1 $T/out
}
# stop_target: quit the fixture and reap it.
stop_target() {
	echo quit >&3
	exec 3>&-
	wait
}
# use_tmux: devpts for tmux's ptys, and the UTF-8 locale it insists on (files.txt brings
# glibc's C.UTF-8).
use_tmux() {
	mkdir -p /dev/pts
	mount -t devpts devpts /dev/pts 2>/dev/null
	export LANG=C.UTF-8
}
