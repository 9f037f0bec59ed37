// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * theme.c - theme files: compiled-in defaults, JSON parsing with libcjson, theme search.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ui/tui/theme.h"

#define THEME_FILE_MAX (64 * 1024) /* a theme is a few hundred bytes; refuse anything huge */

static const char *const slot_names[TH__COUNT] = {
	[TH_HEADER] = "header", [TH_TITLE] = "title",	  [TH_SELECT] = "selection",
	[TH_BAR] = "bar",	[TH_SPARK] = "sparkline", [TH_WARN] = "warning",
	[TH_NOTE] = "note",	[TH_DIM] = "dim",	  [TH_TABLE] = "table",
};

static const char *const color_names[8] = { "black", "red",     "green", "yellow",
					    "blue",  "magenta", "cyan",  "white" };

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{ "bold", THEME_BOLD },
	{ "reverse", THEME_REVERSE },
	{ "underline", THEME_UNDERLINE },
	{ "dim", THEME_DIM },
};

/* The compiled-in dark theme: every slot named (files override these one by one). */
static const struct theme default_theme = {
	.name = "default",
	.c = {
		[TH_HEADER] = { 6, THEME_DEFAULT_COLOR, THEME_BOLD },
		[TH_TITLE] = { 0, 2, 0 },
		[TH_SELECT] = { 0, 6, 0 },
		[TH_BAR] = { 2, THEME_DEFAULT_COLOR, 0 },
		[TH_SPARK] = { 3, THEME_DEFAULT_COLOR, 0 },
		[TH_WARN] = { 1, THEME_DEFAULT_COLOR, THEME_BOLD },
		[TH_NOTE] = { 3, THEME_DEFAULT_COLOR, 0 },
		[TH_DIM] = { 4, THEME_DEFAULT_COLOR, 0 },
		[TH_TABLE] = { THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, 0 },
	},
};

/* The compiled-in mono theme: attributes only. */
static const struct theme mono_theme = {
	.name = "mono",
	.c = {
		[TH_HEADER] = { -1, -1, THEME_BOLD },
		[TH_TITLE] = { -1, -1, THEME_REVERSE },
		[TH_SELECT] = { -1, -1, THEME_REVERSE | THEME_BOLD },
		[TH_BAR] = { -1, -1, THEME_BOLD },
		[TH_SPARK] = { -1, -1, 0 },
		[TH_WARN] = { -1, -1, THEME_BOLD },
		[TH_NOTE] = { -1, -1, 0 },
		[TH_DIM] = { -1, -1, THEME_DIM },
		[TH_TABLE] = { -1, -1, 0 },
	},
};

/* JSON key of a slot. */
const char *theme__slot_name(enum theme_slot s)
{
	return s < TH__COUNT ? slot_names[s] : "?";
}

/* Fill t with the default theme. */
void theme__default(struct theme *t)
{
	*t = default_theme;
}

/* Fill t with the mono theme. */
void theme__mono(struct theme *t)
{
	*t = mono_theme;
}

/* True when no slot uses a colour. */
bool theme__is_mono(const struct theme *t)
{
	for (int i = 0; i < TH__COUNT; i++)
		if (t->c[i].fg != THEME_DEFAULT_COLOR || t->c[i].bg != THEME_DEFAULT_COLOR)
			return false;
	return true;
}

/* A colour value: a name, "bright-" + name, "default" or a number 0..255. */
static int parse_color(const cJSON *v, short *out)
{
	const char *s;

	if (cJSON_IsNumber(v)) {
		if (v->valuedouble < 0 || v->valuedouble > 255 ||
		    v->valuedouble != (double)v->valueint)
			return -EINVAL;
		*out = (short)v->valueint;
		return 0;
	}
	if (!cJSON_IsString(v))
		return -EINVAL;
	s = v->valuestring;
	if (!strcmp(s, "default")) {
		*out = THEME_DEFAULT_COLOR;
		return 0;
	}
	for (int i = 0; i < 8; i++) {
		if (!strcmp(s, color_names[i])) {
			*out = (short)i;
			return 0;
		}
		if (!strncmp(s, "bright-", 7) && !strcmp(s + 7, color_names[i])) {
			*out = (short)(i + 8);
			return 0;
		}
	}
	return -EINVAL;
}

