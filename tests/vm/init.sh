#!/bin/sh
# /init of the VM test image (busybox ash, PID 1). tests/vm/run.sh puts it in the initramfs
# with /etc/vmtest/{config,modules}, /lib/modules/*.ko, /bin and the guest tests in /tests.
# Every line a test prints goes to the results port (ttyS1, or the console), which run.sh
# parses; the kernel's own messages stay on the console (ttyS0).
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp
# An image without busybox's applet links (an arm64 one, whose busybox the building host could
# not run to list them): busybox installs them, leaving the image's own binaries alone (it finds
# itself through /proc/self/exe).
if [ ! -e /bin/mount ]; then
	/bin/busybox mount -t proc proc /proc && /bin/busybox --install -s && /bin/busybox umount /proc
fi

# Settings from run.sh (TEST_TIMEOUT, ONLY: test-name globs, REPEAT, RESULTS_TTY).
TEST_TIMEOUT=120
ONLY='t_*'
REPEAT=1
RESULTS_TTY=
. /etc/vmtest/config

# Filesystems the tests and libbpf expect.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
if [ -n "$RESULTS_TTY" ] && [ -c "$RESULTS_TTY" ]; then
	exec >"$RESULTS_TTY" 2>&1
fi
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
mount -t bpf bpf /sys/fs/bpf
mkdir -p /dev/pts
mount -t devpts devpts /dev/pts
mkdir -p /tmp /run/vmtest /root
# shellcheck disable=SC3045 # busybox ash has ulimit -l
ulimit -l unlimited

# Guest uptime in seconds (emulated: compare, do not trust absolutely).
now() { cut -d' ' -f1 /proc/uptime; }
# mark LINE: print LINE, and put it in the kernel log too so the console shows where a test
# starts among the kernel's messages.
mark() {
	echo "$1"
	echo "$1" >/dev/kmsg 2>/dev/null
}
echo # firmware may leave the console mid-line
mark "vmtest: init at $(now) s, kernel $(uname -r) $(uname -v)"

# Kernel modules, in modules.txt order. kvm-amd refuses to load on Debian's PREEMPT_RT kernel
# under TCG: there that is a SKIP (the tests that need /dev/kvm skip with the reason written to
# /run/vmtest/nokvm), on any other kernel a FAIL.
while read -r m; do
	insmod "/lib/modules/$m" 2>/tmp/insmod.err && continue
	why="insmod $m: $(cat /tmp/insmod.err)"
	case "$m:$(uname -v)" in
	*/kvm-amd.ko:*PREEMPT_RT*)
		echo "kvm-amd refuses to load on this PREEMPT_RT kernel under TCG ($why)" \
			>/run/vmtest/nokvm
		echo "SKIP vm/modules-kvm-amd: $(cat /run/vmtest/nokvm)"
		;;
	*) echo "FAIL vm/modules: $why" ;;
	esac
done </etc/vmtest/modules
# arm64 builds KVM in, but it runs only from EL2, which QEMU's virt machine gives the guest
# only with virtualization=on (not used: the vhost tests' kicking guest is x86 code anyway);
# the kernel says "kvm [1]: HYP mode not available" and there is no /dev/kvm: a SKIP there.
if [ "$(uname -m)" = aarch64 ] && [ ! -c /dev/kvm ]; then
	echo "arm64's KVM needs EL2, which this guest (QEMU virt, TCG, no virtualization=on) boots without" \
		>/run/vmtest/nokvm
fi

# procs: every user-space process (kernel threads have no cmdline) with its state, the kernel
# function it waits in and the top of its kernel stack: what a test that overran was doing.
procs() {
	for d in /proc/[0-9]*; do
		p=${d#/proc/}
		c=$(tr '\0' ' ' 2>/dev/null <"$d/cmdline" | cut -c1-120)
		[ -n "$c" ] && [ "$p" != 1 ] || continue
		echo "    $p ($(cut -d' ' -f3 "$d/stat")) wchan $(cat "$d/wchan" 2>/dev/null): $c"
		head -n 6 "$d/stack" 2>/dev/null | sed 's/^/        /'
	done
}

# Run test script $1 under the timeout in its own session and process group, then kill
# whatever it left behind (a leftover child would hold the output pipe open; a lattop left in
# a tmux server of the test's would hold the session lock for the next test). A test that
# overruns first gets its processes listed (procs). Exit status goes to /run/vmtest/rc (143
# after the timeout).
run_test() {
	rm -f /run/vmtest/timedout
	setsid sh "$1" 2>&1 &
	pid=$!
	(
		# (sleep must not hold the output pipe: tee waits for every writer to close it)
		sleep "$TEST_TIMEOUT" >/dev/null 2>&1
		kill -0 $pid 2>/dev/null || exit 0
		: >/run/vmtest/timedout
		echo "vmtest: $name still running after ${TEST_TIMEOUT}s; processes:"
		procs
		kill -TERM -$pid 2>/dev/null
		sleep 2
		kill -9 -$pid 2>/dev/null
	) &
	dog=$!
	wait $pid
	rc=$?
	[ -e /run/vmtest/timedout ] && rc=143
	echo $rc >/run/vmtest/rc
	kill $dog 2>/dev/null
	kill -9 -$pid 2>/dev/null
	tmux kill-server 2>/dev/null
}

# Guest tests, sorted, each under a timeout; a silent non-zero exit becomes a FAIL line.
# x_*.sh run only when VM_TESTS names them (see tests/vm/README.md: opt-in tests). With
# VM_REPEAT the selected tests run REPEAT times, each repetition on an empty /tmp.
cd /tests || exit 1
r=1
while [ $r -le "$REPEAT" ]; do
	if [ "$REPEAT" -gt 1 ]; then
		mark "vmtest: repeat $r of $REPEAT at $(now) s"
		tmux kill-server 2>/dev/null
		rm -rf /tmp/* 2>/dev/null
	fi
	for t in /tests/t_*.sh /tests/u_*.sh /tests/x_*.sh; do
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
		mark "vmtest: running $name at $(now) s"
		run_test "$t" | tee /run/vmtest/out
		rc=$(cat /run/vmtest/rc)
		if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' /run/vmtest/out; then
			if [ "$rc" -eq 143 ]; then
				echo "FAIL vm/$name: exit $rc (timed out after ${TEST_TIMEOUT}s?)"
			else
				echo "FAIL vm/$name: exit $rc"
			fi
		fi
	done
	r=$((r + 1))
done

# Done: run.sh needs this line to trust the results. Closing the port waits until the
# UART has sent everything (poweroff would cut the last lines).
mark "vmtest: done at $(now) s"
echo "VMTEST-DONE"
exec >/dev/null 2>&1 </dev/null
sleep 0.5
poweroff -f
