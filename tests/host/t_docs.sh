#!/usr/bin/env bash
# The documentation stays true: the man page renders without warnings and names every option
# --help lists; the README's two commands are the ones .ci/run and the man page give.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=docs

out=$(groff -man -ww -z man/lattop.8 2>&1)
expect_eq man-renders $? 0
expect_eq man-no-warnings "$out" ""
for opt in $($LATTOP --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
	esc=$(echo "$opt" | sed 's/-/\\\\-/g')
	if grep -q -- "$esc" man/lattop.8; then pass "man-has$opt"; else fail "man-has$opt" "man page lacks $opt"; fi
done
test_cmd=$(grep -m2 -E '^    apt-get update' README.md | tail -n1 | sed 's/^    //')
check readme-test-cmd-in-ci grep -qF "${test_cmd#apt-get update && }" .ci/run
check readme-demo-cmd grep -qE '^    apt-get update .*\./lattop --demo$' README.md

# make install puts the binary and the man page under PREFIX (DESTDIR for staging).
make -s install DESTDIR="$TMP/stage" PREFIX=/usr >"$TMP/inst.log" 2>&1
check install-binary test -x "$TMP/stage/usr/sbin/lattop"
check install-man test -f "$TMP/stage/usr/share/man/man8/lattop.8"
check install-spans test -f "$TMP/stage/usr/share/lattop/spans/sched-wakeup.json"
# ... and the systemd unit under the prefix's lib/systemd/system, running the installed binary
# with --listen; systemd itself finds nothing wrong in it (the man page it names is not
# installed on this host, which is all verify may say).
UNIT=$TMP/stage/usr/lib/systemd/system/lattop.service
expect_eq install-unit-exec "$(grep '^ExecStart=' "$UNIT")" "ExecStart=/usr/sbin/lattop --listen 127.0.0.1:9364"
if command -v systemd-analyze >/dev/null; then
	sed "s|/usr/sbin/lattop|$PWD/lattop|" "$UNIT" >"$TMP/lattop.service"
	expect_eq unit-verifies "$(systemd-analyze verify "$TMP/lattop.service" 2>&1 | grep -v "Command 'man lattop(8)' failed")" ""
fi

# Every key of the TUI's key table (the labels `?` shows, aliases included) is in --help's key
# summary and in the man page's KEYS section.
python3 - "$($LATTOP --help)" <<'PY' >"$TMP/keys.txt"
import re, sys
src = open("src/ui/tui.c").read()
table = src[src.index("static const struct key keys[] = {"):]
table = table[:table.index("\n};")]
labels = re.findall(r'^\t\{[^"]*"([^"]+)", "', table, re.M)
helptext = sys.argv[1]
para = helptext[helptext.index("Keys:") + 5:helptext.index("Exit status")]
help_tokens = set()
for w in re.split(r"[\s,.]+", para):
    help_tokens.update([w] if w == "/" else [t for t in re.split(r"[/()]", w) if t])
man = open("man/lattop.8").read()
keys = man[man.index(".SH KEYS"):man.index(".SH THEMES")]
man_tokens = set()
for line in keys.splitlines():
    if line.startswith((".B ", ".BR ")):
        man_tokens.update(t.replace("\\-", "-") for t in re.split(r'[\s",]+', line.split(" ", 1)[1]) if t)
for label in labels:
    for tok in label.split():
        print(tok, tok in help_tokens, tok in man_tokens)
PY
check key-table-read test "$(wc -l <"$TMP/keys.txt")" -ge 30
while read -r tok inhelp inman; do
	if [ "$inhelp" = True ]; then pass "help-key-$tok"; else fail "help-key-$tok" "--help's key summary lacks $tok"; fi
	if [ "$inman" = True ]; then pass "man-key-$tok"; else fail "man-key-$tok" "man KEYS lacks $tok"; fi
done <"$TMP/keys.txt"

# FILES names the profiles --discover writes and --profile reads.
check man-files-profile bash -c "sed -n '/^\.SH FILES/,/^\.SH EXAMPLES/p' man/lattop.8 | grep -q 'profile\\\\-out'"
# Every .PHONY target has a rule.
for t in $(sed -n 's/^\.PHONY: *//p' Makefile); do
	check "make-rule-$t" grep -qE "^$t:" Makefile bench/bench.mk bench/vm/vmbench.mk tests/vm/vm.mk \
		tests/fuzz/fuzz.mk
done
# --help fits an 80-column terminal.
help=$($LATTOP --help)
check help-prints test "$(grep -c . <<<"$help")" -ge 10
expect_eq help-80-columns "$(awk 'length($0) > 80' <<<"$help" | head -n 3)" ""
end_suite
