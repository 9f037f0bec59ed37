// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * opts_eh.c - the EventHeader activity options: --activities TRACEPOINT[:NAME], and the
 * "activities" of a spans file:
 *   { "activities": [ { "tracepoint": "MyService_L4K1", "activity": "Request",
 *                       "name": "requests" },
 *                     { "tracepoint": "MyService_L4K1" } ] }
 * ("activity": only the activity whose start event is so named, its row called "name" or
 * after it; without "activity", every activity on the tracepoint, one row per name).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/evhdr.h"
#include "collect/spans.h"
#include "cli/opts.h"

/* Parse one --activities argument: an EventHeader tracepoint (every activity on it, one series
 * per activity name) or TRACEPOINT:NAME (the activity whose start event is named NAME). */
int opts__activity(struct opts *o, const char *v, char *err, size_t errlen)
{
	struct ehtrace_spec *sp = &o->eh[o->neh];
	const char *colon = strchr(v, ':');
	size_t tplen = colon ? (size_t)(colon - v) : strlen(v);
	char prov[EVHDR_NAME_MAX];
	uint64_t kw;
	uint8_t level;

	if (o->neh == EH_SPEC_MAX) {
		snprintf(err, errlen, "too many --activities: at most %d", EH_SPEC_MAX);
		return -EINVAL;
	}
	memset(sp, 0, sizeof(*sp));
	if (tplen >= sizeof(sp->tp) ||
	    (memcpy(sp->tp, v, tplen),
	     evhdr__parse_tpname(sp->tp, prov, sizeof(prov), &level, &kw))) {
		snprintf(err, errlen,
			 "--activities %s: not an EventHeader tracepoint name: give "
			 "Provider_L<level>K<keyword> in hex, e.g. MyProvider_L4K1, optionally "
			 "followed by :ActivityName",
			 v);
		return -EINVAL;
	}
	if (colon) {
		size_t n = strlen(colon + 1);

		if (!n || n >= sizeof(sp->activity) || strchr(colon + 1, ';')) {
			snprintf(err, errlen,
				 "--activities %s: the activity name after ':' must be 1 to %zu "
				 "characters without ';'",
				 v, sizeof(sp->activity) - 1);
			return -EINVAL;
		}
		memcpy(sp->activity, colon + 1, n + 1);
	}
	o->neh++;
	return 0;
}

/* A string member of activity entry it, or NULL; -EINVAL when present but not a string. */
static int member(const cJSON *it, const char *key, const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, key);

	*out = NULL;
	if (!v)
		return 0;
	if (!cJSON_IsString(v))
		return -EINVAL;
	*out = v->valuestring;
	return 0;
}

/* One entry of "activities" (number i of the file path) into o. */
static int file_activity(struct opts *o, const cJSON *it, int i, const char *path, char *err,
			 size_t errlen)
{
	const char *tp, *act, *name;
	char arg[EVHDR_NAME_MAX + EHPAIR_NAME_MAX + 2];

	for (const cJSON *k = it ? it->child : NULL; k; k = k->next)
		if (strcmp(k->string, "tracepoint") && strcmp(k->string, "activity") &&
		    strcmp(k->string, "name")) {
			snprintf(err, errlen, "%s: unknown key '%s' in activities[%d]", path,
				 k->string, i);
			return -EINVAL;
		}
	if (!cJSON_IsObject(it) || member(it, "tracepoint", &tp) || !tp ||
	    member(it, "activity", &act) || member(it, "name", &name) || (name && !act)) {
		snprintf(err, errlen,
			 "%s: activities[%d] needs a string \"tracepoint\", optionally an "
			 "\"activity\" and, with it, a \"name\"",
			 path, i);
		return -EINVAL;
	}
	snprintf(arg, sizeof(arg), "%s%s%s", tp, act ? ":" : "", act ? act : "");
	if (opts__activity(o, arg, err, errlen)) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: activities[%d]: %s", path, i,
			 strncmp(why, "--activities ", 13) ? why : why + 13);
		return -EINVAL;
	}
	if (name && (!*name || strlen(name) >= EHPAIR_NAME_MAX)) {
		snprintf(err, errlen, "%s: activities[%d]: \"name\" must be 1 to %d characters",
			 path, i, EHPAIR_NAME_MAX - 1);
		return -EINVAL;
	}
	if (name)
		snprintf(o->eh[o->neh - 1].series, sizeof(o->eh[0].series), "%s", name);
	return 0;
}

/* The "activities" of a spans file. */
int opts__activities_file(struct opts *o, const char *path, char *err, size_t errlen)
{
	char *txt = spans__read_file(path);
	cJSON *root = txt ? cJSON_Parse(txt) : NULL;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "activities"), *it;
	int e = 0, i = 0;

	free(txt);
	if (arr && (!cJSON_IsArray(arr) || !cJSON_GetArraySize(arr))) {
		snprintf(err, errlen, "%s: 'activities' must be a non-empty array", path);
		e = -EINVAL;
	}
	for (it = arr && !e ? arr->child : NULL; it && !e; it = it->next)
		e = file_activity(o, it, i++, path, err, errlen);
	cJSON_Delete(root);
	return e;
}
