#!/usr/bin/env bash
# What the live TUI costs its UI thread with 100+ rows at 1 Hz, in a real terminal (tmux),
# against the same session in batch mode (-b to /dev/null) measured in the same run.
# Root only (bpf_stats); prints both figures as % of one core and their ratio. Not a test:
# nothing here passes or fails on a number.
#
#   bash bench/tui_live.sh [SECONDS]   (default 20 per side, after 3 s of warm-up)
set -euo pipefail
cd "$(dirname "$0")/.."
OUTPUT=${OUTPUT:-.output}
LATTOP=${LATTOP:-./lattop}
SECS=${1:-20}
NPROGS=100
export LATTOP_LOCK=${LATTOP_LOCK:-/tmp/lattop-bench.lock}

if [ "$(id -u)" != 0 ] || ! command -v tmux >/dev/null; then
	echo "tui_live: skipped (needs root and tmux)"
	exit 0
fi
TMP=$(mktemp -d /tmp/lattop-bench.XXXXXX)
S=lattop-bench-$$
SOCK="$TMP/tmux.sock"
fix=
cleanup() {
	tmux -S "$SOCK" kill-server 2>/dev/null || true
	[ -n "$fix" ] && kill "$fix" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# CPU ticks (utime + stime) of thread TID of process PID.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/task/$2/stat"; }

# Measure the main (UI) thread and the whole process of PID over SECS after warm-up; prints
# "ui_pct proc_pct".
measure() {
	local pid=$1 hz a0 p0 a1 p1
	hz=$(getconf CLK_TCK)
	sleep 3
	a0=$(ticks "$pid" "$pid") p0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	sleep "$SECS"
	a1=$(ticks "$pid" "$pid") p1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	awk -v a="$((a1 - a0))" -v p="$((p1 - p0))" -v hz="$hz" -v s="$SECS" \
		'BEGIN { printf "%.2f %.2f\n", 100 * a / hz / s, 100 * p / hz / s }'
}

"$OUTPUT/tests/host/many" $NPROGS --run >"$TMP/fix.out" &
fix=$!
for _ in $(seq 100); do grep -q '^ready' "$TMP/fix.out" && break; sleep 0.1; done
rows=$(bpftool prog show 2>/dev/null | grep -c '^[0-9]*:' || true)

# Baseline: the same session in batch mode, its report thrown away.
$LATTOP -b -d 1 >/dev/null 2>&1 &
bp=$!
read -r b_ui b_proc < <(measure $bp)
kill -INT $bp
wait $bp 2>/dev/null || true

# Measured: the TUI in a 160x120 tmux pane, every row on screen.
tmux -S "$SOCK" new-session -d -s "$S" -x 160 -y 120 "exec $LATTOP -d 1"
tp=$(tmux -S "$SOCK" display -p -t "$S" '#{pane_pid}')
read -r t_ui t_proc < <(measure "$tp")
shown=$(tmux -S "$SOCK" capture-pane -p -t "$S" | grep -c ' many_' || true)
tmux -S "$SOCK" send-keys -t "$S" q

echo "tui_live: $rows programs loaded, $shown of its $NPROGS rows on screen, 1 s interval, ${SECS} s"
echo "tui_live: UI thread  TUI ${t_ui}% of a core, batch ${b_ui}% (whole process: TUI" \
	"${t_proc}%, batch ${b_proc}%)"
awk -v t="$t_ui" -v b="$b_ui" 'BEGIN {
	if (b > 0) printf "tui_live: TUI / batch UI-thread CPU = %.2fx (goal: TUI <= 2%% of a core)\n", t / b
	else printf "tui_live: batch UI thread below the tick resolution; TUI %.2f%% (goal <= 2%%)\n", t
}'
