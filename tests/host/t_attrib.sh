#!/usr/bin/env bash
# Attribution (collect/attrib.c) of real programs: attrfix loads six, attaches them the ways
# attrib must find (an XDP link on ifb0, legacy XDP on ifb1, a cls_bpf filter on ifb0's
# clsact ingress, cgroup_skb links, one held only by a pinned link, one held only by its fd) from a docker-like cgroup under a crafted name
# (ESC and a newline in its comm); attrdump's JSON lines must give each one's owner, cgroup,
# container, attach points and load facts, the same whether owners come from our task_file
# iterator or from /proc fdinfo (LATTOP_ATTR_FDINFO=1). Everything made is undone at the end:
# the fixture is stopped, the pin removed, the bpffs we mounted unmounted, the cgroups removed.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-attrib
FIX=$OUTPUT/tests/host/attrfix
DUMP=$OUTPUT/tests/host/attrdump
HEX=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
CG2=$(findmnt -n -o TARGET -t cgroup2 | head -n 1)
SLICE=$CG2/lattop-test.slice
SCOPE=$SLICE/docker-$HEX.scope
# A crafted cgroup name (a colour sequence, a title-setting sequence ending in BEL; the kernel
# refuses a newline in a cgroup's name) for the second fixture.
EVIL=$SLICE/$(printf 'ev\033[31mil\033]0;pwn\007.scope')
FIXPID='' FIX2PID='' LUPID='' BPFFS='' MOUNTED=''

# Undo everything, in order: the fixture (its links go with it), the pin, the mount, the
# cgroups (anything left in them moved to the root first).
cleanup() {
	exec 7>&- 8>&- 2>/dev/null
	[ -n "$LUPID" ] && kill -INT "$LUPID" 2>/dev/null
	if [ -n "$FIX2PID" ]; then
		for _ in $(seq 50); do kill -0 "$FIX2PID" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$FIX2PID" 2>/dev/null
		wait "$FIX2PID" 2>/dev/null
	fi
	if [ -n "$FIXPID" ]; then
		for _ in $(seq 50); do kill -0 "$FIXPID" 2>/dev/null || break; sleep 0.1; done
		if kill -0 "$FIXPID" 2>/dev/null; then
			kill -KILL "$FIXPID" 2>/dev/null
			ip link set dev ifb1 xdpgeneric off 2>/dev/null
			tc qdisc del dev ifb0 clsact 2>/dev/null
		fi
		wait "$FIXPID" 2>/dev/null
	fi
	[ -n "$BPFFS" ] && rm -f "$BPFFS/lattop_attr_link" "$BPFFS/lattop_attr_link2"
	if [ -n "$MOUNTED" ]; then
		umount -R "$BPFFS"
		if findmnt "$BPFFS" >/dev/null; then
			echo "t_attrib: $BPFFS is still mounted: not removed" >&2
		else
			rmdir "$BPFFS"
		fi
	fi
	for d in "$SCOPE" "$EVIL" "$SLICE/attach"; do
		[ -d "$d" ] || continue
		while read -r p; do echo "$p" >"$CG2/cgroup.procs"; done <"$d/cgroup.procs"
		rmdir "$d"
	done
	[ -d "$SLICE" ] && rmdir "$SLICE"
	rm -rf "$TMP"
}
trap cleanup EXIT

if [ -z "$CG2" ] || ! ip link show ifb0 >/dev/null 2>&1 || ! ip link show ifb1 >/dev/null 2>&1; then
	skip attrib "needs cgroup v2 and the ifb0 and ifb1 devices"
	end_suite
	exit 0
fi

# A bpffs for the pin: /sys/fs/bpf when it is one, else our own, mounted here.
if [ "$(stat -f -c %T /sys/fs/bpf 2>/dev/null)" = bpf_fs ]; then
	BPFFS=/sys/fs/bpf
else
	BPFFS=$(mktemp -d /tmp/lattop-bpffs.XXXXXX)
	mount -t bpf bpf "$BPFFS" && MOUNTED=1
fi
mkdir -p "$SCOPE" "$SLICE/attach"

