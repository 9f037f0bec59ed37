#!/usr/bin/env bash
# The documentation stays true: the man page renders without warnings and names every option
# of the option table and no other; the README's two commands are the ones .ci/run, the man page and
# docs/GUIDE.md give.
cd "$(dirname "$0")/../.." && . tests/lib.sh
SUITE=docs

out=$(groff -man -ww -z man/lattop.8 2>&1)
expect_eq man-renders $? 0
expect_eq man-no-warnings "$out" ""
# The option table (test_opts --list) against --help and the man page, both ways: every option
# has its line in --help and a tag in OPTIONS (long and short names), and every option the man
# page names anywhere is in the table (options of other programs excepted by name).
"$OUTPUT/tests/test_opts" --list >"$TMP/opts.txt"
python3 - "$TMP/opts.txt" "$($LATTOP --help)" <<'PY' >"$TMP/opts-check.txt"
import re, sys
table = [l.split() for l in open(sys.argv[1]) if l.strip()]
helptext = sys.argv[2].splitlines()
man = open("man/lattop.8").read()
opts = man[man.index("\n.SH OPTIONS"):man.index("\n.SH VHOST SEGMENTS")].splitlines()
tags = " ".join(opts[i + 1] for i, l in enumerate(opts) if l == ".TP" and i + 1 < len(opts))
OTHERS = {"enable-feature", "signal"}  # Prometheus's --enable-feature=native-histograms, systemctl kill --signal
longs = {n for _, n, _ in table}
letters = {c for c, _, _ in table if c != "-"}
def man_longs(text):
    return {m.replace("\\-", "-") for m in re.findall(r"\\-\\-([a-z](?:[a-z]|\\-)*)", text)}
def man_shorts(text):
    return set(re.findall(r"(?<![A-Za-z0-9-])\\-([A-Za-z])(?![A-Za-z0-9])", text))
for c, name, arg in table:
    lead = ("-%s, " % c if c != "-" else "    ") + "--" + name + ("" if arg == "-" else " " + arg)
    ok = any(re.match(r"  " + re.escape(lead) + r"( |$)", l) for l in helptext)
    print("help-has--%s %s --help lacks the line of '%s'" % (name, ok, lead.strip()))
    print("man-tag--%s %s man OPTIONS has no tag naming --%s" % (name, name in man_longs(tags), name))
    if c != "-":
        print("man-tag-%s %s man OPTIONS has no tag naming -%s" % (c, c in man_shorts(tags), c))
for name in sorted(man_longs(man) - OTHERS):
    print("man-names--%s %s the man page names --%s, which is no option" % (name, name in longs, name))
for c in sorted(man_shorts(man)):
    print("man-names-%s %s the man page names -%s, which is no option" % (c, c in letters, c))
PY
check option-table-read test "$(grep -c '^help-has' "$TMP/opts-check.txt")" -ge 30
while read -r name ok why; do
	if [ "$ok" = True ]; then pass "$name"; else fail "$name" "$why"; fi
done <"$TMP/opts-check.txt"
test_cmd=$(grep -m1 -xE 'apt-get update .*make deps test' README.md)
demo_cmd=$(grep -m1 -xE 'apt-get update .*\./lattop --demo' README.md)
check readme-cmds-found test -n "$test_cmd" -a -n "$demo_cmd"
check readme-test-cmd-in-ci grep -qxF -- "${test_cmd#apt-get update && }" .ci/run
expect_eq readme-demo-cmd "$demo_cmd" \
	'apt-get update && apt-get install -y make && make deps all && ./lattop --demo'
# ... and the man page's EXAMPLES and docs/GUIDE.md give the same two.
for f in man/lattop.8 docs/GUIDE.md; do
	check "test-cmd-in-$(basename "$f")" grep -qxF -- "$test_cmd" "$f"
	check "demo-cmd-in-$(basename "$f")" grep -qxF -- "$demo_cmd" "$f"
done
# The man page's SEE ALSO names the docs.
check man-see-also-docs grep -q 'docs/GUIDE\.md' <(sed -n '/^\.SH SEE ALSO/,$p' man/lattop.8)

# make install puts the binary and the man page under PREFIX (DESTDIR for staging).
make -s install DESTDIR="$TMP/stage" PREFIX=/usr >"$TMP/inst.log" 2>&1
check install-binary test -x "$TMP/stage/usr/sbin/lattop"
check install-man test -f "$TMP/stage/usr/share/man/man8/lattop.8"
check install-spans test -f "$TMP/stage/usr/share/lattop/spans/sched-wakeup.json"
# ... and the systemd unit under the prefix's lib/systemd/system, running the installed binary
# with --listen; systemd itself finds nothing wrong in it (the man page it names is not
# installed on this host, which is all verify may say).
UNIT=$TMP/stage/usr/lib/systemd/system/lattop.service
expect_eq install-unit-exec "$(grep -E '^(ExecStart|Environment|EnvironmentFile)=' "$UNIT")" \
	"$(printf '%s\n' 'Environment="ARGS=--listen 127.0.0.1:9364 --flight 15m"' \
		'EnvironmentFile=-/etc/default/lattop' 'ExecStart=/usr/sbin/lattop $ARGS')"
# ... and the completion made from the option table: every long option of --help is in it.
check install-completion test -f "$TMP/stage/usr/share/bash-completion/completions/lattop" \
	-a -f "$TMP/stage/usr/share/zsh/site-functions/_lattop"
