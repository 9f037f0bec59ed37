#!/usr/bin/env bash
# The comparison's HTML report (-r A --compare B --html OUT) on tests/host/mkab.py's pair (one
# program 2x slower, one 3% slower, one unchanged, one only in each, one counted only): its
# errors (status 2 and one sentence, no file left), the file as written (verdicts in the
# summary, most significant slow-downs first, the +100% change, one chart group per series,
# the only-in-B series as such, both sides on one scale, nothing outside the file, hostile
# names as text, byte-identical on a second run), and the page as Debian's headless Chromium
# builds and paints it. No root, no BPF; Chromium is skipped only when it cannot start at all.
cd "$(dirname "$0")/../.." && . tests/lib.sh && . tests/host/html_lib.sh
SUITE=html-compare
export TZ=UTC
GEN=tests/host/mkab.py

python3 $GEN a "$TMP/a.lrec" && python3 $GEN b "$TMP/b.lrec" && python3 $GEN helpers "$TMP/h.lrec" &&
	python3 $GEN xa "$TMP/xa.lrec" && python3 $GEN xb "$TMP/xb.lrec"
expect_eq generate $? 0

# Errors: one sentence on stderr, nothing on stdout, status 2, no report left.
echo "not a recording" >"$TMP/text.txt"
head -c 3000 "$TMP/b.lrec" >"$TMP/cut.lrec"
bad() { # bad NAME EXPECTED-STDERR ARGS...
	local name=$1 want=$2; shift 2
	$LATTOP "$@" --html "$TMP/bad.html" >"$TMP/bad.out" 2>"$TMP/bad.err"
	expect_eq "bad-$name-status" $? 2
	expect_eq "bad-$name-sentence" "$(cat "$TMP/bad.err")" "$want"
	expect_eq "bad-$name-no-stdout" "$(wc -c <"$TMP/bad.out")" 0
	check "bad-$name-no-file" test ! -e "$TMP/bad.html"
}
bad b-not-a-recording "lattop: $TMP/text.txt: not a lattop recording (bad magic)" \
	-r "$TMP/a.lrec" --compare "$TMP/text.txt"
bad a-not-a-recording "lattop: $TMP/text.txt: not a lattop recording (bad magic)" \
	-r "$TMP/text.txt" --compare "$TMP/b.lrec"
bad truncated "lattop: $TMP/cut.lrec: truncated/corrupt record at byte 2692: length 719 runs past the end of the file: a comparison needs whole recordings" \
	-r "$TMP/a.lrec" --compare "$TMP/cut.lrec"
bad other-mode "lattop: $TMP/a.lrec was recorded in programs mode and $TMP/h.lrec in helpers mode: compare recordings of one mode" \
	-r "$TMP/a.lrec" --compare "$TMP/h.lrec"
bad missing "lattop: cannot read the recording $TMP/none.lrec: No such file or directory" \
	-r "$TMP/a.lrec" --compare "$TMP/none.lrec"
bad with-b "lattop: --html writes the whole recording to a file: drop -b, -n, -o, -c, --hist and --events" \
	-r "$TMP/a.lrec" --compare "$TMP/b.lrec" -b
bad with-p "lattop: -p and -m do not apply to --compare: every recorded series is matched by name" \
	-r "$TMP/a.lrec" --compare "$TMP/b.lrec" -p slow_prog
# An existing report is refused before either recording is read, and left as it was.
echo keep >"$TMP/exists.html"
out=$($LATTOP -r "$TMP/a.lrec" --compare "$TMP/b.lrec" --html "$TMP/exists.html" 2>&1)
expect_eq exists-status $? 2
expect_eq exists-says "$out" "lattop: the report $TMP/exists.html already exists: lattop never overwrites a file; remove it or give a new name"
expect_eq exists-untouched "$(cat "$TMP/exists.html")" keep

# A write that fails (a 4 KiB file size limit; the report is larger): one sentence, status 1,
# and the part written is removed, as for the one-recording report.
out=$(ulimit -f 4; $LATTOP -r "$TMP/a.lrec" --compare "$TMP/b.lrec" --html "$TMP/big.html" 2>&1)
expect_eq write-fails-status $? 1
expect_eq write-fails-says "$out" "lattop: cannot write the report $TMP/big.html: File too large"
check write-fails-leaves-nothing test ! -e "$TMP/big.html"

