#!/usr/bin/env bash
# The screen in a real terminal (tmux): themes and their errors, the histogram pane and its
# sparkline, the mode keys, the interval prompt, search, narrow terminals and resize.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-screen
S=lattop-screen-$$
LAT=$(readlink -f "$LATTOP")
# colour = SGR 30-37/40-47/90-97/38;x/48;x (39/49 are "default colour" resets, not colour)
COLOUR_SGR='\e\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|38;|48;)'

escapes() { tmux capture-pane -e -p -t "$S"; }
# start ARGS...: a fresh lattop in a 150x40 tmux session (after the previous one exited), in a
# UTF-8 locale (the header and notices elide with "…").
start() {
	tmux kill-session -t "$S" 2>/dev/null
	wait_gone
	tmux new-session -d -s "$S" -x 150 -y 40 "LC_ALL=C.UTF-8 TERM=xterm-256color $LAT $*; echo EXITED \$?; sleep 30"
}
# no_colour: one captured screen shows lattop's rows (not an empty or dead pane) and no colour.
no_colour() {
	local e
	e=$(escapes)
	grep -q 'demo_' <<<"$e" && ! grep -qP "$COLOUR_SGR" <<<"$e"
}

# --theme naming no file: exit 2 with one sentence, nothing started.
out=$($LAT --theme no-such-theme 2>&1); rc=$?
expect_eq theme-missing-exit "$rc" 2
check theme-missing-says grep -qx "lattop: no theme 'no-such-theme': .*" <<<"$out"
expect_eq theme-missing-one-line "$(wc -l <<<"$out")" 1

# Installed elsewhere (DESTDIR staging): a theme name is found next to the binary, from any
# directory.
make -s install DESTDIR="$TMP/stage" PREFIX=/opt/lt >"$TMP/inst.log" 2>&1
check installed-themes test -f "$TMP/stage/opt/lt/share/lattop/themes/light.json"
check installed-finds-theme bash -c "cd / && '$TMP/stage/opt/lt/sbin/lattop' --theme light -h >/dev/null"

start --demo -d 0.3
check starts wait_for 'demo_xdp_hash'

# t cycles default -> light -> mono -> default; each changes the escapes, mono has no colour.
before=$(escapes | head -n 1)
tmux send-keys -t "$S" t
check theme-light wait_for 'theme light' 20
after=$(escapes | head -n 1)
check theme-changes-colours test "$before" != "$after"
check theme-light-coloured grep -qP "$COLOUR_SGR" <(escapes)
tmux send-keys -t "$S" t
check theme-mono wait_for 'theme mono' 20
sleep 0.3
check theme-mono-no-colour no_colour
tmux send-keys -t "$S" t
check theme-default wait_for 'theme default' 20
sleep 0.3
check theme-default-again test "$(escapes | head -n 1)" = "$before"

# Mode keys: segments needs spans (none given here); helpers needs fentry (refused on kernels without
# it, where the table stays); p goes back; Tab tries the next mode.
tmux send-keys -t "$S" h
check mode-helpers wait_for '(helpers mode needs fentry/fexit, which this kernel refuses|^helpers mode *$)' 20
tmux send-keys -t "$S" p
check mode-programs wait_for '(already in programs mode|^programs mode *$)' 20
tmux send-keys -t "$S" s
check mode-segments wait_for 'segments mode needs spans or a profile: give -u, --spans or --profile' 20
check mode-table-stays grep -q 'mode programs' <(screen)
tmux send-keys -t "$S" Tab
check mode-tab wait_for '(helpers mode needs fentry/fexit|^helpers mode *$)' 20
tmux send-keys -t "$S" p
sleep 0.3

# d: the interval prompt changes the header; bad input is a message and changes nothing.
tmux send-keys -t "$S" d C-u 0.5 Enter
check interval-set wait_for 'interval 0\.50s  LIVE' 20
tmux send-keys -t "$S" d C-u abc Enter
check interval-bad wait_for "bad interval 'abc': give seconds >= 0.01" 20
check interval-unchanged grep -q 'interval 0\.50s' <(screen)

