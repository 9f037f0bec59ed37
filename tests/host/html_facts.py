#!/usr/bin/env python3
# Print facts about an HTML report (the file lattop wrote, or the DOM Chromium dumped from it),
# one "KEY<TAB>VALUE" line each, for tests/host/t_html.sh to compare:
#   utf8            "ok" when the bytes are valid UTF-8
#   title           the document's <title> text
#   sections        <section class="series"> elements
#   charts.CLS      <svg class="chart CLS"> elements (pct, heat, hist, losses always; others
#                   when there are any: cmppct, cmpheat, cmphist)
#   pct_titles      the <title>s of the percentile charts, "|"-separated, in page order
#   h2              the series headings' text, "|"-separated
#   toc             the table of contents' series names, "|"-separated
#   outside         src/href/... attribute values not starting with "#", and url(...) in styles
#   active          elements that run or fetch something: script, img, iframe, link, object,
#                   embed, audio, video, source, image, use, foreignObject
#   onattrs         attributes whose name starts with "on" (event handlers)
#   heat.N          series N's heatmap rectangles, "class x y width height" ";"-separated
#   histtext.N      series N's histogram labels and counts, "|"-separated
#   line.N.CLS      points ("M"/"L" commands) of series N's percentile line CLS
#   losstext        the losses paragraph's text
# and of a comparison's report (--compare):
#   summary         the summary table's rows, "series=verdict" "|"-separated, in page order
#   summary.N       row N's cells, "|"-separated
#   group.N         section N's class (cmp, only), verdict and its charts' classes:
#                   "cmp slower cmppct,cmpheat,cmphist"
#   rects.N.CLS     section N's rectangles in chart CLS, "class x y width height" ";"-separated
#   text.N.CLS      section N's text in chart CLS, "|"-separated
#   line.N.CLS.SIDE points of section N's comparison line CLS of side la (A) or lb (B)
#   linex.N.CLS.SIDE the x of that line's first and last point
#
#   tests/host/html_facts.py FILE
import re, sys
from html.parser import HTMLParser

URL_ATTRS = {"src", "href", "xlink:href", "action", "formaction", "srcset", "poster", "data",
             "background", "ping", "cite", "longdesc", "manifest", "codebase"}
ACTIVE = {"script", "img", "iframe", "link", "object", "embed", "audio", "video", "source",
          "image", "use", "foreignobject", "frame", "base", "meta-refresh"}


