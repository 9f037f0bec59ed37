// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * themefind.c - theme file lookup (see themefind.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/themefind.h"

/* Installed themes (make passes $(PREFIX)/share/lattop/themes). */
#ifndef LATTOP_THEME_DIR
#define LATTOP_THEME_DIR "/usr/local/share/lattop/themes"
#endif
#define LOCAL_THEME_DIR "themes"

/* The directories searched for theme files, in order: ./themes, the themes installed next to
 * this binary (<exe>/../share/lattop/themes, right whatever PREFIX was at install time), and
 * the directory compiled in. Returns the number filled. */
int theme__dirs(char (*dirs)[PATH_MAX])
{
	char exe[PATH_MAX];
	ssize_t l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int n = 0;

	snprintf(dirs[n++], PATH_MAX, "%s", LOCAL_THEME_DIR);
	if (l > 0) {
		char *slash;

		exe[l] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(exe, '/'); /* up from sbin/ or bin/ */
			if (slash) {
				*slash = '\0';
				snprintf(dirs[n++], PATH_MAX, "%.*s/share/lattop/themes",
					 PATH_MAX - 32, exe);
			}
		}
	}
	snprintf(dirs[n++], PATH_MAX, "%s", LATTOP_THEME_DIR);
	return n;
}

/* True when s looks like a path rather than a theme name. */
static bool is_path(const char *s)
{
	size_t l = strlen(s);

	return strchr(s, '/') || (l > 5 && !strcmp(s + l - 5, ".json"));
}

/* Resolve a theme name or path to a readable file. */
int theme__find(const char *name_or_path, char *path, size_t len)
{
	char dirs[3][PATH_MAX];
	int n = theme__dirs(dirs);

	if (!*name_or_path)
		return -ENOENT;
	if (is_path(name_or_path)) {
		snprintf(path, len, "%s", name_or_path);
		return access(path, R_OK) ? -ENOENT : 0;
	}
	for (int i = 0; i < n; i++) {
		snprintf(path, len, "%s/%s.json", dirs[i], name_or_path);
		if (!access(path, R_OK))
			return 0;
	}
	return -ENOENT;
}

/* The installed themes directory. */
const char *theme__dir(void)
{
	return LATTOP_THEME_DIR;
}