expect_eq completion-has-every-option "$($LATTOP --help | grep -oE '^  (-., |    )--[a-z-]+' |
	grep -oE -- '--[a-z-]+' | while read -r o; do
		grep -qE -- "[ '](-., )?$o[ ']" "$TMP/stage/usr/share/bash-completion/completions/lattop" ||
			echo "$o"; done)" ""
# The zsh script parses, and its _arguments call has one spec per long option of --help (zsh
# reads the file with a stand-in _arguments that prints the specs it gets).
if command -v zsh >/dev/null; then
	zsh -f -c '_arguments() { printf "%s\n" "$@"; }; source "$1"' zsh \
		"$TMP/stage/usr/share/zsh/site-functions/_lattop" >"$TMP/zsh-specs" 2>&1
	expect_eq zsh-completion-has-every-option "$($LATTOP --help |
		grep -oE '^  (-., |    )--[a-z-]+' | grep -oE -- '--[a-z-]+' | while read -r o; do
			grep -qE -- "^(\\([^)]*\\))?$o(\\[|$)" "$TMP/zsh-specs" || echo "$o"; done)" ""
else
	skip zsh-completion-has-every-option "zsh is not installed (make deps)"
fi
if command -v systemd-analyze >/dev/null; then
	sed "s|/usr/sbin/lattop|$PWD/lattop|" "$UNIT" >"$TMP/lattop.service"
	expect_eq unit-verifies "$(systemd-analyze verify "$TMP/lattop.service" 2>&1 | grep -v "Command 'man lattop(8)' failed")" ""
fi

# The TUI's key table (test_keys --list: scope and key name) against the man page's KEYS section,
# both ways: each key is under the subsection of its scope ("Live sessions and replays", "Live
# sessions only", "Replays only") and every key a subsection's tags name is in the table with that
# scope. Every key name is in --help's key summary too.
"$OUTPUT/tests/test_keys" --list >"$TMP/keys-table.txt"
python3 - "$TMP/keys-table.txt" "$($LATTOP --help)" <<'PY' >"$TMP/keys.txt"
import re, sys
table = {tuple(l.split()) for l in open(sys.argv[1]) if l.strip()}
helptext = sys.argv[2]
para = helptext[helptext.index("Keys:") + 5:helptext.index("Exit status")]
help_tokens = set()
for w in para.split():
    if len(w) > 1:
        w = w.rstrip(",.")
    help_tokens.update([w] if w in ("/", ",", ".") else [t for t in re.split(r"[/()]", w) if t])
SCOPES = {"Live sessions and replays": "both", "Live sessions only": "live", "Replays only": "replay",
          "Comparisons only": "compare"}
man = open("man/lattop.8").read()
lines = man[man.index("\n.SH KEYS"):man.index("\n.SH THEMES")].splitlines()
man_keys, sub = set(), None
for i, l in enumerate(lines):
    if l.startswith(".SS "):
        sub = SCOPES.get(l[4:].strip('"'))
    if l != ".TP" or i + 1 >= len(lines):
        continue
    macro, _, rest = lines[i + 1].partition(" ")
    args = [a or b for a, b in re.findall(r'"([^"]*)"|(\S+)', rest)]
    first = {".B": None, ".BR": 0, ".BI": 0, ".RB": 1}.get(macro)
    bold = args if first is None else args[first::2]
    for k in bold:
        k = k.replace("\\-", "-").replace("\\e", "\\")
        if sub is None:
            print("man-key-scope-%s False the man page's key %s is under no scope's subsection" % (k, k))
        man_keys.add((sub, k))
for scope, k in sorted(table):
    print("man-key-%s-%s %s man KEYS lacks %s under its %s subsection" % (scope, k, (scope, k) in man_keys, k, scope))
    print("help-key-%s %s --help's key summary lacks %s" % (k, k in help_tokens, k))
for scope, k in sorted(man_keys - table, key=str):
    if scope:
        print("man-key-extra-%s-%s False man KEYS names %s (%s), which the key table lacks" % (scope, k, k, scope))
PY
check key-table-read test "$(grep -c '^man-key-' "$TMP/keys.txt")" -ge 40
while read -r name ok why; do
	if [ "$ok" = True ]; then pass "$name"; else fail "$name" "$why"; fi
done < <(sort -u "$TMP/keys.txt")

# FILES names the profiles --discover writes and --profile reads.
check man-files-profile bash -c "sed -n '/^\.SH FILES/,/^\.SH EXAMPLES/p' man/lattop.8 | grep -q 'profile\\\\-out'"
# Every .PHONY target has a rule.
for t in $(sed -n 's/^\.PHONY: *//p' Makefile); do
	check "make-rule-$t" grep -qE "^$t:" Makefile bench/bench.mk bench/vm/vmbench.mk tests/vm/vm.mk \
		tests/fuzz/fuzz.mk
done
# The arm64 cross build: the README and docs/GUIDE.md say how to make it, and .ci/run installs
# what its test (t_arm64_build) needs.
for f in README.md docs/GUIDE.md; do
	for c in 'make deps-arm64' 'make ARCH=arm64' 'make deb ARCH=arm64'; do
		check "arm64-doc-$(basename "$f")-${c// /_}" grep -qF -- "$c" "$f"
	done
done
check arm64-deps-in-ci grep -qxF 'apt-get install -y make && make deps-arm64' .ci/run
# --help fits an 80-column terminal.
help=$($LATTOP --help)
check help-prints test "$(grep -c . <<<"$help")" -ge 10
expect_eq help-80-columns "$(awk 'length($0) > 80' <<<"$help" | head -n 3)" ""
end_suite
