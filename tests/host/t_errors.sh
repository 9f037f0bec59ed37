#!/usr/bin/env bash
# Bad input gets one clear sentence on stderr, nothing on stdout, and the documented status:
# 2 for usage errors (nothing started), 1 for missing privileges.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-errors

expect_usage unknown-option 2 "unknown option '--bogus'" --bogus
expect_usage unknown-short 2 "unknown option '-x'" -x
expect_usage missing-value 2 "option '-d' needs a value" -b -d
expect_usage bad-interval 2 "bad interval 'abc'" -b -d abc
expect_usage zero-interval 2 "bad interval '0'" -b -d 0
expect_usage bad-count 2 "bad count '0' for -n" -b -n 0
expect_usage bad-budget 2 "bad budget '101' for --budget: give a percentage of the machine's CPU from 0 to 100" -b --budget 101
expect_usage bad-budget-text 2 "bad budget 'lots' for --budget" -b --budget lots
expect_usage bad-budget-negative 2 "bad budget '-1' for --budget" -b --budget -1
expect_usage bad-count-text 2 "bad count '3x' for -n" -b -n 3x
expect_usage bad-duration 2 "bad duration '-1' for -D" -b -D -1
expect_usage bad-format 2 "unknown output format 'xml'" -b -o xml
expect_usage format-needs-batch 2 "add -b" -o json
expect_usage bad-mode 2 "unknown mode 'foo'" -m foo
expect_usage segments-needs-spans 2 "segments mode needs spans or a profile: give -u, --spans or --profile" -m segments
expect_usage empty-filter-entry 2 "bad entry '' in -p" -b -p 1,,2
expect_usage filter-trailing-comma 2 "ends with a comma" -b -p 1,
expect_usage filter-bad-chars 2 "bad entry 'a-b' in -p" -b -p a-b
expect_usage filter-id-range 2 "bad program ID '4294967296'" -b -p 4294967296
expect_usage stray-argument 2 "unexpected argument 'foo'" -b foo
expect_usage unknown-id 2 "no loaded BPF program has ID 4000000000" -b -n 1 -p 4000000000
expect_usage unknown-name 2 "no loaded BPF program is named 'no_such_prog_x'" -b -n 1 -p no_such_prog_x
# --no-stats: nothing to measure without probes (this kernel refuses fentry: KERNEL.md), said
# before any screen (the TUI's run too) and before the demo loads; a replay shows what was
# recorded.
NOPROBES="--no-stats needs per-invocation probes and there are none here \(this kernel refuses fentry/fexit \(EPERM\)\): drop --no-stats for bpf_stats counts and averages"
expect_usage no-stats-no-probes 2 "^lattop: $NOPROBES\$" --no-stats -b -n 1
expect_usage no-stats-no-probes-tui 2 "^lattop: $NOPROBES\$" --no-stats
expect_usage no-stats-no-probes-watch 2 "^lattop: $NOPROBES\$" --no-stats -b -n 1 -p 1
expect_usage no-stats-no-probes-demo 2 "^lattop: $NOPROBES\$" --no-stats --demo -b -n 1
expect_eq no-stats-demo-not-loaded "$(demo_loaded)" 0
NOREPLAY="--no-stats applies to live sessions; a replay \(-r\) shows what was recorded: drop --no-stats"
expect_usage no-stats-replay 2 "^lattop: $NOREPLAY\$" -r tests/data/sample.lrec -b --no-stats
expect_usage no-stats-compare 2 "^lattop: $NOREPLAY\$" -r tests/data/sample.lrec --compare tests/data/sample.lrec --no-stats

# Not root: one sentence, status 1, nothing started.
NEEDS="lattop: a live session needs root (CAP_SYS_ADMIN) to list BPF programs and enable their run-time stats: run it with sudo"
if id nobody >/dev/null 2>&1; then
	cp "$LATTOP" "$TMP/lattop" && chmod 755 "$TMP" "$TMP/lattop"
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$TMP/lattop" -b -n 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq not-root-status "$rc" 1
	expect_eq not-root-message "$(cat "$TMP/err")" "$NEEDS"
	# CAP_BPF and CAP_PERFMON without CAP_SYS_ADMIN cannot list programs or enable stats.
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+bpf,+perfmon \
		--ambient-caps=+bpf,+perfmon "$TMP/lattop" -b -n 1 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	expect_eq bpf-perfmon-only-status "$rc" 1
	expect_eq bpf-perfmon-only-message "$(cat "$TMP/err")" "$NEEDS"
else
	skip not-root "no user nobody to run as"
fi
# uid 0 with CAP_SYS_ADMIN dropped: the same sentence, not a failure further on.
setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin $LATTOP -b -n 1 >"$TMP/out" 2>"$TMP/err"
expect_eq root-no-sys-admin-status $? 1
expect_eq root-no-sys-admin-message "$(cat "$TMP/err")" "$NEEDS"
check root-no-sys-admin-stdout test ! -s "$TMP/out"

# --help and --version succeed and say what they should.
$LATTOP --help >"$TMP/h" 2>&1; expect_eq help-status $? 0
check help-lists-options grep -q -- '--programs LIST' "$TMP/h"
# -V: the version (debian/changelog's), the libbpf it runs with and the features, one line each.
out=$($LATTOP -V)
expect_eq version "$(sed -n 1p <<<"$out")" \
	"lattop $(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)"
expect_eq version-lines "$(sed -n 2p <<<"$out" | grep -cE '^libbpf [0-9]+\.[0-9]+ \(built against [0-9]+\.[0-9]+\)$'):$(sed -n 3p <<<"$out" | grep -c '^features: .*openmetrics'):$(wc -l <<<"$out")" 1:1:3

# helpers mode on a kernel without fentry: one sentence, and the overview instead.
$LATTOP -m helpers -b -n 1 -d 0.3 >"$TMP/h.txt" 2>&1
expect_eq helpers-degrades-status $? 0
check helpers-degrades-sentence grep -q '^note: helpers mode needs fentry/fexit, which this kernel refuses: staying in programs mode' "$TMP/h.txt"
check helpers-degrades-overview grep -q ' mode programs ' "$TMP/h.txt"
end_suite
