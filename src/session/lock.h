/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * lock.h - the one-live-session lock ($LATTOP_LOCK or /run/lattop.lock).
 *
 * Thread use: UI/main thread only.
 */
#ifndef LAT_SESSION_LOCK_H
#define LAT_SESSION_LOCK_H

#include <stddef.h>

/* Take the one-live-session lock ( $LATTOP_LOCK or /run/lattop.lock): returns its fd,
 * held until closed, or a negative errno with one sentence in err (another session holds it,
 * the path is not a file lattop wrote, ...). */
int session__lock(char *err, size_t errlen);

#endif /* LAT_SESSION_LOCK_H */
