/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * themefind.h - where theme files are found: by name in ./themes, next to the binary and in
 * the installed directory, or by path. Only file names here (no parsing, no curses), so option
 * checking (session/opts.c) and the TUI's theme loader (ui/theme.c) share one lookup.
 *
 * Thread use: any thread.
 */
#ifndef LAT_THEMEFIND_H
#define LAT_THEMEFIND_H

#include <limits.h>
#include <stddef.h>

/* The directories searched for theme files, in order, into dirs (room for 3). Returns the
 * number filled. */
int theme__dirs(char (*dirs)[PATH_MAX]);
/* Resolve NAME (./themes/NAME.json, then <exe>/../share/lattop/themes, then the installed
 * themes directory compiled in) or a PATH (anything with a '/' or ending in .json) to a
 * readable file. Returns 0 or -ENOENT. */
int theme__find(const char *name_or_path, char *path, size_t len);
/* The installed themes directory ($(PREFIX)/share/lattop/themes at build time). */
const char *theme__dir(void);

#endif /* LAT_THEMEFIND_H */