# fixture NAME CGROUP PIN FD: start attrfix in CGROUP, pinning at PIN, its output in $TMP/NAME
# and its stdin a FIFO this shell holds open on FD (closing FD ends the fixture); FIXPID its pid;
# checks it is ready.
fixture() {
	mkfifo "$TMP/$1.in"
	$FIX "$2" "$SLICE/attach" "$3" <"$TMP/$1.in" >"$TMP/$1" 2>"$TMP/$1.err" &
	FIXPID=$!
	eval "exec $4>\"\$TMP/\$1.in\""
	for _ in $(seq 100); do grep -q '^ready$' "$TMP/$1" && break; sleep 0.1; done
	expect_eq "$1-ready" "$(tail -n 1 "$TMP/$1")" ready
}
fixture fix "$SCOPE" "$BPFFS/lattop_attr_link" 7
id() { awk -v w="$1" '$1 == w { print $2 }' "$TMP/fix"; }
IDS="$(id sockfilter) $(id xdplink) $(id xdplegacy) $(id tclegacy) $(id cgskb) $(id pinned) $(id rawtp) $(id perftp) $(id perfioc)"

# shellcheck disable=SC2086 # the IDs are words
$DUMP $IDS >"$TMP/iter.json"
expect_eq dump-exit $? 0
# shellcheck disable=SC2086
LATTOP_ATTR_FDINFO=1 $DUMP $IDS >"$TMP/fdinfo.json"
expect_eq dump-fdinfo-exit $? 0
expect_eq source-iter "$(json 'L[-1]["source"]' "$TMP/iter.json")" iter
expect_eq source-fdinfo "$(json 'L[-1]["source"]' "$TMP/fdinfo.json")" fdinfo
expect_eq sources-agree "$(json 'L[:-1]' "$TMP/iter.json")" "$(json 'L[:-1]' "$TMP/fdinfo.json")"

# e WHAT EXPR: EXPR over the entry E of the fixture's program WHAT (iterator's dump).
e() {
	python3 -c 'import json,re,sys
L=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
E=[x for x in L if x.get("id")==int(sys.argv[2])]
E=E[0]["attr"] if E else {}
print(eval(sys.argv[3]))' "$TMP/iter.json" "$(id "$1")" "$2"
}
now=$(date +%s)
for w in sockfilter xdplink xdplegacy tclegacy cgskb; do
	expect_eq "$w-owner" "$(e $w '[(o["pid"], o["comm"]) for o in E["owners"]], E["owners_total"]')" \
		"([($FIXPID, 'attr\\x1bfix\\n')], 1)"
	expect_eq "$w-cgroup" "$(e $w 'E["cgroup"], E["container"], E["unit"]')" \
		"('/lattop-test.slice/docker-$HEX.scope', 'docker:${HEX:0:12}', '')"
done
for w in sockfilter xdplink xdplegacy tclegacy cgskb pinned; do
	expect_eq "$w-facts" "$(e $w 'E["uid"], bool(re.fullmatch("[0-9a-f]{16}", E["tag"])), E["verified_insns"] > 0')" \
		"(0, True, True)"
	check "$w-load-time" test "$(e $w 'E["loaded_at"]')" -ge $((now - 300)) -a \
		"$(e $w 'E["loaded_at"]')" -le $((now + 5))
done
# The comm's bytes as JSON escapes them (ESC as \u001b, the newline as \n).
check comm-escaped grep -qF '"comm":"attr\u001bfix\n"' "$TMP/iter.json"

expect_eq sockfilter-points "$(e sockfilter 'E["attach_total"], E["attach"]')" "(0, [])"
expect_eq xdplink-point "$(e xdplink '[(p["kind"], p["where"], p["link_id"] > 0) for p in E["attach"]]')" \
	"[('xdp', 'ifb0 generic', True)]"
expect_eq xdplegacy-point "$(e xdplegacy '[(p["kind"], p["where"], p["link_id"]) for p in E["attach"]]')" \
	"[('xdp', 'ifb1 generic', 0)]"
expect_eq tclegacy-point "$(e tclegacy '[(p["kind"], p["where"], p["link_id"]) for p in E["attach"]]')" \
	"[('tc', 'ifb0 ingress prio 1', 0)]"
# Tracepoints, where this kernel has them: a raw one, and one by a perf_event link (the kernel
# names its tracepoint since 6.6).
if [ "$(id rawtp)" != 0 ]; then
	expect_eq rawtp-point "$(e rawtp '[(p["kind"], p["where"], p["link_id"] > 0) for p in E["attach"]]')" \
		"[('raw_tp', 'sched_process_exec', True)]"
else
	skip rawtp-point "no raw tracepoint link on this kernel"
fi
if [ "$(id perftp)" != 0 ]; then
	expect_eq perftp-point "$(e perftp '[(p["kind"], p["where"], p["link_id"] > 0) for p in E["attach"]]')" \
		"[('tracepoint', 'sched_process_exec', True)]"
else
	skip perftp-point "no tracepoint perf_event link on this kernel"
