// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tpformat.c - read a tracepoint's record layout from tracefs.
 *
 * A format file has one line per field:
 *   \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
 *   \tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;
 *   \tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:0;
 * The field's name is the last identifier of the declaration; an array or a __data_loc field
 * is not an integer key, a pointer is (an address is a fine key: an skb, a request).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "collect/tpformat.h"

/* Largest format file read (the biggest in 6.x kernels are ~3 KiB). */
#define TPFORMAT_MAX_BYTES 16384

/* True when dir/events is a directory we can read. */
static bool has_events(const char *dir)
{
	char p[64];

	snprintf(p, sizeof(p), "%s/events", dir);
	return access(p, R_OK | X_OK) == 0;
}

/* Where tracefs is (mounting it when nothing is). */
const char *tpformat__tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (has_events(dirs[i]))
			return dirs[i];
	if (mount("tracefs", dirs[0], "tracefs", 0, NULL) == 0 && has_events(dirs[0]))
		return dirs[0];
	if (!errno)
		errno = ENOENT;
	return NULL;
}

/* Path of cat:name's format file. */
static void format_path(char *p, size_t len, const char *tracefs, const char *cat,
			const char *name)
{
	snprintf(p, len, "%s/events/%s/%s/format", tracefs, cat, name);
}

/* True when cat:name exists. */
bool tpformat__exists(const char *tracefs, const char *cat, const char *name)
{
	char p[512];

	if (strchr(cat, '/') || strchr(name, '/') || !strcmp(cat, "..") || !strcmp(name, ".."))
		return false;
	format_path(p, sizeof(p), tracefs, cat, name);
	return access(p, R_OK) == 0;
}

/* Parse one "field:" line into f; false when it is not one. */
static bool parse_line(const char *line, struct tp_field *f)
{
	const char *decl = strstr(line, "field:"), *semi, *end, *start;
	const char *off = strstr(line, "offset:"), *size = strstr(line, "size:"),
		   *sgn = strstr(line, "signed:");
	size_t n;

	if (!decl || !off || !size || !sgn)
		return false;
	decl += strlen("field:");
	semi = strchr(decl, ';');
	if (!semi)
		return false;
	/* The name: the last identifier before ';', after any [N] suffix. */
	end = semi;
	while (end > decl && end[-1] == ' ')
		end--;
	if (end > decl && end[-1] == ']') {
		const char *lb = memrchr(decl, '[', (size_t)(end - decl));

		end = lb ? lb : decl;
	}
	start = end;
	while (start > decl && (start[-1] == '_' || (start[-1] >= '0' && start[-1] <= '9') ||
				(start[-1] >= 'a' && start[-1] <= 'z') ||
				(start[-1] >= 'A' && start[-1] <= 'Z')))
		start--;
	n = (size_t)(end - start);
	if (!n || n >= sizeof(f->name))
		return false;
	memcpy(f->name, start, n);
	f->name[n] = '\0';
	f->off = (uint32_t)strtoul(off + strlen("offset:"), NULL, 10);
	f->size = (uint32_t)strtoul(size + strlen("size:"), NULL, 10);
	f->is_signed = strtoul(sgn + strlen("signed:"), NULL, 10) != 0;
	f->integer = (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) &&
		     !memchr(decl, '[', (size_t)(semi - decl)) && strncmp(decl, "__data_loc", 10);
	return true;
}

/* Append name to the comma-separated list avail. */
static void add_avail(char *avail, size_t len, const char *name)
{
	size_t used = strlen(avail);

	if (used < len)
		snprintf(avail + used, len - used, "%s%s", used ? ", " : "", name);
}

/* Find field in a format file's text. */
int tpformat__parse(const char *text, const char *field, struct tp_field *out, char *avail,
		    size_t availlen)
{
	int ret = -ENOENT;

	if (availlen)
		avail[0] = '\0';
	/* Two passes over the lines: the tracepoint's own fields, then the common_* ones. */
	for (int pass = 0; pass < 2; pass++) {
		for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
			struct tp_field f = {};
			char line[256];
			size_t n = strcspn(l, "\n");

			snprintf(line, sizeof(line), "%.*s", (int)n, l);
			if (!parse_line(line, &f))
				continue;
			if ((pass == 0) == !strncmp(f.name, "common_", 7))
				continue;
			if (f.integer)
				add_avail(avail, availlen, f.name);
			if (!strcmp(f.name, field)) {
				*out = f;
				ret = f.integer ? 0 : -EINVAL;
			}
		}
	}
	return ret;
}

/* Read cat:name's format file and find field. */
int tpformat__field(const char *tracefs, const char *cat, const char *name, const char *field,
		    struct tp_field *out, char *avail, size_t availlen)
{
	char p[512], *buf;
	size_t n;
	FILE *f;
	int ret;

	if (!tpformat__exists(tracefs, cat, name))
		return -ENODEV;
	format_path(p, sizeof(p), tracefs, cat, name);
	f = fopen(p, "r");
	if (!f)
		return -ENODEV;
	buf = malloc(TPFORMAT_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, TPFORMAT_MAX_BYTES, f);
	buf[n] = '\0';
	fclose(f);
	ret = tpformat__parse(buf, field, out, avail, availlen);
	free(buf);
	return ret;
}
