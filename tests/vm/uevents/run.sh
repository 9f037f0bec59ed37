#!/usr/bin/env bash
# The EventHeader tests (`make vmtest-uevents`): lattop's --activities against Microsoft's
# reference implementation, on a kernel with user_events (no Debian kernel has it).
#
# 1. tests/vm/build-uevents-kernel.sh builds that kernel once (cached; a changed
#    kernel.config rebuilds it);
# 2. LinuxTracepoints (../shared/third_party, read-only) is built with cmake into
#    tests/vm/.cache/linuxtracepoints once, and producer.c (ours) against its
#    TraceLoggingProvider.h;
# 3. tests/vm/run.sh boots that kernel (VM_KERNEL_IMAGE) with the guest tests of guest/
#    (VM_GUEST_EXTRA; VM_TESTS='u_*' runs only them) and the binaries of bins.txt.
# Without the source, cmake or the reference: "SKIP vm-uevents: why" (a failure with
# VM_REQUIRED=1).
set -euo pipefail
cd "$(dirname "$0")/../../.."
OUTPUT=${OUTPUT:-.output}
C=tests/vm/.cache
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
if [ ! -x "$LT/build/bin/perf-decode" ] || [ "$(cat "$LT/src" 2>/dev/null)" != "$LT_SRC" ]; then
	echo "vm-uevents: building LinuxTracepoints in $LT/build" >&2
	nice cmake -S "$LT_SRC" -B "$LT/build" -DCMAKE_BUILD_TYPE=Release >&2
	nice cmake --build "$LT/build" -j2 --target perf-collect perf-decode eventheader-tracepoint \
		tracepoint >&2
	echo "$LT_SRC" >"$LT/src"
fi
# Our producer, against the reference's TraceLoggingProvider.h and its libraries.
mkdir -p "$OUTPUT/tests/vm"
gcc -O2 -Wall -Wextra -o "$OUTPUT/tests/vm/eh-producer" tests/vm/uevents/producer.c \
	-I"$LT_SRC/libeventheader-tracepoint/include" -I"$LT_SRC/libtracepoint/include" \
	"$LT/build/lib/libeventheader-tracepoint.a" "$LT/build/lib/libtracepoint.a" -lpthread

VM_KERNEL_IMAGE=$img VM_GUEST_EXTRA=tests/vm/uevents/guest VM_TESTS=${VM_TESTS:-u_*} \
	VM_BINS_EXTRA=tests/vm/uevents/bins.txt exec bash tests/vm/run.sh
