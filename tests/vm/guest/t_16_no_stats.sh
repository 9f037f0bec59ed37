# --no-stats: a session that does not turn bpf_stats on. While it runs the kernel counts no
# program's runs (the control: a normal session, while which it counts every one; the
# kernel.bpf_stats_enabled sysctl shows neither, it reads only what was written to it); the
# watched program's count is exact from its probes, with percentiles; every bpf_stats figure
# (cpu_pct, run_cnt; a program without probes: its count too) is empty, never 0, live and
# replayed; stats someone else turned on (the sysctl) stay on, are said in a warning and still
# show nothing; the TUI says so too. Busybox ash.
. /tests/lib.sh
T=/tmp/nostats
mkdir -p $T
start_target nostats || exit 1

# runs PROG: the kernel's run_cnt of a fixture program (it grows only while bpf_stats is on).
runs() { cmd "stats $1" | awk '$1=="run_cnt"{print $2}'; }
# counted PROG N: drive PROG N times; prints how many of them the kernel's run_cnt counted
# ("not run: ..." when the fixture failed).
counted() {
	b=$(runs "$1")
	r=$(cmd "run $1 $2")
	case "$r" in "ran $2 "*) ;; *) echo "not run: $r"; return ;; esac
	a=$(runs "$1")
	echo $((a - b))
}
# session OUT ARGS...: a cumulative batch CSV session in the background, started.
session() {
	out=$1
	shift
	rm -f "$out"
	lattop -b -o csv -c -d 0.5 -D 300 "$@" >"$out" 2>"$out.err" &
	lp=$!
	wait_line '^ts_ns' "$out" 300 || { fail "$(basename "$out")-started" "$(cat "$out.err")"; return 1; }
}
# finish TAG OUT: stop the session after its last runs (SIGINT reports the partial interval).
finish() {
	sleep 1
	kill -INT $lp
	wait $lp
	expect "$1-exit" $? 0 || cat "$2.err"
}
# last NAME ID FILE: CSV column NAME of program ID in the last interval.
last() { col "$1" "$2" "$3" | tail -n 1; }

echo 0 >/proc/sys/kernel/bpf_stats_enabled
expect sysctl-off "$(cat /proc/sys/kernel/bpf_stats_enabled)" 0

# 1: the control: a normal session turns stats on (and the sysctl does not say so).
if session $T/on.csv -p "$light"; then
	expect control-kernel-counts "$(counted light 1000)" 1000
	expect control-sysctl-unchanged "$(cat /proc/sys/kernel/bpf_stats_enabled)" 0
	finish control $T/on.csv
	expect control-run-cnt "$(last run_cnt "$light" $T/on.csv)" 1000
	ok control-cpu-pct [ -n "$(last cpu_pct "$light" $T/on.csv)" ]
fi
expect control-off-after "$(counted light 10)" 0

# 2: --no-stats watching light, heavy running unwatched: the kernel counts nothing; light's
# count is exact with percentiles; no stats figure anywhere; a recording replays the same.
rm -f $T/ns.lrec
if session $T/ns.csv --no-stats -p "$light" -w $T/ns.lrec; then
	expect nostats-kernel-counts-nothing "$(counted light 4321)" 0
	expect nostats-unwatched-counts-nothing "$(counted heavy 50)" 0
	finish nostats $T/ns.csv
	expect nostats-count-exact "$(last count "$light" $T/ns.csv)" 4321 || tail -n 3 $T/ns.csv
	ok nostats-p50 [ "$(last p50_ns "$light" $T/ns.csv)" -gt 0 ]
	ok nostats-p99 [ "$(last p99_ns "$light" $T/ns.csv)" -gt 0 ]
	expect nostats-source-events "$(col count_source "$light" $T/ns.csv | sort -u)" events
	expect nostats-cpu-empty "$(col cpu_pct "$light" $T/ns.csv | sort -u)" ""
	expect nostats-run-cnt-empty "$(col run_cnt "$light" $T/ns.csv | sort -u)" ""
	expect nostats-session-source "$(awk -F, 'NR==2{print $4}' $T/ns.csv)" fentry
	expect nostats-drops "$(csv_drops $T/ns.csv)" 0
	ok nostats-no-warning sh -c "! grep -q 'bpf_stats is on already' $T/ns.csv.err"
	lattop -r $T/ns.lrec -b -o csv >$T/nst.csv 2>&1
	expect replay-count "$(awk -F, -v id="$light" '$1=="programs" && $2==id {print $7}' $T/nst.csv)" 4321 ||
		cat $T/nst.csv
	lattop -r $T/ns.lrec -b -o csv -n 1000 >$T/nsi.csv 2>&1
	expect replay-cpu-empty "$(col cpu_pct "$light" $T/nsi.csv | sort -u)" ""
	expect replay-run-cnt-empty "$(col run_cnt "$light" $T/nsi.csv | sort -u)" ""
	expect replay-intervals-add-up "$(col count "$light" $T/nsi.csv | awk '{s+=$1} END{print s+0}')" 4321
	lattop -r $T/ns.lrec -b -o json -n 1000 >$T/nsi.json 2>&1
	expect replay-json-nulls "$(grep -o "\"prog_id\":$light,[^}]*" $T/nsi.json | grep -c '"cpu_pct":null,"run_cnt":null')" \
		"$(grep -c "\"prog_id\":$light," $T/nsi.json)" || head -c 600 $T/nsi.json
	lattop -r $T/ns.lrec -b -n 1 >$T/nsn.txt 2>&1
	ok replay-notice grep -q 'note: bpf_stats off (--no-stats): programs without probes show no figures' $T/nsn.txt ||
		cat $T/nsn.txt