fi
# A tracepoint program attached through its perf event alone (no link, as BCC attaches): the
# iterator finds the perf event's fd, the kernel names its tracepoint (BPF_TASK_FD_QUERY), and
# the fixture holding that fd is the owner. Where the same point has a link (perftp), it is
# one point, the link's.
if [ "$(id perfioc)" != 0 ]; then
	expect_eq perfioc-point "$(e perfioc '[(p["kind"], p["where"], p["link_id"]) for p in E["attach"]]')" \
		"[('tracepoint', 'sched_process_exec', 0)]"
	expect_eq perfioc-owner "$(e perfioc '[o["pid"] for o in E["owners"]]')" "[$FIXPID]"
else
	skip perfioc-point "no tracepoint perf event on this kernel"
fi
expect_eq cgskb-point "$(e cgskb '[(p["kind"], p["where"], p["link_id"] > 0) for p in E["attach"]]')" \
	"[('cgroup', '/lattop-test.slice/attach ingress', True)]"
expect_eq pinned-owners "$(e pinned 'E["owners_total"], E["owners"], E["cgroup"]')" "(0, [], '')"
expect_eq pinned-point "$(e pinned '[(p["kind"], p["where"], p["link_id"] > 0) for p in E["attach"]]')" \
	"[('cgroup', '/lattop-test.slice/attach egress', True)]"

# lattop itself: the rows' OWNER, CONTAINER and ATTACH columns and the attr object in JSON, the
# CSV's visible form of the crafted comm, -p selectors, and a recording that replays them.
PIDS=$(echo $IDS | tr ' ' ',')
wait_gone
live $LATTOP -b -o json -n 2 -d 0.3 -p "$PIDS" -w "$TMP/a.lat" >"$TMP/l.json"
expect_eq lattop-exit $? 0
r() { json "repr([x for x in L[-1]['rows'] if x['prog_id']==$(id "$1")][0]$2)" "$TMP/l.json"; }
expect_eq row-owner "$(r xdplink "['owner']")" "'attr\\x1bfix\\n[$FIXPID]'"
expect_eq row-container "$(r xdplink "['container']")" "'docker:${HEX:0:12}'"
expect_eq row-attach "$(r tclegacy "['attach']")" "'tc ifb0 ingress prio 1'"
expect_eq row-attr "$(r cgskb "['attr']['attach'][0]['where']")" "'/lattop-test.slice/attach ingress'"
expect_eq row-pinned-owner "$(r pinned "['owner']")" "None"
expect_eq row-pinned-owners "$(r pinned "['attr']['owners']")" "[]"
check json-comm-escaped grep -qF '"owner":"attr\u001bfix\n[' "$TMP/l.json"
wait_gone
live $LATTOP -b -o csv -n 1 -d 0.3 -p "$(id xdplink)" >"$TMP/l.csv"
check csv-comm-visible grep -qF "attr\\x1bfix\\x0a[$FIXPID]" "$TMP/l.csv"
check csv-no-raw-esc sh -c "! grep -q \"\$(printf '\\033')\" '$TMP/l.csv'"
expect_eq csv-lines "$(wc -l <"$TMP/l.csv")" 2
# Selectors: by device, attach kind, container (leading digits) and type.
sel() {
	wait_gone
	live $LATTOP -b -o json -n 1 -d 0.2 -p "$1" >"$TMP/s.json" 2>"$TMP/s.err"
	json "sorted(x['prog_id'] for x in L[-1]['rows'] if x['prog_id'] in ($PIDS,))" "$TMP/s.json"
}
ids_of() { for w in "$@"; do id "$w"; done | grep -v '^0$' | sort -n | paste -sd, | sed 's/,/, /g;s/^/[/;s/$/]/'; }
expect_eq sel-dev "$(sel dev:ifb0)" "$(ids_of xdplink tclegacy)"
expect_eq sel-attach "$(sel attach:cgroup)" "$(ids_of cgskb pinned)"
expect_eq sel-container "$(sel "container:${HEX:0:6}")" \
	"$(ids_of sockfilter xdplink xdplegacy tclegacy cgskb rawtp perftp perfioc)"
expect_eq sel-cgroup "$(sel cgroup:/lattop-test.slice/attach)" "$(ids_of cgskb pinned)"
expect_eq sel-none "$(sel comm:nobody-here)" "[]"
check sel-none-warns grep -q "selector 'comm:nobody-here' matches no program now" "$TMP/s.err"
expect_usage sel-bad-key 2 "unknown selector 'pid:' in -p" -b -n 1 -p pid:1
# The recording replays the same attribution, without root.
$LATTOP -r "$TMP/a.lat" -b -o json -n 1000 >"$TMP/rp.json" 2>"$TMP/rp.err"
expect_eq replay-exit $? 0
expect_eq replay-attr "$(json "[x['attr'] for x in L[-1]['rows'] if x['prog_id']==$(id xdplink)][0]" "$TMP/rp.json")" \
	"$(r xdplink "['attr']")"

