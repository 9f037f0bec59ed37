/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * array.h - growing a plain C array one element at a time (capacity doubled, first 8).
 *
 * Thread use: any (no shared state).
 */
#ifndef LAT_ARRAY_H
#define LAT_ARRAY_H

#include <stddef.h>

/* Make room for one more element of size sz in *p (*cap allocated, n used); 0 or -ENOMEM. */
int array__grow(void **p, size_t *cap, size_t n, size_t sz);

#endif /* LAT_ARRAY_H */
