#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The monitoring mixin (mixin/, docs/GUIDE.md "Fleet"): make mixin writes the rules and the
# dashboard with jsonnet; promtool checks the rules and runs tests/fleet/rules_test.yaml (every
# alert firing and not), and must fail on a wrong expectation; then two real Prometheus servers
# (classic and native histograms) load the rules and scrape lattop --demo, every rule evaluates
# without error, the p99 alert fires from real histograms, and every panel query of the
# dashboard returns data of its expected shape (tests/fleet/dash_check.py).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-fleet
export SUITE
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT
. tests/host/prom_lib.sh
for t in jsonnet promtool prometheus; do
	if ! command -v $t >/dev/null; then
		fail prerequisites "$t is not installed (make deps)"
		end_suite
		exit 1
	fi
done
# Counts a helper's own PASS/FAIL/SKIP lines towards this suite's END line.
counted() {
	local line
	"$@" | while IFS= read -r line; do
		echo "$line"
		case $line in PASS\ * | FAIL\ * | SKIP\ *) echo >>"$TMP/checks" ;; esac
	done
}

# The shipped mixin: make mixin writes three files; promtool accepts the rules.
make -s mixin OUTPUT="$TMP/ship" >"$TMP/make.out" 2>&1
expect_eq make-mixin "$? $(cd "$TMP/ship/mixin" 2>/dev/null && ls | tr '\n' ' ')" \
	"0 alerts.yaml lattop.json rules.yaml "
promtool check rules "$TMP/ship/mixin/alerts.yaml" "$TMP/ship/mixin/rules.yaml" >"$TMP/check.out" 2>&1
expect_eq promtool-check-rules "$? $(grep -c SUCCESS "$TMP/check.out")" "0 2"
check dashboard-json python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert d["uid"] and len(d["panels"]) >= 8 and all(p["targets"] for p in d["panels"])
assert [v["name"] for v in d["templating"]["list"]] == ["datasource", "host", "program"]' \
	"$TMP/ship/mixin/lattop.json"
# Every alert has a summary and a description, and every alert of the rules is in the unit test.
check annotations python3 -c 'import yaml,sys
r=[x for g in yaml.safe_load(open(sys.argv[1]))["groups"] for x in g["rules"]]
assert all(x["annotations"]["summary"] and x["annotations"]["description"] for x in r)' \
	"$TMP/ship/mixin/alerts.yaml"
expect_eq every-alert-unit-tested "$(python3 -c 'import yaml,sys
a={x["alert"] for g in yaml.safe_load(open(sys.argv[1]))["groups"] for x in g["rules"]}
t=yaml.safe_load(open(sys.argv[2]))["tests"]
fire={c["alertname"] for g in t for c in g.get("alert_rule_test", []) if c["exp_alerts"]}
quiet={c["alertname"] for g in t for c in g.get("alert_rule_test", []) if not c["exp_alerts"]}
print(sorted(a - fire), sorted(a - quiet))' "$TMP/ship/mixin/alerts.yaml" tests/fleet/rules_test.yaml)" "[] []"

# promtool's unit tests, on the rules with per-program thresholds.
make -s mixin OUTPUT="$TMP/unit" MIXIN=tests/fleet/mixin_test.jsonnet >"$TMP/make.out" 2>&1
cp tests/fleet/rules_test.yaml "$TMP/unit/mixin/"
(cd "$TMP/unit/mixin" && promtool test rules rules_test.yaml) >"$TMP/unit.out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q SUCCESS "$TMP/unit.out"; then pass promtool-test-rules; else
	fail promtool-test-rules "exit $rc: $(head -c 2000 "$TMP/unit.out")"; fi