# Enter opens the pane of the selected row: log2 rows with counts and bars, then a sparkline.
tmux send-keys -t "$S" / xdp_lru Enter
check search-finds wait_for "'xdp_lru': demo_xdp_lru \(n: next match\)" 20
tmux send-keys -t "$S" Enter
check pane-title wait_for '^ [0-9]+ demo_xdp_lru: interval latency histogram, [0-9,]+ runs' 20
check pane-bars wait_for '^  \[ *[0-9.]+(ns|us|ms), +[0-9.]+(ns|us|ms)\) +[0-9,]+ #+$' 20
check sparkline wait_for '^  p99, last ([3-9]|[1-9][0-9]) intervals: ' 60
tmux send-keys -t "$S" n
check search-next wait_for "'xdp_lru': demo_xdp_lru" 20
tmux send-keys -t "$S" / zzz_nothing Enter
check search-none wait_for "no program name contains 'zzz_nothing'" 20
tmux send-keys -t "$S" / sk_queue Enter
if wait_for '^ [0-9]+ demo_sk_queue: interval latency histogram' 20; then
	pass search-moves-pane
else
	fail search-moves-pane "the pane never showed demo_sk_queue; the screen's top and bottom:"
	screen | sed -n '1,12p;$p' | cut -c1-120 | sed 's/^/    screen: /'
fi
tmux send-keys -t "$S" H
sleep 0.4
scr=$(screen)
check pane-closes-table grep -qE '^ +ID TYPE +NAME ' <<<"$scr"
check pane-closes bash -c '! grep -q "latency histogram" <<<"$1"' _ "$scr"

# Help lists the new keys from the key table.
tmux send-keys -t "$S" '?'
check help-shown wait_for 'keys \(any key closes this help\)' 20
for k in 'histogram pane' 'set the interval' 'search by name' 'next colour theme' 'next mode'; do
	check "help-has-${k// /-}" grep -q "$k" <(screen)
done
tmux send-keys -t "$S" x

# Narrow: lowest-priority columns go, numbers are never cut, NAME keeps 12 columns.
tmux resize-window -t "$S" -x 60 -y 20
check narrow-heading wait_for '^ +ID NAME +COUNT. .* P99$' 30
# (every check below reads this one screen, which shows the heading and rows)
scr=$(screen)
heading=$(grep -E '^ +ID ' <<<"$scr")
rows=$(grep -E '^ +[0-9,]+ demo_' <<<"$scr")
check narrow-keeps grep -qE '^ +ID NAME +COUNT. .* P99$' <<<"$heading"
check narrow-drops test -z "$(grep -oE 'RUNS|CPU%|P99\.9|TYPE' <<<"$heading")"
check narrow-has-rows test "$(grep -c . <<<"$rows")" -ge 3
check narrow-fits test "$(awk '{ if (length($0) > 60) n++ } END { print n + 0 }' <<<"$scr")" = 0
bad=$(grep -vE ' ([0-9.]+(ns|us|ms|s)|-)$' <<<"$rows" | head -n 1)
expect_eq narrow-numbers-whole "$bad" ""
tmux resize-window -t "$S" -x 40 -y 10
check narrowest-rows wait_for '^ +[0-9,]+ demo_' 30
tmux resize-window -t "$S" -x 30 -y 8
check too-small wait_for 'terminal too small' 30
tmux resize-window -t "$S" -x 150 -y 40
check resized-back wait_for 'RUNS +SRC$' 30 # every column to SRC (the owner, container and attach columns need more room)
check resized-rows wait_for 'demo_xdp_hash' 30
tmux send-keys -t "$S" q
check quits wait_for '^EXITED 0' 30

