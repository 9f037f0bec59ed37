#!/usr/bin/env python3
"""prom_check.py - helpers for t_prom.sh: compare lattop's expositions with each other, with
its own batch output and with what a real Prometheus computes from them. Each subcommand prints
PASS/FAIL lines in the suite's format (SUITE from the environment)."""
import json
import math
import os
import re
import socket
import sys
import time
import urllib.parse
import urllib.request

SUITE = os.environ.get("SUITE", "host-prom")
NATIVE_WIDTH = 2 ** (1 / 128) - 1  # relative width of a schema-7 native bucket (0.543%)
DEMO = ["demo_xdp_hash", "demo_xdp_array", "demo_xdp_lru", "demo_sk_queue"]
failed = 0


def check(name, ok, why=""):
    global failed
    if ok:
        print(f"PASS {SUITE}/{name}")
    else:
        failed += 1
        print(f"FAIL {SUITE}/{name}: {why}")


LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_text(path):
    """Samples of a text exposition: {(name, frozenset(labels)): value}, and the families'
    HELP and TYPE."""
    samples, meta = {}, {}
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            _, kind, name, rest = line.split(" ", 3)
            meta.setdefault(name, {})[kind] = rest
            continue
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        labels = frozenset(LABEL.findall(m.group(3) or ""))
        samples[(m.group(1), labels)] = float(m.group(4))
    return samples, meta


def native_buckets(h):
    """Absolute (index, count) pairs of a decoded native histogram."""
    out, idx, cnt, d = [], 0, 0, iter(h["deltas"])
    for off, length in h["spans"]:
        idx += off  # the first span's offset is its first index, later ones the gap
        for _ in range(length):
            cnt += next(d)
            out.append((idx, cnt))
            idx += 1
    return out


def own_rows(line):
    """This session's demo programs in a batch report, by name: the rows with percentiles (other
    sessions' demo programs, of the same names, have bpf_stats figures only)."""
    return {r["prog_name"]: r for r in line["rows"] if r["p99_ns"] is not None}


def cmd_protobuf(text_path, pb_json_path, batch_path):
    """The protobuf exposition decoded field by field against the text one (same snapshot)
    and the native buckets against lattop's own p99 of the same interval."""
    samples, meta = parse_text(text_path)
    fams = [json.loads(l) for l in open(pb_json_path) if l.strip()]
    types = {0: "counter", 1: "gauge", 4: "histogram"}
    check("pb-families", fams and [f["name"] for f in fams] == list(meta),
          f"{[f['name'] for f in fams]} vs {list(meta)}")
    n = int(samples[("lattop_intervals_total", frozenset())])
    rows = {}
    buckets = {}
    for (sn, sl), v in samples.items():
        d = dict(sl)
        if sn.endswith("_bucket") and d["le"] != "+Inf":
            buckets[(sn, frozenset(x for x in sl if x[0] != "le"), float(d["le"]))] = v
    L = [json.loads(x) for x in open(batch_path) if x.strip()]
    if len(L) >= n:
        rows = own_rows(L[n - 1])
    bad = []
    for f in fams:
        name = f["name"]
        if meta[name]["HELP"] != f["help"] or meta[name]["TYPE"] != types.get(f["type"]):
            bad.append(f"{name}: help/type")
        for m in f["metrics"]:
            lab = frozenset(m["labels"].items())
            if f["type"] == 4:
                if samples[(name + "_count", lab)] != m["count"]:
                    bad.append(f"{name}{dict(lab)} count")
                if samples[(name + "_sum", lab)] != m["sum"]:
                    bad.append(f"{name}{dict(lab)} sum {m['sum']}")
                for ub, c in m["buckets"]:
                    key = buckets.get((name + "_bucket", lab, ub))
                    if key != c:
                        bad.append(f"{name}{dict(lab)} le={ub}: {c} vs {key}")
                if m["schema"] != 7 or m["zero_threshold"] != 1e-10 or m["n_negative"]:
                    bad.append(f"{name} schema/zero/negative")
                nb = native_buckets(m)
                if sum(c for _, c in nb) + m["zero_count"] != m["count"]:
                    bad.append(f"{name}{dict(lab)} native total")
                if sum(l for _, l in m["spans"]) != len(m["deltas"]):
                    bad.append(f"{name} span lengths")
                if any(c < 0 for _, c in nb):
                    bad.append(f"{name} negative bucket")
                pn = m["labels"].get("prog_name")
                if pn in rows and m["count"] == rows[pn]["count"] and m["count"]:
                    rank = math.ceil(0.99 * m["count"])
                    seen, hit = m["zero_count"], None
                    for i, c in nb:
                        seen += c
                        if seen >= rank:
                            hit = i
                            break
                    lo, hi = 2 ** ((hit - 1) / 128), 2 ** (hit / 128)
                    p99 = rows[pn]["p99_ns"] * 1e-9
                    check(f"pb-native-p99-{pn}", lo < p99 * (1 + 1e-12) and p99 <= hi * (1 + 1e-12),
                          f"lattop p99 {p99} outside native bucket ({lo}, {hi}]")
            else:
                v = m.get("counter", m.get("gauge"))
                if samples.get((name, lab)) != v:
                    bad.append(f"{name}{dict(lab)} value {v} vs {samples.get((name, lab))}")
    check("pb-fields-match-text", not bad, "; ".join(bad[:5]))
    return 0


