#!/usr/bin/env python3
# Print "WIDTH HEIGHT DISTINCT LUMA" for a PNG (8-bit RGB or RGBA, not interlaced, as Chromium
# writes its screenshots): its size, how many distinct colours its pixels have, and the mean
# luma (0 black .. 255 white) of its pixels. Pure Python (zlib and the five PNG filters), so
# the test needs no imaging package.
#
#   tests/host/pngstat.py FILE.png
import struct, sys, zlib


def chunks(data):
    at = 8
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        yield kind, data[at + 8:at + 8 + n]
        at += 12 + n


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(raw, w, h, bpp):
    stride, prev, rows, at = w * bpp, bytearray(w * bpp), [], 0
    for _ in range(h):
        ft, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, paeth(a, b, c))[ft]) & 0xff
        rows.append(line)
        prev = line
    return rows


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    idat, w = b"", 0
    for kind, body in chunks(data):
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or inter:
                sys.exit("unsupported PNG: depth %d colour type %d interlace %d" % (depth, ctype, inter))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
    rows = unfilter(zlib.decompress(idat), w, h, bpp)
    colours, luma = set(), 0
    for line in rows:
        for x in range(0, len(line), bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            colours.add((r, g, b))
            luma += (299 * r + 587 * g + 114 * b) // 1000
    print(w, h, len(colours), luma // (w * h))


main()
