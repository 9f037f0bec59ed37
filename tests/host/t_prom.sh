#!/usr/bin/env bash
# --listen: lattop's Prometheus endpoint, scraped by a real Prometheus 2.42 (Debian's, run as a
# plain binary on localhost with a temporary config and storage), once with classic histograms
# and once with native ones; the text exposition through promtool, the protobuf one decoded
# back field by field; bad requests and bad --listen arguments.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-prom
# prom_check.py prints its own PASS/FAIL lines: each counts towards this suite's END line.
CHECK=checked_py
checked_py() {
	local line
	python3 tests/host/prom_check.py "$@" | while IFS= read -r line; do
		echo "$line"
		case $line in PASS\ * | FAIL\ * | SKIP\ *) echo >>"$TMP/checks" ;; esac
	done
}
DECODE=$OUTPUT/tests/host/prom_decode
export SUITE
PROMETHEUS=$(command -v prometheus || true)
PROMTOOL=$(command -v promtool || true)
if [ -z "$PROMETHEUS" ] || [ -z "$PROMTOOL" ] || [ ! -x "$DECODE" ]; then
	fail prerequisites "need prometheus and promtool (make deps) and $DECODE (make unit)"
	exit 1
fi
# Everything this suite starts is killed on exit, whatever happens.
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT
. tests/host/prom_lib.sh

# Bad --listen arguments: one sentence, status 2, before anything starts.
for a in abc 70000 0 1.2.3.4.5:9100 :9100 '[::1' 'host:9100'; do
	$LATTOP --listen "$a" -b -n 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq "bad-listen-status-$a" "$rc" 2
	expect_eq "bad-listen-message-$a" "$(cat "$TMP/err")" \
		"lattop: bad address '$a' for --listen: give [ADDR:]PORT with PORT 1..65535 and ADDR a numeric IPv4 address, [IPv6] or localhost (e.g. --listen 9364 or --listen 0.0.0.0:9364)"
done
$LATTOP --tui -b -n 1 >"$TMP/out" 2>"$TMP/err"
expect_eq tui-without-listen "$? $(cat "$TMP/err")" \
	"2 lattop: --tui applies to --listen (the TUI is the default without it)"
$LATTOP --listen 9100 -r tests/data/sample.lrec >"$TMP/out" 2>"$TMP/err"
expect_eq listen-replay "$? $(cat "$TMP/err")" \
	"2 lattop: --listen serves a live session: it does not apply to -r"

# A busy port and an address this host does not have: one sentence, status 1.
BUSY=$(free_port)
python3 -c 'import socket,sys,time; s=socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); print("up", flush=True); time.sleep(60)' "$BUSY" >"$TMP/busy" &
PIDS+=($!)
for _ in $(seq 40); do grep -q up "$TMP/busy" && break; sleep 0.1; done
wait_gone
$LATTOP --listen "$BUSY" -b -n 1 >"$TMP/out" 2>"$TMP/err"
expect_eq busy-port "$? $(cat "$TMP/err")" \
	"1 lattop: cannot listen on 127.0.0.1:$BUSY: the port is in use (another lattop or exporter?); choose another with --listen"
wait_gone
$LATTOP --listen "192.0.2.1:$BUSY" -b -n 1 >"$TMP/out" 2>"$TMP/err"
expect_eq foreign-address "$? $(cat "$TMP/err")" \
	"1 lattop: cannot listen on 192.0.2.1:$BUSY: no such address on this host; give one of its addresses, 127.0.0.1 or 0.0.0.0"
# Not root: the same sentence and status as without --listen.
if id nobody >/dev/null 2>&1; then
	cp "$LATTOP" "$TMP/lattop" && chmod 755 "$TMP" "$TMP/lattop"
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$TMP/lattop" \
		--listen "$BUSY" -b -n 1 >"$TMP/out" 2>"$TMP/err"
	expect_eq not-root "$? $(cat "$TMP/err")" \
		"1 lattop: a live session needs root (CAP_SYS_ADMIN) to list BPF programs and enable their run-time stats: run it with sudo"
fi

# The live run: the demo served on LP (up to 120 s; SIGTERM ends it), with a cumulative JSON report per interval
# (intervals of 1 s): lattop_intervals_total in a scrape names the report of the same figures.
LP=$(free_port)
wait_gone
$LATTOP --demo --listen "$LP" -b -c -o json -d 1 -D 120 >"$TMP/l.json" 2>"$TMP/l.err" &
LPID=$!
PIDS+=($LPID)
TL=$(date +%s)
check endpoint-up wait_url "http://127.0.0.1:$LP/metrics" 80