# 80 columns: the header keeps mode, state and filter whole (host and kernel give way first),
# nothing is cut mid-word, and the kernel's notice wraps at spaces instead of being cut.
$LAT --demo -b -n 1 -d 0.1 -o json >"$TMP/notice.json" 2>"$TMP/notice.err"
expect_eq notice-source-ran "$?/$(grep -c '"rows"' "$TMP/notice.json")" 0/1
notice=$(json 'L[0].get("notice", "")' "$TMP/notice.json")
# head80 NAME ERE: the header line fits 80 columns and matches ERE.
head80() {
	local h
	h=$(screen | head -n 1 | sed 's/ *$//')
	check "$1-fits" test "$(python3 -c 'import sys; print(len(sys.argv[1]))' "$h")" -le 80
	check "$1" grep -qE -- "$2" <<<"$h"
}
start --demo -d 0.3 -w "$TMP/h80.lrec"
tmux resize-window -t "$S" -x 80 -y 24
check w80-starts wait_for 'demo_xdp_hash'
sleep 0.5
head80 header-80-live '^lattop( [0-9.]+)?  (mode )?programs  .*LIVE  REC  filter all$'
check header-80-no-kernel test -z "$(screen | head -n 1 | grep -F "$(uname -r)")"
if [ -n "$notice" ]; then
	expect_eq notice-80-wrapped "$(screen | sed -n 2,3p | sed 's/ *$//' | paste -sd' ')" "$notice"
	check notice-80-lines-fit test "$(screen | sed -n 2,3p | awk 'length($0) > 80' | wc -l)" = 0
else
	skip notice-80-wrapped "this kernel gives lattop no notice to show"
fi
tmux resize-window -t "$S" -x 40 -y 12
sleep 0.6
h40=$(screen | head -n 1 | sed 's/ *$//')
check header-40-keeps grep -qE '(mode )?programs  LIVE  REC  filter all$' <<<"$h40"
if [ -n "$notice" ]; then # one line, ending with an ellipsis after a whole word
	n40=$(screen | sed -n 2p | sed 's/ *$//')
	check notice-40-elided grep -qE "[a-z():;]…$" <<<"$n40"
	# the shown words are the notice's own, cut at a space
	check notice-40-whole-words [ "${notice#"${n40%…} "}" != "$notice" ]
else
	skip notice-40-elided "this kernel gives lattop no notice to show"
fi
tmux send-keys -t "$S" q
check w80-quits wait_for '^EXITED 0' 30
check header-rec-file test -s "$TMP/h80.lrec"

# A filter longer than its share of 80 columns: whole entries, then "…+N" for the rest.
start --demo -d 0.3 -p demo_xdp_hash,demo_xdp_lru,demo_xdp_array,demo_sk_queue
tmux resize-window -t "$S" -x 80 -y 24
check f80-starts wait_for 'demo_xdp_hash'
sleep 0.5
head80 header-80-filter '  LIVE  filter demo_xdp_hash(,demo_[a-z_]+)*…\+[1-3]$'
tmux resize-window -t "$S" -x 150 -y 40
sleep 0.6
check header-150-filter-whole grep -qE 'LIVE  filter demo_xdp_hash,demo_xdp_lru,demo_xdp_array,demo_sk_queue$' <(screen | head -n 1 | sed 's/ *$//')
tmux send-keys -t "$S" q
check f80-quits wait_for '^EXITED 0' 30

# A replay at 140 and 80 columns: the speed and END stay whole, the filter too.
start -r tests/data/sample.lrec
tmux resize-window -t "$S" -x 140 -y 30
check r140-starts wait_for 'demo_xdp_hash'
sleep 0.3
tmux send-keys -t "$S" End
if wait_for 'x1 END  filter all *$' 100; then
	pass r140-end
else
	fail r140-end "the header never showed 'x1 END  filter all'; the screen's top and bottom:"
	screen | sed -n '1,3p;$p' | sed 's/^/    screen: /'
