#!/usr/bin/env bash
# The VM benchmark (`make vmbench`): one boot of tests/vm's Debian kernel under QEMU TCG with 4
# vCPUs running bench/vm/guest/x_vmbench.sh, then the table of bench/vm/table.py. Never a timed
# assertion: the only checks are exact counts. See bench/README.md.
#
# Environment: OUTPUT (.output), VMB_SMP (vCPUs, 4), VMB_ROUNDS (interleaved rounds, 3),
# VMB_CALLS (bpf_prog_test_run calls per thread and measurement, 5), VMB_REPEAT (runs per call,
# 20000), VM_* knobs of tests/vm/run.sh (VM_TEST_TIMEOUT defaults to 2400 s here).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUTPUT=${OUTPUT:-.output}
OUT=$OUTPUT/bench/vm
mkdir -p "$OUT/guest"
rm -f "$OUT"/guest/*
cp bench/vm/guest/*.sh "$OUT/guest/"
printf 'VMB_ROUNDS=%s\nVMB_CALLS=%s\nVMB_REPEAT=%s\n' "${VMB_ROUNDS:-3}" "${VMB_CALLS:-5}" \
	"${VMB_REPEAT:-20000}" >"$OUT/guest/vmbench.conf"
rm -f "$OUT/results.log"
rc=0
# multi-threaded TCG: the vCPUs must really run at once for the "all vCPUs driving" side.
OUTPUT=$OUTPUT VM_SMP=${VMB_SMP:-4} VM_TCG_THREAD=${VMB_TCG_THREAD:-multi} VM_TESTS=x_vmbench VM_GUEST_EXTRA=$OUT/guest \
	VM_BINS_EXTRA=bench/vm/bins.txt VM_TEST_TIMEOUT=${VM_TEST_TIMEOUT:-2400} \
	VM_RESULTS_OUT=$OUT/results.log bash tests/vm/run.sh || rc=$?
if [ -s "$OUT/results.log" ]; then
	python3 bench/vm/table.py "$OUT/results.log" | tee "$OUT/table.md"
	echo "vmbench: raw lines in $OUT/results.log, table in $OUT/table.md"
fi
exit $rc
