#!/usr/bin/env bash
# Doc tests: every command of the fenced sh blocks of README.md and docs/*.md runs as the HTML
# comment before its block says (tests/host/doctest.py lists them; docs/DEVELOPING.md names the
# kinds): against the demo, the sample recording or files an earlier command of the same page
# made, each in a scratch directory of its page's own, exiting 0 with one expected line. Those
# that need fentry or a guest only have their options parsed; those that cannot run here say
# why in a SKIP line.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=doctest
tmux_private
ROOT=$PWD
LAT=$(readlink -f "$LATTOP")
PAGES=(README.md docs/GUIDE.md docs/DEVELOPING.md docs/PERFORMANCE.md)

# Commands run as the pages write them: `sudo` (we are root) and `lattop` name the tree's binary.
mkdir -p "$TMP/bin"
printf '#!/bin/sh\nexec "$@"\n' >"$TMP/bin/sudo"
chmod +x "$TMP/bin/sudo"
ln -s "$LAT" "$TMP/bin/lattop"
export PATH=$TMP/bin:$PATH LC_ALL=C.UTF-8

python3 tests/host/doctest.py "${PAGES[@]}" >"$TMP/cmds.tsv"
expect_eq markup-well-formed "$(grep '^ERROR ' "$TMP/cmds.tsv" | cut -c7-)" ""
check commands-found test "$(grep -vc '^ERROR ' "$TMP/cmds.tsv")" -ge 20

# scratch PAGE: the directory PAGE's commands run in: ./lattop, the example spans, the Makefile
# and what `make mixin` reads (mixin/, debian/changelog), the image's files, a copy of the
# sample recording (a page may remake it), and whatever its earlier commands wrote.
scratch() {
	local d=$TMP/work/${1//\//_} f
	if [ ! -d "$d" ]; then
		mkdir -p "$d/tests/data"
		ln -s "$LAT" "$d/lattop"
		for f in spans Makefile mixin debian image; do ln -s "$ROOT/$f" "$d/$f"; done
		cp tests/data/sample.lrec "$d/tests/data/"
	fi
	echo "$d"
}
# script DIR CMD: a script that runs CMD in DIR as its last step (exec: its pid is lattop's),
# without the test run's OUTPUT (a page's make command writes into DIR's .output, as a
# reader's would).
script() {
	printf 'cd %q || exit 97\nunset OUTPUT\nexec %s\n' "$1" "$2" >"$TMP/cmd.sh"
}
# first_lines FILE: the start of an output, for a FAIL line.
first_lines() { head -c 300 "$1" | tr '\n' '|'; }

# run_cmd NAME DIR CMD KIND ARG: run, quiet and creates.
run_cmd() {
	local name=$1 dir=$2 cmd=$3 kind=$4 arg=$5 rc file re
	wait_gone
	script "$dir" "$cmd"
	timeout 60 bash "$TMP/cmd.sh" </dev/null >"$TMP/out" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc, expected 0: $cmd: $(first_lines "$TMP/out")"
		return
	fi
	case $kind in
	run) if grep -qE -- "$arg" "$TMP/out"; then pass "$name"; else
		fail "$name" "no line matches /$arg/: $cmd: $(first_lines "$TMP/out")"; fi ;;
	quiet) expect_eq "$name" "$(cat "$TMP/out")" "" ;;
	creates)
		file=${arg%% *} re=${arg#"$file"}
		re=${re# }
		if [ ! -s "$dir/$file" ]; then
			fail "$name" "$cmd did not create $file"
		elif [ -n "$re" ] && ! grep -qaE -- "$re" "$dir/$file"; then
			fail "$name" "$file has no line matching /$re/"
		else pass "$name"; fi ;;
	esac
}

# tui_cmd NAME DIR CMD REGEX: the command in a tmux pane until the screen shows REGEX, then q;
# it must exit 0.
tui_cmd() {
	local name=$1 dir=$2 cmd=$3 re=$4 S=doc-$$ rc
	wait_gone
	script "$dir" "$cmd"
	tmux new-session -d -s "$S" -x 150 -y 40 \
		"TERM=xterm-256color bash $TMP/cmd.sh; echo EXITED \$?; sleep 30"
	if ! wait_for "$re" 150; then
		fail "$name" "the screen never showed /$re/: $cmd: $(screen | grep . | head -n 4 | tr '\n' '|')"
		tmux kill-session -t "$S"
		return
	fi
	tmux send-keys -t "$S" q
	wait_for '^EXITED [0-9]+' 100
	rc=$(screen | sed -n 's/^EXITED \([0-9]*\).*/\1/p')
	tmux kill-session -t "$S"
	expect_eq "$name" "exit ${rc:-none}" "exit 0"
}

# serve_cmd NAME DIR CMD "PORT REGEX": the command in the background until a scrape of
# http://127.0.0.1:PORT/metrics has a line matching REGEX, then SIGTERM; it must exit 0.
serve_cmd() {
	local name=$1 dir=$2 cmd=$3 port=${4%% *} re=${4#* } pid rc found=
	if [ -n "$(ss -ltnH "sport = :$port" 2>/dev/null)" ]; then
		skip "$name" "port $port is in use on this machine: $cmd not run"
		return
	fi
	wait_gone
	script "$dir" "$cmd"
	bash "$TMP/cmd.sh" </dev/null >"$TMP/out" 2>&1 &
	pid=$!
	for _ in $(seq 150); do
		curl -s --max-time 2 "http://127.0.0.1:$port/metrics" 2>/dev/null | grep -qE -- "$re" &&
			found=1 && break
		sleep 0.1
	done
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	if [ -z "$found" ]; then
		fail "$name" "no scrape of port $port matched /$re/: $cmd: $(first_lines "$TMP/out")"
	else
		expect_eq "$name" "exit $rc" "exit 0"
	fi
}

# vm_cmd NAME DIR CMD WHY: only the options are checked here (--help after them: each is parsed
# and its value checked, then the help printed); the run itself is the VM's.
vm_cmd() {
	local name=$1 dir=$2 cmd=$3 why=$4 rc
	cmd=$(sed -E 's/[[:space:]]+#[[:space:]].*$//' <<<"$cmd")
	script "$dir" "$cmd --help"
	timeout 20 bash "$TMP/cmd.sh" </dev/null >"$TMP/out" 2>&1
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^Usage: lattop' "$TMP/out"; then
		pass "$name-parses"
	else
		fail "$name-parses" "exit $rc: $cmd --help: $(first_lines "$TMP/out")"
	fi
	skip "$name" "not run here: $why"
}

t0=$SECONDS
while IFS=$'\x1f' read -r page n kind arg cmd; do
	[ "$page" = ERROR ] && continue
	name=${page##*/}:$n
	dir=$(scratch "$page")
	case $kind in
	run | quiet | creates) run_cmd "$name" "$dir" "$cmd" "$kind" "$arg" ;;
	tui) tui_cmd "$name" "$dir" "$cmd" "$arg" ;;
	serve) serve_cmd "$name" "$dir" "$cmd" "$arg" ;;
	vm) vm_cmd "$name" "$dir" "$cmd" "$arg" ;;
	no) skip "$name" "cannot run in a test: $arg ($cmd)" ;;
	esac
done <"$TMP/cmds.tsv"
echo "doc tests took $((SECONDS - t0)) s" >&2
end_suite
