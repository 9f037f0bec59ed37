# Helpers for the HTML reports' suites (t_html.sh, t_html_compare.sh), sourced after
# tests/lib.sh: the facts tests/host/html_facts.py prints, and headless Chromium.

# fact FILE KEY: a fact tests/host/html_facts.py prints about a report or a DOM.
fact() { awk -F'\t' -v k="$2" '$1 == k { sub(/^[^\t]*\t/, ""); print; exit }' "$1"; }

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
