// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmpview.c - `lattop -r A --compare B` as every front end holds it: open B next to A, compare
 * them (model/compare.h), and the labels and figures the comparison's text, TUI and HTML
 * reports all print.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/text.h"
#include "rec/replay.h"
#include "session/compare_src.h"
#include "ui/cmpview.h"
#include "ui/columns.h"

/* Open B next to A and compare them. */
struct cmp_view *cmp_view__open(struct session *a, int *status, char *err, size_t errlen)
{
	struct cmp_view *v = calloc(1, sizeof(*v));

	*status = EXIT_RUNTIME;
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	v->a = a;
	*status = session__open_compare(a, &v->b, &v->ob, err, errlen);
	if (*status != EXIT_OK)
		goto fail;
	*status = EXIT_RUNTIME;
	if (session__compare_side(a, &v->sa) || session__compare_side(&v->b, &v->sb) ||
	    compare__run(&v->c, v->sa, v->sb)) {
		snprintf(err, errlen, "out of memory comparing %.200s with %.200s", a->o->replay,
			 v->ob.replay);
		goto fail;
	}
	*status = EXIT_OK;
	return v;
fail:
	cmp_view__free(v);
	return NULL;
}

/* Close B and free the comparison. */
void cmp_view__free(struct cmp_view *v)
{
	if (!v)
		return;
	compare__fini(&v->c);
	cmp_side__free(v->sa);
	cmp_side__free(v->sb);
	if (v->b.src)
		session__close(&v->b);
	free(v);
}

/* A figure's value for humans. */
void cmp_view__fmt(enum cmp_stat st, bool has, double v, char *buf, size_t len)
{
	if (!has)
		snprintf(buf, len, "-");
	else if (st == CMP_RATE)
		fmt_rate(v, buf, len);
	else
		fmt_ns(v, buf, len);
}

/* A change for humans. */
void cmp_view__fmt_change(const struct cmp_fig *f, char *buf, size_t len)
{
	if (!f->has_change)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%%s", f->change_pct, f->significant ? "*" : "");
}

/* A row's two labels, in visible form. */
void cmp_view__labels(const struct cmp_row *r, char *name, size_t nlen, char *what,
		      size_t wlen)
{
	char raw[sizeof(r->key.prog) + sizeof(r->key.name) + 4];

	if (r->key.kind == LAT_EV_HELPER) {
		snprintf(raw, sizeof(raw), "%s: %s", r->key.prog, r->key.name);
		text__esc(name, nlen, raw);
		snprintf(raw, sizeof(raw), "map %s", r->key.sub[0] ? r->key.sub : "-");
		text__esc(what, wlen, raw);
		return;
	}
	text__esc(name, nlen, r->key.name);
	if (r->key.attach[0]) {
		char both[sizeof(r->key.type) + sizeof(r->key.attach) + 4];

		snprintf(both, sizeof(both), "%s, %s", r->key.type, r->key.attach);
		text__esc(what, wlen, both);
	} else {
		text__esc(what, wlen, r->key.type);
	}
}

/* Runs per log2 row of a side's whole-recording histogram. */
void cmp_view__log2(const struct cmp_series *cs, uint64_t *per)
{
	uint32_t it = 0, b;
	uint64_t n;

	memset(per, 0, MODEL_HEAT_ROWS * sizeof(*per));
	while (cs && cs->has_dist && hist__next(&cs->h, &it, &b, &n))
		per[model__heat_row(hist__bucket_lo(b))] += n;
}
