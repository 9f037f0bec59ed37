#!/usr/bin/env python3
# Print facts about an HTML report (the file lattop wrote, or the DOM Chromium dumped from it),
# one "KEY<TAB>VALUE" line each, for tests/host/t_html.sh to compare:
#   utf8            "ok" when the bytes are valid UTF-8
#   title           the document's <title> text
#   sections        <section class="series"> elements
#   charts.CLS      <svg class="chart CLS"> elements (pct, heat, hist, losses)
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
        self.text_into = None

    def handle_data(self, data):
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


main()
