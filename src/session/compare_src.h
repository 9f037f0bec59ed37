/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * compare_src.h - the second recording of an A/B comparison (-r A --compare B) and each side's walk.
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_COMPARE_SRC_H
#define LAT_SESSION_COMPARE_SRC_H

#include <stddef.h>

#include "session/session.h"

/* A/B comparison (compare_src.c). Open o->compare as a replay into b (with ob, a copy of a's
 * options naming it) and check the pair: whole recordings, with intervals, of one mode.
 * Returns an exit status (EXIT_USAGE for a bad pair) with one sentence in err. */
int session__open_compare(struct session *a, struct session *b, struct opts *ob, char *err,
			  size_t errlen);
struct cmp_side;
/* Walk replay s from its first interval to its last into a new comparison side (*out, the
 * caller frees it; the model ends with every record applied). Returns 0 or a negative errno. */
int session__compare_side(struct session *s, struct cmp_side **out);

#endif /* LAT_SESSION_COMPARE_SRC_H */
