#!/usr/bin/env bash
# --listen under hostile load: a real Prometheus 2.42 (Debian's, as in t_prom) scrapes
# `lattop --demo --listen` every second (timeout 1 s) for 30 s while tests/host/prom_flood.py
# holds and renews 2,500 connections (silent, a 5 KB unfinished head, a head trickled a byte a
# second, a whole request whose answer is never read) on loopback, for a bounded time, at most
# 500 connects a second. Every scrape in the window must succeed (up is 1 for each, scrape_duration_seconds
# under 1 s), lattop must have held 1,000 or more of those connections at once, and its peak
# resident memory must stay within the bound the man page states. Before the flood: a silent,
# an unfinished and a trickling connection are each closed at the head deadline (5 s).
# FLOOD_LATTOP=path runs the same checks against another binary (e.g. an older build). First,
# the server's routes and its open-file limit, with tests/host/prom_route.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-prom-flood
LATTOP=${FLOOD_LATTOP:-$LATTOP}
PROMETHEUS=$(command -v prometheus || true)
FLOOD=2500 SECONDS_FLOOD=45 RATE=500 WINDOW=30
# The bound the man page states (PROM_MAX_CONNECTIONS x 12 KiB) plus the renderings being sent
# (3 formats x 12 snapshots of the demo's 20 KB: under 1 MiB), in KiB.
BOUND_KB=$((2048 * 12 + 1024))
if [ -z "$PROMETHEUS" ] || [ ! -x "$OUTPUT/tests/host/prom_route" ]; then
	fail prerequisites "need prometheus (make deps) and $OUTPUT/tests/host/prom_route (make unit)"
	end_suite
	exit 1
fi
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT
. tests/host/prom_lib.sh
# lt A B: A < B for decimal numbers (awk).
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
# fds PID: how many files the process holds (the flood changes only its sockets).
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
kb() { grep "^$2:" "/proc/$1/status" | tr -dc 0-9; }

# Routes next to /metrics (tests/host/prom_route: the server alone, with a POST /echo route):
# query arguments reach the handler, other methods are 405 with Allow, a body is read and
# dropped, other paths 404; /metrics itself cannot be taken.
ROUTE=$OUTPUT/tests/host/prom_route
RP=$(free_port)
coproc R { "$ROUTE" "$RP" 60; }
PIDS+=($R_PID)
read -r ready <&"${R[0]}"
expect_eq route-ready "$ready" "ready 2048"
U=http://127.0.0.1:$RP
expect_eq route-post "$(curl -s -w ' %{http_code}' -X POST "$U/echo?last=5m")" "echo POST last=5m
 200"
expect_eq route-get-405 "$(curl -s -D - -o /dev/null "$U/echo" | grep -iE '^(HTTP|Allow)' | tr -d '\r' | tr '\n' ' ')" \
	"HTTP/1.1 405 Method Not Allowed Allow: POST "
head -c 200000 /dev/zero >"$TMP/body"
expect_eq route-body-dropped "$(curl -s -w ' %{http_code}' -X POST --data-binary @"$TMP/body" "$U/echo")" "echo POST last=-
 200"
expect_eq route-404 "$(curl -s -o /dev/null -w '%{http_code}' "$U/nope")" 404
expect_eq route-metrics-kept "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$U/metrics")" 405
kill "$R_PID" 2>/dev/null
# An open-file limit too low for 2048 connections: fewer, and one sentence naming the fix.
RP=$(free_port)
prlimit --nofile=2000:2000 "$ROUTE" "$RP" 0 >"$TMP/route.out" 2>"$TMP/route.err"
expect_eq fd-limit-connections "$(cat "$TMP/route.out")" "ready 720"
expect_eq fd-limit-warning "$(cat "$TMP/route.err")" \
	"lattop: warning: the open-file limit (2000) leaves room for 720 HTTP connections instead of 2048: raise it to 3328 (ulimit -n, or LimitNOFILE= in the unit)"

# lattop raises its soft open-file limit to the hard one: 1024 of 8192 is room enough, and
# says nothing; a hard limit of 1024 leaves room for 16 connections, and says so.
wait_lock
prlimit --nofile=1024:8192 $LATTOP --demo --listen "$(free_port)" -b -n 1 -d 0.5 >/dev/null 2>"$TMP/nofile.err"
expect_eq nofile-raised "$? $(cat "$TMP/nofile.err")" "0 "
wait_lock
prlimit --nofile=1024:1024 $LATTOP --demo --listen "$(free_port)" -b -n 1 -d 0.5 >/dev/null 2>"$TMP/nofile.err"
expect_eq nofile-too-low "$? $(cat "$TMP/nofile.err")" \
	"0 lattop: warning: the open-file limit (1024) leaves room for 16 HTTP connections instead of 2048: raise it to 3328 (ulimit -n, or LimitNOFILE= in the unit)"

