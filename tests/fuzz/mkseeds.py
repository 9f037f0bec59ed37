#!/usr/bin/env python3
# Make the helpers-mode fuzz seeds from a recording written by
#   .output/tests/test_rec_helpers --write h.lrec
# (two programs, three helper series with map names, a counters record, three intervals):
#   helpers_v12.lrec        the recording as written (format 1.2, map names in series records)
#   helpers_v11_small.lrec  as format 1.1 wrote it (no map names), metadata "{}", and 1 lost
#                           writer frame in the last interval: small, so mutations hit records
# Usage: tests/fuzz/mkseeds.py h.lrec tests/fuzz/corpus
import struct, sys, zlib

src, out = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
open(out + "/helpers_v12.lrec", "wb").write(data)
meta_len = struct.unpack_from("<I", data, 16)[0]
off, recs = 20 + meta_len, []
while off + 12 <= len(data):
    t, n = struct.unpack_from("<II", data, off)
    recs.append((t, bytearray(data[off + 8:off + 8 + n])))
    off += 12 + n
res, ivals = bytearray(), sum(1 for t, _ in recs if t == 2)
for t, p in recs:
    if t == 1:  # series: drop the map name (sub_len at 26 becomes 1.1's pad)
        sub = struct.unpack_from("<H", p, 26)[0]
        p = p[:len(p) - sub]
        struct.pack_into("<H", p, 26, 0)
    if t == 2:
        ivals -= 1
        if ivals == 0:
            struct.pack_into("<I", p, 68, 1)  # lost_frames
    rec = struct.pack("<II", t, len(p)) + bytes(p)
    res += rec + struct.pack("<I", zlib.crc32(rec) & 0xffffffff)
hdr = b"LATTOPREC\0\0\0" + struct.pack("<II", 1 << 16 | 1, 2) + b"{}"
open(out + "/helpers_v11_small.lrec", "wb").write(hdr + res)
