# Helpers for the vhost-net TX tests (busybox ash; sourced after lib.sh). They count, with
# tracefs only, what the fixture vhost_tx (tests/vm/fixtures/vhost_tx.c) makes the kernel do:
# kprobe events on the KVM -> vhost-net -> TUN functions (hit counts from kprobe_profile,
# thread names from the trace) and the net:netif_receive_skb tracepoint filtered on the TAP.
TR=/sys/kernel/tracing
IFNAME=vtap0
# Functions probed, in path order; each becomes the kprobe event vt_FUNC.
VT_FUNCS="ioeventfd_write eventfd_signal vhost_poll_wakeup handle_tx_kick handle_tx_net
tun_sendmsg tun_get_user netif_receive_skb"

# eventfd_signal is a function on 6.1; from 6.8 (6.12 here) it is a static inline and the
# symbol is eventfd_signal_mask (the same call sites, an extra argument): vt_eventfd_signal
# probes whichever this kernel has.
if grep -q ' eventfd_signal$' /proc/kallsyms; then
	VT_SIGNAL=eventfd_signal
else
	VT_SIGNAL=eventfd_signal_mask
fi
# vt_start: (re)create the probes and the filtered tracepoint, empty the trace, enable all.
vt_start() {
	vt_stop
	echo 4096 >$TR/buffer_size_kb
	for f in $VT_FUNCS; do
		sym=$f
		[ "$f" = eventfd_signal ] && sym=$VT_SIGNAL
		echo "p:vt_$f $sym" >>$TR/kprobe_events || { fail vt-probes "cannot probe $sym"; return 1; }
	done
	# skb->len (without the Ethernet header) tells targets from decoys.
	echo "name == \"$IFNAME\"" >$TR/events/net/netif_receive_skb/filter
	echo >$TR/trace
	echo 1 >$TR/events/kprobes/enable
	echo 1 >$TR/events/net/netif_receive_skb/enable
}
# vt_stop: disable and remove the probes (the trace buffer is kept for vt_comms).
vt_stop() {
	echo 0 >$TR/events/net/netif_receive_skb/enable
	echo 0 >$TR/events/net/netif_receive_skb/filter 2>/dev/null
	[ -d $TR/events/kprobes ] && echo 0 >$TR/events/kprobes/enable
	for f in $VT_FUNCS; do
		echo "-:vt_$f" >>$TR/kprobe_events 2>/dev/null
	done
	return 0
}
# vt_hits FUNC: the kprobe hit count of FUNC since vt_start (read before vt_stop).
vt_hits() {
	awk -v n="vt_$1" '$1 == n { print $2 }' $TR/kprobe_profile
}
# vt_save: copy the hit counts of all probes to $T/hits ("FUNC N" lines) and the trace to
# $T/trace, then stop tracing.
vt_save() {
	: >$T/hits
	for f in $VT_FUNCS; do
		echo "$f $(vt_hits $f)" >>$T/hits
	done
	echo 0 >$TR/events/kprobes/enable
	echo 0 >$TR/events/net/netif_receive_skb/enable
	cat $TR/trace >$T/trace
	vt_stop
}
# hit FUNC: FUNC's saved hit count.
hit() {
	awk -v f="$1" '$1 == f { print $2 }' $T/hits
}
# rx_len LEN: netif_receive_skb tracepoint hits on the TAP with skb->len == LEN (len= ends the
# line up to 6.12; 6.19 prints net_cookie= after it).
rx_len() {
	grep ' netif_receive_skb: ' $T/trace | grep -cE " len=$1( |$)"
}
# comms EVENT: the distinct thread names (task-pid with the pid cut) that hit EVENT.
comms() {
	grep " $1: " $T/trace | sed -e 's/^ *//' -e 's/ .*//' -e 's/-[0-9]*$//' | sort -u | xargs
}
# field LINE-KEY WORD: the value after WORD on the fixture output line starting with LINE-KEY.
field() {
	awk -v k="$1" -v w="$2" '$1 == k { for (i = 1; i < NF; i++) if ($i == w) print $(i + 1) }' \
		$T/out
}
# run_vhost NAME ARGS...: trace one vhost_tx run; on success the fixture's output is in
# $T/out, counts in $T/hits, the trace in $T/trace, and sent/decoys/used/kicks are set.
# shellcheck disable=SC2034 # sent, decoys, used, kicks, tlen, dlen are for the test
run_vhost() {
	n=$1
	shift
	vt_start || return 1
	t0=$(cut -d' ' -f1 /proc/uptime)
	# In the background with a watchdog: a vCPU wedged in the kernel must fail this test,
	# not hang the whole VM run.
	vhost_tx --ifname $IFNAME "$@" >$T/out 2>$T/err &
	p=$!
	i=0
	while kill -0 $p 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $p 2>/dev/null; then
		kill -9 $p
		vt_save
		fail "$n-run" "vhost_tx still running after 60 s (wedged in KVM_RUN?): $(cat $T/out $T/err | xargs)"
		dmesg | tail -n 5
		return 1
	fi
	wait $p
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	vt_save
	echo "vhost: $n: vhost_tx $* -> exit $rc in $(awk -v a=$t0 -v b=$t1 'BEGIN{print b-a}') s"
	sed "s/^/vhost: $n: /" $T/out $T/err
	echo "vhost: $n: hits $(xargs <$T/hits)"
	if [ $rc -ne 0 ]; then
		fail "$n-run" "vhost_tx exited $rc: $(head -n 1 $T/err)"
		return 1
	fi
	pass "$n-run"
	sent=$(field sent sent)
	decoys=$(field sent decoys)
	used=$(field sent used)
	kicks=$(field sent kicks)
	tlen=$(field target_len target_len)
	dlen=$(field target_len decoy_len)
}
