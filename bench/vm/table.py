#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The VM benchmark's table (bench/vm/run.sh): reads the guest's "VMB ..." lines and prints,
per observer and number of driving threads, the ns each run gains over the bare program measured
just before it in the same round (median and range over the rounds), the ratio to the reference
probe of the same round, the exact counts and loss counters, and lattop's thread CPU per million
runs. The helpers-mode observers (HELPERS) watch bench_update: their baseline is its bare runs
(mode=hbare) and their ratio is to href, the reference probe on both the program and
htab_map_update_elem. The variants (VMB_VARIANTS, observers v_NAME: a lattop binary with one
change, run with --no-stats) follow the named observers. Usage: table.py RESULTS_LOG"""
import re
import statistics
import sys

NAMES = {
    "stats": "bpf_stats (enable_stats fd)",
    "ref": "reference probe (bench/vm/xdpbench_probe.bpf.c ref_*)",
    "refstats": "reference probe with bpf_stats on (as in a lattop session)",
    "agg": "in-kernel aggregation prototype (agg_*)",
    "aggplain": "the prototype with plain adds (not nesting-safe)",
    "lattopring": "lattop -p ID -b, an event per run (ring buffer, LATTOP_PATH=ring)",
    "lattop": "lattop -p ID -b, aggregated in the kernel (the default)",
    "lattopbefore": "the same with lattop built from an earlier commit (VMB_BEFORE)",
    "lattopnostats": "lattop --no-stats -p ID -b, aggregated (no bpf_stats fd)",
    "hstats": "update program: bpf_stats (enable_stats fd)",
    "href": "update program: reference probe on the program and on htab_map_update_elem",
    "hrefstats": "update program: the same reference with bpf_stats on (as in a lattop session)",
    "hlattop": "update program: lattop -m helpers -p ID -b, aggregated in the kernel",
    "hlattopnostats": "update program: lattop --no-stats -m helpers -p ID -b, aggregated",
}
# Observers of bench_update (one hash-map update per run): baseline hbare, ratio to href.
HELPERS = ("hstats", "href", "hrefstats", "hlattop", "hlattopnostats")
REPORTS = tuple(k + "report" for k in ("ref", "refstats", "agg", "aggplain", "lattopring",
                                       "lattop", "lattopbefore", "lattopnostats", "href",
                                       "hrefstats", "hlattop", "hlattopnostats"))


def name_of(mode):
    """The row's name: a named observer's, or a variant's (v_NAME)."""
    if mode in NAMES:
        return NAMES[mode]
    return f"variant {mode[2:]} (VMB_VARIANTS), --no-stats"


def base_of(mode):
    """The bare mode an observer's added ns are taken against, and its reference observer."""
    return ("hbare", "href") if mode in HELPERS else ("bare", "ref")


def kv(line):
    return dict(re.findall(r"(\w+)=(\S*)", line))


def spread(vals, fmt="{:.0f}"):
    if not vals:
        return "-"
    med = statistics.median(vals)
    if len(vals) == 1:
        return fmt.format(med)
    return (fmt + " [" + fmt + " .. " + fmt + "]").format(med, min(vals), max(vals))


def scale_table(info, sides, checks):
    """make vmbench-scale: N probed programs against 10, as ratios."""
    print(f"VM scale benchmark: kernel {info.get('kernel', '?')}, {info.get('ncpu', '?')} vCPUs "
          f"(QEMU TCG), every program probed (--budget max), 1 s intervals, "
          f"{info.get('secs', '?')} s measured after the probes were on every program")
    print()
    base = sides[0]
    print(f"| figure | {base['n']} programs | " +
          " | ".join(f"{x['n']} programs | ratio" for x in sides[1:]) + " |")
    print("|---|---|" + "---|---|" * (len(sides) - 1))
    for key, label in (("attach_s", "start until every program is probed (s)"),
                       ("ui_pct", "UI thread CPU (% of a core)"),
                       ("proc_pct", "process CPU (% of a core)"),
                       ("hwm_kib", "peak memory, VmHWM (KiB)"),
                       ("switch_ms", "CPU time of one attach, lattop's figure (ms)")):
        if key not in base:
            continue
        b = float(base[key] or 0)
        cells = []
        for x in sides[1:]:
            v = float(x.get(key) or 0)
            cells.append(f"{x[key]} | {v / b:.2f}" if b > 0 else f"{x[key]} | -")
        print(f"| {label} | {base[key]} | " + " | ".join(cells) + " |")
    bad = [c for c in checks if c.startswith("FAIL")]
    print()
    print(f"Checks: {len(checks) - len(bad)} passed, {len(bad)} failed")
    for c in bad:
        print("  " + c)


