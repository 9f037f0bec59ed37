#!/usr/bin/env bash
# The HTML report (-r FILE --html OUT): its errors (status and sentence, nothing left behind),
# the file as lattop writes it (mode, valid UTF-8, nothing outside the file, hostile names as
# text, one chart of each kind per series in p99 order, the step where it is), and the page as
# Debian's headless Chromium renders it: the DOM it builds (the same charts and titles, no
# element or handler from a name, the document's title unchanged), screenshots that are not
# blank in light and dark mode, and a printed PDF. Recordings come from tests/host/mkreport.py.
# No root, no BPF; Chromium is skipped only when it cannot start at all.
cd "$(dirname "$0")/../.." && . tests/lib.sh && . tests/host/html_lib.sh
SUITE=html
export TZ=UTC

R=$TMP/r.lrec
python3 tests/host/mkreport.py "$R" 20

# Errors: one sentence, a defined status, and no file created.
out=$($LATTOP --html "$TMP/x.html" 2>&1)
expect_eq no-r-status $? 2
expect_eq no-r-says "$out" "lattop: --html writes a report of a recording: add -r FILE"
check no-r-creates-nothing test ! -e "$TMP/x.html"
out=$($LATTOP -r "$R" -b --html "$TMP/x.html" 2>&1)
expect_eq with-b-status $? 2
expect_eq with-b-says "$out" "lattop: --html writes the whole recording to a file: drop -b, -n, -o, -c, --hist and --events"
: >"$TMP/exists.html"
out=$($LATTOP -r "$R" --html "$TMP/exists.html" 2>&1)
expect_eq exists-status $? 2
expect_eq exists-says "$out" "lattop: the report $TMP/exists.html already exists: lattop never overwrites a file; remove it or give a new name"
check exists-untouched test ! -s "$TMP/exists.html"
ln -s "$TMP/target.html" "$TMP/link.html"
out=$($LATTOP -r "$R" --html "$TMP/link.html" 2>&1)
expect_eq link-status $? 2
expect_eq link-says "$out" "lattop: the report $TMP/link.html is a symbolic link: lattop never writes through one; give the path of a new file"
check link-not-followed test ! -e "$TMP/target.html"
out=$($LATTOP -r "$R" --html "$TMP/no/such/dir/r.html" 2>&1)
expect_eq bad-path-status $? 1
expect_eq bad-path-says "$out" "lattop: cannot create the report $TMP/no/such/dir/r.html: No such file or directory"
printf 'not a recording at all\n' >"$TMP/junk.lrec"
out=$($LATTOP -r "$TMP/junk.lrec" --html "$TMP/junk.html" 2>&1)
expect_eq non-recording-status $? 1
expect_eq non-recording-says "$out" "lattop: $TMP/junk.lrec: not a lattop recording (bad magic)"
check non-recording-creates-nothing test ! -e "$TMP/junk.html"
# A write that fails (a 4 KiB file size limit; the report is larger): one sentence, status 1,
# and the part written is removed.
out=$(ulimit -f 4; $LATTOP -r "$R" --html "$TMP/big.html" 2>&1)
expect_eq write-fails-status $? 1
expect_eq write-fails-says "$out" "lattop: cannot write the report $TMP/big.html: File too large"
check write-fails-leaves-nothing test ! -e "$TMP/big.html"

# The report as written.
H=$TMP/r.html
report_written "$H" -r "$R"
F=$TMP/file.facts
check file-no-raw-markup-from-names bash -c "! grep -aqE '<(img|script|b>|svg onload)' '$H'"
check file-csp grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$H"
# The series in p99 order (the stats-only one last, with its average), names in their visible
# form: what the terminal shows, markup as text.
names="stepper|steady|bad\\xff\\xfeutf8\\xc3|esc\\x1b[31mred\\x07\\x7f|q\"uo'te&amp;<b>bold</b>|</title><script>document.title='PWNED'</script>|<img src=x onerror=document.title='PWNED'>|counted"
pct=$(sed 's/|/\n/g' <<<"$names" | sed '$!s/^/percentiles over time: /; $s/^/average over time: /' | paste -sd'|')
expect_eq file-sections "$(fact "$F" sections)" 8
expect_eq file-headings "$(fact "$F" h2)" "$names"
expect_eq file-toc "$(fact "$F" toc)" "$names"
expect_eq file-pct-titles "$(fact "$F" pct_titles)" "$pct"
expect_eq file-heatmaps "$(fact "$F" charts.heat)" 7
expect_eq file-histograms "$(fact "$F" charts.hist)" 7
expect_eq file-loss-chart "$(fact "$F" charts.losses)" 1
expect_eq file-losses "$(fact "$F" losstext)" "ringbuf 7, queue 2, recursion 0, nest 0, named loss counters 0 (frames lost 0), events 0"
# The step: the 1 us row (512ns..1.02us, the lowest) full in the first 10 of 20 columns, the
# 64 us row (32.8us..65.5us, the highest, 6 rows up) full in the last 10: the plot is 644
# units wide from x=66, rows 18 high from y=8.
expect_eq step-heatmap "$(fact "$F" heat.1)" "h9 66.00 116.0 322.00 18.0;h9 388.00 8.0 322.00 18.0"
expect_eq steady-heatmap "$(fact "$F" heat.2)" "h9 66.00 8.0 644.00 18.0"
expect_eq step-histogram "$(fact "$F" histtext.1)" "[512ns, 1.02us)|20,000|[1.02us, 2.05us)|0|[2.05us, 4.10us)|0|[4.10us, 8.19us)|0|[8.19us, 16.4us)|0|[16.4us, 32.8us)|0|[32.8us, 65.5us)|20,000"
expect_eq step-p99-points "$(fact "$F" line.1.l99)" 20
expect_eq stats-only-average "$(fact "$F" line.8.lavg)" 20
# -p picks the series as for any replay; a mode the file lacks is the replay's usage error.
$LATTOP -r "$R" -p stepper,counted --html "$TMP/p.html" 2>&1
expect_eq filter-status $? 0
expect_eq filter-series "$(python3 tests/host/html_facts.py "$TMP/p.html" | fact /dev/stdin h2)" "stepper|counted"
out=$($LATTOP -r "$R" -m helpers --html "$TMP/m.html" 2>&1)
expect_eq mode-missing-status $? 2
expect_eq mode-missing-says "$out" "lattop: helpers mode was not recorded in $R (-m)"
check mode-missing-creates-nothing test ! -e "$TMP/m.html"
check meta-host-escaped grep -qF "<td>&lt;script&gt;alert(&#39;host&#39;)&lt;/script&gt;</td>" "$H"

