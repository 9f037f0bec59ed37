#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# check-includes.sh - the include rule of src/: folders draw the data path and includes only
# go down it:
#
#     base <- model <- {collect, rec} <- session <- ui <- main.c
#
# A file may include headers of its own folder and of the folders below it; collect (live
# sources) and rec (the recording) are siblings and may not include each other. Headers outside
# src/ (bpf/lattop.h, generated skeletons and protobuf code, system headers) are not checked.
# Also fails when the folder graph of the includes actually present has a cycle (tsort), and
# checks that it can fail: a copy of the tree with a planted base -> ui include must be refused.
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
	session) echo "base model collect rec session" ;;
	ui) echo "base model collect rec session ui" ;;
	main) echo "base model collect rec session ui" ;;
	*) echo "" ;;
	esac
}

# The folder of a path under $SRC: its first component, or "main" for a file at the top.
folder_of() {
	local rel=${1#"$SRC"/}
	case "$rel" in
	*/*) echo "${rel%%/*}" ;;
	*) echo "main" ;;
	esac
}

edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
violations=()

while IFS= read -r f; do
	from=$(folder_of "$f")
	ok=$(allowed "$from")
	if [ -z "$ok" ]; then
		violations+=("$f is in folder '$from', which the rule does not name (add it to tools/check-includes.sh)")
		continue
	fi
	while IFS= read -r inc; do
		# Only headers that resolve under $SRC are lattop's own folders.
		[ -f "$SRC/$inc" ] || continue
		case "$inc" in
		*/*) to=${inc%%/*} ;;
		*) to=main ;;
		esac
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

# The check can fail: a copy of the tree with one include against the rule planted (base
# including ui) must be refused, on the rule and on the cycle it makes.
if [ -z "${CHECK_INCLUDES_PLANTED:-}" ]; then
	n=$((n + 1))
	plant=$(mktemp -d)
	cp -r "$SRC"/. "$plant"
	printf '#include "ui/ui.h"\n' >>"$plant/base/text.h"
	out=$(CHECK_INCLUDES_PLANTED=1 SRC="$plant" bash "$0" 2>&1)
	rm -rf "$plant"
	if grep -q '^FAIL include/rule:' <<<"$out" && grep -q '^FAIL include/no-cycle:' <<<"$out" &&
		grep -q 'base/text.h includes "ui/ui.h"' <<<"$out"; then
		echo "PASS include/detects-planted"
	else
		echo "FAIL include/detects-planted: a planted base -> ui include was not refused:"
		echo "$out" | sed 's/^/    /'
		bad=1
	fi
fi

echo "END include $n"
exit "$bad"
