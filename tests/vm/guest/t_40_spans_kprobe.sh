# kprobe/kretprobe spans (issue 6) where the kernel has kprobes: a vfs_read span filtered on
# comm "dd" counts exactly the reads dd makes; a missing kernel function is one sentence.
. /tests/lib.sh
T=/tmp/spans
mkdir -p $T
cat >$T/k.json <<'J'
{ "spans": [ { "name": "dd_read",
  "start": { "kind": "kprobe", "probe": "vfs_read", "key": "tid" },
  "end": { "kind": "kretprobe", "probe": "vfs_read", "key": "tid" },
  "filter": { "comm": "dd" } } ] }
J
# scol NAME FILE: CSV column NAME of the last row of span dd_read.
scol() {
	awk -F, -v want="$1" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]=="dd_read"{v=$h[want]} END{print v}' "$2"
}

spans_refused kprobe-span $T/k.json && exit 0
lattop -b -o csv -c -d 0.5 -D 120 --spans $T/k.json >$T/k.csv 2>$T/k.err &
lp=$!
wait_line 'dd_read' $T/k.csv 300 || { fail kprobe-span-start "$(cat $T/k.err)"; exit 1; }
dd if=/dev/zero of=/dev/null bs=1 count=500 2>/dev/null
sleep 1
kill -INT $lp
wait $lp
expect kprobe-span-exit $? 0
expect kprobe-span-kind "$(scol kind $T/k.csv)" kprobe
expect kprobe-span-count "$(scol count $T/k.csv)" 500 || { cat $T/k.err; tail -n 3 $T/k.csv; }
expect kprobe-span-unmatched "$(scol unmatched $T/k.csv)" 0
ok kprobe-span-p50 [ "$(scol p50_ns $T/k.csv)" -gt 0 ]
echo "  dd_read: count $(scol count $T/k.csv) p50 $(scol p50_ns $T/k.csv) ns p99 $(scol p99_ns $T/k.csv) ns"

# A kernel function that does not exist: one sentence, exit 2, nothing left attached.
sed 's/vfs_read/no_such_function_x/g' $T/k.json >$T/bad.json
lattop -b -n 1 --spans $T/bad.json >$T/bad.out 2>$T/bad.err
expect kprobe-missing-status $? 2
ok kprobe-missing-sentence grep -q "span 'dd_read': no kernel function 'no_such_function_x' to probe" $T/bad.err
