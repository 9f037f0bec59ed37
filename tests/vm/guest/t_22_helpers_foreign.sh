# Helpers mode attribution across interrupt contexts (issue 4: "a helper call counts for
# program P only when P is the program running on that CPU"). fg_watched (watched, XDP) does
# 4 hash updates per run and spins between them; fg_tick (unwatched, tp_btf on
# hrtimer_expire_entry) updates the same map from the timer interrupts that land inside it.
# Exactly N x 4 updates are fg_watched's; the interrupts' updates are counted as
# helper_foreign (> 0: interrupts did land and were excluded). Once on fentry/fexit, once on
# kprobe/kretprobe (LATTOP_HELPER_PROBES=kprobe).
. /tests/lib.sh
T=/tmp/hforeign
mkdir -p $T
N=150
LOOPS=20000

rm -f $T/in $T/out
mkfifo $T/in
foreign <$T/in >$T/out 2>&1 &
exec 3>$T/in
wait_line '^ready' $T/out || { fail foreign-fixture "did not start: $(cat $T/out)"; exit 1; }
watched=$(awk '$1=="watched"{print $2}' $T/out)
per=$(awk '$1=="updates_per_run"{print $2}' $T/out)
cmd "loops $LOOPS" >/dev/null
# Where the kernel's BTF has no per-CPU variables (Debian's 5.10), the probes cannot read the
# interrupt context: the calls of interrupting programs count for the watched one, as t_23
# checks with LATTOP_IRQ_CTX_FAIL. Nothing here to exclude them by.
if ! bpftool btf dump file /sys/kernel/btf/vmlinux | grep -qE "^\[[0-9]+\] VAR '(__preempt_count|pcpu_hot)'"; then
	lattop -m helpers -b -o json -n 2 -d 0.3 -p "$watched" >$T/nc.json 2>$T/nc.err
	expect helpers-noctx-status $? 0
	ok helpers-noctx-notice grep -q 'helpers: interrupt context not readable on this kernel; calls from interrupting programs may be counted' $T/nc.json ||
		cat $T/nc.json $T/nc.err
	if [ "$(uname -m)" = aarch64 ]; then
		# (arm64 keeps preempt_count in each task's thread_info, where the probes do not look)
		skip helpers-foreign "arm64 has no per-CPU preempt_count (x86's __preempt_count or pcpu_hot, which the helper probes read), so they cannot tell an interrupt's map calls from the watched program's (t_23 checks that fallback)"
	else
		skip helpers-foreign "this kernel's BTF has no per-CPU variables (neither __preempt_count nor pcpu_hot), so no probe can tell an interrupt's map calls from the watched program's (t_23 checks that fallback)"
	fi
	echo quit >&3
	exec 3>&-
	wait
	exit 0
fi

# one PROBES TAG: a lattop session on fg_watched with helper probes PROBES (fentry|kprobe).
one() {
	LATTOP_HELPER_PROBES=$1 lattop -m helpers -b -o csv -c -d 0.5 -D 120 -p "$watched" \
		>$T/$2.csv 2>$T/$2.err &
	lp=$!
	wait_line 'fentry' $T/$2.csv 300
	ran=$(cmd "run $N")
	sleep 0.6
	kill -INT $lp
	wait $lp
	expect $2-lattop-exit $? 0
	cat $T/$2.err
	fires=$(echo "$ran" | awk '{print $(NF-2)}')
	during=$(echo "$ran" | awk '{print $NF}')
	foreign=$(ctr helper_foreign $T/$2.csv)
	echo "  $1: $ran; helper_foreign ${foreign:-none}, helper_busy $(ctr helper_busy $T/$2.csv)"
	expect $2-update-count "$(hcol count bpf_map_update_elem fg_hash $T/$2.csv)" $((N * per)) ||
		{ head -n 1 $T/$2.csv; tail -n 4 $T/$2.csv; }
	ok $2-ticks-landed-inside [ "${during:-0}" -gt 0 ]
	ok $2-helper-foreign-counted [ "${foreign:-0}" -gt 0 ]
	# Every foreign call is a tick inside a watched run (none from elsewhere).
	ok $2-helper-foreign-at-most-fires [ "${foreign:-0}" -le "${fires:-0}" ]
}
one fentry fe
one kprobe kp
echo quit >&3
exec 3>&-
wait
