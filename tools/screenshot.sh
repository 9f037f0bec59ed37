#!/usr/bin/env bash
# Refresh docs/lattop.png, the README's picture, from the real program: `lattop --demo` in a
# tmux pane of a fixed size (the histogram pane of the top row open), captured with its colours
# (capture-pane -e), turned into HTML by aha, rendered by headless Chromium. Also writes
# docs/lattop.txt, the same capture without colours, which tests/ui/t_picture.sh compares the
# current program's headings against. Run as root from the tree, after `make`:
#   bash tools/screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."
COLS=${COLS:-118} ROWS=${ROWS:-26}
LAT=$(readlink -f "${LATTOP:-./lattop}")
for t in tmux aha chromium; do
	command -v "$t" >/dev/null || { echo "screenshot: $t is not installed (make deps installs it)" >&2; exit 1; }
done
WORK=$(mktemp -d /tmp/lattop-shot.XXXXXX)
export TMUX_TMPDIR=$WORK
trap 'tmux kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
S=shot
# Other people's demo programs would add rows to the picture: wait for them to go.
for _ in $(seq 300); do
	[ "$(bpftool prog show 2>/dev/null | grep -c demo_)" = 0 ] && break
	sleep 0.2
done
[ "$(bpftool prog show 2>/dev/null | grep -c demo_)" = 0 ] ||
	{ echo "screenshot: another session's demo programs are loaded; rerun when it has ended" >&2; exit 1; }
tmux new-session -d -s "$S" -x "$COLS" -y "$ROWS" \
	"LC_ALL=C.UTF-8 TERM=xterm-256color $LAT --demo -d 0.5; sleep 30"
# Wait for the rows, let a few intervals fill the histograms, open the top row's pane.
for _ in $(seq 100); do tmux capture-pane -p -t "$S" | grep -q demo_xdp && break; sleep 0.1; done
sleep 3
tmux send-keys -t "$S" Enter
sleep 2.2
tmux capture-pane -e -p -t "$S" >"$WORK/screen.ansi"
grep -qE 'programs 4 *$' <(tmux capture-pane -p -t "$S") ||
	{ echo "screenshot: the screen shows other programs than the demo's four; rerun" >&2; exit 1; }
tmux capture-pane -p -t "$S" | sed 's/ *$//' >docs/lattop.txt
tmux send-keys -t "$S" q
# aha names the eight colours as classes (-s); this page gives them a dark terminal's palette
# (Tango's), the DejaVu Sans Mono font at 14 px: one cell is about 8.5 x 17 px.
{
	printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>lattop --demo</title><style>\n'
	printf 'body{margin:8px;background:#1e1e1e;color:#d3d7cf}pre{margin:0;font:14px/17px "DejaVu Sans Mono",monospace}\n'
	printf '.dimgray{color:#000}.red{color:#ef2929}.green{color:#8ae234}.yellow{color:#fce94f}.blue{color:#729fcf}\n'
	printf '.purple{color:#ad7fa8}.cyan{color:#34e2e2}.white{color:#eeeeec}.bold{font-weight:bold}\n'
	printf '.bg-black{background:#000}.bg-red{background:#cc0000}.bg-green{background:#4e9a06}.bg-yellow{background:#c4a000}\n'
	printf '.bg-blue{background:#3465a4}.bg-purple{background:#75507b}.bg-cyan{background:#06989a}.bg-white{background:#d3d7cf}\n'
	printf '</style></head><body><pre>'
	aha -s -n <"$WORK/screen.ansi"
	printf '</pre></body></html>\n'
} >"$WORK/screen.html"
W=$((COLS * 85 / 10 + 24)) H=$((ROWS * 17 + 16))
timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
	--user-data-dir="$WORK/chromium" --window-size="$W,$H" \
	--screenshot="$PWD/docs/lattop.png" "file://$WORK/screen.html" 2>"$WORK/chromium.err" ||
	{ cat "$WORK/chromium.err" >&2; exit 1; }
echo "wrote docs/lattop.png (${W}x${H}) and docs/lattop.txt"