# A few hundred series past HTML_COLS intervals: 300 programs over 250 intervals (2 per
# column, histograms merged), all in p99 order with their sections; the merged columns'
# percentiles are the programs' own (program i runs at i x 100 ns).
M=$TMP/many.lrec
python3 tests/host/mkreport.py "$M" 250 many 300
$LATTOP -r "$M" --html "$TMP/many.html" >"$TMP/many.out" 2>&1
expect_eq many-status $? 0
python3 tests/host/html_facts.py "$TMP/many.html" >"$TMP/many.facts"
expect_eq many-sections "$(fact "$TMP/many.facts" sections)" 300
expect_eq many-toc-order "$(fact "$TMP/many.facts" toc)" "$(for i in $(seq 300 -1 1); do printf 'p%04d\n' "$i"; done | paste -sd'|')"
expect_eq many-columns "$(fact "$TMP/many.facts" line.1.l99)" 125
check many-first-row grep -qF '<a href="#s1">p0300</a></td><td class="name">program</td><td>1300</td><td>12,500</td><td>30.0us</td><td>30.0us</td>' "$TMP/many.html"
check many-last-row grep -qF '<a href="#s300">p0001</a></td><td class="name">program</td><td>1001</td><td>12,500</td><td>100ns</td><td>100ns</td>' "$TMP/many.html"

# Past HTML_MAX_SERIES (1000): the 1000 highest p99 are drawn, the page counts the one left.
python3 tests/host/mkreport.py "$TMP/1001.lrec" 2 many 1001
$LATTOP -r "$TMP/1001.lrec" --html "$TMP/1001.html" 2>&1
expect_eq cap-status $? 0
python3 tests/host/html_facts.py "$TMP/1001.html" >"$TMP/1001.facts"
expect_eq cap-sections "$(fact "$TMP/1001.facts" sections)" 1000
check cap-says grep -qF '<tr><th>series</th><td>1000 shown, 0 without runs (or outside -p), 1 more not shown</td></tr>' "$TMP/1001.html"
check cap-lowest-left-out bash -c "! grep -qF '>p0001<' '$TMP/1001.html'"

# Chromium: the page as a browser builds and paints it.
if chrome_ready; then
	chrome --dump-dom "file://$H" >"$TMP/r.dom"
	expect_eq dom-status $? 0
	python3 tests/host/html_facts.py "$TMP/r.dom" >"$TMP/dom.facts"
	D=$TMP/dom.facts
	expect_eq dom-sections "$(fact "$D" sections)" 8
	expect_eq dom-pct-charts "$(fact "$D" charts.pct)" 8
	expect_eq dom-pct-titles "$(fact "$D" pct_titles)" "$pct"
	expect_eq dom-headings "$(fact "$D" h2)" "$names"
	expect_eq dom-heatmaps "$(fact "$D" charts.heat)" 7
	expect_eq dom-histograms "$(fact "$D" charts.hist)" 7
	expect_eq dom-step-heatmap "$(fact "$D" heat.1)" "$(fact "$F" heat.1)"
	# No name became an element or a handler, and no script ran (it would retitle the page).
	expect_eq dom-no-active-element "$(fact "$D" active)" 0
	expect_eq dom-no-handler "$(fact "$D" onattrs)" 0
	expect_eq dom-nothing-outside "$(fact "$D" outside)" 0
	expect_eq dom-title-unchanged "$(fact "$D" title)" "lattop report: $R"
	# Screenshots: not blank, light on a light scheme and dark on a dark one.
	page_painted "$H"
	# Printed: a PDF of more than one page.
	chrome --no-pdf-header-footer --print-to-pdf="$TMP/r.pdf" "file://$H" >/dev/null
	check pdf-written grep -qa '^%PDF-' "$TMP/r.pdf"
	check pdf-pages test "$(grep -ac '/Type /Page\b' "$TMP/r.pdf")" -ge 2
	# The many-series page loads whole: every section and chart in the DOM.
	chrome --dump-dom "file://$TMP/many.html" >"$TMP/many.dom"
	python3 tests/host/html_facts.py "$TMP/many.dom" >"$TMP/many-dom.facts"
	expect_eq many-dom-pct-charts "$(fact "$TMP/many-dom.facts" charts.pct)" 300
fi
end_suite
