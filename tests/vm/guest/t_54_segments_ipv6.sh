# Segments mode on IPv6 traffic (vhost_tx --ipv6: UDP [fd00::1]:1234 -> [fd00::2]:4321, decoys
# [fd00::3]:5555 -> [fd00::4]:6666): --discover with an IPv6 --flow, then the profile measures
# exactly the target packets (the ETH_P_IPV6 branch of the BPF flow match, the IPv6 flow in the
# profile). The same traffic measured with the IPv4 flow of the IPv4 tests matches nothing
# while every packet is still seen.
. /tests/lib.sh
. /tests/vhost.sh
. /tests/seg.sh
T=/tmp/t54
mkdir -p $T
K=64 M=16 B=16
FLOW="proto=udp,src=fd00::1,dst=fd00::2,sport=1234,dport=4321"
FLOW4="proto=udp,src=10.0.0.1,dst=10.0.0.2,sport=1234,dport=4321"
sn=ipv6
seg_fixture $sn --ipv6 --count $K --decoys $M --burst $B --kick write --repeat 3 || exit 1
expect ipv6-fixture-lens "$(field target_len target_len) $(field target_len decoy_len)" "80 96"
seg_discover $sn || exit 1
# The profile keeps the flow as flow__format wrote it (IPv6 addresses in their short form).
ok ipv6-profile-flow grep -q "\"flow\":[[:space:]]*\"$FLOW\"" $T/p.json || cat $T/p.json
# Discover counted the flow's packets per worker: the 64 targets, none of the decoys.
expect ipv6-discover-packets "$(grep -c "^  worker tid [0-9]* (vhost-$(field pid pid)) queue 0 eventfd_ctx 0x[0-9a-f]*: [0-9]* runs, $K packets$" $T/disc.out)" 1
cp $T/p.json $T/p6.json
if seg_measure $sn 2 --details; then
	seg_checks $sn $K $M
fi

# The same worker and eventfd with the IPv4 flow: the family check rejects every packet.
sed "s/\"flow\":[[:space:]]*\"[^\"]*\"/\"flow\": \"$FLOW4\"/" $T/p6.json >$T/p.json
ok ipv4-flow-profile grep -qF "\"flow\": \"$FLOW4\"" $T/p.json
sn=ipv4-flow
if seg_measure $sn 3 --details; then
	expect $sn-matched "$(vcount pkts_matched)" 0
	expect $sn-seen "$(vcount pkts_seen)" $((K + M))
	expect $sn-details "$(wc -l <$T/pkts)" 0
	for s in S0 S1 S2 total; do
		expect "$sn-$s-count" "$(scount $s)" 0
	done
	for c in fifo_overflow fifo_underflow s0_miss s1_miss work_eventfd_miss; do
		expect "$sn-$c" "$(vcount $c)" 0
	done
fi
seg_end
