#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""mkperf.py - write a perf.data file laid out as LinuxTracepoints' perf-collect writes one
(file header, data section, feature sections, attrs and their ids last) holding EventHeader
activities of tracepoint user_events:LatTestProvider_L4K1, for tests/host/t_perfdata.sh and the
fuzz seeds; or a damaged copy of it.

    mkperf.py OUT [VARIANT]

The good file ("good"): 40 "Request" activities 100 ms apart (the first at the file's first
instant), 1 to 8 ms long, every fourth with a nested "Inner" of 0.3 ms; an odd one starts on
CPU 1 and stops on CPU 0. Each CPU's events of a round (one per second) are written together,
CPU 0's first, so a stop can come before its start in the file. Also: a stop without a start,
a PERF_RECORD_LOST of 3, a sample of a tracepoint that is not EventHeader (sched:sched_switch),
FINISHED_INIT and FINISHED_ROUND records. With -d 1: 10 Requests in each of 4 intervals, and
3, 2, 3, 2 Inners.

The other variants (see VARIANTS) damage it: cut short, huge sizes, bad offsets, overlapping
sections, absurd counts, a bad record, a bad sample, an absurd time span.
"""
import struct
import sys

SAMPLE_TYPE = 0x10486  # IDENTIFIER | TID | TIME | CPU | RAW: perf-collect's default
ATTR_LEN = 128
T0 = 5_000_000_000
EH_TP, EH_CONFIG, EH_IDS = "user_events:LatTestProvider_L4K1", 1234, (100, 101)
OTHER_TP, OTHER_CONFIG, OTHER_IDS = "sched:sched_switch", 55, (200, 201)


def eh_event(op, act, name=None):
    """An EventHeader event (little-endian, 64-bit, level 4): opcode op, activity id act
    (None: no activity extension), metadata naming it when name is given."""
    flags = 0x03 | (0x04 if act is not None or name else 0)
    b = bytes([flags, 0]) + struct.pack("<HH", 7, 0) + bytes([op, 4])
    if act is not None:
        b += struct.pack("<HH", 16, 2 | (0x8000 if name else 0))
        b += struct.pack("<QQ", act, 0)
    if name:
        meta = name.encode() + b"\0"
        b += struct.pack("<HH", len(meta), 1) + meta
    return b


# The other layout: every field perf-collect can be asked for but IDENTIFIER (the id is ID's,
# after IP, TID, TIME and ADDR), with a callchain of 2.
ALL_BUT_IDENTIFIER = 0x7EF


def sample(sid, config, tid, time, cpu, payload):
    """A PERF_RECORD_SAMPLE of SAMPLE_TYPE: the raw data is the tracepoint's common fields
    and the payload, padded so that the record stays 8-byte aligned."""
    raw = struct.pack("<HBBi", config, 0, 0, tid) + payload
    raw += b"\0" * ((-(len(raw) + 4)) % 8)
    if SAMPLE_TYPE == ALL_BUT_IDENTIFIER:
        body = struct.pack("<QIIQQQQIIQ", 0xFFFF0000, tid, tid, time, 0xADD, sid, sid, cpu, 0, 1)
        body += struct.pack("<QQQ", 2, 0x1111, 0x2222)
    else:
        body = struct.pack("<QIIQII", sid, tid, tid, time, cpu, 0)
    body += struct.pack("<I", len(raw)) + raw
    return struct.pack("<IHH", 9, 0, 8 + len(body)) + body


def record(rtype, body=b""):
    return struct.pack("<IHH", rtype, 0, 8 + len(body)) + body


def events():
    """(time, cpu, tid, tracepoint, payload) of the good file."""
    ev = []
    for i in range(40):
        start = T0 + i * 100_000_000
        dur = (i % 8 + 1) * 1_000_000
        c0, c1 = (1, 0) if i % 2 else (0, 0)
        tid = 1000 + i % 4
        ev.append((start, c0, tid, "eh", eh_event(1, i + 1, "Request")))
        if i % 4 == 0:
            ev.append((start + 200_000, c0, tid, "eh", eh_event(1, 1000 + i, "Inner")))
            ev.append((start + 500_000, c0, tid, "eh", eh_event(2, 1000 + i)))
        ev.append((start + dur, c1, tid, "eh", eh_event(2, i + 1, "RequestStop")))
    ev.append((T0 + 3_950_000_000, 0, 999, "eh", eh_event(2, 77777)))  # no start: unmatched
    ev.append((T0 + 1_500_000_000, 1, 998, "other", b"\0" * 16))
    return ev


def data_section(ev):
    """The records: per round (second), CPU 0's events then CPU 1's, each in time order."""
    out = [record(82)]  # FINISHED_INIT
    rounds = {}
    for e in ev:
        rounds.setdefault((e[0] - T0) // 1_000_000_000, []).append(e)
    for r in sorted(rounds):
        for cpu in (0, 1):
            for t, c, tid, tp, payload in sorted(x for x in rounds[r] if x[1] == cpu):
                sid, cfg = (EH_IDS[c], EH_CONFIG) if tp == "eh" else (OTHER_IDS[c], OTHER_CONFIG)
                out.append(sample(sid, cfg, tid, t, c, payload))
        if r == 1:
            out.append(record(2, struct.pack("<QQ", EH_IDS[0], 3)))  # PERF_RECORD_LOST
        out.append(record(68))  # FINISHED_ROUND
    return b"".join(out)


def attr(config):
    a = struct.pack("<IIQQQQ", 2, ATTR_LEN, config, 1, SAMPLE_TYPE, 0)
    return a + b"\0" * (ATTR_LEN - len(a))


def pstring(s):
    b = s.encode() + b"\0"
    b += b"\0" * ((-len(b)) % 8)
    return struct.pack("<I", len(b)) + b


def event_desc(descs):
    out = struct.pack("<II", len(descs), ATTR_LEN)
    for name, config, ids in descs:
        out += attr(config) + struct.pack("<I", len(ids)) + pstring(name)
        out += b"".join(struct.pack("<Q", i) for i in ids)
    return out


def build(data=None, descs=None, nattrs_extra=0):
    """The whole file; returns its bytes and the offsets of its parts."""
    descs = descs or [(EH_TP, EH_CONFIG, EH_IDS), (OTHER_TP, OTHER_CONFIG, OTHER_IDS)]
    data = data if data is not None else data_section(events())
    feats = {
        3: pstring("perfhost"),
        4: pstring("6.12.0-test"),
        6: pstring("x86_64"),
        12: event_desc(descs),
        29: struct.pack("<IIQQ", 1, 4, 1_700_000_000_000_000_000, T0 - 1_000_000_000),
    }
    hdr_len = 104
    data_off = hdr_len
    feat_off = data_off + len(data)
    body = b""
    at = feat_off + 16 * len(feats)
    secs = b""
    for bit in sorted(feats):
        secs += struct.pack("<QQ", at, len(feats[bit]))
        at += len(feats[bit])
        body += feats[bit]
    attrs_off = at
    entries = [(config, ids) for _, config, ids in descs] + [(9000 + k, ()) for k in range(nattrs_extra)]
    entry_len = ATTR_LEN + 16
    ids_at = attrs_off + entry_len * len(entries)
    attrs = ids = b""
    for config, idl in entries:
        attrs += attr(config) + struct.pack("<QQ", ids_at + len(ids), 8 * len(idl))
        ids += b"".join(struct.pack("<Q", i) for i in idl)
    flags = sum(1 << b for b in feats)
    header = b"PERFILE2" + struct.pack("<QQ", hdr_len, entry_len)
    header += struct.pack("<QQQQQQ", attrs_off, entry_len * len(entries), data_off, len(data), 0, 0)
    header += struct.pack("<QQQQ", flags, 0, 0, 0)
    f = bytearray(header + data + secs + body + attrs + ids)
    return f, {"data": data_off, "feat": feat_off, "attrs": attrs_off, "ids": ids_at}


def put64(f, at, v):
    f[at:at + 8] = struct.pack("<Q", v)


def v_good():
    return build()[0]


def v_cut(frac):
    def f():
        g = build()[0]
        return g[: int(len(g) * frac)]
    return f


def v_header(at, value):
    def f():
        g = build()[0]
        put64(g, at, value)
        return g
    return f


def v_overlap():
    g, off = build()
    put64(g, 24, off["data"])  # the attrs section where the data is
    return g


def v_many_attrs():
    return build(nattrs_extra=4100)[0]


def v_bad_record():
    data = data_section(events())
    # A record of size 4 (less than its header) after the first 20 records.
    at, n = 0, 0
    while n < 20:
        at += struct.unpack_from("<H", data, at + 6)[0]
        n += 1
    return build(data=data[:at] + struct.pack("<IHH", 9, 0, 4) + data[at:])[0]


def v_bad_sample():
    data = data_section(events())
    # A sample whose raw size runs past its record, and one of an unknown id.
    bad = sample(EH_IDS[0], EH_CONFIG, 1, T0 + 10, 0, eh_event(1, 5, "X"))
    bad = bad[:40] + struct.pack("<I", 0xFFFFFF00) + bad[44:]
    unk = sample(4242, EH_CONFIG, 1, T0 + 11, 0, eh_event(1, 6, "Y"))
    return build(data=data + bad + unk)[0]


def v_desc_nr():
    g, off = build()
    # The event descriptions say 2^32-1 events: no name is read, no EventHeader tracepoint.
    at = struct.unpack_from("<Q", g, off["feat"] + 16 * 3)[0]
    g[at:at + 4] = struct.pack("<I", 0xFFFFFFFF)
    return g


def v_ids_huge():
    g, off = build()
    put64(g, off["attrs"] + ATTR_LEN + 8, 1 << 40)
    return g


def v_time_span():
    data = data_section(events())
    return build(data=data + sample(EH_IDS[0], EH_CONFIG, 1, 1 << 62, 0, eh_event(1, 9, "Z")))[0]


def v_escape():
    """Terminal escapes in the host name and in an activity's name."""
    ev = [(T0, 0, 1, "eh", eh_event(1, 1, "Bad\x1b[2J\x07")), (T0 + 5, 0, 1, "eh", eh_event(2, 1))]
    g = build(data=data_section(ev))[0]
    at = g.find(b"perfhost")
    g[at:at + 8] = b"\x1b]0;pwn\x07"
    return g