fi

# 3: the text report says so, with the probes' line; a program without probes (nothing
# watched) has no figures: every stats cell empty, its source "-".
lattop --no-stats -b -n 1 -d 0.3 -p "$light" >$T/t.txt 2>&1
ok text-notice grep -q '^note: bpf_stats off (--no-stats): programs without probes show no figures; fentry/fexit' $T/t.txt ||
	cat $T/t.txt
ok text-probes grep -q '^probes: 1 programs (2 fentry/fexit programs)' $T/t.txt
if session $T/un.csv --no-stats --budget 0; then
	cmd "run heavy 300" >/dev/null
	finish unwatched $T/un.csv
	expect unwatched-row "$(awk -F, -v id="$heavy" 'NR>1 && $5==id {print $8 "|" $9 "|" $10 "|" $11 "|" $16 "|" $17 "|" $18}' $T/un.csv | sort -u)" "||||||-" ||
		grep -E "^ts_ns|,$heavy," $T/un.csv | tail -n 2
fi

# 4: the TUI says so under the header; the watched row's CPU% and RUNS are '-', SRC events.
tmux -f /dev/null new-session -d -s ns -x 160 -y 40 "TERM=tmux-256color lattop --no-stats -d 0.5 -p $light 2>$T/tui.err; echo EXITED \$?; sleep 30"
i=0
while ! tmux capture-pane -p -t ns | grep -q 'target_light.*events' && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
cmd "run light 100" >/dev/null
sleep 1.2
tmux capture-pane -p -t ns >$T/scr
ok tui-notice grep -q '^bpf_stats off (--no-stats): programs without probes show no figures' $T/scr ||
	{ head -n 8 $T/scr; cat $T/tui.err; }
expect tui-row-stats-cells "$(awk '/target_light/{print $(NF-2), $(NF-1), $NF}' $T/scr)" "- - events"
tmux send-keys -t ns q
sleep 1
tmux capture-pane -p -t ns >$T/scr2
ok tui-exit grep -q 'EXITED 0' $T/scr2
tmux kill-server 2>/dev/null

# 5: stats turned on by the sysctl: left on, said in a warning, still no stats figure.
echo 1 >/proc/sys/kernel/bpf_stats_enabled
if session $T/sy.csv --no-stats -p "$light"; then
	expect sysctl-kernel-counts "$(counted light 700)" 700
	finish sysctl $T/sy.csv
	expect sysctl-count-exact "$(last count "$light" $T/sy.csv)" 700
	expect sysctl-cpu-empty "$(col cpu_pct "$light" $T/sy.csv | sort -u)" ""
	expect sysctl-run-cnt-empty "$(col run_cnt "$light" $T/sy.csv | sort -u)" ""
	ok sysctl-warning grep -q "^lattop: warning: bpf_stats is on already (the kernel.bpf_stats_enabled sysctl or another tool): every BPF program pays for it anyway; --no-stats leaves it on and shows none of its figures" $T/sy.csv.err ||
		cat $T/sy.csv.err
	expect sysctl-left-on "$(cat /proc/sys/kernel/bpf_stats_enabled)" 1
fi
echo 0 >/proc/sys/kernel/bpf_stats_enabled
stop_target
