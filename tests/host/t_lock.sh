#!/usr/bin/env bash
# One live session at a time: a second one is refused naming the first's pid; a session killed
# with SIGKILL leaves its lock file behind but never blocks the next; replay needs no lock.
# The lock is a 0600 file no other user can open: in a mount namespace with a /run of its own,
# user nobody cannot hold the default lock and block a session, and a 0644 lock an older lattop
# left is made private (and, when a user holds it, named with the fix). LATTOP_LOCK never
# makes lattop write through a symbolic link, into a device or FIFO, into another user's file
# or into a file holding anything but a pid. A missing /run is one sentence naming the fix.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-lock
LAT=$(readlink -f "$LATTOP")

# The private half: `unshare -m --propagation private bash t_lock.sh --private-run DIR` runs
# it in a mount namespace of its own with a new tmpfs on /run, so the default lock there is a
# new file (other sessions' locks are untouched). Nothing but that tmpfs is mounted, and
# nothing is deleted here: DIR belongs to the caller.
if [ "${1:-}" = --private-run ]; then
	trap - EXIT
	rmdir "$TMP"
	TMP=$2
	unset LATTOP_LOCK
	if ! mount -t tmpfs -o mode=755,size=1m lattop-run /run; then
		echo "SKIP host-lock/private-run: cannot mount a tmpfs on /run in a namespace"
		exit 0
	fi
	$LAT -b -n 1 -d 0.2 >/dev/null 2>"$TMP/first.err"
	expect_eq default-lock-session "$?:$(cat "$TMP/first.err")" "0:"
	expect_eq default-lock-mode "$(stat -c '%a %U' /run/lattop.lock)" "600 root"
	# nobody tries to take the lock and hold it for 30 s.
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		flock -n /run/lattop.lock -c 'echo held; exec sleep 30' >"$TMP/nobody.out" 2>&1 &
	nb=$!
	for _ in $(seq 100); do
		grep -q held "$TMP/nobody.out" && break
		kill -0 $nb 2>/dev/null || break
		sleep 0.05
	done
	check nobody-cannot-open grep -q 'Permission denied' "$TMP/nobody.out"
	$LAT -b -n 1 -d 0.2 >/dev/null 2>"$TMP/second.err"
	expect_eq nobody-cannot-block "$?:$(cat "$TMP/second.err")" "0:"
	kill $nb 2>/dev/null
	wait $nb 2>/dev/null

	# A lock an older lattop left open to everybody (0644) is made private on the next start.
	chmod 644 /run/lattop.lock
	$LAT -b -n 1 -d 0.2 >/dev/null 2>"$TMP/old.err"
	expect_eq old-lock-made-private "$?:$(cat "$TMP/old.err"):$(stat -c %a /run/lattop.lock)" \
		"0::600"
	# ... and a user who opened it while it was 0644 and holds it is named, with the fix.
	chmod 644 /run/lattop.lock
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		flock -n /run/lattop.lock -c 'echo held; exec sleep 30' >"$TMP/nobody.out" 2>&1 &
	nb=$!
	for _ in $(seq 100); do grep -q held "$TMP/nobody.out" && break; sleep 0.05; done
	$LAT -b -n 1 -d 0.2 >/dev/null 2>"$TMP/held.err"
	rc=$?
	pid=$(cat /run/lattop.lock)
	expect_eq held-by-other-user-status $rc 1
	expect_eq held-by-other-user-message "$(cat "$TMP/held.err")" \
		"lattop: the session lock /run/lattop.lock is held by a process that is not a lattop session (pid $pid, its last holder, is gone): remove it (rm /run/lattop.lock) and start again"
	kill $nb 2>/dev/null
	wait $nb 2>/dev/null
	rm -f /run/lattop.lock
	$LAT -b -n 1 -d 0.2 >/dev/null 2>&1
	expect_eq removed-lock-works $? 0
	# The namespace, and its /run, end with this process.
	exit 0
fi

LOCK=${LATTOP_LOCK:-/run/lattop.lock}
wait_gone

