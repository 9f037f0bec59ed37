# Helpers for the HTML reports' suites (t_html.sh, t_html_compare.sh), sourced after
# tests/lib.sh: the facts tests/host/html_facts.py prints, the checks every written report
# passes, and headless Chromium (its check, and the screenshots of a page).

# fact FILE KEY: a fact tests/host/html_facts.py prints about a report or a DOM.
fact() { awk -F'\t' -v k="$2" '$1 == k { sub(/^[^\t]*\t/, ""); print; exit }' "$1"; }

# report_written H ARGS...: lattop ARGS --html H writes the report H: status 0, nothing said,
# mode 0600; and its facts, in $TMP/file.facts, show valid UTF-8, nothing outside the file, and
# no element or handler made from a name.
report_written() {
	local h=$1 out f=$TMP/file.facts
	shift
	out=$($LATTOP "$@" --html "$h" 2>&1)
	expect_eq writes-status $? 0
	expect_eq writes-silently "$out" ""
	expect_eq mode-0600 "$(stat -c %a "$h")" 600
	python3 tests/host/html_facts.py "$h" >"$f"
	expect_eq file-utf8 "$(fact "$f" utf8)" ok
	expect_eq file-nothing-outside "$(fact "$f" outside)" 0
	expect_eq file-no-active-element "$(fact "$f" active)" 0
	expect_eq file-no-handler "$(fact "$f" onattrs)" 0
}

# chrome ARGS...: headless Chromium (its stderr kept in $TMP/chromium.err).
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$TMP/chromium" "$@" 2>>"$TMP/chromium.err"
}

# chrome_ready: whether Chromium can build a page here; when not, one SKIP saying why.
chrome_ready() {
	if ! command -v chromium >/dev/null; then
		skip chromium "chromium is not installed (make deps installs it)"
	elif ! chrome --dump-dom about:blank >"$TMP/blank.dom" || ! grep -q '<html' "$TMP/blank.dom"; then
		skip chromium "chromium cannot start here: $(grep -v dbus "$TMP/chromium.err" | tail -n 1)"
	else
		return 0
	fi
	return 1
}

# page_painted H: Chromium's screenshots of the page H are not blank (a blank page is one
# colour), light on a light scheme and dark on a dark one (mean luma of the pixels, 0..255).
page_painted() {
	local w h colours luma
	chrome --window-size=800,1200 --screenshot="$TMP/light.png" "file://$1" >/dev/null
	chrome --window-size=800,1200 --force-dark-mode --screenshot="$TMP/dark.png" "file://$1" >/dev/null
	read -r w h colours luma < <(python3 tests/host/pngstat.py "$TMP/light.png")
	expect_eq shot-size "$w x $h" "800 x 1200"
	check shot-not-blank test "${colours:-0}" -ge 50
	check shot-light test "${luma:-0}" -ge 180
	read -r w h colours luma < <(python3 tests/host/pngstat.py "$TMP/dark.png")
	check dark-not-blank test "${colours:-0}" -ge 50
	check dark-is-dark test "${luma:-255}" -le 80
}