/* Attributes: an array of attribute names (or one name as a string). */
static int parse_attrs(const cJSON *v, unsigned *out)
{
	const cJSON *it;

	*out = 0;
	if (cJSON_IsString(v) || cJSON_IsArray(v)) {
		cJSON_ArrayForEach(it, (cJSON_IsArray(v) ? v : NULL))
		{
			unsigned bits;

			if (!cJSON_IsString(it) || parse_attrs(it, &bits))
				return -EINVAL;
			*out |= bits;
		}
		if (cJSON_IsArray(v))
			return 0;
		for (size_t i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
			if (!strcmp(v->valuestring, attr_names[i].name)) {
				*out = attr_names[i].bit;
				return 0;
			}
		if (!strcmp(v->valuestring, "normal"))
			return 0;
	}
	return -EINVAL;
}

/* Note an unknown key: the first is named, the others counted. */
static void unknown_key(char *first, size_t len, int *n, const char *path)
{
	if (!(*n)++)
		snprintf(first, len, "%s", path);
}

/* One slot object {"fg", "bg", "attrs"}; on error names the bad key in bad. */
static int parse_slot(const cJSON *o, const char *slot, struct theme_color *c, char *bad,
		      size_t badlen, char *unk, size_t unklen, int *nunk)
{
	const cJSON *it;
	char path[128];

	if (!cJSON_IsObject(o)) {
		snprintf(bad, badlen, "colors.%s", slot);
		return -EINVAL;
	}
	cJSON_ArrayForEach(it, o)
	{
		int err = 0;

		snprintf(path, sizeof(path), "colors.%s.%s", slot, it->string);
		if (!strcmp(it->string, "fg"))
			err = parse_color(it, &c->fg);
		else if (!strcmp(it->string, "bg"))
			err = parse_color(it, &c->bg);
		else if (!strcmp(it->string, "attrs"))
			err = parse_attrs(it, &c->attrs);
		else
			unknown_key(unk, unklen, nunk, path);
		if (err) {
			snprintf(bad, badlen, "%s", path);
			return err;
		}
	}
	return 0;
}

/* The last "key": before position pos of text (to name where a syntax error is), or "". */
static void key_before(const char *text, const char *pos, char *key, size_t len)
{
	const char *end = NULL, *start;

	key[0] = '\0';
	for (const char *p = pos; p > text; p--) {
		if (*p == ':') {
			const char *q = p - 1;

			while (q > text && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
				q--;
			if (*q == '"') {
				end = q;
				break;
			}
		}
	}
	if (!end)
		return;
	for (start = end - 1; start > text && *start != '"'; start--)
		;
	if (*start == '"')
		snprintf(key, len, "%.*s", (int)(end - start - 1), start + 1);
}

/* Line number (1-based) of position pos in text. */
static int line_of(const char *text, const char *pos)
{
	int line = 1;

	for (const char *p = text; p < pos && *p; p++)
		line += *p == '\n';
	return line;
}

/* Explain a JSON syntax error: the file, the line and the last key before it. */
static void syntax_error(const char *json, const char *file, char *msg, size_t len)
{
	const char *at = cJSON_GetErrorPtr();
	char key[64];

	if (!at || at < json || at > json + strlen(json))
		at = json + strlen(json);
	key_before(json, at, key, sizeof(key));
	if (key[0])
		snprintf(msg, len,
			 "theme %s: invalid JSON at line %d, after key '%s'; using the default "
			 "theme",
			 file, line_of(json, at), key);
	else
		snprintf(msg, len, "theme %s: invalid JSON at line %d; using the default theme",
			 file, line_of(json, at));
}

/* Parse JSON text into t on top of the default theme. */
int theme__parse(struct theme *t, const char *json, const char *file, char *msg, size_t len)
{
	cJSON *root = cJSON_Parse(json);
	const cJSON *it;
	char bad[160] = "", unk[160] = "";
	int nunk = 0, err = 0;

	msg[0] = '\0';
	theme__default(t);
	if (!root) {
		syntax_error(json, file, msg, len);
		return -EINVAL;
	}
	if (!cJSON_IsObject(root)) {
		snprintf(bad, sizeof(bad), "(top level: an object is expected)");
		err = -EINVAL;
	}
	cJSON_ArrayForEach(it, (err ? NULL : root))
	{
		if (!strcmp(it->string, "name")) {
			if (!cJSON_IsString(it) || !*it->valuestring) {
				snprintf(bad, sizeof(bad), "name");
				err = -EINVAL;
				break;
			}
			snprintf(t->name, sizeof(t->name), "%s", it->valuestring);
		} else if (!strcmp(it->string, "colors")) {
			const cJSON *c;

			if (!cJSON_IsObject(it)) {
				snprintf(bad, sizeof(bad), "colors");
				err = -EINVAL;
				break;
			}
			cJSON_ArrayForEach(c, it)
			{
				int s;
				char path[128];

				for (s = 0; s < TH__COUNT; s++)
					if (!strcmp(c->string, slot_names[s]))
						break;
				if (s == TH__COUNT) {
					snprintf(path, sizeof(path), "colors.%s", c->string);
					unknown_key(unk, sizeof(unk), &nunk, path);
					continue;
				}
				err = parse_slot(c, c->string, &t->c[s], bad, sizeof(bad), unk,
						 sizeof(unk), &nunk);
				if (err)
					break;
			}
			if (err)
				break;
		} else {
			unknown_key(unk, sizeof(unk), &nunk, it->string);
		}
	}
	cJSON_Delete(root);
	if (err) {
		theme__default(t);
		snprintf(msg, len, "theme %s: bad value for key '%s'; using the default theme",
			 file, bad);
		return err;
	}
	if (nunk == 1)
		snprintf(msg, len, "theme %s: unknown key '%s' ignored", file, unk);
	else if (nunk > 1)
		snprintf(msg, len, "theme %s: unknown key '%s' and %d more ignored", file, unk,
			 nunk - 1);
	return 0;
}

/* Read and parse a theme file. */
int theme__load(struct theme *t, const char *path, char *msg, size_t len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int err;

	theme__default(t);
	if (!f) {
		err = -errno;
		snprintf(msg, len, "theme %s: cannot open it (%s); using the default theme", path,
			 strerror(errno));
		return err;
	}
	buf = malloc(THEME_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		snprintf(msg, len, "theme %s: out of memory; using the default theme", path);
		return -ENOMEM;
	}
	n = fread(buf, 1, THEME_FILE_MAX + 1, f);
	if (ferror(f) || n > THEME_FILE_MAX) {
		snprintf(msg, len, "theme %s: %s; using the default theme", path,
			 ferror(f) ? "read error" : "larger than 64 KiB");
		err = -EIO;
	} else {
		buf[n] = '\0';
		err = theme__parse(t, buf, path, msg, len);
	}
	free(buf);
	fclose(f);
	return err;
}

/* Add name to the list unless it is there. */
static int list_add(char (*names)[64], int n, int max, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return n;
	if (n < max)
		snprintf(names[n++], 64, "%s", name);
	return n;
}

/* qsort comparison of names. */
static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The names of the themes that can be cycled. */
int theme__list(char (*names)[64], int max)
{
	char dirs[3][PATH_MAX];
	int ndirs = theme__dirs(dirs), n = 0;

	if (max <= 0)
		return 0;
	n = list_add(names, n, max, "default");
	for (int i = 0; i < ndirs; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);
			char name[64];

			if (l <= 5 || l - 5 >= sizeof(name) || strcmp(e->d_name + l - 5, ".json"))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)(l - 5), e->d_name);
			n = list_add(names, n, max, name);
		}
		closedir(d);
	}
	qsort(names + 1, n - 1, sizeof(names[0]), name_cmp);
	return n;
}
