// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * html_page.c - the HTML report's page around the charts: the style sheet (light, dark and
 * print), the recording's metadata, the losses, a table of contents sorted by p99, and one
 * section per series. Nothing is fetched: no script, no font, no image, and a
 * Content-Security-Policy that forbids loading anything should a string ever slip through.
 * Every string from the recording goes through text__html.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "base/text.h"
#include "ui/columns.h"
#include "ui/html/html.h"

/* The style sheet: colours as variables, overridden for dark mode and again for print. */
static const char style[] =
	":root{color-scheme:light dark;--bg:#fff;--fg:#1d1d1f;--mut:#5f6368;--grid:#dcdcdc;"
	"--c50:#1f6fb4;--c99:#c62828;--c999:#7b3fb0;--cmax:#444;--cavg:#2e7d32;--heat:#d84a05;"
	"--bar:#3b7dd8;--lq:#ef6c00;--lrec:#6a1b9a;--lnest:#00838f;--lnamed:#795548}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#15171b;--fg:#e4e4e4;--mut:#a0a6ad;"
	"--grid:#33373d;--c50:#6cb6ff;--c99:#ff7b72;--c999:#d2a8ff;--cmax:#c9c9c9;"
	"--cavg:#7ee787;--heat:#ffa657;--bar:#6cb6ff;--lq:#ffb74d;--lrec:#ce93d8;"
	"--lnest:#80deea;--lnamed:#bcaaa4}}\n"
	"body{background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,sans-serif;"
	"max-width:1000px;margin:1.5em auto;padding:0 1em}\n"
	"h1{font-size:1.5em}h2{font-size:1.15em;margin:.2em 0;overflow-wrap:anywhere}\n"
	"a{color:var(--c50)}\n"
	"table{border-collapse:collapse;margin:.5em 0}th,td{padding:2px 8px;text-align:right;"
	"border-bottom:1px solid var(--grid)}th{font-weight:600}\n"
	"td.name,th.name,table.meta td,table.meta th{text-align:left;overflow-wrap:anywhere}\n"
	"table.meta th{white-space:nowrap;vertical-align:top}td{white-space:nowrap}"
	"td.name,table.meta td{white-space:normal}\n"
	"svg.chart{display:block;width:100%;height:auto;margin:.4em 0}\n"
	".tick{font:11px system-ui,sans-serif;fill:var(--mut)}\n"
	".grid{stroke:var(--grid)}.axis{stroke:var(--mut)}\n"
	".line{fill:none;stroke-width:1.8;stroke-linejoin:round;stroke-linecap:round}\n"
	".trace{fill:none;stroke-width:1.4;stroke-dasharray:4 2;stroke-linecap:round}\n"
	".l50{stroke:var(--c50)}.l99{stroke:var(--c99)}.l999{stroke:var(--c999)}"
	".lmax{stroke:var(--cmax)}.lavg{stroke:var(--cavg)}\n"
	".lrb{stroke:var(--c99)}.lq{stroke:var(--lq)}.lrec{stroke:var(--lrec)}"
	".lnest{stroke:var(--lnest)}.lnamed{stroke:var(--lnamed)}\n"
	".h1,.h2,.h3,.h4,.h5,.h6,.h7,.h8,.h9{fill:var(--heat)}.h1{fill-opacity:.14}"
	".h2{fill-opacity:.24}.h3{fill-opacity:.34}.h4{fill-opacity:.44}.h5{fill-opacity:.54}"
	".h6{fill-opacity:.64}.h7{fill-opacity:.76}.h8{fill-opacity:.88}.h9{fill-opacity:1}\n"
	".bar{fill:var(--bar)}.fired{stroke:var(--c99);stroke-width:2;stroke-dasharray:6 3}\n"
	".la{stroke-dasharray:5 3}.bara{fill:var(--mut)}.barb{fill:var(--bar)}\n"
	"td.txt,th.txt{text-align:left}nav.toc{overflow-x:auto}"
	"table.summary{font-size:12px}table.summary td,table.summary th{padding:2px 4px}"
	"table.summary td.name{min-width:7em}td.sig{font-weight:600}\n"
	"td.sig.up,.verdict.slower{color:var(--c99);font-weight:600}"
	"td.sig.down,.verdict.faster{color:var(--cavg);font-weight:600}\n"
	".key{display:inline-block;width:1.4em;height:.25em;vertical-align:middle;"
	"margin:0 .3em 0 .9em}\n"
	".legend,.sum,.note{color:var(--mut);margin:.2em 0}\n"
	"section.series{border-top:1px solid var(--grid);padding-top:.6em;margin-top:1.2em;"
	"content-visibility:auto;contain-intrinsic-size:auto 760px}\n"
	"@media print{:root{--bg:#fff;--fg:#000;--mut:#333;--grid:#bbb;--c50:#1f6fb4;"
	"--c99:#c62828;--c999:#7b3fb0;--cmax:#444;--cavg:#2e7d32;--heat:#d84a05;--bar:#3b7dd8}"
	"body{max-width:none;margin:0}*{-webkit-print-color-adjust:exact;"
	"print-color-adjust:exact}section.series{break-inside:avoid;content-visibility:visible}"
	"nav a{color:inherit;text-decoration:none}}\n";

