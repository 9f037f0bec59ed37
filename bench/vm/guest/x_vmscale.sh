# The scale benchmark in the VM (`make vmbench-scale`, issue 32): N loaded programs, every one
# probed (--budget max, no -p: the default watch), against 10 in the same boot, at 1 s
# intervals: the time from start until the probes are on every program, then, over SECS seconds,
# lattop's CPU (its UI thread, the whole process) and its peak memory (VmHWM). Each program runs
# a few times every 100 ms (tests/host/many --run, with BTF so that fentry can trace them: without
# it they are "no-btf"). Figures only: the checks are that every
# program got its probes and that no run was lost.
. /tests/lib.sh
T=/tmp/vmscale
mkdir -p $T
[ -f /tests/vmbench.conf ] && . /tests/vmbench.conf
N=${VMB_SCALE_N:-1000}
SECS=${VMB_SCALE_SECS:-20}
ulimit -n 1048576 2>/dev/null || ulimit -n 65536

# ticks PID [TID]: utime + stime of the process (or one thread), in clock ticks (USER_HZ, 100).
ticks() {
	f=/proc/$1/stat
	[ -z "$2" ] || f=/proc/$1/task/$2/stat
	awk '{print $14 + $15}' $f
}
# side N (not n: lib.sh's ok sets n): prints "VMB scale n=N attach_s=... ui_pct=... proc_pct=... hwm_kib=... probed=..."
side() {
	want=$1
	many "$want" --run --btf >$T/many.out 2>&1 &
	fix=$!
	wait_line '^ready' $T/many.out 3000 || { fail vmscale-fixture-$want "$(tail -n 2 $T/many.out)"; return 1; }
	t0=$(cut -d' ' -f1 /proc/uptime)
	lattop -b -o json -d 1 --budget max >$T/s.json 2>$T/s.err &
	lp=$!
	# Until the probes are on every program (lattop's own are never watched; anything else
	# loaded in the guest would be watched too, hence at least n), saying how far every minute.
	i=0
	while :; do
		k=$(tail -n 1 $T/s.json 2>/dev/null | sed -n 's/.*"probes":{"programs":\([0-9]*\).*/\1/p')
		[ "${k:-0}" -ge "$want" ] || [ $i -ge 36000 ] || ! kill -0 $lp 2>/dev/null && break
		[ $((i % 300)) != 299 ] ||
			echo "  $want programs: ${k:-0} probed at $(cut -d' ' -f1 /proc/uptime) s (lattop started at $t0 s)"
		sleep 0.1
		i=$((i + 1))
	done
	t1=$(cut -d' ' -f1 /proc/uptime)
	a0=$(ticks $lp $lp) p0=$(ticks $lp)
	sleep "$SECS"
	a1=$(ticks $lp $lp) p1=$(ticks $lp)
	hwm=$(awk '/^VmHWM/{print $2}' /proc/$lp/status)
	kill -INT $lp
	wait $lp
	kill $fix
	wait $fix 2>/dev/null
	last=$(tail -n 1 $T/s.json)
	probed=$(echo "$last" | sed -n 's/.*"probes":{"programs":\([0-9]*\).*/\1/p')
	echo "VMB scale n=$want attach_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')" \
		"ui_pct=$(awk -v a=$((a1 - a0)) -v s="$SECS" 'BEGIN{printf "%.2f", a / 100 / s * 100}')" \
		"proc_pct=$(awk -v a=$((p1 - p0)) -v s="$SECS" 'BEGIN{printf "%.2f", a / 100 / s * 100}')" \
		"hwm_kib=$hwm probed=${probed:-0}" \
		"switch_ms=$(echo "$last" | sed -n 's/.*"switch_ns":\([0-9]*\).*/\1/p' | awk '{printf "%.0f", $1 / 1e6}')"
	ok vmscale-probed-$want [ "${probed:-0}" -ge "$want" ] || tail -n 3 $T/s.err
	expect vmscale-no-loss-$want "$(echo "$last" | grep -o '"drops":{[^}]*}' | grep -o '[0-9]\+' | awk '{s+=$1} END{print s+0}')" 0
}

echo "VMB info kernel=$(uname -r) ncpu=$(nproc) scale_n=$N secs=$SECS"
side 10
side "$N"
