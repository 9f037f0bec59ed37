// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * html_cmp.c - `lattop -r A --compare B --html OUT.html` (html_cmp.h): open B beside A and
 * compare them (cmp_view__open), order the rows, render the page in memory and write it as
 * the one-recording report does (html__write: a new file, mode 0600, nothing left on failure).
 * The charts are html_cmp_svg.c's. Every string from a recording goes through text__html.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/text.h"
#include "rec/replay.h"
#include "ui/columns.h"
#include "ui/html/html_cmp.h"

static const char *const stat_titles[CMP__NSTAT] = { "rate/s", "p50", "p95", "p99", "p99.9",
						     "max" };

/* Where a verdict's rows go on the page: slower first, unchanged last. */
static int group(enum cmp_status st)
{
	switch (st) {
	case CMP_SLOWER: return 0;
	case CMP_CHANGED: return 1;
	case CMP_FASTER: return 2;
	case CMP_ONLY_B: return 3;
	case CMP_ONLY_A: return 4;
	default: return 5;
	}
}

/* How far a row moved, to order a group: its largest significant change in percent (a rise
 * of a latency figure for a slower row, either way otherwise); a one-sided row's runs. */
static double weight(const struct cmp_row *r)
{
	double w = 0;

	if (r->status == CMP_ONLY_A || r->status == CMP_ONLY_B)
		return (double)(r->count_a + r->count_b);
	for (int st = r->status == CMP_SLOWER ? CMP_P50 : CMP_RATE; st < CMP__NSTAT; st++) {
		const struct cmp_fig *f = &r->f[st];
		double c = r->status == CMP_SLOWER ? f->change_pct : fabs(f->change_pct);

		if (f->significant && c > w)
			w = c;
	}
	return w;
}

/* A row's place: its group, its weight, its position among the rows (key order). */
struct rank {
	size_t i;
	int g;
	double w;
};

/* qsort: by group, then the heaviest first, then key order. */
static int by_rank(const void *pa, const void *pb)
{
	const struct rank *a = pa, *b = pb;

	if (a->g != b->g)
		return a->g - b->g;
	if (a->w != b->w)
		return a->w < b->w ? 1 : -1;
	return (a->i > b->i) - (a->i < b->i);
}

/* A side's block edges: ns from its first interval, nblocks + 1 of them; NULL on ENOMEM. */
static uint64_t *edges(const struct cmp_side *sd)
{
	uint64_t *e = calloc(sd->nblocks + 1, sizeof(*e));

	for (size_t b = 0; e && b < sd->nblocks; b++)
		e[b + 1] = e[b] + sd->block_ns[b];
	return e;
}

