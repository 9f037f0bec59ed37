# Spans broken down by key and filtered on arguments and the return value (issue 36), where the
# host cannot: fentry/fexit and kprobe/kretprobe read the arguments and the return value their
# own way (bpf_get_func_arg/ret, pt_regs), uprobes through the guest's pt_regs. The spans
# fixture (tests/host/spanfix.c), comm "spanfix":
# - `pidreq 10`: getpgid(B + i) for i = 1..10, then getsid(B + i) for i = 10..1 (B =
#   2000000000, no such process): find_task_by_vpid(B + i) twice per i, and getpgid returning
#   -ESRCH (-3) ten times;
# - `args 6`: v calls of spanfix_sized(v, 1000 v) for v = 1..6, returning -v for v = 3, 6.
# Exact counts per argument value and return value, the fold into "other" past the groups, and
# the calls a filter drops. (The host suite t_spans_breakdown checks pid, comm, cgroup, the
# outputs and the errors on uprobes.)
. /tests/lib.sh
T=/tmp/spans-by
mkdir -p $T
FIX=/bin/spanfix
# fnspan NAME KIND RETKIND FUNC EXTRA: one span on kernel function FUNC, comm spanfix.
fnspan() {
	printf '{ "name": "%s", "filter": { "comm": "spanfix"%s }, %s
    "start": { "kind": "%s", "probe": "%s" }, "end": { "kind": "%s", "probe": "%s" } }' \
		"$1" "$5" "$6" "$2" "$4" "$3" "$4"
}
{
	echo '{ "spans": ['
	fnspan fe_arg fentry fexit find_task_by_vpid ', "arg0": "> 2000000005"' '"breakdown": { "by": "arg0", "groups": 3 },'
	echo ','
	fnspan kp_arg kprobe kretprobe find_task_by_vpid ', "arg0": "> 2000000005"' '"breakdown": { "by": "arg0", "groups": 3 },'
	echo ','
	fnspan fe_ret fentry fexit __x64_sys_getpgid '' '"breakdown": { "by": "ret" },'
	echo ','
	fnspan kp_ret kprobe kretprobe __x64_sys_getpgid ', "ret": "!= -3"' ''
	echo ','
	fnspan u_arg uprobe uretprobe $FIX:spanfix_sized ', "arg1": "> 2000"' '"breakdown": { "by": "arg0", "groups": 3 },'
	echo ','
	fnspan u_ret uprobe uretprobe $FIX:spanfix_sized '' '"breakdown": { "by": "ret" },'
	echo '] }'
} >$T/b.json
# scol SPAN COL FILE: CSV column COL of the last row of SPAN's own row; gcount SPAN GROUP FILE:
# the count of the last row of that group of SPAN.
scol() {
	awk -F, -v span="$1" -v want="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]==span && $h["group"]==""{v=$h[want]} END{print v}' "$3"
}
gcount() {
	awk -F, -v span="$1" -v g="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]==span && $h["group"]==g{v=$h["count"]} END{print v}' "$3"
}

spans_refused breakdown $T/b.json && exit 0
start_fifo $FIX $T/in $T/out 3 || { fail breakdown-fixture "spanfix did not start: $(cat $T/out)"; exit 1; }
lattop -b -o csv -c -d 0.5 -D 180 --spans $T/b.json >$T/b.csv 2>$T/b.err &
lp=$!
wait_line 'u_ret' $T/b.csv 600 || { fail breakdown-start "$(cat $T/b.err)"; exit 1; }
cmd "pidreq 10" >/dev/null
cmd "args 6" >/dev/null
sleep 1.5
kill -INT $lp
wait $lp
expect breakdown-exit $? 0 || cat $T/b.err
stop_target
B=20000000
for s in fe_arg kp_arg; do
	# arg0 > B + 5: the 10 calls of B + 1..5 dropped; the first 3 values kept get groups.
	expect "$s-count" "$(scol $s count $T/b.csv)" 10 || tail -n 12 $T/b.csv
	expect "$s-filtered" "$(scol $s filtered $T/b.csv)" 10
	expect "$s-folded" "$(scol $s folded $T/b.csv)" 4
	expect "$s-groups" "$(gcount $s arg0=${B}06 $T/b.csv)/$(gcount $s arg0=${B}07 $T/b.csv)/$(gcount $s arg0=${B}08 $T/b.csv)/$(gcount $s other $T/b.csv)" 2/2/2/4
done
expect fe_ret-groups "$(scol fe_ret count $T/b.csv)/$(gcount fe_ret ret=-3 $T/b.csv)" 10/10
expect kp_ret-filtered "$(scol kp_ret count $T/b.csv)/$(scol kp_ret filtered $T/b.csv)" 0/10
# arg1 = 1000 v > 2000: v = 3..6 (18 calls; the 3 of v = 1, 2 dropped); 3 groups, v = 6 folds.
expect u_arg-count "$(scol u_arg count $T/b.csv)/$(scol u_arg filtered $T/b.csv)/$(scol u_arg folded $T/b.csv)" 18/3/6
expect u_arg-groups "$(gcount u_arg arg0=2 $T/b.csv)/$(gcount u_arg arg0=3 $T/b.csv)/$(gcount u_arg arg0=4 $T/b.csv)/$(gcount u_arg arg0=5 $T/b.csv)/$(gcount u_arg other $T/b.csv)" /3/4/5/6
expect u_ret-groups "$(gcount u_ret ret=0 $T/b.csv)/$(gcount u_ret ret=-3 $T/b.csv)/$(gcount u_ret ret=-6 $T/b.csv)" 12/3/6