$LATTOP -b -d 0.5 -D 30 >/dev/null 2>&1 &
first=$!
for _ in $(seq 100); do [ -s "$LOCK" ] && grep -q "^$first$" "$LOCK" && break; sleep 0.05; done
$LATTOP -b -n 1 >"$TMP/out" 2>"$TMP/err"
expect_eq second-refused $? 1
check names-holder grep -q "another lattop session (pid $first) is already tracing" "$TMP/err"
check second-prints-nothing test ! -s "$TMP/out"
expect_eq lock-mode "$(stat -c '%a %U' "$LOCK")" "600 root"
# Replay takes no lock: it works while the live session runs.
$LATTOP -r tests/data/sample.lrec -b -n 1 >"$TMP/replay" 2>&1
expect_eq replay-while-live $? 0
# SIGKILL: no cleanup runs, the file stays, the kernel drops the flock.
kill -9 "$first"
wait "$first" 2>/dev/null
check lock-file-left test -s "$LOCK"
$LATTOP -b -n 1 -d 0.3 >"$TMP/third" 2>&1
expect_eq stale-lock-does-not-block $? 0
check third-reports grep -q '^lattop ' "$TMP/third"

# LATTOP_LOCK (a test knob, honoured as root) cannot be turned into a way to write files.
# lockrun NAME PATH: a session with LATTOP_LOCK=PATH is refused with status 1; its message is
# in $TMP/lk.err.
lockrun() {
	LATTOP_LOCK=$2 timeout 20 $LATTOP -b -n 1 -d 0.2 >/dev/null 2>"$TMP/lk.err"
	expect_eq "$1-status" $? 1
}
echo keep >"$TMP/target"
ln -s "$TMP/target" "$TMP/link.lock"
lockrun knob-symlink "$TMP/link.lock"
expect_eq knob-symlink-message "$(cat "$TMP/lk.err")" \
	"lattop: the session lock $TMP/link.lock is a symbolic link: it must be a regular file; point LATTOP_LOCK at a new file"
expect_eq knob-symlink-target-untouched "$(cat "$TMP/target")" keep
ln -s "$TMP/nothere" "$TMP/dangling.lock"
lockrun knob-dangling "$TMP/dangling.lock"
check knob-dangling-not-created test ! -e "$TMP/nothere"
printf 'secret data\n' >"$TMP/data"
chmod 600 "$TMP/data"
lockrun knob-foreign-content "$TMP/data"
expect_eq knob-foreign-content-message "$(cat "$TMP/lk.err")" \
	"lattop: the session lock $TMP/data holds something other than a pid, so it is not a lattop lock and will not be overwritten: point LATTOP_LOCK at a new file"
expect_eq knob-foreign-content-untouched "$(cat "$TMP/data")" "secret data"
mkfifo "$TMP/fifo.lock"
lockrun knob-fifo "$TMP/fifo.lock"
expect_eq knob-fifo-message "$(cat "$TMP/lk.err")" \
	"lattop: the session lock $TMP/fifo.lock is not a regular file: it must be a regular file; point LATTOP_LOCK at a new file"
lockrun knob-device /dev/null
chmod 1777 "$TMP"
setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c "umask 077; : >$TMP/nobody.lock"
lockrun knob-other-owner "$TMP/nobody.lock"
check knob-other-owner-message grep -q "the session lock $TMP/nobody.lock is not a regular file of this user's with one link (owner uid $(id -u nobody))" "$TMP/lk.err"
chmod 700 "$TMP"
lockrun knob-missing-dir "$TMP/nodir/x.lock"
expect_eq knob-missing-dir-message "$(cat "$TMP/lk.err")" \
	"lattop: cannot create the session lock $TMP/nodir/x.lock: $TMP/nodir does not exist: create it (mkdir -m 0755 $TMP/nodir) and start again"

# No /run at all (a minimal system, an initramfs): lattop alone in a root of copies (the binary,
# the libraries ldd names and the loader; no /proc, so uid 0 is trusted), with no mounts.
R=$TMP/root
mkdir -p "$R/bin"
cp "$LAT" "$R/bin/lattop"
for lib in $(ldd "$LAT" | grep -oE '/[^ ]+'); do
	mkdir -p "$R$(dirname "$lib")"
	cp -L "$lib" "$R$lib"
done
LATTOP_LOCK= chroot "$R" /bin/lattop -b -n 1 >/dev/null 2>"$TMP/norun.err"
expect_eq no-run-status $? 1
expect_eq no-run-message "$(cat "$TMP/norun.err")" \
	"lattop: cannot create the session lock /run/lattop.lock: /run does not exist (a minimal system or an initramfs?): create it (mkdir -m 0755 /run) and start again"

# The default lock and user nobody, in a mount namespace of their own.
if command -v unshare >/dev/null && id nobody >/dev/null 2>&1; then
	mkdir "$TMP/private"
	LATTOP=$LAT unshare -m --propagation private bash "$0" --private-run "$TMP/private"
else
	echo "SKIP host-lock/private-run: needs unshare and user nobody"
fi
