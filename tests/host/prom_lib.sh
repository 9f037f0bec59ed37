# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What the Prometheus suites (t_prom, t_prom_flood, t_fleet, and tests/vm/fleet.sh, the VM's
# fleet test) share: sourced after tests/lib.sh (run.sh sources it alone, for free_port).

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_url URL TRIES: until URL answers 200 (0.25 s apart).
wait_url() {
	for _ in $(seq "$2"); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = 200 ] && return 0
		sleep 0.25
	done
	return 1
}

# until_result PORT QUERY: the instant query has a result, polled for up to 60 s.
until_result() {
	for _ in $(seq 240); do
		curl -s "http://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2" |
			grep -q '"result":\[{' && return 0
		sleep 0.25
	done
	return 1
}

# prom_query PORT QUERY TIME: the value of an instant query with one result, or "none" (read
# with sed: no interpreter to start, on a host where that may take seconds).
prom_query() {
	curl -s "http://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2" --data-urlencode "time=$3" |
		sed -n 's/^.*"result":\[{"metric":{[^}]*},"value":\[[0-9.]*,"\([^"]*\)"\]}\]}}$/\1/p' |
		grep . || echo none
}

# prom_start NAME PORT RULE_FILES [FLAGS...]: a real Prometheus (Debian's) in $TMP/NAME on
# 127.0.0.1:PORT scraping lattop on 127.0.0.1:$LP every second, evaluating RULE_FILES (a YAML
# list's items, "" for none) every second; its pid goes in PIDS.
prom_start() {
	local name=$1 port=$2 rules=$3
	shift 3
	mkdir -p "$TMP/$name"
	{
		printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n'
		[ -n "$rules" ] && printf '  evaluation_interval: 1s\nrule_files: [%s]\n' "$rules"
		printf 'scrape_configs:\n  - job_name: lattop\n    static_configs:\n'
		printf "      - targets: ['127.0.0.1:%s']\n" "$LP"
	} >"$TMP/$name/prometheus.yml"
	"${PROMETHEUS:-prometheus}" --config.file="$TMP/$name/prometheus.yml" \
		--storage.tsdb.path="$TMP/$name/data" --web.listen-address="127.0.0.1:$port" \
		--log.level=warn "$@" >"$TMP/$name/log" 2>&1 &
	PIDS+=($!)
}
