#!/usr/bin/env bash
# Segments of the vhost-net transmit path (--discover, --profile) on the host kernel: the flow
# syntax, broken profiles, an unknown device, non-root refusal, and the one sentence a kernel
# without kprobes or vhost-net gets (measure degrades to programs mode, discover exits 1).
# The chain itself is proven in the VM (tests/vm/guest/t_5*_segments_*.sh).
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-segments
export LATTOP_LOCK=${LATTOP_LOCK:-/run/lattop.lock}

# usage NAME STATUS MESSAGE ARGS...: lattop ARGS exits STATUS and says MESSAGE on stderr.
usage() {
	local name=$1 want=$2 msg=$3
	shift 3
	$LATTOP "$@" >"$TMP/out" 2>"$TMP/err"
	expect_eq "$name-status" $? "$want"
	check "$name-message" grep -qF -- "$msg" "$TMP/err"
}

D=(--discover --device lo --profile-out "$TMP/p.json")
usage flow-unknown-key 2 "unknown key 'port' in the flow: use proto, src, dst, sport and dport" \
	"${D[@]}" --flow port=1
usage flow-bad-proto 2 "bad protocol 'icmp' in the flow: use proto=udp or tcp" \
	"${D[@]}" --flow proto=icmp
usage flow-bad-addr 2 "bad address '10.0.0.256' for src in the flow" "${D[@]}" --flow src=10.0.0.256
usage flow-bad-port 2 "bad port '70000' for dport in the flow: give 1..65535" \
	"${D[@]}" --flow dport=70000
usage flow-mismatch 2 "flow mixes IPv4 and IPv6: dst is IPv6 but the other address is IPv4" \
	"${D[@]}" --flow src=10.0.0.1,dst=fd00::1
usage flow-item 2 "bad flow item 'udp': write key=value" "${D[@]}" --flow udp
usage unknown-device 2 "no network device 'nosuchdev0' (see \`ip link\`)" \
	--discover --device nosuchdev0 --flow proto=udp --profile-out "$TMP/p.json"
usage discover-needs 2 "--discover needs --device DEV, --flow SPEC and --profile-out FILE" \
	--discover --device lo
usage device-alone 2 "--device, --flow and --profile-out go with --discover" --device lo
usage details-needs-profile 2 "--details and --fifo-slots go with --profile" -b --details
usage fifo-slots-range 2 "bad FIFO size '5000' for --fifo-slots: give 1..1024" \
	--fifo-slots 5000
usage segments-needs 2 "segments mode needs spans or a profile: give -u, --spans or --profile" \
	-m segments

# Profiles: each broken file gets one sentence naming the file and the key.
good() {
	cat <<JSON
{"lattop_version": "0.1.0", "kernel": "x", "timestamp": "2026-01-01T00:00:00Z",
 "device": "${1:-lo}", "flow": "proto=udp,dport=4321",
 "eventfds": [{"ctx": "0xffff888001234000", "queue": 0, "runs": 5, "packets": 64}],
 "workers": [{"tid": 1, "pid": 1, "comm": "vhost-1", "ctx": "0xffff888001234000",
              "queue": 0, "runs": 5, "packets": 64}]}
JSON
}
P=$TMP/prof.json
usage profile-missing-file 2 "cannot open the profile $TMP/none.json" \
	--profile "$TMP/none.json" -b -n 1
good | head -c 60 >"$P"
usage profile-bad-json 2 "profile $P is not valid JSON (near offset" --profile "$P" -b -n 1
good | python3 -c 'import json,sys; d=json.load(sys.stdin); del d["device"]; print(json.dumps(d))' >"$P"
usage profile-no-device 2 "profile $P: \"device\" is missing: run lattop --discover again" \
	--profile "$P" -b -n 1
good | python3 -c 'import json,sys; d=json.load(sys.stdin); del d["workers"]; print(json.dumps(d))' >"$P"
usage profile-no-workers 2 "profile $P: \"workers\" is missing" --profile "$P" -b -n 1
good | python3 -c 'import json,sys; d=json.load(sys.stdin); d["eventfds"][0]["ctx"]=12; print(json.dumps(d))' >"$P"
usage profile-bad-ctx 2 "profile $P: eventfds[0].\"ctx\" is not a valid string" --profile "$P" -b -n 1
good | python3 -c 'import json,sys; d=json.load(sys.stdin); d["workers"][0]["ctx"]="0x1234"; print(json.dumps(d))' >"$P"
usage profile-worker-ctx 2 "profile $P: workers[0].\"ctx\" is not one of \"eventfds\"" \
	--profile "$P" -b -n 1
good | python3 -c 'import json,sys; d=json.load(sys.stdin); d["flow"]="proto=sctp"; print(json.dumps(d))' >"$P"
usage profile-bad-flow 2 "profile $P: \"flow\": bad protocol 'sctp'" --profile "$P" -b -n 1
good nosuchdev0 >"$P"
usage profile-stale-device 2 "no network device 'nosuchdev0' (the profile's device: stale profile" \
	--profile "$P" -b -n 1

# Not root: one sentence, status 1.
good >"$P"
if id nobody >/dev/null 2>&1; then
	cp "$LATTOP" "$TMP/lattop" && chmod 755 "$TMP" "$TMP/lattop" && chmod 644 "$P"
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$TMP/lattop" \
		-m segments --profile "$P" -b -n 1 >"$TMP/out" 2>"$TMP/err"
	expect_eq not-root-status $? 1
	check not-root-message grep -q "needs root (CAP_SYS_ADMIN) to list BPF programs" "$TMP/err"
else
	skip not-root "no user nobody to run as"
fi

# This kernel has neither kprobes nor vhost-net: measure says so in one sentence and stays in
# programs mode; discover exits 1 with the same sentence.
WHY="segments of the vhost path need kprobes and vhost-net, which this kernel lacks"
if [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
	$LATTOP -m segments --profile "$P" -b -o json -n 1 -d 0.3 >"$TMP/m.json" 2>"$TMP/m.err"
	expect_eq degrade-status $? 0
	expect_eq degrade-mode "$(json "L[-1]['mode']" "$TMP/m.json")" programs
	check degrade-notice grep -qF "\"notice\":\"$WHY" "$TMP/m.json"
	$LATTOP --discover --device lo --flow proto=udp --profile-out "$TMP/d.json" -D 1 \
		>"$TMP/out" 2>"$TMP/err"
	expect_eq discover-status $? 1
	check discover-message grep -qF "lattop: $WHY" "$TMP/err"
	check discover-no-profile test ! -e "$TMP/d.json"
else
	skip degrade "this kernel has kprobes"
fi
end_suite