# Two Prometheus servers scrape it every second: classic, and native histograms.
PC=$(free_port)
PN=$(free_port)
prom_start classic "$PC" ""
prom_start native "$PN" "" --enable-feature=native-histograms
check prometheus-classic-ready wait_url "http://127.0.0.1:$PC/-/ready" 120
check prometheus-native-ready wait_url "http://127.0.0.1:$PN/-/ready" 120
T0=$(date +%s)
echo "# prometheus ready $((T0 - TL)) s after lattop started"
# The checks below read figures of closed intervals: wait for the first to close (a fast
# Prometheus start once left them reading the empty exposition served before it, 1 s in).
first_interval() { # up to 60 s, 0.25 s apart
	for _ in $(seq 240); do
		curl -s "http://127.0.0.1:$LP/metrics" | grep -qE '^lattop_intervals_total [1-9]' &&
			return 0
		sleep 0.25
	done
	return 1
}
check first-interval-served first_interval

# Text 0.0.4 (no Accept header): promtool's linter finds nothing.
curl -s -D "$TMP/text.h" "http://127.0.0.1:$LP/metrics" >"$TMP/m.txt"
expect_eq text-content-type "$(grep -i '^content-type' "$TMP/text.h" | tr -d '\r')" \
	"Content-Type: text/plain; version=0.0.4; charset=utf-8"
"$PROMTOOL" check metrics <"$TMP/m.txt" >"$TMP/promtool.out" 2>&1
expect_eq promtool-check-metrics "$? $(cat "$TMP/promtool.out") $(grep -c '^# TYPE lattop_' "$TMP/m.txt")" "0  10"
check text-families grep -q '^lattop_program_latency_seconds_bucket{prog_id="[0-9]*",prog_name="demo_xdp_hash",prog_type="xdp",le="+Inf"} [1-9]' "$TMP/m.txt"
# Who holds each program: one info series each, lattop itself for the demo's, whose programs
# run by test_run and have no attach point.
check info-series grep -qE "^lattop_program_info\{prog_id=\"[0-9]+\",prog_name=\"demo_xdp_hash\",prog_type=\"xdp\",owner_comm=\"lattop\",owner_pid=\"$LPID\",container=\"[^\"]*\",attach=\"\"\} 1$" "$TMP/m.txt"
# The join pattern, in a real Prometheus: the runs of the demo's programs by their owner.
check info-join until_result "$PC" \
	'sum by (owner_comm) (lattop_program_runs_total * on(instance, prog_id) group_left(owner_comm) lattop_program_info{owner_comm="lattop"})'
# OpenMetrics: its content type, _created samples and the closing # EOF.
curl -s -D "$TMP/om.h" -H 'Accept: application/openmetrics-text;version=1.0.0' \
	"http://127.0.0.1:$LP/metrics" >"$TMP/m.om"
expect_eq om-content-type "$(grep -i '^content-type' "$TMP/om.h" | tr -d '\r')" \
	"Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8"
expect_eq om-eof "$(tail -n 1 "$TMP/m.om")" "# EOF"
check om-created grep -q '^lattop_program_latency_seconds_created{' "$TMP/m.om"
check om-counter-family grep -q '^# TYPE lattop_lost_events counter$' "$TMP/m.om"
# Protobuf, decoded back with protobuf-c, against a text exposition of the same snapshot (the
# two fetched within one interval: lattop_intervals_total equal before and after).
$CHECK fetch3 "$LP" "$TMP"
expect_eq pb-content-type "$(cat "$TMP/pb.ctype")" \
	"application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"
"$DECODE" <"$TMP/m.pb" >"$TMP/pb.json"
expect_eq pb-decodes $? 0
$CHECK protobuf "$TMP/a.txt" "$TMP/pb.json" "$TMP/l.json"

# Bad requests: other paths 404, other methods 405; huge headers and clients that never
# finish their request do no harm.
expect_eq unknown-path "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$LP/")" 404
expect_eq unknown-path-2 "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$LP/metrics/x")" 404
expect_eq post "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x=1 "http://127.0.0.1:$LP/metrics")" 405
expect_eq post-allow "$(curl -s -D - -o /dev/null -X PUT "http://127.0.0.1:$LP/metrics" | grep -i '^allow' | tr -d '\r')" \
	"Allow: GET, HEAD"
$CHECK huge "$LP"
RSS0=$(grep VmRSS /proc/$LPID/status | tr -dc 0-9)
$CHECK slow "$LP" 12
RSS1=$(grep VmRSS /proc/$LPID/status | tr -dc 0-9)
# Resident memory grew by less than 8 MiB while they held their connections.
check slow-clients-memory test -n "$RSS0" -a -n "$RSS1" -a $((RSS1 - RSS0)) -lt 8192

# Prometheus' view: at two evaluation times at least 8 s apart, once both have 12+ scrapes.
for _ in $(seq 120); do
	[ $(($(date +%s) - T0)) -ge 20 ] && break
	sleep 0.5
done
T2=$(($(date +%s) - 1))
T1=$((T2 - 9))
$CHECK prometheus "$PC" classic "$TMP/l.json" "$T1" "$T2"
$CHECK prometheus "$PN" native "$TMP/l.json" "$T1" "$T2"

# SIGTERM ends the session cleanly (status 0), the port is free again.
kill -TERM "$LPID"
wait "$LPID"
expect_eq sigterm-status $? 0
curl -s -o /dev/null "http://127.0.0.1:$LP/metrics"
expect_eq port-closed $? 7
end_suite
