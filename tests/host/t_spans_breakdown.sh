#!/usr/bin/env bash
# Spans broken down by key (--by, "breakdown") and filtered on arguments and the return value
# (--where, "filter") on the host kernel (uprobes): exact counts per argument value, return
# value, process and task name; the fold into "other" past the group bound, counted; the calls a
# filter drops, counted; the groups in text, CSV, JSON and a recording's replay; and the errors.
# Also run in the VM (tests/vm/guest/t_45_spans_breakdown.sh) on 6.1 and 6.12.
cd "$(dirname "$0")/../.." && . tests/lib.sh && . tests/host/prom_lib.sh
SUITE=${BRK_SUITE:-host-spans-breakdown}
FIX=$OUTPUT/tests/host/spanfix
FIXABS=$(readlink -f "$FIX")

# Two fixture processes, one after the other: A makes v calls of spanfix_sized(v, 1000 v) for
# v = 1..10 (55 calls), B for v = 1..6 (21 calls). Call v returns -v when v is a multiple of 3.
cat >"$TMP/b.json" <<JSON
{ "spans": [
  { "name": "big", "filter": { "arg1": "> 4096" }, "breakdown": { "by": "arg0", "groups": 16 },
    "start": { "kind": "uprobe", "probe": "$FIXABS:spanfix_sized" },
    "end": { "kind": "uretprobe", "probe": "$FIXABS:spanfix_sized" } },
  { "name": "errs", "filter": { "ret": "<0" }, "breakdown": { "by": "ret" },
    "start": { "kind": "uprobe", "probe": "$FIXABS:spanfix_sized" },
    "end": { "kind": "uretprobe", "probe": "$FIXABS:spanfix_sized" } },
  { "name": "by_pid", "breakdown": { "by": "pid", "groups": 1 },
    "start": { "kind": "uprobe", "probe": "$FIXABS:spanfix_sized" },
    "end": { "kind": "uretprobe", "probe": "$FIXABS:spanfix_sized" } },
  { "name": "by_comm", "breakdown": { "by": "comm" },
    "start": { "kind": "uprobe", "probe": "$FIXABS:spanfix_sized" },
    "end": { "kind": "uretprobe", "probe": "$FIXABS:spanfix_sized" } },
  { "name": "by_cgroup", "breakdown": { "by": "cgroup" },
    "start": { "kind": "uprobe", "probe": "$FIXABS:spanfix_sized" },
    "end": { "kind": "uretprobe", "probe": "$FIXABS:spanfix_sized" } } ] }
JSON
LP=$(free_port)
wait_gone
$LATTOP -b -o json -c -d 0.5 -D 600 -u "$FIXABS:spanfix_sized" --by arg0 --where 'arg0 != 0' \
	--spans "$TMP/b.json" -w "$TMP/b.lrec" --listen "$LP" >"$TMP/b.out" 2>"$TMP/b.err" &
lat=$!
wait_report "$TMP/b.out"
read -r _ pida _ < <(printf 'args 10\n' | "$FIX" | tr '\n' ' ')
read -r _ pidb _ < <(printf 'args 6\n' | "$FIX" | tr '\n' ' ')
# --listen: a family of the groups, labelled by span and group (since the session started).
metric() {
	curl -s "http://127.0.0.1:$LP/metrics" |
		grep -F "lattop_span_group_latency_seconds_count{$1}" | awk '{print $NF}'
}
for _ in $(seq 100); do [ "$(metric 'span="spanfix_sized",group="other"')" = 19 ] && break; sleep 0.1; done
expect_eq prom-other "$(metric 'span="spanfix_sized",group="other"')" 19
expect_eq prom-group "$(metric 'span="errs",group="ret=-6"')" 12
expect_eq prom-pid "$(metric "span=\"by_pid\",group=\"pid $pida\"")" 55
end_session $lat "$TMP/b.out"
expect_eq exit $? 0
check no-stderr test ! -s "$TMP/b.err"
# span NAME FIELD: the last (cumulative) report's span row; groups NAME: its groups' counts.
span() { json "[r for r in L[-1]['rows'] if r['span']=='$1' and 'group' not in r][0].get('$2')" "$TMP/b.out"; }
groups() { json "sorted((r['group'], r['count']) for r in L[-1]['rows'] if r['span']=='$1' and 'group' in r)" "$TMP/b.out"; }
# -u --by arg0 (8 groups, first come): values 1..8 have rows, 9 and 10 (A's 19 calls) fold.
expect_eq u-count "$(span spanfix_sized count)" 76
expect_eq u-folded "$(span spanfix_sized folded)" 19
expect_eq u-filtered "$(span spanfix_sized filtered)" 0
expect_eq u-groups "$(groups spanfix_sized)" \
	"[('arg0=1', 2), ('arg0=2', 4), ('arg0=3', 6), ('arg0=4', 8), ('arg0=5', 10), ('arg0=6', 12), ('arg0=7', 7), ('arg0=8', 8), ('other', 19)]"
