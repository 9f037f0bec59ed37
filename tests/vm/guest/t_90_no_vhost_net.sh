# Runs last: vhost_net unloaded (busybox rmmod), the chain cannot be built, and lattop says
# which function of which module is missing. --discover ends with status 1 and that sentence;
# -m segments --profile degrades to programs mode (status 0) with the sentence as its note.
. /tests/lib.sh
T=/tmp/t90
mkdir -p $T
MSG="cannot build the vhost chain: handle_tx_kick \\[vhost_net\\] is not in this kernel (load the vhost_net module)"
rmmod vhost_net
expect rmmod-vhost_net $? 0 || exit 1
ok vhost_net-gone [ ! -e /sys/module/vhost_net ]
lattop --discover --device lo --flow "proto=udp,dport=4321" --profile-out $T/p.json -D 2 \
	>$T/d.out 2>$T/d.err
expect nomod-discover-status $? 1
ok nomod-discover-message grep -q "^lattop: $MSG$" $T/d.err || cat $T/d.err
# A well-formed profile on lo (the worker's tid 1 exists): only the chain is missing.
cat >$T/p.json <<'P'
{"lattop_version": "0.1.0", "kernel": "6.1", "timestamp": "2026-01-01T00:00:00Z",
 "device": "lo", "flow": "proto=udp,dport=4321",
 "eventfds": [{"ctx": "0xffff888000000040", "queue": 0, "runs": 1, "packets": 1}],
 "workers": [{"tid": 1, "pid": 1, "comm": "init", "ctx": "0xffff888000000040", "queue": 0,
              "runs": 1, "packets": 1}]}
P
lattop -m segments --profile $T/p.json -b -n 1 -d 0.3 >$T/m.out 2>$T/m.err
expect nomod-measure-status $? 0
ok nomod-measure-note grep -q "^note: $MSG$" $T/m.out || cat $T/m.out $T/m.err
ok nomod-measure-programs-mode grep -q "mode programs" $T/m.out