def cmd_fetch3(port, outdir):
    """Text, protobuf, text again, until both texts come from the same snapshot (the same
    lattop_intervals_total): then the protobuf one does too."""
    pb = ("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
          "encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3")
    url = f"http://127.0.0.1:{port}/metrics"

    def get(accept):
        req = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.read(), r.headers["Content-Type"]

    def intervals(body):
        return re.search(rb"^lattop_intervals_total (\S+)$", body, re.M)

    for _ in range(50):
        a, _ = get(None)
        p, ctype = get(pb)
        b, _ = get(None)
        if intervals(a) and intervals(b) and intervals(a).group(1) == intervals(b).group(1):
            break
    same = intervals(a) and intervals(b) and intervals(a).group(1) == intervals(b).group(1)
    check("pb-same-snapshot", same, "texts from different snapshots in 50 tries")
    open(f"{outdir}/a.txt", "wb").write(a)
    open(f"{outdir}/m.pb", "wb").write(p)
    open(f"{outdir}/pb.ctype", "w").write(ctype)
    return 0


def query(port, q, t):
    url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": q, "time": t})
    with urllib.request.urlopen(url, timeout=10) as r:
        d = json.load(r)
    return d["data"]["result"]


def one(port, q, t):
    """The single value of an instant query, or None."""
    res = query(port, q, t)
    return float(res[0]["value"][1]) if len(res) == 1 else None