# arg1 > 4096: v >= 5 only; the 10 + 10 calls of v 1..4 dropped, counted.
expect_eq big-count "$(span big count)" 56
expect_eq big-filtered "$(span big filtered)" 20
expect_eq big-folded "$(span big folded)" 0
expect_eq big-groups "$(groups big)" \
	"[('arg0=10', 10), ('arg0=5', 10), ('arg0=6', 12), ('arg0=7', 7), ('arg0=8', 8), ('arg0=9', 9)]"
# ret < 0: v = 3, 6, 9 only, broken down by the return value.
expect_eq errs-count "$(span errs count)" 27
expect_eq errs-filtered "$(span errs filtered)" 49
expect_eq errs-groups "$(groups errs)" "[('ret=-3', 6), ('ret=-6', 12), ('ret=-9', 9)]"
# One group by pid: A's; B's 21 calls fold into "other".
expect_eq pid-groups "$(groups by_pid)" "[('other', 21), ('pid $pida', 55)]"
expect_eq pid-folded "$(span by_pid folded)" 21
expect_eq comm-groups "$(groups by_comm)" "[('comm spanfix', 76)]"
cg=$(python3 -c 'import os,sys; print(os.stat("/sys/fs/cgroup" + open("/proc/self/cgroup").read().split("::")[-1].strip()).st_ino)' 2>/dev/null)
expect_eq cgroup-groups "$(groups by_cgroup)" "[('cgroup $cg', 76)]"
# The per-interval figures: every group row's counts add up to its span's in each report.
expect_eq groups-add-up "$(json "all(sum(g['count'] for g in R['rows'] if g['span']==s['span'] and 'group' in g) == s['count'] for R in L for s in R['rows'] if 'group' not in s)" "$TMP/b.out")" True

# The recording replays the groups and the counters.
$LATTOP -r "$TMP/b.lrec" -b -o json -c -n 100000 >"$TMP/r.out" 2>"$TMP/r.err"
expect_eq replay-exit $? 0
rgroups() { json "sorted((r['group'], r['count']) for r in L[-1]['rows'] if r['span']=='$1' and 'group' in r)" "$TMP/r.out"; }
expect_eq replay-u-groups "$(rgroups spanfix_sized)" "$(groups spanfix_sized)"
expect_eq replay-errs-groups "$(rgroups errs)" "$(groups errs)"
expect_eq replay-filtered "$(json "[r for r in L[-1]['rows'] if r['span']=='big' and 'group' not in r][0]['filtered']" "$TMP/r.out")" 20
# Text: a group's row is its label, indented under its span; the span's counters follow it.
$LATTOP -r "$TMP/b.lrec" -b -c -n 100000 >"$TMP/r.txt" 2>&1
check text-group-row grep -qE '^ +0 +  arg0=1 +2 ' "$TMP/r.txt"
check text-other-row grep -qE '^ +0 +  other +19 ' "$TMP/r.txt"
check text-counters grep -qE ' big +uprobe +56 .*\[filtered 20\]' "$TMP/r.txt"
# CSV: a group column, empty on a span's own row; the span's filtered and folded counters.
$LATTOP -r "$TMP/b.lrec" -b -o csv -c -n 100000 >"$TMP/r.csv" 2>&1
check csv-group-col python3 -c "
import csv,sys
R=list(csv.DictReader(open('$TMP/r.csv')))
last=[r for r in R if r['ts_ns']==R[-1]['ts_ns']]
g={(r['span'],r['group']):r['count'] for r in last}
f={r['span']:(r['filtered'],r['folded']) for r in last if not r['group']}
sys.exit(not (g[('errs','ret=-6')]=='12' and g[('errs','')]=='27' and f['big']==('20','0') and f['by_comm']==('','0') and f['spanfix_sized']==('0','19')))"

