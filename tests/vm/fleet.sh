#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The host side of the guest test x_61_fleet (issue 35), started by run.sh beside the boot:
# in each repetition of the test (its "fleet: start" and "fleet: ready" lines), a real
# Prometheus (Debian's), classic and with native histograms, loads the mixin's recording rules
# and scrapes the guest's lattop, which has fentry probes attached, through QEMU's forwarded
# port; then
# every query of the dashboard must return data (tests/fleet/dash_check.py with FLOOR=1: the
# probe floor, run cost and probe cost queries the host kernel cannot feed run here). The
# checks go back to the guest through the second forwarded port, which prints them.
#
# usage: fleet.sh RESULTS METRICS_PORT REPORT_PORT QEMU_PID
#   RESULTS       the guest's results log (ttyS1), where those lines appear
#   METRICS_PORT  the host port QEMU forwards to the guest's lattop (10.0.2.15:9364)
#   REPORT_PORT   the host port QEMU forwards to the guest's nc (10.0.2.15:9365)
#   QEMU_PID      the boot: this script ends when it does
cd "$(dirname "$0")/../.." && . tests/lib.sh
export SUITE=vm
. tests/host/prom_lib.sh
RESULTS=$1 LP=$2 RP=$3 QPID=$4
PIDS=()
trap 'exit 143' TERM
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT
PROG=target_light # the program the guest's lattop probes (tests/host/target.c's light)

# since: the seconds since the round began (the guest's ready line seen), to a tenth.
since() {
	awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }'
}
# stamp WHAT: a line in fleet.log saying when WHAT happened (where a slow round spent its time).
stamp() {
	echo "fleet: round $r: $1 at +$(since)" >&2
}

# servers N: a classic and a native Prometheus for repetition N (ports in PC and PN).
servers() {
	PC=$(free_port)
	PN=$(free_port)
	PIDS=()
	prom_start "classic$1" "$PC" "'$TMP/mixin/rules.yaml'"
	prom_start "native$1" "$PN" "'$TMP/mixin/rules.yaml'" --enable-feature=native-histograms
}

# round: the checks of one repetition, once the guest's lattop is up (PASS/FAIL lines on
# stdout); its servers stopped after.
round() {
	local name port
	if [ ! -s "$TMP/mixin/lattop.json" ]; then
		fail fleet-mixin "make mixin: $(head -c 1000 "$TMP/make.out")"
		return
	fi
	check fleet-endpoint-forwarded wait_url "http://127.0.0.1:$LP/metrics" 120
	curl -s "http://127.0.0.1:$LP/metrics" >"$TMP/m"
	check fleet-floor-forwarded grep -q '^lattop_probe_floor_seconds ' "$TMP/m"
	stamp "endpoint answered"
	for k in classic:$PC native:$PN; do
		name=${k%%:*} port=${k#*:}
		check "fleet-$name-ready" wait_url "http://127.0.0.1:$port/-/ready" 120
		stamp "$name ready"
		# Real figures before the dashboard is read: the program's p99 from the probes, the
		# probe cost from lattop's measured ratio (the rule's first branch, not the 0 of a
		# kernel without probes), intervals closing.
		check "fleet-$name-p99-recorded" until_result "$port" \
			"lattop_program:latency_seconds:p99_rate5m{prog_name=\"$PROG\"} > 0"
		check "fleet-$name-cpu-ratio" until_result "$port" 'lattop_probe_cpu_ratio > 0'
		check "fleet-$name-probe-cost-recorded" until_result "$port" 'lattop:probe_cost:rate5m > 0'
		check "fleet-$name-rate" until_result "$port" 'rate(lattop_intervals_total[1m]) > 0'
		stamp "$name figures recorded"
		python3 tests/fleet/dash_check.py "$TMP/mixin/lattop.json" "$port" "$name" \
			"127.0.0.1:$LP" "$PROG" 1
		stamp "$name dashboard checked"
	done
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	wait "${PIDS[@]}" 2>/dev/null
	PIDS=()
}

# The shipped mixin (not make's own build directory: nothing of a run in progress is touched).
env -u MAKEFLAGS -u MAKELEVEL make -s mixin OUTPUT="$TMP" >"$TMP/make.out" 2>&1
# Per repetition: the servers start on the guest's start line, so that Prometheus's first
# scrape (its discovery hands the scrapers their target ~5 s after it starts) comes while the
# guest's lattop attaches its probes; the checks run on its ready line.
r=0 up=
while kill -0 "$QPID" 2>/dev/null; do
	if [ -z "$up" ] && [ "$(grep -c '^fleet: start' "$RESULTS")" -gt $r ]; then
		servers $((r + 1))
		up=1
	fi
	if [ "$(grep -c '^fleet: ready' "$RESULTS")" -le $r ]; then
		sleep 0.5
		continue
	fi
	r=$((r + 1))
	t0=$(date +%s.%N)
	[ -n "$up" ] || servers $r
	round >"$TMP/report"
	up=
	# (the guest checks it received as many lines as this says)
	echo "END fleet-host $(grep -cE '^(PASS|FAIL|SKIP) ' "$TMP/report")" >>"$TMP/report"
	echo "vm: fleet round $r: $(grep -c '^PASS ' "$TMP/report") passed," \
		"$(grep -c '^FAIL ' "$TMP/report") failed in $(since)" >&2
	cat "$TMP/report" >/dev/tcp/127.0.0.1/"$RP" || echo "vm: fleet round $r: the guest took no report" >&2
done
