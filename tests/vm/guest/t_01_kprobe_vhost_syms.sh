# The stock kernel has what lattop's kprobe and segments modes need: ftrace-visible functions
# of the BPF map and KVM -> vhost-net -> TUN path, kprobes that register on a module function,
# and /dev/vhost-net and /dev/kvm once modules.txt is loaded.
. /tests/lib.sh
T=/sys/kernel/tracing

# Functions kprobes/fentry can attach to, as ftrace lists them.
if cp $T/available_filter_functions /tmp/aff 2>/tmp/aff.err; then
	missing=
	for f in handle_tx_kick tun_sendmsg vhost_poll_wakeup netif_receive_skb \
		__htab_map_lookup_elem; do
		grep -qE "^$f( |\$)" /tmp/aff || missing="$missing $f"
	done
	if [ -z "$missing" ]; then
		pass filter_functions
	else
		fail filter_functions "not in available_filter_functions:$missing"
	fi
else
	fail filter_functions "cannot read $T/available_filter_functions: $(cat /tmp/aff.err)"
fi

# A kprobe registers on a module function (and is removed again).
if echo 'p:lattop_vmtest handle_tx_kick' >>$T/kprobe_events 2>/tmp/kp.err &&
	[ -d $T/events/kprobes/lattop_vmtest ]; then
	echo '-:lattop_vmtest' >>$T/kprobe_events
	pass kprobe_register
else
	fail kprobe_register "cannot add a kprobe on handle_tx_kick: $(cat /tmp/kp.err)"
fi

# Character devices the segments test drives.
for dev in vhost-net kvm; do
	if [ -c /dev/$dev ]; then
		pass "dev_$dev"
	elif [ $dev = kvm ] && no_kvm dev_kvm; then
		:
	else
		fail "dev_$dev" "/dev/$dev is missing after loading modules.txt"
	fi
done
