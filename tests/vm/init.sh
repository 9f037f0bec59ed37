#!/bin/sh
# /init of the VM test image (busybox ash, PID 1). tests/vm/run.sh puts it in the initramfs
# with /etc/vmtest/{config,modules}, /lib/modules/*.ko, /bin and the guest tests in /tests.
# Every line a test prints goes to the serial console, which run.sh parses.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp

# Filesystems the tests and libbpf expect.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
mount -t bpf bpf /sys/fs/bpf
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mkdir -p /tmp /run /root
# shellcheck disable=SC3045 # busybox ash has ulimit -l
ulimit -l unlimited

# Settings from run.sh (TEST_TIMEOUT, ONLY: test-name globs).
TEST_TIMEOUT=120
ONLY='t_*'
. /etc/vmtest/config

# Guest uptime in seconds (emulated: compare, do not trust absolutely).
now() { cut -d' ' -f1 /proc/uptime; }
echo # firmware may leave the console mid-line
echo "vmtest: init at $(now) s, kernel $(uname -r)"

# Kernel modules, in modules.txt order.
while read -r m; do
	insmod "/lib/modules/$m" 2>/tmp/insmod.err ||
		echo "FAIL vm/modules: insmod $m: $(cat /tmp/insmod.err)"
done </etc/vmtest/modules

# Run test script $1 under the timeout in its own session and process group, then kill
# whatever it left behind (a leftover child would hold the output pipe open). Exit status
# goes to /tmp/rc.
run_test() {
	timeout "$TEST_TIMEOUT" setsid sh "$1" 2>&1 &
	pid=$!
	wait $pid
	echo $? >/tmp/rc
	kill -9 -$pid 2>/dev/null
}

# Guest tests, sorted, each under a timeout; a silent non-zero exit becomes a FAIL line.
# x_*.sh run only when VM_TESTS names them (see tests/vm/README.md: opt-in tests).
cd /tests || exit 1
for t in /tests/t_*.sh /tests/x_*.sh; do
	[ -f "$t" ] || continue
	name=${t##*/}
	name=${name%.sh}
	wanted=
	set -f
	for glob in $ONLY; do
		# shellcheck disable=SC2254 # $glob is a pattern on purpose
		case $name in $glob) wanted=1 ;; esac
	done
	set +f
	[ -n "$wanted" ] || continue
	echo "vmtest: running $name at $(now) s"
	run_test "$t" | tee /tmp/out
	rc=$(cat /tmp/rc)
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' /tmp/out; then
		if [ "$rc" -eq 143 ]; then
			echo "FAIL vm/$name: exit $rc (timed out after ${TEST_TIMEOUT}s?)"
		else
			echo "FAIL vm/$name: exit $rc"
		fi
	fi
done

# Done: run.sh needs this line to trust the results.
echo "vmtest: done at $(now) s"
echo "VMTEST-DONE"
poweroff -f