/* The kind of a series, as the report names it. */
const char *html__kind_name(uint16_t kind)
{
	return kind == LAT_EV_PROG ? "program" : kind == LAT_EV_HELPER ? "helper" : "span";
}

/* A percentile cell of a table: the value, or "-" where the series has no distribution. */
static void ns_cell(FILE *f, bool has, uint64_t v)
{
	char buf[32];

	if (has)
		fmt_ns((double)v, buf, sizeof(buf));
	fprintf(f, "<td>%s</td>", has ? buf : "-");
}

/* One row of the metadata table: a label and text from the recording (escaped). */
static void meta_row(FILE *f, const char *label, const char *text)
{
	fprintf(f, "<tr><th>%s</th><td>", label);
	text__html(f, text);
	fputs("</td></tr>\n", f);
}

/* The head of the page and its <h1>, both naming what the page shows. */
void html_page__open(FILE *f, const char *what, const char *a, const char *b)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"color-scheme\" content=\"light dark\">\n",
	      f);
	for (int h1 = 0; h1 < 2; h1++) {
		fprintf(f, "<%s>%s: ", h1 ? "h1" : "title", what);
		text__html(f, a);
		if (b) {
			fputs(" vs ", f);
			text__html(f, b);
		}
		fprintf(f, "</%s>\n", h1 ? "h1" : "title");
		if (!h1)
			fprintf(f, "<style>\n%s</style>\n</head>\n<body>\n", style);
	}
}

/* The head of the page, its title naming the recording, and the metadata table. */
static void page_head(FILE *f, const struct html_data *d)
{
	time_t t = (time_t)(d->start_wall_ns / 1000000000ull);
	char when[64] = "?", buf[96];
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	html_page__open(f, "lattop report", d->path, NULL);
	fputs("<table class=\"meta\">\n", f);
	meta_row(f, "host", d->host);
	meta_row(f, "kernel", d->kernel);
	meta_row(f, "recorded", when);
	snprintf(buf, sizeof(buf), "%.2f s, %zu intervals of %.3g s (%zu per chart column)",
		 d->duration_ns / 1e9, d->nivals, d->interval_ns / 1e9, d->per_col);
	meta_row(f, "duration", buf);
	meta_row(f, "mode", d->mode);
	meta_row(f, "source", d->source);
	if (d->notice[0])
		meta_row(f, "notice", d->notice);
	if (d->damage[0])
		meta_row(f, "damage", d->damage);
	if (d->dumped)
		meta_row(f, "flight dump", d->dump);
	snprintf(buf, sizeof(buf), "%zu shown, %zu without runs (or outside -p), %zu more not shown",
		 d->nser, d->idle, d->hidden);
	meta_row(f, "series", buf);
	meta_row(f, "written by", "lattop " LATTOP_VERSION);
	fputs("</table>\n", f);
}

/* The losses: totals over the recording and the chart over time. */
static void page_losses(FILE *f, const struct html_data *d)
{
	const struct model_counters *c = &d->totals;
	uint64_t named = 0;

	for (size_t k = 0; k < d->ncols; k++)
		named += d->loss[k][HL_NAMED];
	fprintf(f,
		"<h2 id=\"losses\">Losses</h2>\n<p class=\"sum\">ringbuf %" PRIu64
		", queue %" PRIu64 ", recursion %" PRIu64 ", nest %" PRIu64
		", named loss counters %" PRIu64 " (frames lost %" PRIu64 "), events %" PRIu64
		"</p>\n",
		c->rb_drops, c->queue_drops, c->recursion, c->nest, named, d->lost_frames,
		c->events);
	html_svg__losses(f, d);
	fputs("<p class=\"legend\"><span class=\"key\" style=\"background:var(--c99)\"></span>"
	      "ringbuf<span class=\"key\" style=\"background:var(--lq)\"></span>queue"
	      "<span class=\"key\" style=\"background:var(--lrec)\"></span>recursion"
	      "<span class=\"key\" style=\"background:var(--lnest)\"></span>nest"
	      "<span class=\"key\" style=\"background:var(--lnamed)\"></span>named loss counters"
	      "</p>\n",
	      f);
}

