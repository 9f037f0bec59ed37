#!/usr/bin/env bash
# Files lattop writes as root (-w, --profile-out): an existing file, a symbolic link (dangling
# or not), a device, a FIFO or a directory is refused in one sentence with status 2 before
# anything starts, and left as it was; new files are 0600 whatever the umask; a write that
# fails (a full tmpfs mid-session, a file size limit reached by the last frame, a full disk
# under a profile) is one sentence on stderr and exit status 1, and the TUI shows it on screen.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=host-files
chmod 755 "$TMP"
LAT=$(readlink -f "$LATTOP")
# lib.sh's cleanup, with the tmpfs unmounted once nothing runs on it.
trap '[ -n "${TMUX_TMPDIR:-}" ] && tmux kill-server 2>/dev/null; jobs -p | xargs -r kill 2>/dev/null; sleep 0.2; umount -l "$TMP/small" 2>/dev/null; rm -rf "$TMP"' EXIT

# refused NAME WHAT PATH SENTENCE [ARGS...]: lattop with -w PATH (WHAT=recording) or
# --profile-out PATH (WHAT=profile) exits 2 with "lattop: SENTENCE" alone on stderr.
refused() {
	local name=$1 what=$2 path=$3 want=$4
	shift 4
	if [ "$what" = recording ]; then
		timeout 20 $LATTOP --demo -b -n 1 -d 0.2 -w "$path" "$@" >"$TMP/r.out" 2>"$TMP/r.err"
	else
		timeout 20 $LATTOP --discover --device lo --flow proto=udp -D 1 --profile-out "$path" \
			>"$TMP/r.out" 2>"$TMP/r.err"
	fi
	expect_eq "$name-status" $? 2
	expect_eq "$name-message" "$(cat "$TMP/r.err")" "lattop: $want"
}

# Existing files, links, devices, FIFOs and directories: refused, untouched.
echo precious >"$TMP/old.lrec"
refused existing recording "$TMP/old.lrec" \
	"the recording $TMP/old.lrec already exists: lattop never overwrites a file; remove it or give a new name"
expect_eq existing-untouched "$(cat "$TMP/old.lrec")" precious
echo important >"$TMP/important"
ln -s "$TMP/important" "$TMP/link.lrec"
refused symlink recording "$TMP/link.lrec" \
	"the recording $TMP/link.lrec is a symbolic link: lattop never writes through one; give the path of a new file"
expect_eq symlink-target-untouched "$(cat "$TMP/important")" important
ln -s "$TMP/nothere" "$TMP/dangling.lrec"
refused dangling recording "$TMP/dangling.lrec" \
	"the recording $TMP/dangling.lrec is a symbolic link: lattop never writes through one; give the path of a new file"
check dangling-target-not-created test ! -e "$TMP/nothere"
refused dev-full recording /dev/full \
	"the recording /dev/full is a character device, not a regular file: give the path of a new file"
mkfifo "$TMP/fifo.lrec"
refused fifo recording "$TMP/fifo.lrec" \
	"the recording $TMP/fifo.lrec is a FIFO, not a regular file: give the path of a new file"
mkdir "$TMP/dir.lrec"
refused directory recording "$TMP/dir.lrec" \
	"the recording $TMP/dir.lrec is a directory, not a regular file: give the path of a new file"
echo '{"old": 1}' >"$TMP/old.json"
refused profile-existing profile "$TMP/old.json" \
	"the profile $TMP/old.json already exists: lattop never overwrites a file; remove it or give a new name"
expect_eq profile-existing-untouched "$(cat "$TMP/old.json")" '{"old": 1}'
ln -s "$TMP/important" "$TMP/link.json"
refused profile-symlink profile "$TMP/link.json" \
	"the profile $TMP/link.json is a symbolic link: lattop never writes through one; give the path of a new file"
expect_eq profile-symlink-target-untouched "$(cat "$TMP/important")" important

# New files: 0600 (like perf.data) even with umask 0; the recording replays.
(umask 0 && live $LATTOP --demo -b -n 1 -d 0.2 -w "$TMP/new.lrec" >/dev/null)
expect_eq new-recording-exit $? 0
expect_eq new-recording-mode "$(stat -c %a "$TMP/new.lrec")" 600
$LATTOP -r "$TMP/new.lrec" -b -n 5 >/dev/null 2>&1
expect_eq new-recording-replays $? 0
(umask 0 && "$OUTPUT/tests/host/profwrite" "$TMP/new.json")
expect_eq new-profile-exit $? 0
expect_eq new-profile-mode "$(stat -c %a "$TMP/new.json")" 600