def v_sample_types():
    """The good file's events in the other sample layout."""
    global SAMPLE_TYPE
    SAMPLE_TYPE = ALL_BUT_IDENTIFIER
    return build()[0]


def v_big_endian():
    g = build()[0]
    g[0:8] = b"2ELIFREP"
    return g


VARIANTS = {
    "good": v_good,
    "cut-header": v_cut(0.0003),
    "cut-half": v_cut(0.5),
    "cut-attrs": v_cut(0.99),
    "huge-data": v_header(48, 1 << 63),
    "huge-attr-size": v_header(16, 1 << 40),
    "bad-attrs-off": v_header(24, 1 << 40),
    "no-attrs": v_header(32, 0),
    "overlap": v_overlap,
    "many-attrs": v_many_attrs,
    "bad-record": v_bad_record,
    "bad-sample": v_bad_sample,
    "desc-nr": v_desc_nr,
    "ids-huge": v_ids_huge,
    "time-span": v_time_span,
    "big-endian": v_big_endian,
    "escape": v_escape,
    "sample-types": v_sample_types,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or (len(sys.argv) > 2 and sys.argv[2] not in VARIANTS):
        sys.exit("usage: mkperf.py OUT [" + "|".join(VARIANTS) + "]")
    with open(sys.argv[1], "wb") as out:
        out.write(VARIANTS[sys.argv[2] if len(sys.argv) > 2 else "good"]())
