#!/usr/bin/env python3
# reclayout.py FILE: print the frame layout of a lattop recording without what a live run
# cannot repeat (times, counts, program IDs, and which interval a program first ran in): the
# version and the metadata (each record type's fields included); each series' kind, name,
# type, sub and last source flags, in order of first appearance; the intervals' modes; each
# series' entries (kind, the flags of all its entries together, name; sorted); the named
# counters (kind, loss, owner, name) in order of first appearance; the filter records, and the
# types of any other records (--raw's events). Only the programs the session measured per
# invocation (a source flag other than bpf_stats: the demo's, the watched ones) are kept: the
# others are whatever the machine had loaded (other sessions load demos of their own).
# Two runs of the same command then print the same layout unless the way lattop writes its
# recordings changed (tools/rec-compare.sh compares two builds this way).
import json, struct, sys

PROG = 1  # LAT_EV_PROG
SRC_STATS = 1


def records(data):
    """The header's metadata and the (type, payload) records of a recording."""
    assert data[:9] == b"LATTOPREC", "not a recording"
    ver, mlen = struct.unpack_from("<II", data, 12)
    meta = json.loads(data[20:20 + mlen])
    off, out = 20 + mlen, []
    while off + 8 <= len(data):
        t, n = struct.unpack_from("<II", data, off)
        out.append((t, data[off + 8:off + 8 + n]))
        off += 12 + n
    return ver, meta, out


def series(p, names):
    """A series record: its key's name is remembered for the entries."""
    kind, gone, sid, aux, aux2, src, ln, lt, lno, lsub = struct.unpack_from("<HHIIIIHHHH", p)
    at = 28
    name = p[at:at + ln].decode(); at += ln
    typ = p[at:at + lt].decode(); at += lt
    note = p[at:at + lno].decode(); at += lno
    sub = p[at:at + lsub].decode()
    names[(kind, sid, aux, aux2)] = name
    line = (f"series kind={kind} gone={gone} src={src:#x} name={name} type={typ} sub={sub} "
            f"note={note}")
    return (kind, sid, aux, aux2), src, line


def interval(p, names, keep):
    """An interval record: the entries of kept series, in order."""
    mode, n = struct.unpack_from("<II", p, 16)
    ents, at = [], 72
    for _ in range(n):
        kind, flags, sid, aux, aux2 = struct.unpack_from("<HHIII", p, at)
        nb, blen = struct.unpack_from("<II", p, at + 80)
        name = names.get((kind, sid, aux, aux2), "?")
        if keep((kind, sid, aux, aux2)):
            ents.append(f"{kind}:{flags}:{name}")
        at += 88 + blen
    return f"interval mode={mode} entries=[{' '.join(ents)}]"


def counters(p, names, keep):
    """A counters record: the counters' kinds, loss flags and names."""
    n, = struct.unpack_from("<I", p)
    out, at = [], 8
    for _ in range(n):
        kind, loss, sid, aux, aux2, _v, ln = struct.unpack_from("<HHIIIQH", p, at)
        name = p[at + 28:at + 28 + ln].decode()
        owner = names.get((kind, sid, aux, aux2), "") if kind else ""
        if not kind or keep((kind, sid, aux, aux2)):
            out.append(f"{kind}:{loss}:{owner}:{name}")
        at += 28 + ln
    return f"counters [{' '.join(out)}]"


def main():
    ver, meta, recs = records(open(sys.argv[1], "rb").read())
    ours, names = set(), {}
    for t, p in recs:
        if t == 1:
            key, src, _ = series(p, {})
            if src & ~SRC_STATS:
                ours.add(key)
    keep = lambda key: key[0] != PROG or key in ours
    print(f"version {ver >> 16}.{ver & 0xffff}")
    for k in sorted(meta):
        v = meta[k]
        print(f"meta {k}" + ("" if k in ("host", "kernel") or k.startswith("start_")
                             else f"={json.dumps(v, sort_keys=True)}"))
    # Series: each kept one's last state, in order of first appearance.
    last, order = {}, []
    ctrs, modes, ents, other = [], [], {}, []
    for t, p in recs:
        if t == 1:
            key, _, line = series(p, names)
            if keep(key):
                if key not in last:
                    order.append(key)
                last[key] = line
        elif t == 2:
            line = interval(p, names, keep)
            modes.append(line.split()[1])
            for e in line[line.index("[") + 1:-1].split():
                kind, flags, name = e.split(":", 2)
                ents[(kind, name)] = ents.get((kind, name), 0) | int(flags)
        elif t == 3:
            mode, n = struct.unpack_from("<II", p)
            other.append(f"filter mode={mode} list={p[8:8 + n].decode()}")
        elif t == 5:
            for c in counters(p, names, keep)[10:-1].split():
                if c not in ctrs:
                    ctrs.append(c)
        elif f"record type={t}" not in other:
            other.append(f"record type={t}")  # events (--raw): how many is timing
    for key in order:
        print(last[key])
    print(f"intervals {len(modes)}: {' '.join(modes)}")
    print("entries " + " ".join(f"{k}:{f}:{n}" for (k, n), f in sorted(ents.items())))
    print(f"counters (first appearance) {' '.join(ctrs)}")
    for line in other:
        print(line)


main()
