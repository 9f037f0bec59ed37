#!/usr/bin/env python3
"""dash_check.py - for t_fleet.sh and the VM's fleet test (tests/vm/fleet.sh): run every query of
the generated Grafana dashboard against a real Prometheus on 127.0.0.1 that scrapes lattop
(--demo on the host; in the VM, a lattop with fentry probes on a program, through a forwarded
port), with the dashboard's variables substituted as Grafana would, and check each answer's
shape. Prints PASS/FAIL/SKIP lines in the suite's format (SUITE from the environment).

usage: dash_check.py DASHBOARD.json PORT KIND HOST PROGRAM FLOOR
  KIND     classic or native: which histograms the Prometheus at PORT stores; a panel titled
           "(native histograms)" runs on native only, "(classic buckets)" on classic only
  HOST     the value of $host (the instance lattop is scraped as)
  PROGRAM  the value of $program (one demo program)
  FLOOR    1 when lattop exports lattop_probe_floor_seconds (fentry probes attached), else 0:
           the probe panel's floor and run-cost queries are SKIPped without it (its cost
           query, 0 without probes, is run either way); the VM's fleet test runs them all
"""
import json
import os
import re
import sys
import time
import urllib.parse
import urllib.request

SUITE = os.environ.get("SUITE", "host-fleet")
dash_path, port, kind, host, program, floor = sys.argv[1:7]
BASE = "http://127.0.0.1:%s/api/v1/" % port


def say(word, name, why=""):
    print("%s %s/dash-%s-%s%s" % (word, SUITE, kind, name, ": " + why if why else ""), flush=True)


def api(path, **params):
    url = BASE + path + "?" + urllib.parse.urlencode(params, doseq=True)
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def substitute(expr):
    """Grafana's substitution of this dashboard's variables: regex-escaped values in =~."""
    def esc(v):  # a regex, inside a PromQL string: its backslashes doubled
        return re.escape(v).replace("\\", "\\\\")
    return (expr.replace("$host", esc(host)).replace("$program", esc(program))
            .replace("$__rate_interval", "1m").replace("$__interval", "5s"))


def series_problem(series, target, rtype):
    """Why one result series does not have the expected shape, or None."""
    m = series["metric"]
    # Every label the legend names is on every series.
    for lab in re.findall(r"\{\{\s*(\w+)\s*\}\}", target.get("legendFormat", "")):
        if lab not in m:
            return "series %s lacks label %s its legend names" % (m, lab)
    if "$program" in target["expr"] and "prog_name" in m and m["prog_name"] != program:
        return "series %s is not program %s" % (m, program)
    native_panel = "sum(rate(lattop_program_latency_seconds{" in target["expr"]
    key = "histogram" if rtype == "vector" else "histograms"
    if native_panel:
        if not series.get(key):
            return "no native histogram in %s" % json.dumps(series)[:200]
    elif rtype == "vector" and "value" not in series:
        return "no value in %s" % json.dumps(series)[:200]
    elif rtype == "matrix" and not series.get("values"):
        return "no values in %s" % json.dumps(series)[:200]
    return None


def run_target(panel, target, now):
    expr = substitute(target["expr"])
    if target.get("instant"):
        ans, rtype = api("query", query=expr, time=now), "vector"
    else:
        ans, rtype = api("query_range", query=expr, start=now - 30, end=now, step=5), "matrix"
    if ans.get("status") != "success":
        return "query failed: %s" % ans
    data = ans["data"]
    if data["resultType"] != rtype:
        return "%s, expected %s" % (data["resultType"], rtype)
    if not data["result"]:
        return "no data for %s" % expr
    for s in data["result"]:
        why = series_problem(s, target, rtype)
        if why:
            return why
    return None


dash = json.load(open(dash_path))
now = time.time()
ran = 0
for p in dash["panels"]:
    title = p["title"]
    name = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    if "(native histograms)" in title and kind != "native":
        say("SKIP", name, "a classic-only Prometheus stores no native histogram")
        continue
    if "(classic buckets)" in title and kind != "classic":
        say("SKIP", name, "Prometheus 2.42 with native histograms keeps no classic buckets")
        continue
    for t in p["targets"]:
        tname = "%s-%s" % (name, t["refId"])
        # The probe floor and run cost are exported only with fentry probes attached; the
        # cost rule's figure (0 without probes) is checked everywhere.
        if floor != "1" and "lattop_probe_" in t["expr"]:
            say("SKIP", tname, "lattop exports no probe floor or run cost here (no fentry probes attached on this kernel; the VM's x_61_fleet runs it)")
            continue
        why = run_target(p, t, now)
        ran += 1
        if why:
            say("FAIL", tname, why)
        else:
            say("PASS", tname)

# The variables: each query's values hold what the test substituted.
for v in dash["templating"]["list"]:
    if v["type"] != "query":
        continue
    m = re.match(r"label_values\((.*),\s*(\w+)\)$", v["query"]["query"])
    if not m:
        say("FAIL", "var-" + v["name"], "not label_values(SERIES, LABEL): %s" % v["query"]["query"])
        continue
    ans = api("label/%s/values" % m.group(2), **{"match[]": substitute(m.group(1))})
    want = host if v["name"] == "host" else program
    vals = ans.get("data") or []
    if want in vals:
        say("PASS", "var-" + v["name"])
    else:
        say("FAIL", "var-" + v["name"], "values %s lack %s" % (vals, want))
print("# %s: %d panel queries run" % (kind, ran))