# The last frame fails (a file size limit just above the header): one sentence, status 1.
# The header's size: a session shorter than a tenth of its interval writes no interval.
live $LATTOP --demo -b -d 10 -D 0.3 -w "$TMP/h.lrec" >/dev/null
hdr=$(stat -c %s "$TMP/h.lrec")
check header-only test "$hdr" -gt 0 -a "$hdr" -lt 8192
# ulimit -f counts 1 KiB blocks: at most 1023 bytes of room after the header, and the first
# interval of the four demo programs needs more. stdout goes through a pipe (no limit).
# Only lattop runs under the limit: the report's reader writes it out unlimited (it grows
# with the number of programs loaded on the machine).
(
	ulimit -f $(((hdr + 1023) / 1024)) || exit 99
	live $LATTOP --demo -b -n 1 -d 0.3 -o json -w "$TMP/last.lrec" 2>"$TMP/last.err"
) | cat >"$TMP/last.json"
expect_eq last-frame-exit "${PIPESTATUS[0]}" 1
expect_eq last-frame-message "$(cat "$TMP/last.err")" "lattop: recording stopped: cannot write $TMP/last.lrec: File too large"
expect_eq last-frame-report-printed "$(json 'len(L)' "$TMP/last.json")" 1
$LATTOP -r "$TMP/last.lrec" -b -n 5 >/dev/null 2>&1
expect_eq last-frame-file-readable $? 0

# A full tmpfs: mid-session (the session goes on, one sentence, status 1), under a profile,
# and in the TUI (on screen while it runs, on stderr and status 1 after q).
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=96k,mode=755 tmpfs "$TMP/small" 2>/dev/null; then
	# 12 KiB left: four intervals of the demo with --raw cannot fit.
	dd if=/dev/zero of="$TMP/small/fill" bs=4k count=21 2>/dev/null
	live $LATTOP --demo -b -n 4 -d 0.3 -o json --raw -w "$TMP/small/f.lrec" \
		>"$TMP/full.json" 2>"$TMP/full.err"
	expect_eq disk-full-exit $? 1
	expect_eq disk-full-session-goes-on "$(json 'len(L)' "$TMP/full.json")" 4
	expect_eq disk-full-one-sentence "$(cat "$TMP/full.err")" \
		"lattop: recording stopped: cannot write $TMP/small/f.lrec: No space left on device"
	$LATTOP -r "$TMP/small/f.lrec" -b -n 100 -o json >/dev/null 2>&1
	expect_eq disk-full-file-readable $? 0

	# The TUI: the sentence stays on screen; after q it is on stderr and the status is 1.
	rm -f "$TMP/small/f.lrec"
	tmux_private
	S=files
	for _ in $(seq 60); do
		wait_gone
		tmux new-session -d -s "$S" -x 150 -y 30 "TERM=screen-256color $LAT --demo -d 0.3 --raw -w $TMP/small/t.lrec 2>$TMP/tui.err; echo EXITED \$?; sleep 30"
		wait_for 'demo_xdp_hash|another lattop session' >/dev/null
		screen | grep -q 'another lattop session' || break
		tmux kill-session -t "$S"
	done
	check tui-shows-error wait_for "^recording stopped: cannot write $TMP/small/t\.lrec: No space left on device" 100
	tmux send-keys -t "$S" q
	check tui-exit-1 wait_for '^EXITED 1' 50
	expect_eq tui-error-on-stderr "$(cat "$TMP/tui.err")" \
		"lattop: recording stopped: cannot write $TMP/small/t.lrec: No space left on device"
	tmux kill-session -t "$S"

	# Full to the last page: the profile cannot be written, and says so.
	rm -f "$TMP/small/t.lrec"
	dd if=/dev/zero of="$TMP/small/fill2" bs=4k 2>/dev/null
	"$OUTPUT/tests/host/profwrite" "$TMP/small/p.json" 2>"$TMP/p.err"
	expect_eq profile-disk-full-exit $? 1
	expect_eq profile-disk-full-message "$(cat "$TMP/p.err")" \
		"profwrite: cannot write the profile $TMP/small/p.json: No space left on device"
	umount "$TMP/small"
else
	skip disk-full "cannot mount a tmpfs"
fi
end_suite
