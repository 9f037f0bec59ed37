// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * compare_src.c - the sessions of an A/B comparison (lattop -r A --compare B): B opened as a
 * replay like A, the pair checked (whole recordings with intervals, of one mode), and each
 * side's model walked interval by interval into a model/compare.h side.
 *
 * Thread use: UI/main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/compare.h"
#include "rec/replay.h"
#include "session/compare_src.h"
#include "session/replay_src.h"
#include "session/session.h"

/* One side must be a whole recording with intervals: 0, or EXIT_USAGE with err set. */
static int check_side(struct session *s, const char *path, char *err, size_t errlen)
{
	struct replay *rp = session__replay(s);

	if (replay__damage(rp)[0]) {
		snprintf(err, errlen, "%.200s: %.200s: a comparison needs whole recordings", path,
			 replay__damage(rp));
		return EXIT_USAGE;
	}
	if (s->warn[0]) { /* a damaged perf.data (perf_src.h) */
		snprintf(err, errlen, "%.400s: a comparison needs whole recordings", s->warn);
		return EXIT_USAGE;
	}
	if (!replay__count(rp)) {
		snprintf(err, errlen, "%.200s holds no interval: there is nothing to compare", path);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Open the B side of a comparison and check the pair. */
int session__open_compare(struct session *a, struct session *b, struct opts *ob, char *err,
			  size_t errlen)
{
	const char *ma, *mb;
	int ret;

	ret = check_side(a, a->o->replay, err, errlen);
	if (ret != EXIT_OK)
		return ret;
	*ob = *a->o;
	ob->replay = a->o->compare;
	ret = session__open_replay(b, ob, err, errlen);
	if (ret != EXIT_OK)
		return EXIT_USAGE; /* a bad pair: the sentence names the file */
	ret = check_side(b, ob->replay, err, errlen);
	if (ret != EXIT_OK)
		return ret;
	ma = rec__meta_str(replay__file(session__replay(a)), "mode");
	mb = rec__meta_str(replay__file(session__replay(b)), "mode");
	if (strcmp(ma, mb)) {
		snprintf(err, errlen,
			 "%.150s was recorded in %.20s mode and %.150s in %.20s mode: compare "
			 "recordings of one mode",
			 a->o->replay, *ma ? ma : "no", ob->replay, *mb ? mb : "no");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* Walk the replay of s from its first interval to its last into a new side (*out). */
int session__compare_side(struct session *s, struct cmp_side **out)
{
	size_t n = replay__count(session__replay(s));
	struct cmp_side *sd = cmp_side__new(n);
	int e = -ENOMEM;

	*out = NULL;
	if (!sd || session__seek(s, 0))
		goto fail;
	for (size_t k = 1; k <= n; k++) {
		if (session__seek(s, k))
			goto fail;
		e = cmp_side__add_interval(sd, s->m);
		if (e)
			goto fail;
	}
	e = cmp_side__finish(sd);
	if (e || (e = session__seek_all(s)))
		goto fail;
	*out = sd;
	return 0;
fail:
	cmp_side__free(sd);
	return e ? e : -ENOMEM;
}