# The flood needs 2,500 sockets in the client and 2048 + 256 + 1024 files in lattop.
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt 3328 ]; then
	skip flood "the hard open-file limit ($hard) is below the 3328 files the flood needs"
	end_suite
	exit 0
fi

# lattop serves the demo on LP; Prometheus scrapes it every second.
LP=$(free_port)
wait_lock
$LATTOP --demo --listen "$LP" -d 1 -D 600 >"$TMP/l.out" 2>"$TMP/l.err" &
LPID=$!
PIDS+=($LPID)
check endpoint-up wait_url "http://127.0.0.1:$LP/metrics" 80
PP=$(free_port)
mkdir -p "$TMP/prom"
cat >"$TMP/prom/prometheus.yml" <<-CFG
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: lattop
    static_configs:
      - targets: ['127.0.0.1:$LP']
CFG
"$PROMETHEUS" --config.file="$TMP/prom/prometheus.yml" --storage.tsdb.path="$TMP/prom/data" \
	--web.listen-address="127.0.0.1:$PP" --log.level=warn >"$TMP/prom/log" 2>&1 &
PIDS+=($!)
check prometheus-ready wait_url "http://127.0.0.1:$PP/-/ready" 120
# Scrapes are under way once up is 1 (up to 30 s).
scraping() {
	for _ in $(seq 60); do
		[ "$(prom_query "$PP" 'up{job="lattop"}' "$(date +%s)")" = 1 ] && return 0
		sleep 0.5
	done
	return 1
}
check scraping scraping

# The head deadline: each connection closed 5 s after it arrived (not before 4.5 s: the server
# never cuts early; by 8 s: the trickling one at the first scrape after its deadline).
python3 tests/host/prom_flood.py deadline "$LP" 15 >"$TMP/deadline.txt"
echo "# closed after (s): $(tr '\n' ' ' <"$TMP/deadline.txt")"
for k in silent fat trickle; do
	t=$(sed -n "s/^$k //p" "$TMP/deadline.txt")
	check "head-deadline-$k" awk -v t="$t" 'BEGIN { exit !(t != "None" && t >= 4.5 && t <= 8) }'
done

# The flood: its connections ramp up at RATE a second; the window ends before it stops.
RSS0=$(kb "$LPID" VmRSS)
F0=$(fds "$LPID")
python3 tests/host/prom_flood.py flood "$LP" "$FLOOD" "$SECONDS_FLOOD" "$RATE" >"$TMP/flood.json" &
FPID=$!
PIDS+=($FPID)
# The window starts once lattop holds 1,000 of the flood's connections (up to 10 s).
for _ in $(seq 20); do
	[ $(($(fds "$LPID") - F0)) -ge 1000 ] && break
	sleep 0.5
done
T1=$(date +%s)
held=0
while [ $(($(date +%s) - T1)) -lt "$WINDOW" ]; do
	n=$(($(fds "$LPID") - F0))
	[ "$n" -gt "$held" ] && held=$n
	sleep 0.5
done
T2=$(date +%s)
wait "$FPID"
expect_eq flood-status $? 0
HWM=$(kb "$LPID" VmHWM)
echo "# flood: $(cat "$TMP/flood.json"); lattop held up to $held of its connections"
echo "# lattop RSS before ${RSS0} KiB, peak ${HWM} KiB (+$((HWM - RSS0)) KiB; bound $BOUND_KB KiB)"
check held-1000-connections test "$held" -ge 1000

# Prometheus' record of the window [T1, T2]: a sample every second, every one up.
R="[$((T2 - T1))s]"
n=$(prom_query "$PP" "count_over_time(up{job=\"lattop\"}$R)" "$T2")
up=$(prom_query "$PP" "min_over_time(up{job=\"lattop\"}$R)" "$T2")
ok=$(prom_query "$PP" "sum_over_time(up{job=\"lattop\"}$R)" "$T2")
dur=$(prom_query "$PP" "max_over_time(scrape_duration_seconds{job=\"lattop\"}$R)" "$T2")
samples=$(prom_query "$PP" "min_over_time(scrape_samples_scraped{job=\"lattop\"}$R)" "$T2")
echo "# window $T1..$T2: $n scrapes, $ok up, min up $up, max scrape duration $dur s, min samples $samples"
check scrapes-in-window test "$n" != none -a "${n%.*}" -ge $((WINDOW - 5))
expect_eq every-scrape-up "$up" 1
check scrape-duration-under-1s lt "$dur" 1
check scrapes-had-samples test "$samples" != none -a "${samples%.*}" -gt 0
check rss-within-bound test $((HWM - RSS0)) -le "$BOUND_KB"

# Afterwards: a plain scrape is answered, SIGTERM ends the session cleanly.
expect_eq served-after "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$LP/metrics")" 200
kill -TERM "$LPID"
wait "$LPID"
expect_eq sigterm-status $? 0
end_suite
