#!/usr/bin/env python3
# Write recordings for the A/B comparison's tests (--compare), records built by tests/lrec.py
# as src/rec/rec.h and src/rec/writer.c describe them (format 1.2).
#
#   tests/host/mkab.py a OUT      before: same_prog, slow_prog (+ its helper), noisy, old_prog,
#                                 the span rpc_span
#   tests/host/mkab.py b OUT      after: the same under new IDs, slow_prog (and nothing else) 2x
#                                 slower, noisy 3% slower, new_prog instead of old_prog
#   tests/host/mkab.py helpers OUT  a helpers-mode recording (a mode the others are not)
#   tests/host/mkab.py bshort OUT   b with its first 10 intervals only, its clock 1000 s later
#   tests/host/mkab.py xa OUT, xb OUT  a and b with hostile names (markup, a quote, an escape
#                                 and a byte that is no UTF-8) for same_prog, old_prog and
#                                 new_prog, and a hostile host name
#
# Every interval lasts 1 s. Per interval k of N = 20:
#   same_prog  600 runs at 1000 + 10 (k % 5) ns, 400 at 3000 ns              (A and B alike)
#   slow_prog  900 runs at 2000 + 40 (k % 4) ns, 100 at 8000 ns              (B: every value 2x)
#   noisy      k even: 600 at 1000, 400 at 10000; k odd: 400 at 1000, 600 at 10000
#              (B: every value x1.03: its p50 sits between the modes, so the bootstrap's noise
#              on it is large and its 3% are not significant; p99 and max move 3% for sure)
#   the helper bpf_map_lookup_elem of slow_prog on map "flows": 500 runs at 300 ns (A and B)
#   rpc_span (a segment): 100 runs at 50000 ns (A and B)
#   old_prog (A only), new_prog (B only): 10 runs at 5000 ns
#   stats_prog: bpf_stats counts only (no histogram): 100 runs an interval, 200 in B
import os, sys

sys.dont_write_bytecode = True  # import tests/lrec.py without leaving __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lrec import entry, header, interval, series, stats_entry  # noqa: E402

N = 20

# The hostile names of xa/xb (bytes, under 64).
EVIL = {"same_prog": b"<img src=x onerror=document.title='PWNED'>",
        "old_prog": b"q\"uo'te&amp;<b>b</b>\x1b[31m\xffend",
        "new_prog": b"</title><script>document.title='PWNED'</script>"}


def side(b, evil=False, n=N, t0=0):
    f = 2 if b else 1          # slow_prog's factor
    g = 1.03 if b else 1.0     # noisy's factor
    base = 200 if b else 100   # program IDs change between loads
    progs = {"same_prog": base + 1, "slow_prog": base + 2, "noisy": base + 3,
             ("new_prog" if b else "old_prog"): base + 4}
    parts = [header("programs", "<script>alert('host')</script>" if evil else "abhost")]
    for name, sid in progs.items():
        parts.append(series(1, sid, 0, 0, EVIL.get(name, name.encode()) if evil else name.encode(),
                            b"xdp"))
    mapid = 9 if b else 7
    parts.append(series(2, progs["slow_prog"], 1, mapid, b"bpf_map_lookup_elem", b"hash",
                        b"flows"))
    parts.append(series(3, 0, 0, 0, b"rpc_span", b"uprobe"))
    parts.append(series(1, base + 5, 0, 0, b"stats_prog", b"xdp", src=1))
    for k in range(n):
        lo, hi = (600, 400) if k % 2 == 0 else (400, 600)
        e = [entry(1, progs["same_prog"], 0, 0, [(1000 + 10 * (k % 5), 600), (3000, 400)]),
             entry(1, progs["slow_prog"], 0, 0, [(f * (2000 + 40 * (k % 4)), 900), (f * 8000, 100)]),
             entry(1, progs["noisy"], 0, 0, [(round(1000 * g), lo), (round(10000 * g), hi)]),
             entry(1, base + 4, 0, 0, [(5000, 10)]),
             entry(2, progs["slow_prog"], 1, mapid, [(300, 500)]),
             entry(3, 0, 0, 0, [(50000, 100)]),
             stats_entry(base + 5, 500, 200 if b else 100)]
        parts.append(interval(k, e, t0))
    return b"".join(parts)


def helpers():
    parts = [header("helpers", "abhost"), series(1, 5, 0, 0, b"hprog", b"xdp"),
             series(2, 5, 1, 3, b"bpf_map_lookup_elem", b"hash", b"m")]
    for k in range(3):
        parts.append(interval(k, [entry(2, 5, 1, 3, [(300, 10)])]))
    return b"".join(parts)


def main():
    what, out = sys.argv[1], sys.argv[2]
    data = {"a": lambda: side(False), "b": lambda: side(True), "helpers": helpers,
            "xa": lambda: side(False, True), "xb": lambda: side(True, True),
            "bshort": lambda: side(True, n=N // 2, t0=1000 * 10**9)}[what]()
    open(out, "wb").write(data)


main()
