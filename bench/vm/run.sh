#!/usr/bin/env bash
# The VM benchmark (`make vmbench`): one boot of tests/vm's Debian kernel under QEMU TCG with 4
# vCPUs running bench/vm/guest/x_vmbench.sh, then the table of bench/vm/table.py. Never a timed
# assertion: the only checks are exact counts. See bench/README.md.
#
# Environment: OUTPUT (.output), VMB_SMP (vCPUs, 4), VMB_ROUNDS (interleaved rounds, 3),
# VMB_CALLS (bpf_prog_test_run calls per thread and measurement, 5), VMB_REPEAT (runs per call,
# 20000), VMB_OBS (the observers to run, space-separated, of: stats ref refstats agg aggplain
# lattopring lattop lattopnostats lattopbefore, and, watching bench_update (one hash-map update
# per run) for helpers mode, hstats href hrefstats hlattop hlattopnostats, and ctxsw (the split
# spans' cost per context switch: a ping-pong bare and under lattop); all but hstats,
# hrefstats and lattopbefore by default), VMB_BEFORE (a lattop binary built from an earlier commit: adds the observer
# lattopbefore, the same batch session run with that binary), VMB_VARIANTS ("NAME=PATH ...":
# lattop binaries built with one change each, e.g. a part of the probes' path removed; each adds
# the observer v_NAME, that binary's `--no-stats` session, to compare with lattopnostats in the
# same boot), VMB_ICOUNT=1 (QEMU -icount
# shift=0 on single-threaded TCG: a guest ns is one instruction, so "ns per run" counts the
# instructions each run executes, without the host's timing noise), VMB_TSC (reliable: the
# guest boots with tsc=reliable, below; watchdog: the kernel's clocksource watchdog decides),
# VMB_DIAG=1 (VMD lines: the guest's clocksource before each measurement, where the attached BPF
# code lies), VM_* knobs of tests/vm/run.sh (VM_TEST_TIMEOUT defaults to 2400 s here).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTPUT=${OUTPUT:-.output}
OUT=$OUTPUT/bench/vm
mkdir -p "$OUT/guest"
rm -f "$OUT"/guest/*
cp bench/vm/guest/*.sh "$OUT/guest/"
OBS=${VMB_OBS:-stats ref refstats agg aggplain lattopring lattop lattopnostats href hlattop hlattopnostats ctxsw}
cp bench/vm/bins.txt "$OUT/bins.txt"
if [ -n "${VMB_BEFORE:-}" ]; then
	[ -x "$VMB_BEFORE" ] || { echo "vmbench: VMB_BEFORE=$VMB_BEFORE is not an executable" >&2; exit 2; }
	cp "$VMB_BEFORE" "$OUT/lattop-before"
	echo '$OUTPUT/bench/vm/lattop-before' >>"$OUT/bins.txt"
	[ -n "${VMB_OBS:-}" ] || OBS="$OBS lattopbefore"
fi
VARIANTS=
rm -f "$OUT"/lattop-v-*
for v in ${VMB_VARIANTS:-}; do
	name=${v%%=*} path=${v#*=}
	case $name in
	'' | *[!a-z0-9_]*)
		echo "vmbench: VMB_VARIANTS entry '$v' must be NAME=PATH, NAME of a-z, 0-9, _" >&2
		exit 2
		;;
	esac
	[ "$name" != "$v" ] && [ -x "$path" ] ||
		{ echo "vmbench: VMB_VARIANTS entry '$v' does not name an executable" >&2; exit 2; }
	cp "$path" "$OUT/lattop-v-$name"
	echo "\$OUTPUT/bench/vm/lattop-v-$name" >>"$OUT/bins.txt"
	VARIANTS="$VARIANTS $name"
done
printf 'VMB_VARIANTS="%s"\n' "${VARIANTS# }" >"$OUT/guest/vmbench.conf"
printf 'VMB_ROUNDS=%s\nVMB_CALLS=%s\nVMB_REPEAT=%s\nVMB_OBS="%s"\nVMB_ICOUNT=%s\nVMB_DIAG=%s\n' \
	"${VMB_ROUNDS:-3}" "${VMB_CALLS:-5}" "${VMB_REPEAT:-20000}" "$OBS" "${VMB_ICOUNT:+1}" \
	"${VMB_DIAG:+1}" \
	>>"$OUT/guest/vmbench.conf"
printf 'VMB_SCALE_N=%s\nVMB_SCALE_SECS=%s\n' "${VMB_SCALE_N:-1000}" "${VMB_SCALE_SECS:-20}" \
	>>"$OUT/guest/vmbench.conf"
rm -f "$OUT/results.log"
rc=0
# multi-threaded TCG: the vCPUs must really run at once for the "all vCPUs driving" side.
tcg=${VMB_TCG_THREAD:-multi} icount=
[ -z "${VMB_ICOUNT:-}" ] || tcg=single icount=0
# The guest keeps the TSC as its clocksource. Under TCG on a loaded host the kernel's watchdog
# often finds the emulated TSC skewed against the emulated HPET and switches to the HPET, in
# some boots in the middle of a round; every bpf_ktime_get_ns (two per probed run) is then an
# emulated MMIO read, each observer's figure moves 4-5x and lattop's ratio to the reference with
# it (bench/README.md, "The slow mode"). A machine with an invariant TSC keeps it.
append=${VM_APPEND:-}
case ${VMB_TSC:-reliable} in
reliable) append="tsc=reliable${append:+ $append}" ;;
watchdog) ;;
*) echo "vmbench: VMB_TSC must be reliable or watchdog, not '$VMB_TSC'" >&2; exit 2 ;;
esac
# VMB_SCALE=1 (make vmbench-scale): the scale benchmark instead (x_vmscale.sh: VMB_SCALE_N
# programs, 1000, against 10; VMB_SCALE_SECS, 20, measured once all are probed).
guest=x_vmbench
[ -z "${VMB_SCALE:-}" ] || guest=x_vmscale
OUTPUT=$OUTPUT VM_APPEND=$append VM_SMP=${VMB_SMP:-4} VM_TCG_THREAD=$tcg VM_ICOUNT=$icount \
	VM_TESTS=$guest VM_GUEST_EXTRA=$OUT/guest \
	VM_BINS_EXTRA=$OUT/bins.txt VM_TEST_TIMEOUT=${VM_TEST_TIMEOUT:-2400} \
	VM_RESULTS_OUT=$OUT/results.log bash tests/vm/run.sh || rc=$?
if [ -s "$OUT/results.log" ]; then
	python3 bench/vm/table.py "$OUT/results.log" | tee "$OUT/table.md"
	echo "vmbench: raw lines in $OUT/results.log, table in $OUT/table.md"
fi
exit $rc
