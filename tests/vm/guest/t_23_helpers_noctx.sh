# Helpers mode where the interrupt context cannot be read (issue 4; LATTOP_IRQ_CTX_FAIL makes
# the probes behave as on a kernel whose BTF lacks x86's per-CPU preempt_count): the notice says
# once that calls from interrupting programs may be counted, and they are (the old behaviour,
# as documented): t_22's workload gives more than N x 4 updates and helper_foreign 0.
. /tests/lib.sh
T=/tmp/hnoctx
mkdir -p $T
N=150

# jlast KEY FILE: a number after "KEY": in the last JSON line (the counters are unique keys).
jlast() { tail -n 1 "$2" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2; }

rm -f $T/in $T/out
mkfifo $T/in
foreign <$T/in >$T/out 2>&1 &
exec 3>$T/in
wait_line '^ready' $T/out || { fail noctx-fixture "did not start: $(cat $T/out)"; exit 1; }
watched=$(awk '$1=="watched"{print $2}' $T/out)
cmd "loops 20000" >/dev/null
LATTOP_IRQ_CTX_FAIL=1 lattop -m helpers -b -o json -c -d 0.5 -D 120 -p "$watched" \
	>$T/n.json 2>$T/n.err &
lp=$!
wait_line 'fentry' $T/n.json 300
ran=$(cmd "run $N")
sleep 0.6
kill -INT $lp
wait $lp
expect noctx-lattop-exit $? 0
cat $T/n.err
during=$(echo "$ran" | awk '{print $NF}')
row=$(tail -n 1 $T/n.json | grep -o '{[^{}]*"map_name":"fg_hash"[^{}]*}')
count=$(echo "$row" | grep -o '"count":[0-9]*' | cut -d: -f2)
foreign=$(jlast helper_foreign $T/n.json)
echo "  $ran; update count $count, helper_foreign $foreign"
n=$(tail -n 1 $T/n.json | grep -o 'helpers: interrupt context not readable on this kernel; calls from interrupting programs may be counted' | wc -l)
expect noctx-notice-once "$n" 1 || tail -n 1 $T/n.json
expect noctx-helper-foreign "$foreign" 0
ok noctx-ticks-landed-inside [ "${during:-0}" -gt 0 ]
# The interrupts' updates are counted for fg_watched (the documented fallback).
ok noctx-interrupts-counted [ "${count:-0}" -gt $((N * 4)) ]
echo quit >&3
exec 3>&-
wait