fi
check header-140-replay grep -qE '^lattop .*REPLAY sample\.lrec [0-9:]+ \(0:00:02\.5/0:00:02\.5\) x1 END  filter all *$' <(screen | head -n 1)
tmux resize-window -t "$S" -x 80 -y 24
sleep 0.6
head80 header-80-replay '  REPLAY (\([0-9:./]+\) )?x1 END  filter all$'
tmux send-keys -t "$S" q
check r140-quits wait_for '^EXITED 0' 30

# A resize while lattop starts (between curses reading the size and installing its SIGWINCH
# handler, where the signal is lost): the screen must still be laid out for the new size. The
# shim narrows the terminal by 10 columns exactly there (this is what made r140-end fail now
# and then: the 150-column layout stayed in a pane resized to 140).
SHIM=$OUTPUT/tests/ui/winch_late.so
if [ -f "$SHIM" ]; then
	tmux kill-session -t "$S" 2>/dev/null
	tmux new-session -d -s "$S" -x 150 -y 40 "LD_PRELOAD=$(readlink -f "$SHIM") LC_ALL=C.UTF-8 TERM=xterm-256color $LAT -r tests/data/sample.lrec; echo EXITED \$?; sleep 30"
	check late-resize-starts wait_for 'demo_xdp_hash'
	tmux send-keys -t "$S" End
	check late-resize-end wait_for 'x1 END' 30
	cols=$(stty -F "$(tmux display -p -t "$S" '#{pane_tty}')" size | cut -d' ' -f2)
	expect_eq late-resize-narrowed "$cols" 140
	# (the notice wraps at the width lattop believes in: 150 columns would make line 2 longer)
	check late-resize-layout test "$(screen | awk '{ if (length($0) > 140) n++ } END { print n + 0 }')" = 0 -a \
		"$(screen | sed -n 2p | sed 's/ *$//' | awk '{ print length($0) }')" -gt 100
	tmux send-keys -t "$S" q
	check late-resize-quits wait_for '^EXITED 0' 30
else
	skip late-resize "no $SHIM: build it with make unit"
fi

# Deterministic screens, byte for byte against tests/ui/golden/ (tmux regress style): the
# sample replay after End at 80x24, 130x40 and 140x40 (text, and the colours at 140x40), and its help
# screen. Pinned: the recording gives host, kernel and figures; TZ=UTC the clock; the version
# is written as @VERSION@. UPDATE_GOLDEN=1 rewrites the files instead (review the diff).
GOLDEN=tests/ui/golden
VERSION=$($LAT --version | sed -n 's/^lattop //p')
# golden NAME CAPTURE-ARGS: compare the pane (capture-pane -p plus the args) with NAME.
golden() {
	local name=$1 got=$TMP/golden-$1 a b
	shift
	# (the screen has settled: two captures 0.2 s apart agree)
	for _ in $(seq 20); do
		a=$(tmux capture-pane -p "$@" -t "$S")
		sleep 0.2
		b=$(tmux capture-pane -p "$@" -t "$S")
		[ "$a" = "$b" ] && break
	done
	tmux capture-pane -p "$@" -t "$S" | sed "s/lattop ${VERSION//./\\.}/lattop @VERSION@/" >"$got"
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$GOLDEN" && cp "$got" "$GOLDEN/$name"
		pass "golden-$name" # (rewritten)
	elif cmp -s "$GOLDEN/$name" "$got"; then
		pass "golden-$name"
	else
		fail "golden-$name" "the screen differs from $GOLDEN/$name (UPDATE_GOLDEN=1 rewrites it):"
		diff -u "$GOLDEN/$name" "$got" | cat -v | head -n 40 | sed 's/^/    /'
	fi
}
for size in 80x24 130x40 140x40; do
	tmux kill-session -t "$S" 2>/dev/null
	tmux new-session -d -s "$S" -x "${size%x*}" -y "${size#*x}" "TZ=UTC LC_ALL=C.UTF-8 TERM=xterm-256color $LAT -r tests/data/sample.lrec; echo EXITED \$?; sleep 30"
	check "golden-$size-starts" wait_for 'demo_xdp_hash'
	tmux send-keys -t "$S" End
	check "golden-$size-end" wait_for 'x1 END' 30
	golden "replay-end-$size.txt"
	# At 130 columns a name is not cut while RUNS only pads ("demo_xdp_ar~" before).
	[ "$size" = 130x40 ] &&
		check w130-names-whole grep -qE '^ +[0-9]+ xdp +demo_xdp_array +[0-9,]+ ' "$TMP/golden-replay-end-$size.txt"
	if [ "$size" = 140x40 ]; then
		golden "replay-end-$size.ansi" -e
		tmux send-keys -t "$S" '?'
		check golden-help-shown wait_for 'keys \(any key closes this help\)' 20
		golden "replay-help-$size.txt"
	fi
	tmux send-keys -t "$S" q
	check "golden-$size-quits" wait_for '^EXITED 0' 30
