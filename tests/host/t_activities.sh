#!/usr/bin/env bash
# --activities (EventHeader activities through user_events) on a kernel without user_events,
# as the development host's is: one sentence naming what is missing and status 2 when nothing
# else was asked; a warning and the rest of the session unaffected otherwise. Bad arguments
# are refused before anything starts. (The activities themselves are tested in the VM, on a
# kernel with user_events: tests/vm/uevents.)
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-activities

BADTP="neither an EventHeader tracepoint name \(Provider_L<level>K<keyword> in hex, e.g. MyProvider_L4K1\) nor a provider name"
expect_usage bad-tracepoint 2 "^lattop: --activities Prov_L4: $BADTP" --activities Prov_L4 -b -n 1
expect_usage bad-level 2 "^lattop: --activities Prov_L0K1: $BADTP" --activities Prov_L0K1 -b -n 1
expect_usage empty-activity 2 "^lattop: --activities Prov_L4K1:: an empty or too long item \(\): give TRACEPOINT or PROVIDER" \
	--activities Prov_L4K1: -b -n 1
expect_usage bad-provider 2 "^lattop: --activities My-Prov: $BADTP" --activities My-Prov -b -n 1
# The items after ':' (fields, filters, a provider's level and keyword mask).
while IFS='|' read -r name arg msg; do
	expect_usage "$name" 2 "^lattop: --activities $arg: $msg: give TRACEPOINT or PROVIDER" \
		--activities "$arg" -b -n 1
done <<'EOF'
two-names|P_L4K1:A,B|two activity names \(B\)
bad-activity|P_L4K1:a;b|a bad activity name \(a;b\)
by-bad-field|P_L4K1:by=a.b|a field name is letters, digits and '_' \(by=a.b\)
value-empty|P_L4K1:value=|a field name is letters, digits and '_' \(value=\)
if-no-op|P_L4K1:if=status|if= takes FIELD, one of == != < <= > >=, and a value \(if=status\)
if-no-value|P_L4K1:if=status!=|if= takes FIELD, one of == != < <= > >=, and a value \(if=status!=\)
if-no-field|P_L4K1:if===1|if= takes FIELD, one of == != < <= > >=, and a value \(if===1\)
top-zero|P_L4K1:by=x,top=0|top= takes 1 to 32 \(top=0\)
top-big|P_L4K1:by=x,top=33|top= takes 1 to 32 \(top=33\)
level-on-tp|P_L4K1:level=4|level= and kw= apply to a provider, not to one tracepoint \(level=4\)
kw-on-tp|P_L4K1:kw=1|level= and kw= apply to a provider, not to one tracepoint \(kw=1\)
level-zero|Prov:level=0|level= takes 1 to 255 \(level=0\)
level-big|Prov:level=256|level= takes 1 to 255 \(level=256\)
kw-bad|Prov:kw=x1|kw= takes a keyword mask such as 0x1 \(kw=x1\)
unknown|Prov:colour=red|an unknown item \(colour=red\)
empty-item|Prov:level=4,,kw=1|an empty or too long item \(\)
EOF
expect_usage top-without-by 2 "^lattop: --activities P_L4K1:top=3: top= needs by=FIELD: give" \
	--activities P_L4K1:top=3 -b -n 1
expect_usage activities-replay 2 "do not apply to -r" --activities Prov_L4K1 -r tests/data/sample.lrec -b

# The "activities" of a spans file: checked like the option, each error naming the file.
printf '{"activities":[{"tracepoint":"X_L4K1","bogus":1}]}' >"$TMP/bad1.json"
expect_usage file-unknown-key 2 "^lattop: $TMP/bad1.json: unknown key 'bogus' in activities\[0\]\$" \
	--spans "$TMP/bad1.json" -b -n 1
printf '{"activities":[{"tracepoint":"X_L4","activity":"a"}]}' >"$TMP/bad2.json"
expect_usage file-bad-tracepoint 2 "^lattop: $TMP/bad2.json: activities\[0\]: X_L4:a: $BADTP" \
	--spans "$TMP/bad2.json" -b -n 1
printf '{"activities":[{"tracepoint":"X_L4K1","name":"a"}]}' >"$TMP/bad3.json"
expect_usage file-name-without-activity 2 "needs a string \"tracepoint\" \\(a tracepoint or a provider\\), optionally an \"activity\"" \
	--spans "$TMP/bad3.json" -b -n 1
printf '{"activities":[{"tracepoint":"X_L4K1","by":"a b"}]}' >"$TMP/bad5.json"
expect_usage file-bad-by 2 "^lattop: $TMP/bad5.json: activities\[0\]: X_L4K1:by=a b: a field name is letters" \
	--spans "$TMP/bad5.json" -b -n 1
printf '{"activities":[{"tracepoint":"X_L4K1","top":3}]}' >"$TMP/bad6.json"
expect_usage file-top-number 2 "strings \"by\", \"value\", \"if\", \"top\"" --spans "$TMP/bad6.json" -b -n 1
printf '{"activities":[]}' >"$TMP/bad4.json"
expect_usage file-empty 2 "'activities' must be a non-empty array" --spans "$TMP/bad4.json" -b -n 1

if [ -e /sys/kernel/tracing/user_events_data ]; then
	skip no-user-events "this kernel has user_events"
	end_suite
	exit 0
fi
MISSING="this kernel has no user_events \(/sys/kernel/tracing/user_events_data is missing: CONFIG_USER_EVENTS\), which --activities and --eventheader need"
expect_usage no-user-events 2 "^lattop: $MISSING: use a kernel that enables it" --activities Prov_L4K1 -b -n 1
expect_usage no-user-events-named 2 "^lattop: $MISSING" --activities Prov_L4K1:Request -b -n 1 -o json
expect_usage no-user-events-emit 2 "^lattop: $MISSING" --eventheader -b -n 1
printf '{"activities":[{"tracepoint":"MyService_L4K1","activity":"Request","name":"req","by":"status","if":"status!=0","top":"4"},{"tracepoint":"MyService","level":"4","kw":"0x1"}]}' \
	>"$TMP/good.json"
expect_usage no-user-events-file 2 "^lattop: $MISSING" --spans "$TMP/good.json" -b -n 1
# Something else asked (the demo): a warning, and the demo's programs measured as ever.
$LATTOP --activities Prov_L4K1 --demo -b -n 2 -d 0.3 -o json >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_eq with-demo-status "$rc" 0
if grep -q "^lattop: warning: --activities ignored: this kernel has no user_events" "$TMP/err"; then
	pass with-demo-warning
else
	fail with-demo-warning "stderr: $(cat "$TMP/err")"
fi
n=$(python3 -c 'import json,sys
rows=[r for l in open(sys.argv[1]) if l.strip() for r in json.loads(l).get("rows",[])]
print(sum(1 for r in rows if r.get("prog_name","").startswith("demo_")))' "$TMP/out" 2>/dev/null)
if [ "${n:-0}" -gt 0 ]; then pass with-demo-rows; else fail with-demo-rows "no demo rows: $(head -c 300 "$TMP/out")"; fi
end_suite
