# uprobe spans in the guest's own user space (the host suite's t_spans checks them on x86 only):
# the span probes read a uprobe's arguments and a uretprobe's return through the architecture's
# pt_regs (x86-64's di/si/..., arm64's regs[0..7]: bpf/arm64_regs.h), so a key taken from the
# wrong register pairs nothing. The spans fixture (tests/host/spanfix.c): spanfix_work timed from
# its uprobe to its uretprobe counts exactly the 1,100 calls of `mix`; 100 requests of `async`
# keyed by spanfix_submit's and spanfix_complete's first argument (their id, completed last in,
# first out) pair exactly, while the same probes keyed by thread collide 99 times and pair once.
. /tests/lib.sh
T=/tmp/spans-uprobe
mkdir -p $T
FIX=/bin/spanfix
cat >$T/u.json <<J
{ "spans": [
  { "name": "work", "filter": { "comm": "spanfix" },
    "start": { "kind": "uprobe", "probe": "$FIX:spanfix_work" },
    "end": { "kind": "uretprobe", "probe": "$FIX:spanfix_work" } },
  { "name": "request",
    "start": { "kind": "uprobe", "probe": "$FIX:spanfix_submit", "field": "arg0" },
    "end": { "kind": "uprobe", "probe": "$FIX:spanfix_complete", "field": "arg0" } },
  { "name": "request_by_tid",
    "start": { "kind": "uprobe", "probe": "$FIX:spanfix_submit" },
    "end": { "kind": "uprobe", "probe": "$FIX:spanfix_complete" } } ] }
J
# scol SPAN NAME FILE: CSV column NAME of the last row of SPAN.
scol() {
	awk -F, -v span="$1" -v want="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]==span{v=$h[want]} END{print v}' "$3"
}

spans_refused uprobe-span $T/u.json && exit 0
start_fifo $FIX $T/in $T/out 3 || { fail uprobe-fixture "spanfix did not start: $(cat $T/out)"; exit 1; }
lattop -b -o csv -c -d 0.5 -D 120 --spans $T/u.json >$T/u.csv 2>$T/u.err &
lp=$!
wait_line 'request_by_tid' $T/u.csv 300 || { fail uprobe-span-start "$(cat $T/u.err)"; exit 1; }
cmd mix >/dev/null
cmd "async 100" >/dev/null
sleep 1
kill -INT $lp
wait $lp
expect uprobe-span-exit $? 0 || cat $T/u.err
stop_target
expect uprobe-span-kind "$(scol work kind $T/u.csv)" uprobe
expect uretprobe-span-count "$(scol work count $T/u.csv)" 1100 || tail -n 4 $T/u.csv
expect uretprobe-span-unmatched "$(scol work unmatched $T/u.csv)" 0
ok uretprobe-span-p50 [ "$(scol work p50_ns $T/u.csv)" -gt 0 ]
expect uprobe-arg-count "$(scol request count $T/u.csv)" 100
expect uprobe-arg-unmatched "$(scol request unmatched $T/u.csv)" 0
expect uprobe-arg-collided "$(scol request collided $T/u.csv)" 0
expect uprobe-tid-collided "$(scol request_by_tid collided $T/u.csv)" 99
expect uprobe-tid-count "$(scol request_by_tid count $T/u.csv)" 1
for s in work request request_by_tid; do
	echo "  $s: count $(scol $s count $T/u.csv) p50 $(scol $s p50_ns $T/u.csv) ns max $(scol $s max_ns $T/u.csv) ns"
done
