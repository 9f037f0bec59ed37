#!/usr/bin/env bash
# A perf.data file of EventHeader activities (tests/host/mkperf.py, laid out as perf-collect
# writes one) replayed in a real terminal (tmux) as a non-root user: the REPLAY header with the
# file's 4 intervals of -d 1, the activities' rows in segments mode with each interval's counts,
# and the replay keys: pause, Home, step forward and back, End.
cd "$(dirname "$0")/../.." && . tests/lib.sh
tmux_private
SUITE=ui-perfdata
S=lattop-perfdata-$$
LAT=$(readlink -f "$LATTOP")
chmod 755 "$TMP"
python3 tests/host/mkperf.py "$TMP/trace.data"
chmod 644 "$TMP/trace.data"
tmux kill-session -t "$S" 2>/dev/null

tmux new-session -d -s "$S" -x 170 -y 30 "TERM=screen-256color setpriv --reuid=nobody --regid=nogroup --clear-groups $LAT -r $TMP/trace.data -d 1; echo EXITED \$?; sleep 30"
check starts wait_for 'Request'
check replay-header grep -qE '^lattop .* REPLAY trace.data [0-9:]+ \(0:00:0[0-9.]+/0:00:04.0\) x1' <(screen)
check inner-row grep -q 'Inner' <(screen)
# (paused first, so that the steps start from the first interval whatever the machine's load)
tmux send-keys -t "$S" ' ' Home
check home-key wait_for '\(0:00:01.0/0:00:04.0\) x1 PAUSED' 20
# Interval 1 has 3 Inners, interval 2 has 2: the rows follow the steps.
check first-interval-inner wait_for 'Inner +activity +3 ' 20
tmux send-keys -t "$S" '.'
check step-forward wait_for '\(0:00:02.0/0:00:04.0\) x1 PAUSED' 20
check second-interval-inner wait_for 'Inner +activity +2 ' 20
tmux send-keys -t "$S" ','
check step-back wait_for '\(0:00:01.0/0:00:04.0\) x1 PAUSED' 20
check step-back-inner wait_for 'Inner +activity +3 ' 20
tmux send-keys -t "$S" End
check end-key wait_for '\(0:00:04.0/0:00:04.0\) x1 .*END' 20
tmux send-keys -t "$S" q
check quits wait_for 'EXITED 0' 20
tmux kill-session -t "$S" 2>/dev/null
end_suite
