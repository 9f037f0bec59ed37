#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# rec-compare.sh BEFORE AFTER: show that two builds of lattop write the same thing for the
# same input, for a change meant to keep behaviour (a refactoring):
#   - a replayed sample (tests/data/sample.lrec): every batch output (text, CSV, JSON, each
#     mode, cumulative, histograms) and the HTML report, byte for byte;
#   - live --demo -b -w runs (root): the recordings' frame layout (tests/reclayout.py: record
#     types, series, entries and counters in order, without the figures a live run cannot
#     repeat), and the sentences and exit statuses of live runs this kernel refuses.
# Each live run is made twice with BEFORE first, so that a layout which differs between two
# runs of the same build shows as such (SAME-BUILD lines) rather than as a difference.
# Prints "SAME what" or "DIFF what" lines and "N same, M different"; exits 1 on a difference.
# LATTOP_LOCK is honoured (set it when other sessions run on the machine).
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 BEFORE-lattop AFTER-lattop" >&2; exit 2; }
A=$(realpath "$1") B=$(realpath "$2")
W=$(mktemp -d /tmp/rec-compare.XXXXXX)
trap 'rm -rf "$W"' EXIT
same=0 diff=0

# verdict WHAT FILE-A FILE-B: byte comparison of two outputs.
verdict() {
	if cmp -s "$2" "$3"; then
		echo "SAME $1"; same=$((same + 1))
	else
		echo "DIFF $1"; diff -u "$2" "$3" | head -n 20 | sed 's/^/    /'; diff=$((diff + 1))
	fi
}

# The replayed sample: each output of each build.
S=tests/data/sample.lrec
n=0
while read -r args; do
	n=$((n + 1))
	for side in A B; do
		bin=$A; [ $side = B ] && bin=$B
		# shellcheck disable=SC2086
		"$bin" -r "$S" $args >"$W/r$n.$side.out" 2>&1
		echo "exit $?" >>"$W/r$n.$side.out"
	done
	verdict "replay: $args" "$W/r$n.A.out" "$W/r$n.B.out"
done <<'EOF'
-b
-b -o csv
-b -o json
-b -c
-b --hist
-b -m helpers
-b -m segments
-b -m helpers -o json
-b -m segments -o csv
-b -p 1 -o json
-b -n 2 -c -o json
EOF
for side in A B; do
	bin=$A; [ $side = B ] && bin=$B
	(cd "$W" && "$bin" -r "$OLDPWD/$S" --html "h.$side.html" >/dev/null 2>&1)
done
verdict "replay: --html" "$W/h.A.html" "$W/h.B.html"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP live runs: they need root"
else
	# layout SIDE RUN [VAR=VALUE...] ARGS...: one live demo run's recording layout, stderr
	# and status (the variables in its environment).
	layout() {
		local bin=$A; [ "$1" = B ] && bin=$B
		local f=$W/l.$1.$2 envs=()
		shift 2
		while [[ ${1:-} == *=* ]]; do envs+=("$1"); shift; done
		rm -f "$f.lrec"
		env "${envs[@]}" "$bin" --demo -b -w "$f.lrec" "$@" >/dev/null 2>"$f.err"
		echo "exit $?" >>"$f.err"
		if [ -f "$f.lrec" ]; then
			python3 tests/reclayout.py "$f.lrec" | grep -v '^meta start_' >"$f.out"
		else
			echo "no recording" >"$f.out"
		fi
		cat "$f.err" >>"$f.out"
	}
	n=0
	while read -r args; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		{ layout A "$n.1" $args; layout A "$n.2" $args; layout B "$n.1" $args; }
		if ! cmp -s "$W/l.A.$n.1.out" "$W/l.A.$n.2.out"; then
			echo "SAME-BUILD differs (not compared): --demo -b -w $args"
			continue
		fi
		verdict "live layout: --demo -b -w $args" "$W/l.A.$n.1.out" "$W/l.B.$n.1.out"
	done <<-'EOF'
	-n 3 -d 0.5
	-n 3 -d 0.5 -m helpers
	-n 2 -d 0.5 -m segments
	-n 3 -d 0.5 --no-stats
	-n 2 -d 0.5 -u /lib/x86_64-linux-gnu/libc.so.6:getpid
	-n 2 -d 0.5 -u /lib/x86_64-linux-gnu/libc.so.6:getpid --raw
	LATTOP_AGG_BUDGET=1 -n 2 -d 0.5 -u /lib/x86_64-linux-gnu/libc.so.6:getpid
	LATTOP_PATH=ring -n 2 -d 0.5 -u /lib/x86_64-linux-gnu/libc.so.6:getpid -m programs
	-n 2 -d 0.5 -u /nonexistent/binary:main
	-n 2 -d 0.5 --profile /nonexistent/profile.json
	EOF
fi
echo "$same same, $diff different"
[ "$diff" -eq 0 ]