CTXSW = {
    "csnosplit": "lattop, a span with \"split\": false (no sched programs)",
    "csidle": "lattop, a split span that never starts (every switch: two lookups, no clock)",
    "csopen": "lattop, a split span open in the pinging thread (its clock kept)",
}


def ctxsw_table(vmc):
    """The split spans' cost per context switch: each VMC mode's ns per switch, the ns it adds
    over the bare ping-pong measured just before it in the same round, and the ratio to it."""
    if not vmc:
        return
    print()
    print("Context switches (ctxsw: the spans fixture's ping-pong, two threads on one vCPU): ns "
          "per switch, median and range over the rounds; added and ratio against the bare "
          "ping-pong measured just before it in the same round.")
    print()
    print("| under | ns per switch | added ns per switch vs bare | x bare |")
    print("|---|---|---|---|")
    bare = [ns for (_, m, ns, _) in vmc if m == "csbare"]
    print(f"| bare | {spread(bare)} | | |")
    for mode, name in CTXSW.items():
        rows = [(i, ns) for i, (_, m, ns, _) in enumerate(vmc) if m == mode]
        if not rows:
            continue
        add, rat = [], []
        for i, ns in rows:
            before = [b for (_, m, b, _) in vmc[:i] if m == "csbare"]
            if before:
                add.append(ns - before[-1])
                rat.append(ns / before[-1])
        print(f"| {name} | {spread([ns for _, ns in rows])} | {spread(add)} | "
              f"{spread(rat, '{:.3f}')} |")


