// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * array.c - growing a plain C array one element at a time (array.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "base/array.h"

/* Make room for one more element of size sz in *p (*cap allocated, n used); 0 or -ENOMEM. */
int array__grow(void **p, size_t *cap, size_t n, size_t sz)
{
	size_t nc;
	void *np;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	np = realloc(*p, nc * sz);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = nc;
	return 0;
}
