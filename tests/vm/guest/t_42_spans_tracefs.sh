# Generic tracepoint spans where nothing has tracefs mounted: lattop mounts it on
# /sys/kernel/tracing itself and the span works (dd's 300 reads by the read syscall's
# tracepoints). The guest's mounts are put back afterwards.
. /tests/lib.sh
T=/tmp/spans-tracefs
mkdir -p $T
cat >$T/t.json <<'J'
{ "spans": [ { "name": "dd_read_sys", "filter": { "comm": "dd" },
  "start": { "kind": "tracepoint", "probe": "syscalls:sys_enter_read" },
  "end": { "kind": "tracepoint", "probe": "syscalls:sys_exit_read" } } ] }
J
scol() {
	awk -F, -v span="$1" -v want="$2" 'NR==1{for(i=1;i<=NF;i++)h[$i]=i;next} $h["span"]==span{v=$h[want]} END{print v}' "$3"
}
spans_refused tracefs-span $T/t.json && exit 0
umount /sys/kernel/debug/tracing 2>/dev/null
umount /sys/kernel/debug 2>/dev/null
umount /sys/kernel/tracing 2>/dev/null
if [ -e /sys/kernel/tracing/events ] || [ -e /sys/kernel/debug/tracing/events ]; then
	fail tracefs-unmounted "tracefs is still mounted: $(grep -E 'tracefs|debugfs' /proc/mounts)"
	exit 1
fi
pass tracefs-unmounted
lattop -b -o csv -c -d 0.5 -D 120 --spans $T/t.json >$T/t.csv 2>$T/t.err &
lp=$!
wait_line 'dd_read_sys' $T/t.csv 300 || { fail tracefs-span-start "$(cat $T/t.err)"; exit 1; }
ok tracefs-mounted-by-lattop grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts
dd if=/dev/zero of=/dev/null bs=1 count=300 2>/dev/null
sleep 1
kill -INT $lp
wait $lp
expect tracefs-span-exit $? 0
expect tracefs-span-count "$(scol dd_read_sys count $T/t.csv)" 300 || cat $T/t.err
# Put the guest's mounts back as init made them.
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts || mount -t tracefs tracefs /sys/kernel/tracing