# The report as written.
H=$TMP/ab.html
report_written "$H" -r "$TMP/a.lrec" --compare "$TMP/b.lrec"
F=$TMP/file.facts
check file-csp grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$H"
expect_eq file-title "$(fact "$F" title)" "lattop comparison: $TMP/a.lrec vs $TMP/b.lrec"
check file-meta-both-hosts grep -qF '<tr><th>host</th><td>abhost</td><td>abhost</td></tr>' "$H"
check file-meta-durations grep -qF '<tr><th>duration</th><td>20.00 s, 20 intervals</td><td>20.00 s, 20 intervals</td></tr>' "$H"
check file-tally grep -qF '>series: 2 slower, 0 faster, 1 changed, 3 unchanged, 1 only in A, 1 only in B</p>' "$H"
# Every series with its verdict, the largest significant slow-down first (slow_prog +100%,
# then noisy +3%), then changed, only in B, only in A, unchanged (in key order).
order="slow_prog=slower|noisy=slower|stats_prog=changed|new_prog=only_b|old_prog=only_a|same_prog=unchanged|slow_prog: bpf_map_lookup_elem=unchanged|rpc_span=unchanged"
expect_eq summary-verdicts "$(fact "$F" summary)" "$order"
expect_eq summary-is-toc "$(fact "$F" toc)" "$(sed 's/=[a-z_]*//g' <<<"$order")"
# slow_prog: every latency figure +100% ('*' significant but the max), the rate unchanged.
expect_eq summary-slow "$(fact "$F" summary.1)" "1|slow_prog|program xdp|slower|20,000|20,000|+0.0%|+100.0%*|+100.0%*|+100.0%*|+100.0%*|+100.0%"
expect_eq summary-only-b "$(fact "$F" summary.4)" "4|new_prog|program xdp|only in B|-|200|-|-|-|-|-|-"
expect_eq summary-counts-only "$(fact "$F" summary.3)" "3|stats_prog|program xdp|changed|2,000|4,000|+100.0%*|-|-|-|-|-"
check slow-change-coloured grep -qF '<td class="chg sig up" title="A 2.10us, B 4.19us">+100.0%*</td>' "$H"
# One section per series, in summary order; a matched one holds both sides' percentiles,
# heatmaps and histograms (the counts-only one its runs per second), a one-sided one says so.
expect_eq sections "$(fact "$F" sections)" 8
expect_eq section-headings "$(fact "$F" h2)" "$(sed 's/=[a-z_]*//g' <<<"$order")"
groups=$(for i in $(seq 8); do fact "$F" "group.$i"; done | paste -sd'|')
expect_eq chart-groups "$groups" "cmp slower cmppct,cmpheat,cmphist|cmp slower cmppct,cmpheat,cmphist|cmp changed cmppct|only only_b cmppct,cmpheat,cmphist|only only_a cmppct,cmpheat,cmphist|cmp unchanged cmppct,cmpheat,cmphist|cmp unchanged cmppct,cmpheat,cmphist|cmp unchanged cmppct,cmpheat,cmphist"
check only-b-said grep -qF '<span class="verdict only_b">only in B</span>' "$H"
expect_eq only-b-heat-panels "$(fact "$F" text.4.cmpheat | cut -d'|' -f1-3)" "A (before): not recorded|B (after)|4.10us"
# Percentiles over time: A dashed (la) and B solid (lb), a point per interval each; only B
# for new_prog; runs per second for the counts-only series.
expect_eq slow-lines "$(for l in l50.la l50.lb lmax.la lmax.lb; do fact "$F" "line.1.$l"; done | paste -sd' ')" "20 20 20 20"
expect_eq only-b-lines "$(fact "$F" line.4.l50.la)|$(fact "$F" line.4.l50.lb)" "|20"
expect_eq counts-only-lines "$(fact "$F" line.3.lavg.la) $(fact "$F" line.3.lavg.lb)" "20 20"
expect_eq counts-only-axis "$(fact "$F" text.3.cmppct)" "0/s|100/s|200/s|0s|3.33s|6.67s|10s|13.3s|16.7s|20s"
# Histograms mirrored on one scale: A's 2 us bulk and 8 us tail, B's twice as slow.
expect_eq slow-histograms "$(fact "$F" text.1.cmphist)" "A (before)|B (after)|[1.02us, 2.05us)|9,000|0|[2.05us, 4.10us)|9,000|9,000|[4.10us, 8.19us)|2,000|9,000|[8.19us, 16.4us)|0|2,000"
expect_eq slow-histogram-bars "$(fact "$F" rects.1.cmphist)" "bara 210.00 26.0 225.00 13;barb 435 26.0 0.00 13;bara 210.00 42.0 225.00 13;barb 435 42.0 225.00 13;bara 385.00 58.0 50.00 13;barb 435 58.0 225.00 13;bara 435.00 74.0 0.00 13;barb 435 74.0 50.00 13"
# Heatmaps on one row range (1.02us .. 16.4us) and one shade scale (900 runs the darkest):
# A's bulk alternates between its two lowest rows every 2 s and its tail is faint (h1) along
# the 4.10us row; B's all one row up (rows 14 high; A's panel from y=23, B's from y=100).
expect_eq slow-heat-rows "$(fact "$F" text.1.cmpheat)" "A (before)|1.02us|2.05us|4.10us|8.19us|B (after)|1.02us|2.05us|4.10us|8.19us|0s|3.33s|6.67s|10s|13.3s|16.7s|20s"
expect_eq slow-heatmaps "$(fact "$F" rects.1.cmpheat)" "h9 66.00 65.0 64.40 14.0;h9 194.80 65.0 64.40 14.0;h9 323.60 65.0 64.40 14.0;h9 452.40 65.0 64.40 14.0;h9 581.20 65.0 64.40 14.0;h9 130.40 51.0 64.40 14.0;h9 259.20 51.0 64.40 14.0;h9 388.00 51.0 64.40 14.0;h9 516.80 51.0 64.40 14.0;h9 645.60 51.0 64.40 14.0;h1 66.00 37.0 644.00 14.0;h9 66.00 128.0 64.40 14.0;h9 194.80 128.0 64.40 14.0;h9 323.60 128.0 64.40 14.0;h9 452.40 128.0 64.40 14.0;h9 581.20 128.0 64.40 14.0;h9 130.40 114.0 64.40 14.0;h9 259.20 114.0 64.40 14.0;h9 388.00 114.0 64.40 14.0;h9 516.80 114.0 64.40 14.0;h9 645.60 114.0 64.40 14.0;h1 66.00 100.0 644.00 14.0"
check legend-one-scale grep -qF 'One shade scale for A and B: the darkest cells hold 900 runs' "$H"
# Recordings of different lengths and clocks: one time axis, the longer recording's 20 s, each
# side from its own start. B's 10 intervals start 1000 s later on its clock, yet its first
# point sits where A's does (the middle of the first second, x = 66 + 0.5 x 644 / 20) and
# its last at 9.5 s (x = 66 + 9.5 x 644 / 20).
python3 $GEN bshort "$TMP/bs.lrec"
$LATTOP -r "$TMP/a.lrec" --compare "$TMP/bs.lrec" --html "$TMP/bs.html" 2>&1
expect_eq short-status $? 0
python3 tests/host/html_facts.py "$TMP/bs.html" >"$TMP/bs.facts"
check short-meta grep -qF '<tr><th>duration</th><td>20.00 s, 20 intervals</td><td>10.00 s, 10 intervals</td></tr>' "$TMP/bs.html"
expect_eq short-axis "$(fact "$TMP/bs.facts" text.1.cmppct | cut -d'|' -f4-)" "0s|3.33s|6.67s|10s|13.3s|16.7s|20s"
expect_eq short-a-line "$(fact "$TMP/bs.facts" linex.1.l50.la)" "82.1 693.9"
expect_eq short-b-line "$(fact "$TMP/bs.facts" linex.1.l50.lb)" "82.1 371.9"
expect_eq short-b-points "$(fact "$TMP/bs.facts" line.1.l50.lb)" 10
# The heatmaps too: the faint 8 us tail row spans all of A's axis (644 units), half for B.
expect_eq short-heat-tails "$(fact "$TMP/bs.facts" rects.1.cmpheat | tr ';' '\n' | grep '^h1 ' | paste -sd';')" \
	"h1 66.00 37.0 644.00 14.0;h1 66.00 100.0 322.00 14.0"