echo "# $(grep -c 'exp_alerts: \[\]' tests/fleet/rules_test.yaml) not-firing and $(grep -c 'exp_alerts:$' tests/fleet/rules_test.yaml) firing alert cases"
# The same tests with one expectation wrong (xdp_fw's threshold in its summary) must fail.
sed 's/over 20us$/over 21us/' tests/fleet/rules_test.yaml >"$TMP/unit/mixin/wrong_test.yaml"
(cd "$TMP/unit/mixin" && promtool test rules wrong_test.yaml) >"$TMP/wrong.out" 2>&1
expect_eq wrong-expectation-fails "$? $(grep -c 'over 21us' "$TMP/wrong.out")" "1 1"

# The live part: lattop --demo, scraped every second by a classic and a native Prometheus that
# evaluate the rules every second (mixin_live.jsonnet: a p99 alert every demo program fires).
make -s mixin OUTPUT="$TMP/live" MIXIN=tests/fleet/mixin_live.jsonnet >"$TMP/make.out" 2>&1
LP=$(free_port)
wait_lock
$LATTOP --demo --listen "$LP" -d 1 -D 300 >"$TMP/lattop.out" 2>&1 &
PIDS+=($!)
check endpoint-up wait_url "http://127.0.0.1:$LP/metrics" 120
PC=$(free_port)
PN=$(free_port)
prom_start classic "$PC" "'$TMP/live/mixin/rules.yaml', '$TMP/live/mixin/alerts.yaml'"
prom_start native "$PN" "'$TMP/live/mixin/rules.yaml', '$TMP/live/mixin/alerts.yaml'" --enable-feature=native-histograms
check prometheus-classic-ready wait_url "http://127.0.0.1:$PC/-/ready" 120
check prometheus-native-ready wait_url "http://127.0.0.1:$PN/-/ready" 120
FLOOR=0
curl -s "http://127.0.0.1:$LP/metrics" | grep -q '^lattop_probe_floor_seconds ' && FLOOR=1

for k in classic:$PC native:$PN; do
	name=${k%%:*} port=${k#*:}
	# The p99 recording rule has a value for every demo program, and the alert fires from it.
	check "$name-p99-recorded" until_result "$port" \
		'count(lattop_program:latency_seconds:p99_rate5m{prog_name=~"demo_.*"} > 0) == 4'
	check "$name-p99-alert-fires" until_result "$port" \
		'ALERTS{alertname="LattopProgramP99High",alertstate="firing",prog_name="demo_xdp_hash"}'
	# Enough scrapes for a rate over the panels' 30 s: lattop_intervals_total moved.
	check "$name-rate" until_result "$port" 'rate(lattop_intervals_total[1m]) > 0'
	# Every rule evaluated without error on real data; lattop is up and not alerting as down.
	expect_eq "$name-rules-healthy" "$(curl -s "http://127.0.0.1:$port/api/v1/rules" | python3 -c '
import json,sys; g=json.load(sys.stdin)["data"]["groups"]; r=[x for y in g for x in y["rules"]]
print(len(r), sorted({x["health"] for x in r}), [x["name"] for x in r if x["health"] != "ok"])')" \
		"16 ['ok'] []"
	expect_eq "$name-not-down" "$(prom_query "$port" 'count(ALERTS{alertname=~"LattopDown|LattopAbsent|LattopNoPrograms|LattopNotClosingIntervals"})' "$(date +%s)")" none
	counted python3 tests/fleet/dash_check.py "$TMP/live/mixin/lattop.json" "$port" "$name" \
		"127.0.0.1:$LP" demo_xdp_hash "$FLOOR"
done
# Why the classic heatmap is skipped on the native server: it holds no classic bucket.
expect_eq native-no-classic-buckets "$(prom_query "$PN" 'count(lattop_program_latency_seconds_bucket)' "$(date +%s)")" none
# The checker fails a panel that returns nothing: a program that does not exist.
SUITE=x python3 tests/fleet/dash_check.py "$TMP/live/mixin/lattop.json" "$PC" classic \
	"127.0.0.1:$LP" no_such_program "$FLOOR" >"$TMP/nothing.out"
expect_eq empty-panel-fails "$(grep -c '^FAIL x/dash-classic-p50-and-p99-per-program-A: no data' "$TMP/nothing.out")" 1
end_suite
