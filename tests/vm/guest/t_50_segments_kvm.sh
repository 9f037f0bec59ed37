# Segments mode on a real vhost-net, kicked by a nested KVM guest (ioeventfd_write): discover
# the fixture's worker and kick eventfd, then measure S0/S1/S2/total per target packet, on the
# batched XDP path and on the per-packet path (--sndbuf), then aggregated in the kernel and
# through the ring buffer (LATTOP_PATH=ring) alike. With kprobes (the fallback where
# fentry on the modules is refused); t_51 and t_52 use fentry/fexit, the default.
. /tests/lib.sh
. /tests/vhost.sh
. /tests/seg.sh
T=/tmp/t50
export LATTOP_VHOST_PROBES=kprobe
mkdir -p $T
K=64 M=16 B=16

for v in xdp sndbuf; do
	sn=kvm-$v
	extra=
	[ $v = sndbuf ] && extra="--sndbuf 1048576"
	no_kvm $sn-fixture && continue
	# shellcheck disable=SC2086
	seg_fixture $sn --count $K --decoys $M --burst $B --kick kvm --repeat 4 $extra || continue
	if seg_discover $sn && seg_measure $sn 2 --details; then
		seg_checks $sn $K $M
		# The kprobe chain aggregated in the kernel and through the ring buffer too.
		seg_paths $sn 3 $K $M
	fi
	seg_end
done