# The bootstrap's seed is fixed: a second report is the same bytes.
$LATTOP -r "$TMP/a.lrec" --compare "$TMP/b.lrec" --html "$TMP/ab2.html" 2>&1
check deterministic cmp -s "$H" "$TMP/ab2.html"

# Past HTML_MAX_SERIES (1000) series: all in the summary, the first 1000 with a section.
python3 tests/host/mkreport.py "$TMP/1001.lrec" 2 many 1001
$LATTOP -r "$TMP/1001.lrec" --compare "$TMP/1001.lrec" --html "$TMP/1001.html" 2>&1
expect_eq cap-status $? 0
python3 tests/host/html_facts.py "$TMP/1001.html" >"$TMP/1001.facts"
expect_eq cap-sections "$(fact "$TMP/1001.facts" sections)" 1000
expect_eq cap-pct-charts "$(fact "$TMP/1001.facts" charts.cmppct)" 1000
expect_eq cap-summary-rows "$(fact "$TMP/1001.facts" summary | tr '|' '\n' | grep -c '=unchanged$')" 1001
check cap-says grep -qF '<p class="note">The first 1000 series have a section; the summary lists 1 more.</p>' "$TMP/1001.html"
expect_eq cap-last-row "$(fact "$TMP/1001.facts" summary.1001)" "1001|p1001|program xdp|unchanged|100|100|+0.0%|+0.0%|+0.0%|+0.0%|+0.0%|+0.0%"
check cap-last-row-unlinked grep -qF '<td>1001</td><td class="name">p1001</td>' "$TMP/1001.html"
check cap-row-1000-linked grep -qF '<td>1000</td><td class="name"><a href="#s1000">p1000</a></td>' "$TMP/1001.html"

