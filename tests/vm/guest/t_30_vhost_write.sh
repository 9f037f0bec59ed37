# vhost-net TX driven by write() kicks (tests/vm/fixtures/vhost_tx.c): every frame in the
# used ring reaches netif_receive_skb on the TAP, targets and decoys counted apart; the
# default (sk_sndbuf == INT_MAX) batched XDP path calls tun_sendmsg once per kick and never
# tun_get_user; with TUNSETSNDBUF the path is per packet; no KVM ioeventfd is involved.
. /tests/lib.sh
. /tests/vhost.sh
T=/tmp/t30
mkdir -p $T
COUNT=64 DECOYS=16 BURST=16
TOTAL=$((COUNT + DECOYS)) KICKS=$(((COUNT + DECOYS + BURST - 1) / BURST))

# checks NAME: what every run must show.
checks() {
	expect "$1-sent" "$sent/$decoys" "$COUNT/$DECOYS"
	expect "$1-used" "$used" "$TOTAL"
	expect "$1-kicks" "$kicks" "$KICKS"
	expect "$1-tap-rx" "$(field tap rx_packets)" "$TOTAL"
	expect "$1-rx-targets" "$(rx_len "$tlen")" "$COUNT"
	expect "$1-rx-decoys" "$(rx_len "$dlen")" "$DECOYS"
	expect "$1-netif_receive_skb" "$(hit netif_receive_skb)" "$TOTAL"
	expect "$1-handle_tx_kick" "$(hit handle_tx_kick)" "$KICKS"
	expect "$1-no-ioeventfd_write" "$(hit ioeventfd_write)" 0
	expect "$1-no-eventfd_signal" "$(hit eventfd_signal)" 0
	ok "$1-vhost_poll_wakeup" [ "$(hit vhost_poll_wakeup)" -ge "$KICKS" ]
	expect "$1-worker-thread" "$(comms vt_handle_tx_kick)" "vhost-$(field pid pid)"
	expect "$1-rx-thread" "$(comms netif_receive_skb)" "vhost-$(field pid pid)"
	expect "$1-wakeup-thread" "$(comms vt_vhost_poll_wakeup | tr ' ' '\n' | grep -c vhost_tx)" 1
}

if run_vhost write-xdp --count $COUNT --decoys $DECOYS --burst $BURST --kick write; then
	checks write-xdp
	expect write-xdp-tun_sendmsg "$(hit tun_sendmsg)" "$KICKS"
	expect write-xdp-no-tun_get_user "$(hit tun_get_user)" 0
fi
if run_vhost write-sndbuf --count $COUNT --decoys $DECOYS --burst $BURST --kick write \
	--sndbuf 1048576; then
	checks write-sndbuf
	expect write-sndbuf-tun_sendmsg "$(hit tun_sendmsg)" "$TOTAL"
	expect write-sndbuf-tun_get_user "$(hit tun_get_user)" "$TOTAL"
fi
# With a call eventfd, vhost signals used buffers with eventfd_signal from the worker thread:
# eventfd_signal alone does not identify a KVM kick.
if run_vhost write-call --count 16 --burst 16 --kick write --call; then
	expect write-call-used "$used" 16
	ok write-call-eventfd_signal [ "$(hit eventfd_signal)" -ge 1 ]
	expect write-call-signal-thread "$(comms vt_eventfd_signal)" "vhost-$(field pid pid)"
	expect write-call-no-ioeventfd_write "$(hit ioeventfd_write)" 0
fi
# One kick for 200 frames: one handle_tx_kick; the XDP path flushes a tun_sendmsg batch every
# 64 frames (VHOST_NET_BATCH), the per-packet path calls tun_sendmsg per frame.
if run_vhost write-batch --count 200 --burst 200 --kick write; then
	expect write-batch-used "$used" 200
	expect write-batch-handle_tx_kick "$(hit handle_tx_kick)" 1
	expect write-batch-tun_sendmsg "$(hit tun_sendmsg)" 4
	expect write-batch-netif_receive_skb "$(hit netif_receive_skb)" 200
fi