/* Set up hc for v. */
int html_cmp__init(struct html_cmp *hc, const struct cmp_view *v)
{
	size_t n = v->c.n;
	struct rank *rk = calloc(n ? n : 1, sizeof(*rk));

	memset(hc, 0, sizeof(*hc));
	hc->v = v;
	hist__init_empty(&hc->scratch);
	hc->order = calloc(n ? n : 1, sizeof(*hc->order));
	hc->edge[0] = edges(v->sa);
	hc->edge[1] = edges(v->sb);
	if (!rk || !hc->order || !hc->edge[0] || !hc->edge[1]) {
		free(rk);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		rk[i] = (struct rank){ i, group(v->c.rows[i].status), weight(&v->c.rows[i]) };
	if (n)
		qsort(rk, n, sizeof(*rk), by_rank);
	for (size_t i = 0; i < n; i++)
		hc->order[i] = rk[i].i;
	free(rk);
	hc->shown = n < HTML_MAX_SERIES ? n : HTML_MAX_SERIES;
	hc->t_ns = v->sa->dur_ns > v->sb->dur_ns ? v->sa->dur_ns : v->sb->dur_ns;
	hc->t_ns = hc->t_ns ? hc->t_ns : 1;
	return 0;
}

/* Free what hc holds. */
void html_cmp__fini(struct html_cmp *hc)
{
	free(hc->order);
	free(hc->edge[0]);
	free(hc->edge[1]);
	hist__fini(&hc->scratch);
	memset(hc, 0, sizeof(*hc));
}

/* A row's name and what tells it apart (a program's type, a helper's "map NAME"), raw bytes
 * as recorded: escape when writing. */
static void raw_labels(const struct cmp_row *r, char *name, size_t nlen, char *what,
		       size_t wlen)
{
	if (r->key.kind == LAT_EV_HELPER) {
		snprintf(name, nlen, "%s: %s", r->key.prog, r->key.name);
		snprintf(what, wlen, "map %s", r->key.sub[0] ? r->key.sub : "-");
	} else {
		snprintf(name, nlen, "%s", r->key.name);
		snprintf(what, wlen, "%s", r->key.type);
	}
}

/* A verdict as the page says it. */
static const char *verdict(enum cmp_status st)
{
	return st == CMP_ONLY_A ? "only in A" : st == CMP_ONLY_B ? "only in B"
								 : compare__status_name(st);
}

/* The rows of the metadata table. */
enum { M_FILE, M_HOST, M_KERNEL, M_WHEN, M_DUR, M_MODE, M_SOURCE, M_LOSS, M_NOTICE, M__N };
static const char *const meta_names[M__N] = { "file",	"host",	  "kernel", "recorded", "duration",
					      "mode",	"source", "losses", "notice" };

/* One side's metadata: m[i] points into the replay or into buf. */
static void side_meta(struct session *s, const struct cmp_side *sd, const char *m[M__N],
		      char buf[M__N][160])
{
	struct replay *rp = session__replay(s);
	const struct rec_file *rf = replay__file(rp);
	time_t t = (time_t)(replay__wall_ns(rp, rf->nivals ? rec__ival_start(rf, 0) : 0) /
			    1000000000ull);
	const struct model_counters *c = &s->m->c_cum;
	struct tm tm;

	for (int i = 0; i < M__N; i++)
		m[i] = buf[i];
	m[M_FILE] = replay__path(rp);
	m[M_HOST] = replay__host(rp);
	m[M_KERNEL] = replay__kernel(rp);
	snprintf(buf[M_WHEN], sizeof(buf[M_WHEN]), "?");
	if (gmtime_r(&t, &tm))
		strftime(buf[M_WHEN], sizeof(buf[M_WHEN]), "%Y-%m-%d %H:%M:%S UTC", &tm);
	snprintf(buf[M_DUR], sizeof(buf[M_DUR]), "%.2f s, %zu intervals", sd->dur_ns / 1e9,
		 sd->added);
	m[M_MODE] = rec__meta_str(rf, "mode");
	m[M_SOURCE] = model__source(s->m, buf[M_SOURCE], sizeof(buf[M_SOURCE]));
	snprintf(buf[M_LOSS], sizeof(buf[M_LOSS]),
		 "ringbuf %" PRIu64 ", queue %" PRIu64 ", recursion %" PRIu64 ", nest %" PRIu64
		 ", frames lost %" PRIu64,
		 c->rb_drops, c->queue_drops, c->recursion, c->nest,
		 model__counter(s->m, NULL, "lost_frames", true));
	m[M_NOTICE] = model__notice(s->m);
}

/* Both recordings' metadata side by side. */
static void page_meta(FILE *f, const struct cmp_view *v)
{
	const char *m[2][M__N];
	char buf[2][M__N][160];

	side_meta(v->a, v->sa, m[0], buf[0]);
	side_meta((struct session *)&v->b, v->sb, m[1], buf[1]);
	fputs("<table class=\"meta\">\n<tr><th></th><th>A (before)</th><th>B (after)</th></tr>\n",
	      f);
	for (int i = 0; i < M__N; i++) {
		if (i == M_NOTICE && !m[0][i][0] && !m[1][i][0])
			continue;
		fprintf(f, "<tr><th>%s</th>", meta_names[i]);
		for (int b = 0; b < 2; b++) {
			fputs("<td>", f);
			text__html(f, m[b][i]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("<tr><th>written by</th><td colspan=\"2\">lattop " LATTOP_VERSION "</td></tr>\n"
	      "</table>\n",
	      f);
}

/* The verdicts' tally and what "significant" means. */
static void page_tally(FILE *f, const struct html_cmp *hc)
{
	const struct compare *c = &hc->v->c;
	size_t cnt[CMP__NSTATUS] = { 0 };

	for (size_t i = 0; i < c->n; i++)
		cnt[c->rows[i].status]++;
	fprintf(f,
		"<p class=\"sum\" id=\"tally\">series: %zu slower, %zu faster, %zu changed, %zu "
		"unchanged, %zu only in A, %zu only in B</p>\n",
		cnt[CMP_SLOWER], cnt[CMP_FASTER], cnt[CMP_CHANGED], cnt[CMP_UNCHANGED],
		cnt[CMP_ONLY_A], cnt[CMP_ONLY_B]);
	fprintf(f,
		"<p class=\"note\">Changes go from A to B. A change marked * is significant: "
		"beyond the bucket error (&plusmn;%.2f%% for p50 .. p99.9; the rate is exact) and "
		"beyond the sampling noise (%.0f standard deviations of the change over %d "
		"bootstrap draws of each recording's intervals, fixed seed). The max, one run, is "
		"never significant.</p>\n",
		c->bucket_err_pct, CMP_NOISE_Z, CMP_RESAMPLES);
	if (hc->shown < c->n)
		fprintf(f, "<p class=\"note\">The first %zu series have a section; the summary "
			   "lists %zu more.</p>\n",
			hc->shown, c->n - hc->shown);
}

/* A change cell: the change ('*' significant), a significant latency change classed for
 * colour (up or down), A and B in its title. */
static void change_cell(FILE *f, const struct cmp_row *r, int st)
{
	const struct cmp_fig *fg = &r->f[st];
	char chg[32], a[32], b[32];

	cmp_view__fmt_change(fg, chg, sizeof(chg));
	cmp_view__fmt((enum cmp_stat)st, fg->has_a, fg->a, a, sizeof(a));
	cmp_view__fmt((enum cmp_stat)st, fg->has_b, fg->b, b, sizeof(b));
	fprintf(f, "<td class=\"chg%s\" title=\"A %s, B %s\">%s</td>",
		!fg->significant     ? ""
		: st == CMP_RATE     ? " sig" /* more runs are neither better nor worse */
		: fg->change_pct > 0 ? " sig up"
				     : " sig down",
		a, b, chg);
}

/* A count cell ("-" for a side without the series, or without a count of it). */
static void count_cell(FILE *f, bool has, uint64_t n)
{
	char buf[32];

	fmt_count(n, buf, sizeof(buf));
	fprintf(f, "<td>%s</td>", has ? buf : "-");
}

/* One line of the summary: the row in page place i, linked to its section when it has one. */
static void summary_row(FILE *f, const struct html_cmp *hc, size_t i)
{
	const struct cmp_row *r = &hc->v->c.rows[hc->order[i]];
	char name[160], what[64];

	raw_labels(r, name, sizeof(name), what, sizeof(what));
	fprintf(f, "<tr class=\"%s\"><td>%zu</td><td class=\"name\">",
		compare__status_name(r->status), i + 1);
	if (i < hc->shown)
		fprintf(f, "<a href=\"#s%zu\">", i + 1);
	text__html(f, name);
	fprintf(f, "%s</td><td class=\"name\">%s%s", i < hc->shown ? "</a>" : "",
		html__kind_name(r->key.kind), what[0] ? " " : "");
	text__html(f, what);
	fprintf(f, "</td><td class=\"txt verdict %s\">%s</td>", compare__status_name(r->status),
		verdict(r->status));
	count_cell(f, r->has_count_a, r->count_a);
	count_cell(f, r->has_count_b, r->count_b);
	for (int st = 0; st < CMP__NSTAT; st++)
		change_cell(f, r, st);
	fputs("</tr>\n", f);
}

/* The summary: every row in page order, also the page's table of contents. */
static void page_summary(FILE *f, const struct html_cmp *hc)
{
	fputs("<nav class=\"toc\">\n<h2 id=\"summary\">Summary, largest slow-downs first</h2>\n"
	      "<table class=\"summary\">\n<tr><th>#</th><th class=\"name\">series</th>"
	      "<th class=\"name\">kind</th><th class=\"txt\">verdict</th><th>runs A</th><th>runs B</th>",
	      f);
	for (int st = 0; st < CMP__NSTAT; st++)
		fprintf(f, "<th>%s</th>", stat_titles[st]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < hc->v->c.n; i++)
		summary_row(f, hc, i);
	fputs("</table>\n</nav>\n", f);
}

/* One side's line of a section's figures table. */
static void figs_side(FILE *f, const struct cmp_row *r, bool b)
{
	char buf[32];

	fprintf(f, "<tr><th>%s</th>", b ? "B (after)" : "A (before)");
	count_cell(f, b ? r->has_count_b : r->has_count_a, b ? r->count_b : r->count_a);
	for (int st = 0; st < CMP__NSTAT; st++) {
		const struct cmp_fig *fg = &r->f[st];

		cmp_view__fmt((enum cmp_stat)st, b ? fg->has_b : fg->has_a, b ? fg->b : fg->a, buf,
			      sizeof(buf));
		fprintf(f, "<td>%s</td>", buf);
	}
	fputs("</tr>\n", f);
}

/* A section's figures: A, B, and for a matched row the change and the noise. */
static void figs_table(FILE *f, const struct cmp_row *r)
{
	fputs("<table class=\"figs\">\n<tr><th></th><th>runs</th>", f);
	for (int st = 0; st < CMP__NSTAT; st++)
		fprintf(f, "<th>%s</th>", stat_titles[st]);
	fputs("</tr>\n", f);
	figs_side(f, r, false);
	figs_side(f, r, true);
	if (!r->sa || !r->sb) {
		fputs("</table>\n", f);
		return;
	}
	fputs("<tr><th>change</th><td></td>", f);
	for (int st = 0; st < CMP__NSTAT; st++)
		change_cell(f, r, st);
	fputs("</tr>\n<tr><th>noise</th><td></td>", f);
	for (int st = 0; st < CMP__NSTAT; st++) {
		const struct cmp_fig *fg = &r->f[st];

		if (!fg->has_change || isinf(fg->noise_pct))
			fputs("<td>-</td>", f);
		else if (fg->noise_pct >= 1000)
			fputs("<td>&plusmn;&gt;999%</td>", f);
		else
			fprintf(f, "<td>&plusmn;%.1f%%</td>", fg->noise_pct);
	}
	fputs("</tr>\n</table>\n", f);
}

/* The section of the row in page place i: heading, figures, both sides' charts. */
static void page_row(FILE *f, struct html_cmp *hc, size_t i)
{
	const struct cmp_row *r = &hc->v->c.rows[hc->order[i]];
	char name[160], what[64], title[240];

	raw_labels(r, name, sizeof(name), what, sizeof(what));
	snprintf(title, sizeof(title), "%s%s%s%s", name, what[0] ? " (" : "", what,
		 what[0] ? ")" : "");
	fprintf(f, "<section class=\"series %s\" id=\"s%zu\" data-verdict=\"%s\">\n<h2>%zu. ",
		r->sa && r->sb ? "cmp" : "only", i + 1, compare__status_name(r->status), i + 1);
	text__html(f, name);
	fprintf(f, "</h2>\n<p class=\"sum\"><a href=\"#summary\">summary</a> &middot; %s ",
		html__kind_name(r->key.kind));
	text__html(f, what[0] ? what : "-");
	fprintf(f, " &middot; <span class=\"verdict %s\">%s</span></p>\n",
		compare__status_name(r->status), verdict(r->status));
	figs_table(f, r);
	fputs("<div class=\"charts\">\n", f);
	html_cmp_svg__pct(f, hc, r, title);
	html_cmp_svg__heat(f, hc, r, title);
	html_cmp_svg__hist(f, r, title);
	fputs("</div>\n</section>\n", f);
}

/* Write the comparison page to f. */
void html_cmp__page(FILE *f, struct html_cmp *hc)
{
	const struct cmp_view *v = hc->v;

	html_page__open(f, "lattop comparison", replay__path(session__replay(v->a)),
			replay__path(session__replay((struct session *)&v->b)));
	page_meta(f, v);
	page_tally(f, hc);
	page_summary(f, hc);
	for (size_t i = 0; i < hc->shown; i++)
		page_row(f, hc, i);
	fputs("</body>\n</html>\n", f);
}

/* Write the comparison report of A and B to s->o->html. */
int html_cmp__run(struct session *s, volatile sig_atomic_t *stop)
{
	static struct html_cmp hc;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *mem = NULL;
	int ret;
	struct cmp_view *v = cmp_view__open(s, &ret, err, sizeof(err));

	if (!v) {
		text__line(stderr, "lattop: ", err);
		return ret;
	}
	if (*stop) {
		cmp_view__free(v);
		return EXIT_RUNTIME;
	}
	ret = EXIT_RUNTIME;
	if (!html_cmp__init(&hc, v))
		mem = open_memstream(&buf, &len);
	if (mem) {
		html_cmp__page(mem, &hc);
		ret = fclose(mem) ? EXIT_RUNTIME : EXIT_OK;
	}
	html_cmp__fini(&hc);
	cmp_view__free(v);
	return html__emit(s->o->html, buf, len, ret == EXIT_OK);
}