# Hostile names and host: text in the page, never markup; the document's title unchanged.
X=$TMP/x.html
$LATTOP -r "$TMP/xa.lrec" --compare "$TMP/xb.lrec" --html "$X" 2>&1
expect_eq hostile-status $? 0
python3 tests/host/html_facts.py "$X" >"$TMP/x.facts"
names="slow_prog|noisy|stats_prog|</title><script>document.title='PWNED'</script>|q\"uo'te&amp;<b>b</b>\\x1b[31m\\xffend|<img src=x onerror=document.title='PWNED'>|slow_prog: bpf_map_lookup_elem|rpc_span"
expect_eq hostile-utf8 "$(fact "$TMP/x.facts" utf8)" ok
expect_eq hostile-no-active "$(fact "$TMP/x.facts" active)" 0
expect_eq hostile-no-handler "$(fact "$TMP/x.facts" onattrs)" 0
expect_eq hostile-nothing-outside "$(fact "$TMP/x.facts" outside)" 0
expect_eq hostile-headings "$(fact "$TMP/x.facts" h2)" "$names"
expect_eq hostile-summary "$(fact "$TMP/x.facts" toc)" "$names"
check hostile-host-escaped grep -qF "<tr><th>host</th><td>&lt;script&gt;alert(&#39;host&#39;)&lt;/script&gt;</td><td>&lt;script&gt;alert(&#39;host&#39;)&lt;/script&gt;</td></tr>" "$X"
check hostile-no-raw-markup bash -c "! grep -aqE '<(img|script|b>)' '$X'"

# Chromium: the page as a browser builds and paints it.
if chrome_ready; then
	chrome --dump-dom "file://$H" >"$TMP/ab.dom"
	expect_eq dom-status $? 0
	python3 tests/host/html_facts.py "$TMP/ab.dom" >"$TMP/dom.facts"
	D=$TMP/dom.facts
	expect_eq dom-summary "$(fact "$D" summary)" "$order"
	expect_eq dom-slow "$(fact "$D" summary.1)" "$(fact "$F" summary.1)"
	expect_eq dom-groups "$(for i in $(seq 8); do fact "$D" "group.$i"; done | paste -sd'|')" "$groups"
	expect_eq dom-slow-heatmaps "$(fact "$D" rects.1.cmpheat)" "$(fact "$F" rects.1.cmpheat)"
	expect_eq dom-nothing-outside "$(fact "$D" outside)" 0
	chrome --dump-dom "file://$X" >"$TMP/x.dom"
	python3 tests/host/html_facts.py "$TMP/x.dom" >"$TMP/xdom.facts"
	expect_eq dom-hostile-headings "$(fact "$TMP/xdom.facts" h2)" "$names"
	expect_eq dom-hostile-no-active "$(fact "$TMP/xdom.facts" active)" 0
	expect_eq dom-hostile-no-handler "$(fact "$TMP/xdom.facts" onattrs)" 0
	expect_eq dom-hostile-title "$(fact "$TMP/xdom.facts" title)" "lattop comparison: $TMP/xa.lrec vs $TMP/xb.lrec"
	# Screenshots: not blank, light on a light scheme and dark on a dark one.
	page_painted "$H"
fi
end_suite
