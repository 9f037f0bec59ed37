# The vhost segments on both paths, kicked by write() on fentry/fexit (the default): the same
# traffic (64 targets + 16 decoys a round, bursts of 16) measured without --details aggregated
# in the kernel (the default; the session holds the segments' lat_agg array) and then with
# LATTOP_PATH=ring (it holds none) gives the same exact count per segment and the same counters,
# on the batched XDP path and on the per-packet path (--sndbuf). Its own test, not more rounds
# of t_51: those took t_51 to 97 s of its 120 s on PREEMPT_RT.
. /tests/lib.sh
. /tests/vhost.sh
. /tests/seg.sh
T=/tmp/t55
mkdir -p $T
K=64 M=16 B=16

for v in xdp sndbuf; do
	sn=paths-$v
	extra=
	[ $v = sndbuf ] && extra="--sndbuf 1048576"
	# shellcheck disable=SC2086
	seg_fixture $sn --count $K --decoys $M --burst $B --kick write --repeat 3 $extra || continue
	seg_discover $sn && seg_paths $sn 2 $K $M
	seg_end
done