done

# An invalid theme file: one message naming the file and the key; the screen still works.
printf '{\n  "name": "broken",\n  "colors": {\n    "header": {"fg": cyan}\n  }\n}\n' >"$TMP/broken.json"
start --demo -d 0.3 --theme "$TMP/broken.json"
check bad-theme-message wait_for "theme $TMP/broken.json: invalid JSON at line 4, after key 'fg'" 40
check bad-theme-works wait_for 'demo_xdp_hash' 30
check bad-theme-default-colours grep -qP "$COLOUR_SGR" <(escapes)
tmux send-keys -t "$S" q
check bad-theme-quits wait_for '^EXITED 0' 30

# A bad value: named by its key path.
printf '{"colors": {"warning": {"fg": "purplish"}}, "comment": 1}\n' >"$TMP/value.json"
start --demo -d 0.3 --theme "$TMP/value.json"
check bad-value-message wait_for "theme $TMP/value.json: bad value for key 'colors.warning.fg'" 40
tmux send-keys -t "$S" q
check bad-value-quits wait_for '^EXITED 0' 30

# A theme's "table" colour paints the rows (and only where it is set: the shipped themes keep
# the terminal's own colours there).
printf '{"colors": {"table": {"fg": "magenta"}}}\n' >"$TMP/table.json"
start --demo -d 0.3 --theme "$TMP/table.json"
check table-theme-starts wait_for 'demo_xdp_hash'
sleep 0.3
# (the selected row has the selection's colours instead)
check table-colour-on-rows test "$(escapes | grep ' demo_' | grep -cP '\e\[([0-9;]*;)?35m')" -ge 2
tmux send-keys -t "$S" q
check table-theme-quits wait_for '^EXITED 0' 30
start --demo -d 0.3
check default-theme-starts wait_for 'demo_xdp_hash'
sleep 0.3
# (one captured screen: coloured, with rows, and no magenta anywhere)
esc=$(escapes)
check default-rows-coloured bash -c 'grep -q " demo_" <<<"$1" && grep -qP "$2" <<<"$1"' _ "$esc" "$COLOUR_SGR"
check default-rows-no-magenta bash -c '! grep -qP "\e\[([0-9;]*;)?35m" <<<"$1"' _ "$esc"
tmux send-keys -t "$S" q
check default-theme-quits wait_for '^EXITED 0' 30

# --theme mono (by name) on a colour terminal: no colour escapes; the table still highlights.
start --demo -d 0.3 --theme mono
check mono-theme-starts wait_for 'demo_xdp_hash'
sleep 0.3
check mono-theme-no-colour no_colour
check mono-theme-reverse grep -qP '\e\[([0-9;]*;)?7m' <(escapes)
tmux send-keys -t "$S" q
check mono-theme-quits wait_for '^EXITED 0' 30

# --no-color: t explains that themes do not apply; still no colour.
start --demo -d 0.3 --no-color
check nocolor-starts wait_for 'demo_xdp_hash'
tmux send-keys -t "$S" t
check nocolor-t-says wait_for 'no colours \(NO_COLOR, --no-color or the terminal\)' 20
check nocolor-no-colour no_colour
tmux send-keys -t "$S" q
check nocolor-quits wait_for '^EXITED 0' 30

