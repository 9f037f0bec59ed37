# fentry/fexit spans (issue 6) on a kernel that loads them: vfs_read timed from fentry to
# fexit, filtered on comm "dd", counts exactly the reads of `dd bs=1 count=500`, keyed by
# thread and by the function's first argument (the struct file *); the same reads seen by
# the generic syscall tracepoints; a module function (tun_chr_open, BTF in
# /sys/kernel/btf/tun) counts exactly 20 opens of /dev/net/tun; a missing function is one
# sentence with exit status 2.
. /tests/lib.sh
T=/tmp/spans-fentry
mkdir -p $T
cat >$T/f.json <<'J'
{ "spans": [
  { "name": "dd_read", "filter": { "comm": "dd" },
    "start": { "kind": "fentry", "probe": "vfs_read", "key": "tid" },
    "end": { "kind": "fexit", "probe": "vfs_read", "key": "tid" } },
  { "name": "dd_read_file", "filter": { "comm": "dd" },
    "start": { "kind": "fentry", "probe": "vfs_read", "field": "arg0" },
    "end": { "kind": "fexit", "probe": "vfs_read", "field": "arg0" } },
  { "name": "dd_read_sys", "filter": { "comm": "dd" },
    "start": { "kind": "tracepoint", "probe": "syscalls:sys_enter_read" },
    "end": { "kind": "tracepoint", "probe": "syscalls:sys_exit_read" } },
  { "name": "tun_open", "filter": { "comm": "cat" },
    "start": { "kind": "fentry", "probe": "tun_chr_open" },
    "end": { "kind": "fexit", "probe": "tun_chr_open" } } ] }
J
# scol SPAN NAME FILE: CSV column NAME of the last row of SPAN.
scol() {
	awk -F, -v span="$1" -v want="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]==span{v=$h[want]} END{print v}' "$3"
}

spans_refused fentry-span $T/f.json && exit 0
lattop -b -o csv -c -d 0.5 -D 120 --spans $T/f.json >$T/f.csv 2>$T/f.err &
lp=$!
wait_line 'tun_open' $T/f.csv 300 || { fail fentry-span-start "$(cat $T/f.err)"; exit 1; }
dd if=/dev/zero of=/dev/null bs=1 count=500 2>/dev/null
i=0
while [ $i -lt 20 ]; do
	cat /dev/net/tun 2>/dev/null
	i=$((i + 1))
done
sleep 1
kill -INT $lp
wait $lp
expect fentry-span-exit $? 0 || cat $T/f.err
expect fentry-span-kind "$(scol dd_read kind $T/f.csv)" fentry
expect fentry-span-count "$(scol dd_read count $T/f.csv)" 500 || tail -n 4 $T/f.csv
expect fentry-span-unmatched "$(scol dd_read unmatched $T/f.csv)" 0
expect fentry-span-collided "$(scol dd_read collided $T/f.csv)" 0
ok fentry-span-p50 [ "$(scol dd_read p50_ns $T/f.csv)" -gt 0 ]
# Keyed by the file: ends keyed by a field are not filtered (another task's vfs_read may end
# unmatched), but dd's 500 reads of one file pair exactly, none colliding.
expect fentry-arg-count "$(scol dd_read_file count $T/f.csv)" 500
expect fentry-arg-collided "$(scol dd_read_file collided $T/f.csv)" 0
expect tracepoint-read-count "$(scol dd_read_sys count $T/f.csv)" 500
expect tracepoint-read-kind "$(scol dd_read_sys kind $T/f.csv)" tracepoint
expect fentry-module-count "$(scol tun_open count $T/f.csv)" 20
for s in dd_read dd_read_file dd_read_sys tun_open; do
	echo "  $s: count $(scol $s count $T/f.csv) p50 $(scol $s p50_ns $T/f.csv) ns p99 $(scol $s p99_ns $T/f.csv) ns"
done

# A kernel function that does not exist: one sentence, exit 2, nothing left attached.
sed 's/tun_chr_open/no_such_function_x/g' $T/f.json >$T/bad.json
lattop -b -n 1 --spans $T/bad.json >$T/bad.out 2>$T/bad.err
expect fentry-missing-status $? 2
ok fentry-missing-sentence grep -q "span 'tun_open': start probe fentry no_such_function_x: no kernel function 'no_such_function_x' with BTF" $T/bad.err
expect fentry-missing-one-line "$(wc -l <$T/bad.err)" 1
# An argument the function does not have.
echo '{"spans":[{"name":"a5","start":{"kind":"fentry","probe":"vfs_read","field":"arg4"},"end":{"kind":"fexit","probe":"vfs_read"}}]}' >$T/arg.json
lattop -b -n 1 --spans $T/arg.json >$T/arg.out 2>$T/arg.err
expect fentry-arg-status $? 2
ok fentry-arg-sentence grep -q "span 'a5': start probe fentry vfs_read: vfs_read has 4 arguments, no arg4" $T/arg.err