/* The table of contents: every series shown, by p99, with its whole-recording figures. */
static void page_toc(FILE *f, const struct html_data *d)
{
	char buf[32];

	fputs("<nav class=\"toc\">\n<h2 id=\"series\">Series by p99</h2>\n<table>\n<tr><th>#</th>"
	      "<th class=\"name\">series</th><th class=\"name\">kind</th><th>ID</th><th>runs</th>"
	      "<th>p50</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n",
	      f);
	for (size_t i = 0; i < d->nser; i++) {
		const struct html_series *se = &d->ser[i];
		bool dist = se->total.has_dist;

		fprintf(f, "<tr><td>%zu</td><td class=\"name\"><a href=\"#s%zu\">", i + 1, i + 1);
		text__html(f, se->title);
		fprintf(f, "</a></td><td class=\"name\">%s</td><td>%u</td>", html__kind_name(se->kind),
			se->id);
		fmt_count(se->total.count, buf, sizeof(buf));
		fprintf(f, "<td>%s</td>", buf);
		ns_cell(f, dist, se->total.p50);
		ns_cell(f, dist, se->total.p99);
		ns_cell(f, dist, se->total.p999);
		ns_cell(f, dist, se->total.max);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n</nav>\n", f);
}

/* One series' section: heading, whole-recording figures, the three charts. */
static void page_series(FILE *f, const struct html_data *d, size_t i)
{
	const struct html_series *se = &d->ser[i];
	const struct row *t = &se->total;
	char cnt[32], p[4][32];

	fmt_count(t->count, cnt, sizeof(cnt));
	fmt_ns((double)t->p50, p[0], sizeof(p[0]));
	fmt_ns((double)t->p99, p[1], sizeof(p[1]));
	fmt_ns((double)t->p999, p[2], sizeof(p[2]));
	fmt_ns((double)t->max, p[3], sizeof(p[3]));
	fprintf(f, "<section class=\"series\" id=\"s%zu\">\n<h2>%zu. ", i + 1, i + 1);
	text__html(f, se->title);
	fprintf(f, "</h2>\n<p class=\"sum\"><a href=\"#series\">contents</a> &middot; %s %u, type ",
		html__kind_name(se->kind), se->id);
	text__html(f, se->type[0] ? se->type : "-");
	fprintf(f, ", source %s: %s runs", se->source ? se->source : "?", cnt);
	if (t->has_dist)
		fprintf(f, ", p50 %s, p99 %s, p99.9 %s, max %s", p[0], p[1], p[2], p[3]);
	fputs("</p>\n", f);
	html_svg__pct(f, d, se);
	if (t->has_dist)
		fputs("<p class=\"legend\"><span class=\"key\" style=\"background:var(--c50)\">"
		      "</span>p50<span class=\"key\" style=\"background:var(--c99)\"></span>p99"
		      "<span class=\"key\" style=\"background:var(--c999)\"></span>p99.9"
		      "<span class=\"key\" style=\"background:var(--cmax)\"></span>max</p>\n",
		      f);
	else if (t->has_rate)
		fputs("<p class=\"note\">No per-invocation latency in this recording (bpf_stats "
		      "counts and run time): the line is the average run time.</p>\n",
		      f);
	else
		fputs("<p class=\"note\">No figures in this recording: bpf_stats was off "
		      "(--no-stats) and no probes measured it.</p>\n",
		      f);
	html_svg__heat(f, d, se);
	html_svg__hist(f, se);
	fputs("</section>\n", f);
}

/* Write the report page of d to f. */
void html__page(FILE *f, const struct html_data *d)
{
	page_head(f, d);
	page_losses(f, d);
	page_toc(f, d);
	for (size_t i = 0; i < d->nser; i++)
		page_series(f, d, i);
	fputs("</body>\n</html>\n", f);
}