# Samples through the ring buffer (LATTOP_PATH=ring, as --raw): the filter still drops and
# counts exactly; the breakdown, which lives in the aggregates' slots, is off, and says so.
wait_gone
LATTOP_PATH=ring $LATTOP -b -o json -c -d 0.5 -D 600 -u "$FIXABS:spanfix_sized" --by arg0 \
	--where 'arg0 > 5' >"$TMP/ring.out" 2>"$TMP/ring.err" &
lat=$!
wait_report "$TMP/ring.out"
printf 'args 10\n' | "$FIX" >/dev/null
end_session $lat "$TMP/ring.out"
expect_eq ring-exit $? 0
expect_eq ring-count "$(json "[r for r in L[-1]['rows'] if r['span']=='spanfix_sized'][0]['count']" "$TMP/ring.out")" 40
expect_eq ring-filtered "$(json "[r for r in L[-1]['rows'] if r['span']=='spanfix_sized'][0]['filtered']" "$TMP/ring.out")" 15
expect_eq ring-no-groups "$(json "len([r for r in L[-1]['rows'] if 'group' in r])" "$TMP/ring.out")" 0
check ring-warns grep -q '^lattop: warning: span spanfix_sized: no breakdown by key while its samples go through the ring buffer' "$TMP/ring.err"

# Errors: one sentence, status 2.
err_case() {
	local name=$1 pat=$2; shift 2
	expect_usage "$name" 2 "$pat" -b -n 1 "$@"
}
err_case by-without-u "^lattop: --by applies to the -u before it" --by arg0
err_case by-unknown "^lattop: --by 'size': break down by pid, comm, cgroup, arg0..arg4 or ret$" -u "$FIXABS:spanfix_sized" --by size
err_case by-groups "^lattop: --by 'arg1:33': the groups after ':' must be 1 to 32$" -u "$FIXABS:spanfix_sized" --by arg1:33
err_case where-field "^lattop: --where 'size > 1': a condition is FIELD OP NUMBER" -u "$FIXABS:spanfix_sized" --where 'size > 1'
err_case where-number "^lattop: --where 'arg1 > 4k': '4k' is not a 64-bit integer$" -u "$FIXABS:spanfix_sized" --where 'arg1 > 4k'
err_case where-many "at most 4 conditions per span$" -u "$FIXABS:spanfix_sized" --where 'arg1>1' --where 'arg1>2' --where 'arg1>3' --where 'arg1>4' --where 'arg1>5'
bad() { printf '{"spans":[{"name":"t","start":{"kind":"%s","probe":"%s"},"end":{"kind":"%s","probe":"%s"},%s}]}\n' "$@" >"$TMP/bad.json"; }
bad tracepoint sched:sched_switch uretprobe "$FIXABS:spanfix_sized" '"breakdown":{"by":"arg0"}'
err_case file-arg-needs-fn "span 't': its breakdown or filter names an argument, which needs a uprobe, kprobe or fentry start$" --spans "$TMP/bad.json"
bad uprobe "$FIXABS:spanfix_sized" uprobe "$FIXABS:spanfix_work" '"filter":{"ret":"< 0"}'
err_case file-ret-needs-ret "span 't': its breakdown or filter names ret, which needs a uretprobe, kretprobe or fexit end$" --spans "$TMP/bad.json"
bad uprobe "$FIXABS:spanfix_sized" uretprobe "$FIXABS:spanfix_sized" '"breakdown":{"by":"arg0","groups":0}'
err_case file-groups "'groups' in span 't' breakdown must be 1 to 32, not 0$" --spans "$TMP/bad.json"
bad uprobe "$FIXABS:spanfix_sized" uretprobe "$FIXABS:spanfix_sized" '"breakdown":{"by":"tid"}'
err_case file-by "'by' in span 't' breakdown 'tid': break down by pid, comm, cgroup, arg0..arg4 or ret$" --spans "$TMP/bad.json"
bad uprobe "$FIXABS:spanfix_sized" uretprobe "$FIXABS:spanfix_sized" '"filter":{"ret":"<"}'
err_case file-cond "'ret' in span 't' filter '<': '' is not a 64-bit integer$" --spans "$TMP/bad.json"
bad uprobe "$FIXABS:spanfix_sized" uretprobe "$FIXABS:spanfix_sized" '"breakdown":{"by":"pid","top":3}'
err_case file-unknown-key "unknown key 'top' in span 't' breakdown$" --spans "$TMP/bad.json"
end_suite
