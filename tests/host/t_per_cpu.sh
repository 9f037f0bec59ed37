#!/usr/bin/env bash
# Per CPU (--per-cpu): each program's row is followed by one row per CPU it ran on, whose
# counts add up exactly to the program's in every interval (the demo's events name their CPU);
# the same in CSV and text, in a recording and its replay (rows and totals), and in Prometheus
# (a family of its own, scraped by a real Prometheus); bad combinations are one sentence and
# status 2. The in-kernel aggregates' split (fentry probes) is proven in the VM (t_15).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-per-cpu
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT
. tests/host/prom_lib.sh

# JSON: every program row of the demo followed by its CPU rows (same prog_id and name, a cpu
# field, CPUs the machine has), which add up to it exactly, interval by interval. The demo's
# generator runs its programs on whichever CPU it is on, so each program has one CPU row or
# more; each program's CPU rows name distinct CPUs.
wait_gone
$LATTOP --demo -b -n 3 -d 0.5 --per-cpu -o json -w "$TMP/pc.lrec" >"$TMP/pc.json" 2>"$TMP/pc.err"
expect_eq json-status "$? $(cat "$TMP/pc.err")" "0 "
NCPU=$(nproc --all)
cat >"$TMP/groups.py" <<'PY'
import json, sys
# Each interval's rows: (program row, [its CPU rows]) in the order printed.
def groups(rows):
    out = []
    for r in rows:
        if "cpu" in r:
            if not out or out[-1][0]["prog_id"] != r["prog_id"]:
                return None  # a CPU row not under its program
            out[-1][1].append(r)
        else:
            out.append((r, []))
    return out
L = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ncpu = int(sys.argv[2])
G = [groups(l["rows"]) for l in L]
demo = lambda g: [p for p in g if p[0]["prog_name"].startswith("demo_")]
print("under", all(g is not None for g in G))
print("every-demo-split", all(len(demo(g)) == 4 and all(len(c) >= 1 for _, c in demo(g)) for g in G))
print("sums-exact", all(p["count"] == sum(c["count"] for c in cs) for g in G for p, cs in g if cs))
print("names", all(c["prog_name"] == p["prog_name"] and c["prog_type"] == p["prog_type"] for g in G for p, cs in g for c in cs))
print("cpus-valid", all(0 <= c["cpu"] < ncpu for g in G for _, cs in g for c in cs))
print("cpus-distinct", all(len({c["cpu"] for c in cs}) == len(cs) for g in G for _, cs in g))
print("cpu-not-on-programs", all("cpu" not in p for g in G for p, _ in g))
print("cpu-percentiles", all(c["p50_ns"] <= c["p99_ns"] <= c["max_ns"] <= p["max_ns"] for g in G for p, cs in g for c in cs if c["count"]))
print("total", sum(p["count"] for g in G for p, cs in demo(g)))
PY
python3 "$TMP/groups.py" "$TMP/pc.json" "$NCPU" >"$TMP/g.txt"
for k in under every-demo-split sums-exact names cpus-valid cpus-distinct cpu-not-on-programs cpu-percentiles; do
	expect_eq "json-$k" "$(sed -n "s/^$k //p" "$TMP/g.txt")" True
done
check json-runs-counted test "$(sed -n 's/^total //p' "$TMP/g.txt")" -gt 1000

# A replay of the recording with --per-cpu prints the same reports, byte for byte but the
# clock fields; without --per-cpu the CPU rows stay out.
$LATTOP -r "$TMP/pc.lrec" -b -n 3 --per-cpu -o json >"$TMP/r.json" 2>"$TMP/r.err"
expect_eq replay-status "$? $(cat "$TMP/r.err")" "0 "
strip='import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l); [d.pop(k,None) for k in ("ts_ns",)]; print(json.dumps(d["rows"],sort_keys=True))'
expect_eq replay-rows-same "$(python3 -c "$strip" "$TMP/r.json" | md5sum)" "$(python3 -c "$strip" "$TMP/pc.json" | md5sum)"
$LATTOP -r "$TMP/pc.lrec" -b -n 1 -o json >"$TMP/r0.json"
expect_eq replay-without-flag "$(json 'sum("cpu" in r for l in L for r in l["rows"])' "$TMP/r0.json")" 0
# Totals over the recording: a cpus table whose counts add up to each program's.
$LATTOP -r "$TMP/pc.lrec" -b --per-cpu -o json >"$TMP/t.json"
expect_eq totals-cpus-add-up "$(json '(lambda d: all(p["count"] == sum(c["count"] for c in d["cpus"] if c["id"] == p["id"]) for p in d["programs"] if p["name"].startswith("demo_")))(L[0])' "$TMP/t.json")" True
expect_eq totals-cpus-named "$(json 'sorted({c["name"] for c in L[0]["cpus"]})' "$TMP/t.json")" \
	"['demo_sk_queue', 'demo_xdp_array', 'demo_xdp_hash', 'demo_xdp_lru']"
$LATTOP -r "$TMP/pc.lrec" -b --per-cpu >"$TMP/t.txt"
check totals-text-cpus grep -qE '^ +[0-9]+ cpu [0-9]+ +demo_xdp_hash +[0-9,]+ ' "$TMP/t.txt"

