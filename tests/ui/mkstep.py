#!/usr/bin/env python3
# Write a recording whose one program's latency steps from one band to another halfway through:
# N one-second intervals, RUNS runs each, all at LO ns in the first half and at HI ns in the
# second (the heatmap's test shape). Records are built as src/model/rec.h describes them.
#
#   tests/ui/mkstep.py OUT [N [LO [HI [RUNS]]]]   (defaults: 40 1000 100000 1000)
import json, struct, sys, zlib


def rec(t, payload):
    head = struct.pack("<II", t, len(payload)) + payload
    return head + struct.pack("<I", zlib.crc32(head) & 0xffffffff)


def uleb(v):
    out = bytearray()
    while True:
        b, v = v & 0x7f, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def bucket(v):
    # bpf/hist_bucket.h: shift = msb(v | 127) - 6, index = shift * 64 + (v >> shift)
    shift = (v | 127).bit_length() - 1 - 6
    return shift * 64 + (v >> shift)


def series(sid, name, typ):
    p = struct.pack("<HHIIIIHHHH", 1, 0, sid, 0, 0, 4, len(name), len(typ), 0, 0)
    return rec(1, p + name + typ)


def entry(sid, v, n):
    bb = uleb(bucket(v)) + uleb(n)
    p = struct.pack("<HHIIIQQQQQQQQII", 1, 1, sid, 0, 0, 0, 0, 0, n, n * v, v, v, 0, 1, len(bb))
    return p + bb


def interval(k, entries):
    p = struct.pack("<QQIIQQQQQII", k * 10**9, (k + 1) * 10**9, 0, len(entries),
                    0, 0, 0, 0, 0, 0, 0)
    return rec(2, p + b"".join(entries))


def main():
    out = sys.argv[1]
    n, lo, hi, runs = [int(a) for a in sys.argv[2:6]] + [40, 1000, 100000, 1000][len(sys.argv) - 2:]
    meta = json.dumps({"source": "fentry", "mode": "programs", "interval_ns": 10**9,
                       "host": "stepper", "kernel": "0"}).encode()
    parts = [b"LATTOPREC\0\0\0" + struct.pack("<II", 1 << 16 | 2, len(meta)) + meta,
             series(77, b"step_prog", b"xdp")]
    for k in range(n):
        parts.append(interval(k, [entry(77, lo if k < n // 2 else hi, runs)]))
    open(out, "wb").write(b"".join(parts))


main()
