#!/usr/bin/env python3
# Write a recording whose one program's latency steps from one band to another halfway through:
# N one-second intervals, RUNS runs each, all at LO ns in the first half and at HI ns in the
# second (the heatmap's test shape). Records are built by tests/lrec.py.
#
#   tests/ui/mkstep.py OUT [N [LO [HI [RUNS]]]]   (defaults: 40 1000 100000 1000)
import os, sys

sys.dont_write_bytecode = True  # import tests/lrec.py without leaving __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lrec import entry, header, interval, series  # noqa: E402


def main():
    out = sys.argv[1]
    n, lo, hi, runs = [int(a) for a in sys.argv[2:6]] + [40, 1000, 100000, 1000][len(sys.argv) - 2:]
    parts = [header("programs", "stepper"), series(1, 77, 0, 0, b"step_prog", b"xdp")]
    for k in range(n):
        parts.append(interval(k, [entry(1, 77, 0, 0, [(lo if k < n // 2 else hi, runs)])]))
    open(out, "wb").write(b"".join(parts))


main()
