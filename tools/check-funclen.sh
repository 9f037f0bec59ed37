#!/usr/bin/env bash
# check-funclen.sh - no C function in src/ longer than MAX lines (default 80), counted from the
# line of its opening brace to the line of its closing brace, both included.
#
# Usage: tools/check-funclen.sh [-l] [-a ALLOW] [-m MAX] [DIR_OR_FILE...]
#   (default: src/, allow-list tools/funclen-allow.txt)
#   -l  list every function over MAX as "file:function lines" and exit 0 (no allow-list)
# A function is a definition in the repository's style (clang-format, BreakBeforeBraces:
# Linux): a signature starting in column 0 whose body opens with a line holding only "{" and
# closes with a line holding only "}". Each offender prints "FAIL funclen/FILE:FUNCTION: N
# lines (over MAX): split it into named phases"; one named in the allow-list (lines
# "FILE:FUNCTION", # comments) prints a SKIP instead, and an allow-list line naming no
# offender fails as stale (the list only shrinks). The last line is "END funclen <n>" with n
# the PASS/FAIL/SKIP lines (tests/lib.sh's protocol). Exit status 1 on any FAIL.
set -uo pipefail
cd "$(dirname "$0")/.."
max=80 allow=tools/funclen-allow.txt list=0
while getopts "la:m:" opt; do
	case $opt in
	l) list=1 ;;
	a) allow=$OPTARG ;;
	m) max=$OPTARG ;;
	*) echo "usage: $0 [-l] [-a ALLOW] [-m MAX] [DIR_OR_FILE...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- src
case $max in '' | *[!0-9]*) echo "check-funclen: -m wants a number of lines, not '$max'" >&2; exit 2 ;; esac

# Every function as "file:function lines", in file order.
lengths() {
	find "$@" -name '*.c' -type f | LC_ALL=C sort | while read -r f; do
		awk -v file="$f" '
		# A signature starts in column 0 with something that is not a comment, a
		# preprocessor line, a brace or a label; it ends at a line holding only "{".
		/^[A-Za-z_]/ && !/;[[:space:]]*$/ && !in_body { sig = $0; sigline = NR; next_ok = 1; next }
		next_ok && /^[[:space:]]+[^[:space:]]/ && !in_body { sig = sig " " $0; next }
		/^\{[[:space:]]*$/ && next_ok && !in_body { in_body = 1; start = NR; next }
		/^\}/ && in_body {
			name = sig
			sub(/\(.*/, "", name)
			n = split(name, w, /[^A-Za-z0-9_]+/)
			while (n > 0 && w[n] == "") n--
			if (n > 0) print file ":" w[n] " " (NR - start + 1)
			in_body = 0; next_ok = 0; next
		}
		!in_body { next_ok = 0 }
		' "$f"
	done
}

all=$(lengths "$@") || exit 2
over=$(awk -v max="$max" '$2 > max' <<<"$all")
if [ "$list" = 1 ]; then
	[ -n "$over" ] && echo "$over"
	exit 0
fi
allowed=
if [ -f "$allow" ]; then
	allowed=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$allow" | grep -v '^$')
fi
n=0 rc=0
nfun=$(grep -c . <<<"$all")
while read -r fn len; do
	[ -n "$fn" ] || continue
	n=$((n + 1))
	if grep -qxF "$fn" <<<"$allowed"; then
		echo "SKIP funclen/$fn: $len lines (over $max), allowed by $allow until it is split"
	else
		echo "FAIL funclen/$fn: $len lines (over $max): split it into named phases"
		rc=1
	fi
done <<<"$over"
while read -r fn; do
	[ -n "$fn" ] || continue
	if ! grep -q "^$fn " <<<"$over"; then
		n=$((n + 1))
		echo "FAIL funclen/allow:$fn: $allow names it, but no such function is over $max lines: remove the line"
		rc=1
	fi
done <<<"$allowed"
n=$((n + 1))
if [ "$rc" = 0 ]; then
	echo "PASS funclen/all: $nfun functions checked, none over $max lines outside $allow"
else
	echo "FAIL funclen/all: functions over $max lines (above)"
fi
echo "END funclen $n"
exit $rc