# The fixture ends: its programs go, the pinned one stays with its point.
exec 7>&-
wait "$FIXPID"
expect_eq fixture-exit $? 0
FIXPID=
# shellcheck disable=SC2086
$DUMP $IDS >"$TMP/after.json"
expect_eq after-ids "$(json '[x["id"] for x in L[:-1]]' "$TMP/after.json")" "[$(id pinned)]"
expect_eq after-pinned-point "$(json '[p["where"] for p in L[0]["attr"]["attach"]]' "$TMP/after.json")" \
	"['/lattop-test.slice/attach egress']"
check ifb1-detached sh -c '! ip link show ifb1 | grep -q xdp'
check ifb0-clsact-removed sh -c '! tc qdisc show dev ifb0 | grep -q clsact'

# Programs loaded and unloaded while a session runs (every program, no -p, no probes): the
# fixture started again after the session's first report, in a cgroup with a crafted name; its
# programs' rows appear with their owner, cgroup (its unit) and attach point while it holds them,
# and turn gone once it exits (the pinned one stays, with no owner). The crafted name is the
# exact bytes in JSON, and in CSV its visible form, never a raw ESC or line break.
rm -f "$BPFFS/lattop_attr_link"
wait_gone
$LATTOP -b -o json -d 0.3 -D 120 --budget 0 >"$TMP/lu.json" 2>"$TMP/lu.err" &
LUPID=$!
# lu EXPR: EXPR over the reports so far is true, polled for up to 30 s.
lu() {
	for _ in $(seq 300); do
		[ "$(json "$1" "$TMP/lu.json" 2>/dev/null)" = True ] && return 0
		sleep 0.1
	done
	return 1
}
check session-first-report lu 'len(L) >= 1'
mkdir "$EVIL"
fixture fix2 "$EVIL" "$BPFFS/lattop_attr_link2" 8
FIX2PID=$FIXPID FIXPID=
id2() { awk -v w="$1" '$1 == w { print $2 }' "$TMP/fix2"; }
X=$(id2 xdplink) T2=$(id2 tclegacy) P2=$(id2 pinned)
echo "# fixture 2: xdplink $X tclegacy $T2 pinned $P2"
expect_eq loaded-not-in-first-report "$(json "[x['prog_id'] for x in L[0]['rows'] if x['prog_id'] in ($X, $T2)]" "$TMP/lu.json")" "[]"
have="any(x['prog_id']==$X and x.get('attach')=='xdp ifb0 generic' and x.get('owner')=='attr\x1bfix\n[$FIX2PID]' and x['attr']['cgroup']=='/lattop-test.slice/ev\x1b[31mil\x1b]0;pwn\x07.scope' and x.get('container')=='ev\x1b[31mil\x1b]0;pwn\x07.scope' and not x['gone'] for x in L[-1]['rows'])"
check loaded-row-attributed lu "$have"
check loaded-tc-row lu "any(x['prog_id']==$T2 and x.get('attach')=='tc ifb0 ingress prio 1' for x in L[-1]['rows'])"
# (A second session beside the running one: its own session lock.)
LATTOP_LOCK=$TMP/csv.lock $LATTOP -b -o csv -n 1 -d 0.3 -p "$X" >"$TMP/evil.csv" 2>/dev/null
check evil-csv-visible grep -qF 'ev\x1b[31mil\x1b]0;pwn\x07.scope' "$TMP/evil.csv"
check evil-csv-no-raw-control sh -c "! grep -q \"[\$(printf '\\033\\007')]\" '$TMP/evil.csv'"
expect_eq evil-csv-lines "$(wc -l <"$TMP/evil.csv")" 2
exec 8>&-
wait "$FIX2PID"
expect_eq fixture2-exit $? 0
FIX2PID=
check unloaded-row-gone lu "any(x['prog_id']==$X and x['gone'] for x in L[-1]['rows'])"
check unloaded-tc-gone lu "any(x['prog_id']==$T2 and x['gone'] for x in L[-1]['rows'])"
check pinned-stays-ownerless lu "any(x['prog_id']==$P2 and not x['gone'] and x.get('owner') is None and x.get('attach','').startswith('cgroup /lattop-test.slice/attach egress') for x in L[-1]['rows'])"
kill -INT "$LUPID"
wait "$LUPID"
expect_eq session-exit "$? $(cat "$TMP/lu.err")" "0 "
LUPID=
rm -f "$BPFFS/lattop_attr_link2"
end_suite