# A terminal without colours (vt100): the mono screen, selection still shown in reverse.
tmux kill-session -t "$S" 2>/dev/null
wait_gone
tmux new-session -d -s "$S" -x 150 -y 40 "TERM=vt100 $LAT --demo -d 0.3; echo EXITED \$?; sleep 30"
check vt100-starts wait_for 'demo_xdp_hash'
sleep 0.3
check vt100-no-colour no_colour
check vt100-reverse grep -qP '\e\[([0-9;]*;)?7m' <(escapes)
tmux send-keys -t "$S" q
check vt100-quits wait_for '^EXITED 0' 30

# A program with bpf_stats only (the target fixture, no per-invocation source on a kernel
# without fentry): the pane says in one sentence that there is no distribution.
TARGET=$OUTPUT/tests/host/target
if [ -x "$TARGET" ]; then
	mkfifo "$TMP/target.in"
	"$TARGET" <"$TMP/target.in" >"$TMP/target.out" 2>&1 &
	exec 7>"$TMP/target.in"
	for _ in $(seq 50); do grep -q ready "$TMP/target.out" && break; sleep 0.1; done
	check stats-fixture-ready grep -q ready "$TMP/target.out"
	start -p target_light -d 0.3
	check stats-starts wait_for 'target_light' 50
	src=$(screen | head -n 1 | grep -oE ' source [a-z+]+ ')
	if [ "$src" = " source stats " ]; then
		echo "run light 100" >&7
		tmux send-keys -t "$S" Enter
		check stats-pane-title wait_for '^ [0-9]+ target_light: [0-9,]+ runs in the interval' 20
		check stats-pane-says wait_for '^  No latency distribution for this program: bpf_stats gives only run counts and run time' 20
	elif [ -n "$src" ]; then
		skip stats-pane "this kernel gives target_light a per-invocation source ($src): it has a distribution"
	else
		fail stats-pane "the header names no source: $(screen | head -n 1)"
	fi
	tmux send-keys -t "$S" q
	check stats-quits wait_for '^EXITED 0' 30
	echo quit >&7
	exec 7>&-
	wait
else
	skip stats-pane "no $TARGET: build it with make unit"
fi

# Under ASan/UBSan (when the sanitizer build exists): every key, pane, themes and resizes, then
# a clean exit with no report.
SAN=$OUTPUT/san-address-undefined/lattop
if [ -x "$SAN" ]; then
	SAN=$(readlink -f "$SAN")
	tmux kill-session -t "$S" 2>/dev/null
	wait_gone
	tmux new-session -d -s "$S" -x 120 -y 30 "ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 TERM=xterm-256color $SAN --demo -d 0.2 2>$TMP/san.log; echo EXITED \$?; sleep 30"
	check san-starts wait_for 'demo_xdp_hash' 100
	for k in Enter t t t / lru Enter n H Down Enter d C-u 0.3 Enter '?' x '>' '<' r c Tab h s p End Home z; do
		tmux send-keys -t "$S" "$k"
		sleep 0.1
	done
	sleep 1
	tmux resize-window -t "$S" -x 40 -y 10
	sleep 0.4
	tmux resize-window -t "$S" -x 20 -y 5
	sleep 0.4
	tmux resize-window -t "$S" -x 200 -y 60
	check san-pane wait_for 'latency histogram' 30
	tmux send-keys -t "$S" q
	check san-exit wait_for '^EXITED 0' 50
	check san-no-report test -z "$(grep -E 'ERROR: AddressSanitizer|runtime error|LeakSanitizer' "$TMP/san.log")"
else
	skip san "no $SAN: tests/sanitize.sh address,undefined builds it"
fi
tmux kill-session -t "$S" 2>/dev/null
wait_gone
end_suite