def cmd_prometheus(port, native, batch_path, t1, t2):
    """At two evaluation times, Prometheus' p99 and counts against lattop's for the same
    intervals (lattop_intervals_total of the scrape names the batch line)."""
    native = native == "native"
    tag = "native" if native else "classic"
    L = [json.loads(x) for x in open(batch_path) if x.strip()]
    at = {}
    for t in (float(t1), float(t2)):
        n = one(port, "lattop_intervals_total", t)
        ts = one(port, "timestamp(lattop_intervals_total)", t)
        check(f"{tag}-scraped-at-{t:.0f}", n is not None and 1 <= n <= len(L),
              f"intervals {n}, batch lines {len(L)}")
        if n is None or not 1 <= n <= len(L):
            return 1
        at[t] = (int(n), ts)
    (n1, ts1), (n2, ts2) = at[float(t1)], at[float(t2)]
    check(f"{tag}-window", n2 > n1, f"intervals {n1} -> {n2}")
    rows1, rows2 = own_rows(L[n1 - 1]), own_rows(L[n2 - 1])
    for p in DEMO:
        sel = f'{{prog_name="{p}"}}'
        if native:
            q99 = one(port, f"histogram_quantile(0.99, lattop_program_latency_seconds{sel})", t2)
            c1 = one(port, f"histogram_count(lattop_program_latency_seconds{sel})", t1)
            c2 = one(port, f"histogram_count(lattop_program_latency_seconds{sel})", t2)
        else:
            q99 = one(port, f"histogram_quantile(0.99, lattop_program_latency_seconds_bucket{sel})", t2)
            c1 = one(port, f"lattop_program_latency_seconds_count{sel}", t1)
            c2 = one(port, f"lattop_program_latency_seconds_count{sel}", t2)
        v = rows2[p]["p99_ns"] * 1e-9
        if native:
            # Both lie in the native bucket holding lattop's value: one bucket width apart.
            ok = q99 is not None and abs(q99 - v) <= v * NATIVE_WIDTH * (1 + 1e-9)
            why = f"prometheus {q99} vs lattop {v}: more than {NATIVE_WIDTH:.4%} apart"
        else:
            # Both lie in the power-of-two classic bucket holding lattop's value.
            k = max(5, math.floor(math.log2(rows2[p]["p99_ns"])) + 1)
            hi, lo = 2 ** k * 1e-9, (2 ** (k - 1) * 1e-9 if k > 5 else 0)
            ok = q99 is not None and lo * (1 - 1e-9) <= q99 <= hi * (1 + 1e-9)
            why = f"prometheus {q99} outside lattop's classic bucket [{lo}, {hi}] (p99 {v})"
        check(f"{tag}-p99-{p}", ok, why)
        print(f"# {tag} {p}: prometheus p99 {q99} s, lattop p99 {v} s")
        check(f"{tag}-count-{p}", c2 == rows2[p]["count"] and c1 == rows1[p]["count"],
              f"prometheus {c1}, {c2} vs lattop {rows1[p]['count']}, {rows2[p]['count']}")
        # Rate over the window: the same runs over scrape times vs interval close times,
        # which differ by less than one scrape interval at each end.
        if c1 is not None and c2 is not None:
            dt_prom = ts2 - ts1
            dt_lat = (L[n2 - 1]["ts_ns"] - L[n1 - 1]["ts_ns"]) / 1e9
            r_prom, r_lat = (c2 - c1) / dt_prom, (rows2[p]["count"] - rows1[p]["count"]) / dt_lat
            check(f"{tag}-rate-{p}", abs(dt_prom - dt_lat) <= 1.2 and
                  abs(r_prom - r_lat) <= r_lat * 1.2 / dt_lat + 1e-9,
                  f"rate {r_prom:.1f}/s over {dt_prom:.2f} s vs lattop {r_lat:.1f}/s over {dt_lat:.2f} s")
    reasons = sorted(r["metric"]["reason"] for r in query(port, "lattop_lost_events_total", t2))
    check(f"{tag}-loss-counters", {"ringbuf", "queue", "recursion", "nest"} <= set(reasons),
          f"reasons {reasons}")
    return 0


def cmd_slow(port, n):
    """n clients that never finish their request or never read their answer: the server must
    still answer others meanwhile, and be done with every one of them within its timeout."""
    socks = []
    for i in range(int(n)):
        # Half never finish their request; half send it whole and never read the answer
        # (a tiny receive buffer, so the server's send blocks once the buffers are full).
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.settimeout(30)
        s.connect(("127.0.0.1", int(port)))
        if i % 2:
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: "
                      b"application/openmetrics-text;version=1.0.0\r\n\r\n")
        else:
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        socks.append(s)
    t0 = time.time()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        body = r.read()
    check("slow-clients-others-served", r.status == 200 and b"lattop_intervals_total" in body,
          f"status {r.status}")
    closed = 0
    for s in socks:
        try:
            while True:  # whatever the server says, then its end of the connection
                s.settimeout(max(0.5, 20 - (time.time() - t0)))
                if s.recv(1 << 16) == b"":
                    closed += 1
                    break
        except (socket.timeout, TimeoutError):
            pass
        except ConnectionResetError:
            closed += 1
        s.close()
    waited = time.time() - t0
    check("slow-clients-closed-by-timeout", closed == len(socks) and waited < 20,
          f"{closed}/{len(socks)} closed after {waited:.1f} s")
    return 0


def cmd_huge(port):
    """A request with 100 KB of headers is refused (431) or dropped; the server lives on."""
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
    try:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100000 + b"\r\n\r\n")
        resp = s.recv(4096)
    except (ConnectionResetError, BrokenPipeError):
        resp = b""
    s.close()
    check("huge-headers-refused", resp == b"" or resp.startswith(b"HTTP/1.1 431"),
          f"answer {resp[:40]!r}")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        check("huge-headers-server-alive", r.status == 200, f"status {r.status}")
    return 0


if __name__ == "__main__":
    cmd = globals()["cmd_" + sys.argv[1]]
    cmd(*sys.argv[2:])
    sys.exit(1 if failed else 0)
