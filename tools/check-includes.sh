#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# check-includes.sh - the include rule of src/: folders draw the data path and includes only
# go down it:
#
#     base <- model <- {collect, rec} <- cli <- session <- output <- ui
#          <- {ui/tui, ui/report, ui/html, ui/prom} <- main.c
#
# A file may include headers of its own folder and of the folders below it; collect (live
# sources) and rec (the recording) are siblings and may not include each other, and so are the
# front ends under ui/ (the TUI, the batch reports, the HTML report, the Prometheus server),
# which share only what ui/ itself holds. Headers outside src/ (bpf/lattop.h, generated
# skeletons and protobuf code, system headers) are not checked.
# Also fails when the folder graph of the includes actually present has a cycle (tsort), and
# checks that it can fail: a copy of the tree with a planted base -> ui include, and one with a
# front end including another, must be refused.
# Then tools/check-circles.py: no circle of calls between the files of src/ spans more than
# two files (read from the built objects in $OUTPUT, so run after the build).
#
# Prints "PASS include/<name>" or "FAIL include/<name>: why" lines and "END include <n>";
# exits 1 on any failure. SRC=dir checks another tree (the test of this script does).
set -uo pipefail
cd "$(dirname "$0")/.."
SRC=${SRC:-src}
n=0 bad=0

# The folders a file in folder $1 may include from ("main" is src/*.c itself).
allowed() {
	case "$1" in
	base) echo "base" ;;
	model) echo "base model" ;;
	collect) echo "base model collect" ;;
	rec) echo "base model rec" ;;
	cli) echo "base model collect rec cli" ;;
	session) echo "base model collect rec cli session" ;;
	output) echo "base model collect rec cli session output" ;;
	ui) echo "base model collect rec cli session output ui" ;;
	ui/tui | ui/report | ui/html | ui/prom) echo "base model collect rec cli session output ui $1" ;;
	main) echo "base model collect rec cli session output ui ui/tui ui/report ui/html ui/prom" ;;
	*) echo "" ;;
	esac
}

# The folder of a path relative to $SRC (a file or an include): its folder ("ui/tui" for a
# front end's file, "ui" for what the front ends share), or "main" for a file at the top.
dir_of() {
	case "$1" in
	*/*/*) local d=${1%/*}; echo "${d%%/*}/$(basename "$d")" ;;
	*/*) echo "${1%%/*}" ;;
	*) echo "main" ;;
	esac
}

edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
violations=()

while IFS= read -r f; do
	from=$(dir_of "${f#"$SRC"/}")
	ok=$(allowed "$from")
	if [ -z "$ok" ]; then
		violations+=("$f is in folder '$from', which the rule does not name (add it to tools/check-includes.sh)")
		continue
	fi
	while IFS= read -r inc; do
		# Only headers that resolve under $SRC are lattop's own folders.
		[ -f "$SRC/$inc" ] || continue
		to=$(dir_of "$inc")
		[ "$to" = "$from" ] || echo "$from $to" >>"$edges"
		case " $ok " in
		*" $to "*) ;;
		*) violations+=("$f includes \"$inc\": $from may include only from: $ok") ;;
		esac
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find "$SRC" -name '*.[ch]' | sort)

n=$((n + 1))
if [ ${#violations[@]} -eq 0 ]; then
	echo "PASS include/rule"
else
	echo "FAIL include/rule: ${#violations[@]} include(s) against the rule:"
	printf '    %s\n' "${violations[@]}"
	bad=1
fi

# tsort reads "a b" pairs (a before b) and reports a loop on stderr.
n=$((n + 1))
cycle=$(sort -u "$edges" | tsort 2>&1 >/dev/null)
if [ -z "$cycle" ]; then
	echo "PASS include/no-cycle"
else
	echo "FAIL include/no-cycle: the folder include graph has a cycle:"
	echo "$cycle" | sed 's/^/    /'
	bad=1
fi

# The check can fail: one copy of the tree with two includes against the rule planted must be
# refused on each: base including ui (on the rule and on the cycle it makes), and one front end
# including another (the batch report including the TUI's header). One copy, one run of the
# check over it: the plants are independent lines of its report.
# refused NAME FILE INCLUDE [cycle]: the planted run's report ($out) refuses FILE's INCLUDE.
refused() {
	local name=$1 file=$2 inc=$3 cyc=${4:-}
	n=$((n + 1))
	if grep -q '^FAIL include/rule:' <<<"$out" && grep -q "$file includes \"$inc\"" <<<"$out" &&
		{ [ -z "$cyc" ] || grep -q '^FAIL include/no-cycle:' <<<"$out"; }; then
		echo "PASS include/$name"
	else
		echo "FAIL include/$name: a planted $file -> $inc include was not refused:"
		echo "$out" | sed 's/^/    /'
		bad=1
	fi
}
if [ -z "${CHECK_INCLUDES_PLANTED:-}" ]; then
	plant=$(mktemp -d)
	cp -r "$SRC"/. "$plant"
	printf '#include "ui/tui/tui.h"\n' >>"$plant/base/text.h"
	printf '#include "ui/tui/tui.h"\n' >>"$plant/ui/report/batch.c"
	out=$(CHECK_INCLUDES_PLANTED=1 SRC="$plant" bash "$0" 2>&1)
	rm -rf "$plant"
	refused detects-planted base/text.h ui/tui/tui.h cycle
	refused detects-front-end-include ui/report/batch.c ui/tui/tui.h
	# The circles between files, from the objects of the build.
	out=$(python3 tools/check-circles.py "${OUTPUT:-.output}" "$SRC" 2>&1)
	rc=$?
	echo "$out" | grep -E '^(PASS|FAIL) '
	echo "$out" | grep -vE '^(PASS|FAIL|END) ' | sed 's/^/    /'
	n=$((n + $(grep -cE '^(PASS|FAIL) ' <<<"$out")))
	[ "$rc" = 0 ] || bad=1
fi

echo "END include $n"
exit "$bad"