# CSV: a last cpu column, empty on the program's row, and every line the same field count;
# text: the CPU rows named "cpu N" under their program, without a type.
wait_gone
$LATTOP --demo -b -n 1 -d 0.3 --per-cpu -o csv >"$TMP/pc.csv"
expect_eq csv-header-cpu "$(head -n1 "$TMP/pc.csv" | awk -F, '{print $NF}')" cpu
expect_eq csv-fields "$(python3 -c 'import csv,sys; print(len({len(r) for r in csv.reader(open(sys.argv[1]))}))' "$TMP/pc.csv")" 1
expect_eq csv-cpu-rows "$(python3 -c '
import csv,sys
R=list(csv.DictReader(open(sys.argv[1])))
progs={r["prog_id"]:int(r["count"]) for r in R if r["cpu"]=="" and r["prog_name"].startswith("demo_")}
cpus={}
for r in R:
    if r["cpu"]!="": cpus[r["prog_id"]]=cpus.get(r["prog_id"],0)+int(r["count"])
print(len(progs)==4 and all(cpus.get(k)==v for k,v in progs.items()))' "$TMP/pc.csv")" True
wait_gone
$LATTOP --demo -b -n 1 -d 0.3 --per-cpu >"$TMP/pc.txt"
check text-cpu-row grep -qE '^ +[0-9]+ +cpu [0-9]+ +[0-9,]+ ' "$TMP/pc.txt"
expect_eq text-cpu-under-program "$(awk '/ demo_xdp_hash /{p=1; next} p && /  cpu [0-9]/{print "ok"; exit} {p=0}' "$TMP/pc.txt")" ok

# Bad combinations and a recording without per-CPU figures: one sentence, status 2.
$LATTOP -r "$TMP/pc.lrec" --compare "$TMP/pc.lrec" -b --per-cpu >/dev/null 2>"$TMP/e1"
expect_eq compare-refused "$? $(cat "$TMP/e1")" \
	"2 lattop: --per-cpu splits the programs table: not with --compare"
$LATTOP --demo -b -n 1 -m helpers --per-cpu >/dev/null 2>"$TMP/e2"
expect_eq helpers-refused "$? $(cat "$TMP/e2")" \
	"2 lattop: --per-cpu splits the programs table: not with helpers or segments mode"
wait_gone
$LATTOP --demo -b -n 1 -d 0.3 -w "$TMP/plain.lrec" >/dev/null 2>&1
$LATTOP -r "$TMP/plain.lrec" -b --per-cpu >"$TMP/o3" 2>"$TMP/e3"
expect_eq replay-without-cpu-figures "$? $(cat "$TMP/e3") $(wc -c <"$TMP/o3")" \
	"2 lattop: $TMP/plain.lrec: the recording holds no per-CPU figures (record with --per-cpu, or split a program with C while recording) (--per-cpu) 0"

# Prometheus: with --per-cpu, lattop_program_cpu_latency_seconds{prog_id,prog_name,cpu}; in
# one scrape every bucket of a program's CPU series adds up to the program's own bucket, and a
# real Prometheus sums them back to the program's count.
PROMETHEUS=$(command -v prometheus || true)
LP=$(free_port)
wait_gone
$LATTOP --demo --listen "$LP" --per-cpu -d 1 -D 120 >"$TMP/l.out" 2>"$TMP/l.err" &
PIDS+=($!)
check endpoint-up wait_url "http://127.0.0.1:$LP/metrics" 80
ready() { curl -s "http://127.0.0.1:$LP/metrics" | grep -qE '^lattop_intervals_total [2-9]'; }
for _ in $(seq 120); do ready && break; sleep 0.25; done
curl -s "http://127.0.0.1:$LP/metrics" >"$TMP/m.txt"
expect_eq prom-cpu-buckets-add-up "$(python3 -c '
import re,sys,collections
prog=collections.Counter(); cpu=collections.Counter(); n=0
for l in open(sys.argv[1]):
    m=re.match(r"lattop_program(_cpu)?_latency_seconds_(bucket|count)\{(.*)\} (\d+)$", l)
    if not m: continue
    lab=dict(re.findall(r"(\w+)=\"([^\"]*)\"", m.group(3)))
    key=(lab["prog_id"], m.group(2), lab.get("le"))
    if m.group(1): cpu[key]+=int(m.group(4)); n+=1
    else: prog[key]+=int(m.group(4))
demo={k for k in prog if k[1]=="count" and prog[k]>0}
print(n>0 and len(demo)>=4 and all(cpu[k]==prog[k] for k in prog if (k[0],"count",None) in demo))' "$TMP/m.txt")" True
check prom-cpu-labels grep -qE '^lattop_program_cpu_latency_seconds_count\{prog_id="[0-9]+",prog_name="demo_xdp_hash",cpu="[0-9]+"\} [1-9]' "$TMP/m.txt"
if [ -n "$PROMETHEUS" ]; then
	PC=$(free_port)
	prom_start classic "$PC" ""
	check prometheus-ready wait_url "http://127.0.0.1:$PC/-/ready" 120
	q='sum by (prog_id) (lattop_program_cpu_latency_seconds_count) - on(prog_id) sum by (prog_id) (lattop_program_latency_seconds_count{prog_name=~"demo_.*"})'
	check prometheus-has-cpu-series until_result "$PC" "$q"
	# An instant that is surely after the first scrape with them (date +%s rounds down).
	sleep 2
	T=$(date +%s)
	expect_eq prometheus-sums-match "$(prom_query "$PC" "max(abs($q))" "$T") $(prom_query "$PC" "count($q)" "$T")" "0 4"
else
	fail prometheus "need prometheus (make deps)"
fi
end_suite