class Facts(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.f = [], {"sections": 0, "outside": 0, "active": 0, "onattrs": 0}
        self.pct, self.h2, self.toc, self.title = [], [], [], ""
        self.charts = {}
        self.text_into = None
        self.series = 0      # current series section (1-based), 0 outside
        self.chart = None    # class of the chart being read
        self.heat, self.hist, self.lines = {}, {}, {}
        self.in_toc = False
        self.losstext = ""
        self.in_sum, self.sum_rows, self.sum_cell = False, [], None
        self.groups, self.rects, self.ctext, self.linex = {}, {}, {}, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        for k, v in attrs:
            if k in URL_ATTRS and not (v or "").startswith("#"):
                self.f["outside"] += 1
            if k.startswith("on"):
                self.f["onattrs"] += 1
            if k == "style" and "url(" in (v or ""):
                self.f["outside"] += 1
        if tag in ACTIVE or (tag == "meta" and (a.get("http-equiv") or "").lower() == "refresh"):
            self.f["active"] += 1
        if tag == "section" and "series" in cls:
            self.f["sections"] += 1
            self.series = self.f["sections"]
            if "cmp" in cls or "only" in cls:
                self.groups[self.series] = [cls[1], a.get("data-verdict", ""), []]
        if tag == "table" and "summary" in cls:
            self.in_sum = True
        if tag == "tr" and self.in_sum:
            self.sum_rows.append([a.get("class", "")])
        if tag == "td" and self.in_sum and self.sum_rows:
            self.sum_rows[-1].append("")
            self.sum_cell = self.sum_rows[-1]
        if tag == "svg" and "chart" in cls and self.series in self.groups:
            self.groups[self.series][2].append(cls[1] if len(cls) > 1 else "?")
        if tag == "rect" and self.chart and self.chart.startswith("cmp"):
            self.rects.setdefault((self.series, self.chart), []).append(
                " ".join([a.get("class", "")] + [a.get(k, "") for k in ("x", "y", "width", "height")]))
        if tag == "path" and self.chart == "cmppct":
            key = ".".join(c for c in cls if c != "line")
            self.lines[(self.series, key)] = len(re.findall(r"[ML]", a.get("d", "")))
            xs = re.findall(r"[ML]([0-9.]+) ", a.get("d", ""))
            self.linex[(self.series, key)] = "%s %s" % (xs[0], xs[-1]) if xs else ""
        if tag == "nav":
            self.in_toc = True
        if tag == "svg" and "chart" in cls:
            self.chart = cls[1] if len(cls) > 1 else "?"
            self.charts[self.chart] = self.charts.get(self.chart, 0) + 1
        if tag == "rect" and self.chart == "heat":
            self.heat.setdefault(self.series, []).append(
                " ".join([a.get("class", "")] + [a.get(k, "") for k in ("x", "y", "width", "height")]))
        if tag == "path" and self.chart == "pct":
            for c in cls:
                if c.startswith("l") and c != "line":
                    self.lines[(self.series, c)] = len(re.findall(r"[ML]", a.get("d", "")))
        self.stack.append(tag)
        self.text_into = None
        if tag == "title" and self.chart == "pct":
            self.text_into = self.pct
        elif tag == "title" and not self.chart and "head" in self.stack:
            self.text_into = "doc"
        elif tag == "h2" and self.series:
            self.text_into = self.h2
        elif tag == "a" and self.in_toc:
            self.text_into = self.toc
        elif tag == "text" and self.chart == "hist":
            self.text_into = self.hist.setdefault(self.series, [])
        elif tag == "text" and self.chart and self.chart.startswith("cmp"):
            self.text_into = self.ctext.setdefault((self.series, self.chart), [])
        elif tag == "p" and "sum" in cls and not self.series and not self.in_toc:
            self.text_into = "loss"
        if isinstance(self.text_into, list):
            self.text_into.append("")

    def handle_endtag(self, tag):
        while self.stack:
            t = self.stack.pop()
            if t == tag:
                break
        if tag == "svg":
            self.chart = None
        if tag == "nav":
            self.in_toc = False
        if tag == "table":
            self.in_sum = False
        if tag == "td":
            self.sum_cell = None
        self.text_into = None

    def handle_data(self, data):
        if self.sum_cell is not None:
            self.sum_cell[-1] += data
        if self.text_into == "doc":
            self.title += data
        elif self.text_into == "loss":
            self.losstext += data
        elif isinstance(self.text_into, list):
            self.text_into[-1] += data


def main():
    raw = open(sys.argv[1], "rb").read()
    try:
        text = raw.decode("utf-8")
        print("utf8\tok")
    except UnicodeDecodeError as e:
        print("utf8\t%s" % e)
        text = raw.decode("utf-8", "replace")
    p = Facts()
    p.feed(text)
    p.close()
    for k, v in p.f.items():
        print("%s\t%s" % (k, v))
    print("title\t%s" % p.title)
    for k in ("pct", "heat", "hist", "losses"):
        print("charts.%s\t%d" % (k, p.charts.get(k, 0)))
    for k in sorted(set(p.charts) - {"pct", "heat", "hist", "losses"}):
        print("charts.%s\t%d" % (k, p.charts[k]))
    print("pct_titles\t%s" % "|".join(p.pct))
    print("h2\t%s" % "|".join(re.sub(r"^\d+\. ", "", h) for h in p.h2))
    print("toc\t%s" % "|".join(p.toc))
    for n, rects in p.heat.items():
        print("heat.%d\t%s" % (n, ";".join(rects)))
    for n, texts in p.hist.items():
        print("histtext.%d\t%s" % (n, "|".join(texts)))
    for (n, c), pts in p.lines.items():
        print("line.%d.%s\t%d" % (n, c, pts))
    print("losstext\t%s" % p.losstext)
    rows = [r for r in p.sum_rows if len(r) > 2]
    print("summary\t%s" % "|".join("%s=%s" % (r[2], r[0]) for r in rows))
    for n, r in enumerate(rows, 1):
        print("summary.%d\t%s" % (n, "|".join(r[1:])))
    for n, (c, v, charts) in p.groups.items():
        print("group.%d\t%s %s %s" % (n, c, v, ",".join(charts)))
    for (n, c), rects in p.rects.items():
        print("rects.%d.%s\t%s" % (n, c, ";".join(rects)))
    for (n, c), xs in p.linex.items():
        print("linex.%d.%s\t%s" % (n, c, xs))
    for (n, c), texts in p.ctext.items():
        print("text.%d.%s\t%s" % (n, c, "|".join(texts)))


main()