def main():
    info, bare, added, ratio, cpu, reports, checks = {}, {}, {}, {}, {}, {}, []
    meas, calib, scale, vmc = {}, {}, [], []
    for line in open(sys.argv[1], errors="replace"):
        line = line.rstrip("\n")
        if line.startswith(("PASS vm/vmbench", "FAIL vm/vmbench", "PASS vm/vmscale",
                            "FAIL vm/vmscale")):
            checks.append(line)
        if line.startswith("VMC "):
            f = kv(line)
            vmc.append((int(f["round"]), f["mode"], int(f["ns"]) / int(f["switches"]),
                        int(f["switches"])))
            continue
        if not line.startswith("VMB "):
            continue
        f = kv(line)
        if line.startswith("VMB info"):
            info = f
            continue
        if line.startswith("VMB scale"):
            scale.append(f)
            continue
        r = int(f["round"])
        if " calib " in line:
            calib[r] = int(f["run_cost_ns"])
            continue
        m = re.match(r"VMB round=\d+ (\w+report) (.*)", line)
        if m and (m.group(1) in REPORTS or m.group(1).startswith("v_")):
            reports.setdefault(m.group(1), []).append((r, m.group(2)))
        if "mode" not in f:
            continue
        mode, t, med = f["mode"], int(f["threads"]), int(f["med"])
        if mode in ("bare", "hbare"):
            bare[(mode, t)] = med
            meas.setdefault((mode, t), []).append(med)
            continue
        meas.setdefault((mode, t), []).append(med)
        added.setdefault((mode, t), {})[r] = med - bare.get((base_of(mode)[0], t), 0)
        if "coll_ns" in f:
            runs = int(f["runs"]) / 1e6
            cpu.setdefault((mode, t), []).append(
                (int(f["coll_ns"]) / runs / 1e6, int(f["ui_ns"]) / runs / 1e6))
    for (mode, t), per in added.items():
        ref = added.get((base_of(mode)[1], t), {})
        ratio[(mode, t)] = [per[r] / ref[r] for r in per if r in ref and ref[r] > 0]
    if scale:
        scale_table(info, scale, checks)
        return
    ncpu = info.get("ncpu", "?")
    tcg = ("QEMU TCG -icount shift=0: a guest ns is one instruction executed"
           if info.get("icount") == "1" else "QEMU TCG")
    print(f"VM benchmark: kernel {info.get('kernel', '?')} (clocksource "
          f"{info.get('clocksource', '?')} at the start), {ncpu} vCPUs ({tcg}), "
          f"{info.get('rounds', '?')} interleaved rounds, {info.get('calls', '?')} "
          f"bpf_prog_test_run calls of {info.get('repeat', '?')} runs per thread and "
          "measurement; figures: median [min .. max] over the rounds")
    print()
    print("Rows \"update program\": bench_update, one bpf_map_update_elem per run on a hash map; "
          "added ns against its own bare runs, ratio to its reference (href).")
    print()
    print("| observer | drivers | ns per run | added ns per run vs bare | x reference probe "
          "| lattop collector CPU ms per M runs | lattop UI thread CPU ms per M runs |")
    print("|---|---|---|---|---|---|---|")
    for t in sorted({k[1] for k in meas}):
        drivers = "solo" if t == 1 else f"{t} threads, one per vCPU"
        if ("bare", t) in meas:
            print(f"| bare | {drivers} | {spread(meas[('bare', t)])} | | | | |")
        variants = sorted({k[0] for k in meas if k[0].startswith("v_")})
        for mode in list(NAMES) + variants:
            if mode == HELPERS[0] and ("hbare", t) in meas:
                print(f"| update program: bare | {drivers} | {spread(meas[('hbare', t)])} "
                      "| | | | |")
            if (mode, t) not in meas:
                continue
            c = cpu.get((mode, t), [])
            print(f"| {name_of(mode)} | {drivers} | {spread(meas[(mode, t)])} | "
                  f"{spread(list(added[(mode, t)].values()))} | "
                  f"{spread(ratio.get((mode, t), []), '{:.2f}')} | "
                  f"{spread([x[0] for x in c], '{:.0f}') if c else ''} | "
                  f"{spread([x[1] for x in c], '{:.0f}') if c else ''} |")
    lat = added.get(("lattop", 1), {})
    if any(r in lat for r in calib):
        print()
        print("Calibration: lattop's own start-up figure for a probed run (run_cost_ns: its empty "
              "program with and without the probes, with bpf_stats on) against what the lattop "
              "observer added to each solo run of the driven program in the same round:")
        for r in sorted(r for r in calib if r in lat):
            c, a = calib[r], lat[r]
            ratio_s = f", ratio {c / a:.2f}" if a > 0 else ""
            print(f"- round {r}: run_cost_ns {c}, observed {a}{ratio_s}")
    print()
    print("Counts and losses per round (expected = solo + all-vCPU runs of that round):")
    for kind in list(REPORTS) + sorted(k for k in reports if k not in REPORTS):
        for r, text in reports.get(kind, []):
            print(f"- round {r} {kind[:-6]}: {text}")
    ncpu_i = int(ncpu) if str(ncpu).isdigit() else 0
    if ncpu_i:
        per = -(-ncpu_i * 9024 // 4096) * 4096
        print()
        print(f"Map memory of lattop's aggregates: {per} bytes per watched program on {ncpu_i} "
              f"CPUs (9,024 per CPU, whole pages); the ring buffer path: a shared 4 MiB ring.")
    print()
    ctxsw_table(vmc)
    print()
    bad = [c for c in checks if c.startswith("FAIL")]
    print(f"Exact-count checks: {len(checks) - len(bad)} passed, {len(bad)} failed")
    for c in bad:
        print("  " + c)


main()
