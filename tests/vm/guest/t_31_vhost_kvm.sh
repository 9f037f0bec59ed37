# vhost-net TX kicked by a nested KVM guest (tests/vm/fixtures/vhost_tx.c --kick kvm): each
# `out` to the KVM_IOEVENTFD port goes ioeventfd_write -> eventfd_signal -> vhost_poll_wakeup
# in the vCPU thread, then handle_tx_kick -> tun_sendmsg -> netif_receive_skb in the vhost
# worker; every frame is counted on the TAP.
. /tests/lib.sh
. /tests/vhost.sh
T=/tmp/t31
mkdir -p $T
COUNT=64 DECOYS=16 BURST=16
TOTAL=$((COUNT + DECOYS)) KICKS=$(((COUNT + DECOYS + BURST - 1) / BURST))

# checks NAME: what every KVM-kicked run must show.
checks() {
	pid=$(field pid pid)
	expect "$1-sent" "$sent/$decoys" "$COUNT/$DECOYS"
	expect "$1-used" "$used" "$TOTAL"
	expect "$1-kicks" "$kicks" "$KICKS"
	expect "$1-tap-rx" "$(field tap rx_packets)" "$TOTAL"
	expect "$1-rx-targets" "$(rx_len "$tlen")" "$COUNT"
	expect "$1-rx-decoys" "$(rx_len "$dlen")" "$DECOYS"
	expect "$1-netif_receive_skb" "$(hit netif_receive_skb)" "$TOTAL"
	expect "$1-ioeventfd_write" "$(hit ioeventfd_write)" "$KICKS"
	expect "$1-eventfd_signal" "$(hit eventfd_signal)" "$KICKS"
	ok "$1-vhost_poll_wakeup" [ "$(hit vhost_poll_wakeup)" -ge "$KICKS" ]
	expect "$1-handle_tx_kick" "$(hit handle_tx_kick)" "$KICKS"
	expect "$1-vcpu-thread" "$(comms vt_ioeventfd_write)" vhost_tx
	expect "$1-signal-thread" "$(comms vt_eventfd_signal)" vhost_tx
	expect "$1-worker-thread" "$(comms vt_handle_tx_kick)" "vhost-$pid"
}

if no_kvm kvm-xdp-run; then
	:
elif run_vhost kvm-xdp --count $COUNT --decoys $DECOYS --burst $BURST --kick kvm; then
	checks kvm-xdp
	expect kvm-xdp-tun_sendmsg "$(hit tun_sendmsg)" "$KICKS"
	expect kvm-xdp-no-tun_get_user "$(hit tun_get_user)" 0
fi
if no_kvm kvm-sndbuf-run; then
	:
elif run_vhost kvm-sndbuf --count $COUNT --decoys $DECOYS --burst $BURST --kick kvm \
	--sndbuf 1048576; then
	checks kvm-sndbuf
	expect kvm-sndbuf-tun_sendmsg "$(hit tun_sendmsg)" "$TOTAL"
	expect kvm-sndbuf-tun_get_user "$(hit tun_get_user)" "$TOTAL"
fi
