#!/usr/bin/env bash
# The EventHeader tests (`make vmtest-uevents`): lattop's --activities against Microsoft's
# reference implementation, on a kernel with user_events (no Debian kernel has it).
#
# 1. tests/vm/build-uevents-kernel.sh builds that kernel once (cached; a changed
#    kernel.config rebuilds it);
# 2. LinuxTracepoints (../shared/third_party, read-only) is built with cmake into
#    ${LATTOP_TEST_CACHE:-tests/vm/.cache}/linuxtracepoints once, and producer.c (ours) against its
#    TraceLoggingProvider.h;
# 3. tests/vm/run.sh boots that kernel (VM_KERNEL_IMAGE) with the guest tests of guest/
#    (VM_GUEST_EXTRA; VM_TESTS='u_*' runs only them) and the binaries of bins.txt.
# Without the source, cmake or the reference: "SKIP vm-uevents: why" (a failure with
# VM_REQUIRED=1).
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUTPUT=${OUTPUT:-.output}
C=${LATTOP_TEST_CACHE:-tests/vm/.cache}
LT_SRC=${LINUXTRACEPOINTS:-$(cd .. && pwd)/shared/third_party/LinuxTracepoints}
LT=$C/linuxtracepoints

skip() {
	if [ "${VM_REQUIRED:-0}" = 1 ]; then
		echo "FAIL vm/uevents-setup: $1 (VM_REQUIRED=1)"
		echo "END vm 1"
		exit 1
	fi
	echo "SKIP vm-uevents: $1"
	echo "END vm 1"
	exit 0
}

# The kernel (exit 2: no source to build from).
t0=$(date +%s)
img=$(bash tests/vm/build-uevents-kernel.sh) || {
	rc=$?
	[ $rc = 2 ] && skip "the user_events kernel cannot be built here (see above)"
	echo "FAIL vm/uevents-kernel: tests/vm/build-uevents-kernel.sh exited $rc"
	echo "END vm 1"
	exit 1
}
echo "vm-uevents: kernel ready after $(($(date +%s) - t0)) s: $img" >&2

# The reference implementation, built once per source tree.
[ -f "$LT_SRC/CMakeLists.txt" ] || skip "no LinuxTracepoints at $LT_SRC"
command -v cmake >/dev/null && command -v g++ >/dev/null || skip "cmake and g++ are needed"
# (A build directory copied from elsewhere is one cmake refuses: the marker names both paths.)
mkdir -p "$LT"
LT=$(cd "$LT" && pwd)
if [ ! -x "$LT/build/bin/perf-decode" ] || [ "$(cat "$LT/src" 2>/dev/null)" != "$LT_SRC $LT" ]; then
	echo "vm-uevents: building LinuxTracepoints in $LT/build" >&2
	rm -rf "$LT/build"
	nice cmake -S "$LT_SRC" -B "$LT/build" -DCMAKE_BUILD_TYPE=Release >&2
	nice cmake --build "$LT/build" -j2 --target perf-collect perf-decode eventheader-tracepoint \
		tracepoint >&2
	echo "$LT_SRC $LT" >"$LT/src"
fi
# Our producer, against the reference's TraceLoggingProvider.h and its libraries.
mkdir -p "$OUTPUT/tests/vm"
gcc -O2 -Wall -Wextra -o "$OUTPUT/tests/vm/eh-producer" tests/vm/uevents/producer.c \
	-I"$LT_SRC/libeventheader-tracepoint/include" -I"$LT_SRC/libtracepoint/include" \
	"$LT/build/lib/libeventheader-tracepoint.a" "$LT/build/lib/libtracepoint.a" -lpthread
# The reference's consumer tools next to it, so that bins.txt names only $OUTPUT paths.
cp "$LT/build/bin/perf-collect" "$LT/build/bin/perf-decode" "$OUTPUT/tests/vm/"

# The clock: this kernel has no HPET or ACPI PM timer, so under TCG its TSC calibration against
# the PIT fails or its watchdog (jiffies) finds the TSC skewed, and it falls back to
# refined-jiffies (4 ms steps: every duration a multiple of 4 ms). QEMU's TCG TSC counts at
# the host's TSC rate: that rate (tsc_early_khz, from the host's cpu MHz) and tsc=reliable
# give the guest a nanosecond clock.
khz=$(awk '/^cpu MHz/ {printf "%d", $4 * 1000; exit}' /proc/cpuinfo 2>/dev/null || true)
VM_APPEND="tsc=reliable${khz:+ tsc_early_khz=$khz}${VM_APPEND:+ $VM_APPEND}" \
	VM_KERNEL_IMAGE=$img VM_GUEST_EXTRA=tests/vm/uevents/guest VM_TESTS=${VM_TESTS:-u_*} \
	VM_BINS_EXTRA=tests/vm/uevents/bins.txt exec bash tests/vm/run.sh
