#!/usr/bin/env python3
# Write a well-formed recording of a hostile shape, about SIZE bytes, to replay as a stranger's
# file would be: every record has a good CRC, so the reader accepts all of it and the cost is
# what applying and reporting it takes.
#
#   tests/fuzz/mkhostile.py SHAPE SIZE OUT
#
# Shapes:
#   series    one interval whose entries each name a new series with a histogram (no buckets):
#             88 bytes of file per series (each one cost three dense histograms, 54 KB)
#   spread    as series, each entry with one bucket in each 64-bucket stretch of the layout
#             (defeats bucket storage allocated in chunks)
#   counters  counters records naming a new session-wide counter each (~40 bytes per counter),
#             one interval after each record (a linear search per counter was quadratic)
#   orphans   series records of helpers whose program the recording never names, each with
#             its own program ID, then one interval (the totals report paired them in n^2)
#   idle      half the bytes in series with a histogram, half in empty intervals (closing an
#             interval visited every series: series x intervals)
#   helpers   programs, each with one helper, in helpers mode, then one interval: the view's
#             helper rows per program (programs x series per frame)
import json, struct, sys, zlib

HIST_NBUCKETS = 2240
KIND_PROG, KIND_HELPER, KIND_SEG = 1, 2, 3


def rec(t, payload):
    head = struct.pack("<II", t, len(payload)) + payload
    return head + struct.pack("<I", zlib.crc32(head) & 0xffffffff)


def series(kind, sid, aux=0, aux2=0, src=4, name=b"", typ=b"", sub=b""):
    p = struct.pack("<HHIIIIHHHH", kind, 0, sid, aux, aux2, src, len(name), len(typ), 0, len(sub))
    return rec(1, p + name + typ + sub)


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def entry(kind, sid, aux=0, aux2=0, buckets=()):
    bb, prev = bytearray(), 0
    for i, c in buckets:
        bb += uleb(i - prev) + uleb(c)
        prev = i
    n = sum(c for _, c in buckets)
    p = struct.pack("<HHIIIQQQQQQQQII", kind, 1, sid, aux, aux2, 0, 0, 0, n, n * 1000,
                    500 if n else 0, 2000 if n else 0, 0, len(buckets), len(bb))
    return p + bytes(bb)


def interval(k, entries=(), mode=0):
    body = b"".join(entries)
    p = struct.pack("<QQIIQQQQQII", k * 10**9, (k + 1) * 10**9, mode, len(entries),
                    0, 0, 0, 0, 0, 0, 0)
    return rec(2, p + body)


def counters(names):
    body = b""
    for nm in names:
        body += struct.pack("<HHIIIQHH", 0, 1, 0, 0, 0, 1, len(nm), 0) + nm
    return rec(5, struct.pack("<II", len(names), 0) + body)


def header(mode="programs"):
    meta = json.dumps({"source": "fentry", "mode": mode, "interval_ns": 10**9,
                       "host": "hostile", "kernel": "0"}).encode()
    return b"LATTOPREC\0\0\0" + struct.pack("<II", 1 << 16 | 2, len(meta)) + meta


def main():
    shape, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    parts = []
    if shape in ("series", "spread"):
        spread = [(64 * j + 1, 1) for j in range(HIST_NBUCKETS // 64)] if shape == "spread" else []
        per = 88 + sum(len(uleb(64)) + 1 for _ in spread)
        n = max(1, (size - 200) // per)
        parts.append(interval(0, [entry(KIND_PROG, 1000 + i, buckets=spread) for i in range(n)]))
    elif shape == "counters":
        n = max(1, (size - 200) // 140)
        for i in range(n):
            parts.append(counters([b"c%07d" % i]))
            parts.append(interval(i))
    elif shape == "orphans":
        n = max(1, (size - 300) // 40)
        for i in range(n):
            parts.append(series(KIND_HELPER, 5000 + i, 1, 7))
        parts.append(interval(0))
    elif shape == "idle":
        n = max(1, size // 2 // 88)
        parts.append(interval(0, [entry(KIND_PROG, 1000 + i) for i in range(n)]))
        for k in range(1, max(2, size // 2 // 84)):
            parts.append(interval(k))
    elif shape == "helpers":
        n = max(1, (size - 300) // 182)
        for i in range(n):
            parts.append(series(KIND_PROG, 1000 + i, name=b"p%d" % i))
            parts.append(series(KIND_HELPER, 1000 + i, 1, 7, name=b"map_lookup"))
        parts.append(interval(0, [entry(KIND_HELPER, 1000 + i, 1, 7, [(100, 1)])
                                  for i in range(n)], mode=1))
    else:
        sys.exit("mkhostile: unknown shape %s (series, spread, counters, orphans, idle, helpers)"
                 % shape)
    hdr = header("helpers" if shape == "helpers" else "programs")
    open(out, "wb").write(hdr + b"".join(parts))


main()
