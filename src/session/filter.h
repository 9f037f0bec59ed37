/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * filter.h - the -p filter of a session, live or replayed (filter.c): what it selects, checking it
 * against the programs and segments there are, replacing it, and the rows it leaves.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_FILTER_H
#define LAT_SESSION_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "session/session.h"

/* True when the series passes the -p filter (always true without one). */
bool session__wanted(const struct session *s, const struct series *se);
/* Check every -p entry of fl (n of them) against the programs in s->st (and the segments'
 * names): 0, or -ENOENT with one sentence in err; a name matching several programs is worth
 * a warning. */
int session__check_filter(struct session *s, const struct filter_ent *fl, int n, char *err,
			  size_t errlen);
/* Replace the filter with a new -p style list. Returns 0, or -EINVAL/-ENOENT with one
 * sentence in err (the old filter stays). */
int session__set_filter(struct session *s, const char *list, char *err, size_t errlen);
/* Format the current filter as a -p list into buf (FILTER_STR_MAX always holds it). Returns
 * 0, or -ENOSPC when buf is shorter and held only the whole entries that fit. */
int session__filter_str(const struct session *s, char *buf, size_t len);
/* Fill rows (at most max) for the current mode, filtered, sorted by ord (model/rows.h; the
 * views pass a column's order, columns__order). Returns the number of rows. */
size_t session__rows(const struct session *s, bool cumulative, const struct row_order *ord,
		     struct row *rows, size_t max);

#endif /* LAT_SESSION_FILTER_H */
