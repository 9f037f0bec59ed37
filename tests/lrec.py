# Recording writer shared by the tests' generators (tests/host/mkab.py, tests/host/mkreport.py,
# tests/ui/mkstep.py): records built as src/rec/rec.h and src/rec/writer.c describe them
# (format 1.2), each framed with its type, length and a good CRC, so the reader takes all of it.
import json, struct, zlib


def rec(t, payload):
    """One record: type, length, payload, then the CRC-32 of all three."""
    head = struct.pack("<II", t, len(payload)) + payload
    return head + struct.pack("<I", zlib.crc32(head) & 0xffffffff)


def uleb(v):
    """v as an unsigned LEB128 varint."""
    out = bytearray()
    while True:
        b, v = v & 0x7f, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def bucket(v):
    """The histogram bucket of v ns."""
    # bpf/hist_bucket.h: shift = msb(v | 127) - 6, index = shift * 64 + (v >> shift)
    shift = (v | 127).bit_length() - 1 - 6
    return shift * 64 + (v >> shift)


def header(mode, host, kernel="0"):
    """The file header: magic, version 1.2 and the JSON metadata."""
    meta = json.dumps({"source": "fentry", "mode": mode, "interval_ns": 10**9,
                       "host": host, "kernel": kernel}).encode()
    return b"LATTOPREC\0\0\0" + struct.pack("<II", 1 << 16 | 2, len(meta)) + meta


def series(kind, sid, aux, aux2, name, typ, sub=b"", src=4):
    """A series record (type 1) naming one series of the given kind."""
    p = struct.pack("<HHIIIIHHHH", kind, 0, sid, aux, aux2, src, len(name), len(typ), 0, len(sub))
    return rec(1, p + name + typ + sub)


def entry(kind, sid, aux, aux2, runs):
    """An interval entry with a histogram of runs: [(value_ns, n), ...]."""
    per = {}
    for v, n in runs:
        per[bucket(v)] = per.get(bucket(v), 0) + n
    bb, prev = b"", 0
    for b in sorted(per):
        bb += uleb(b - prev) + uleb(per[b])
        prev = b
    n = sum(c for _, c in runs)
    s = sum(v * c for v, c in runs)
    p = struct.pack("<HHIIIQQQQQQQQII", kind, 1, sid, aux, aux2, 0, 0, 0, n, s,
                    min(v for v, _ in runs), max(v for v, _ in runs), 0, len(per), len(bb))
    return p + bb


def stats_entry(sid, v, n, total=0):
    """A program's entry with no histogram (flags 0): a bpf_stats delta of n runs of v ns."""
    return struct.pack("<HHIIIQQQQQQQQII", 1, 0, sid, 0, 0, n, n * v, total, 0, 0, 0, 0, 0, 0, 0)


def interval(k, entries, t0=0, rb=0, queue=0):
    """Interval k (1 s long, from t0) with its entries and ring-buffer and queue drops."""
    p = struct.pack("<QQIIQQQQQII", t0 + k * 10**9, t0 + (k + 1) * 10**9, 0, len(entries),
                    0, rb, queue, 0, 0, 0, 0)
    return rec(2, p + b"".join(entries))
