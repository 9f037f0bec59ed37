#!/usr/bin/env python3
# Write a recording for the HTML report's tests, with shapes the page must show and names and
# metadata a stranger's file could hold (records built by tests/lrec.py, each with a good CRC,
# so the reader takes all of it):
#   - program 101 "stepper": 2000 runs an interval at 1 us, then at 64 us from the middle on;
#   - program 102 "steady": 1000 runs at 8 us every interval;
#   - programs 103.. with hostile names (markup, quotes, control bytes, invalid UTF-8), each
#     500 runs at 2 us, 3 us, ... (so they sort below the others by p99);
#   - program 90 "counted": bpf_stats counts only (no histogram), 100 runs of 5 us each;
#   - 7 ringbuf drops in interval 3 and 2 queue drops in interval 5;
#   - host and kernel strings with markup.
# With "many N" instead of the default shape: N programs "p0001".., program i at i x 100 ns.
#
#   tests/host/mkreport.py OUT [INTERVALS]   or   tests/host/mkreport.py OUT INTERVALS many N
import os, sys

sys.dont_write_bytecode = True  # import tests/lrec.py without leaving __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from lrec import entry, header, interval, series as lrec_series, stats_entry  # noqa: E402

HOSTILE = [
    b"<img src=x onerror=document.title='PWNED'>",
    b"</title><script>document.title='PWNED'</script>",
    b"q\"uo'te&amp;<b>bold</b>",
    b"esc\x1b[31mred\x07\x7f",
    b"bad\xff\xfeutf8\xc3",
]


def series(sid, name, typ, src=4):
    """A program's series record."""
    return lrec_series(1, sid, 0, 0, name, typ, src=src)


def hist_entry(sid, v, n):
    """A program's entry: n runs of v ns."""
    return entry(1, sid, 0, 0, [(v, n)])


def default_shape(n):
    parts = [series(101, b"stepper", b"xdp"), series(102, b"steady", b"xdp"),
             series(90, b"counted", b"tracing", src=1)]
    parts += [series(103 + i, nm, b"socket_filter") for i, nm in enumerate(HOSTILE)]
    for k in range(n):
        e = [hist_entry(101, 1000 if k < n // 2 else 64000, 2000), hist_entry(102, 8000, 1000),
             stats_entry(90, 5000, 100, 100 * (k + 1))]
        e += [hist_entry(103 + i, 2000 + 1000 * i, 500) for i in range(len(HOSTILE))]
        parts.append(interval(k, e, rb=7 if k == 3 else 0, queue=2 if k == 5 else 0))
    return parts


def many_shape(n, count):
    parts = [series(1000 + i, b"p%04d" % i, b"xdp") for i in range(1, count + 1)]
    for k in range(n):
        parts.append(interval(k, [hist_entry(1000 + i, 100 * i, 50) for i in range(1, count + 1)]))
    return parts


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    if len(sys.argv) > 3 and sys.argv[3] == "many":
        parts = many_shape(n, int(sys.argv[4]))
    else:
        parts = default_shape(n)
    open(out, "wb").write(header("programs", "<script>alert('host')</script>",
                                '6.1"><svg onload=alert(1)>') + b"".join(parts))


main()
