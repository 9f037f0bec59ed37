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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/evhdr.h"
#include "collect/spans.h"
#include "cli/opts.h"

#define EH_STR2(x) #x
#define EH_STR(x) EH_STR2(x)

/* The usage sentence every --activities error ends with. */
#define EH_USAGE                                                                                 \
	"give TRACEPOINT or PROVIDER, then optionally ':' and comma-separated items: an "       \
	"activity name, by=FIELD, top=N, value=FIELD, if=FIELD<op>VALUE, and for a provider "   \
	"level=N and kw=MASK, e.g. MyProvider_L4K1:Request,by=status or "                        \
	"MyProvider:level=4,kw=0x1"

/* Whether name is a field or provider name: 1 to max-1 characters of [A-Za-z0-9_]. */
static bool ident(const char *name, size_t len, size_t max)
{
	if (!len || len >= max)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!(name[i] == '_' || (name[i] >= '0' && name[i] <= '9') ||
		      ((name[i] | 0x20) >= 'a' && (name[i] | 0x20) <= 'z')))
			return false;
	return true;
}

/* An unsigned number (base 0) of s in [lo, hi] into *v. */
static bool number(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end && *v >= lo && *v <= hi;
}

/* The filter FIELD<op>VALUE of item text t into o. 0 or -EINVAL. */
static int parse_if(struct ehpair_opts *o, const char *t)
{
	static const struct {
		const char *s;
		enum ehpair_op op;
	} ops[] = {{"==", EHPAIR_OP_EQ}, {"!=", EHPAIR_OP_NE}, {"<=", EHPAIR_OP_LE},
		   {">=", EHPAIR_OP_GE}, {"<", EHPAIR_OP_LT},	 {">", EHPAIR_OP_GT}};
	size_t flen = strcspn(t, "=!<>");
	const char *rest = t + flen, *val = NULL;

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]) && !val; i++)
		if (!strncmp(rest, ops[i].s, strlen(ops[i].s))) {
			o->if_op = ops[i].op;
			val = rest + strlen(ops[i].s);
		}
	if (!val || !ident(t, flen, sizeof(o->if_field)) || !*val ||
	    strlen(val) >= sizeof(o->if_text))
		return -EINVAL;
	memcpy(o->if_field, t, flen);
	o->if_field[flen] = 0;
	strcpy(o->if_text, val);
	return 0;
}

/* One item (len bytes at t) after the ':' of --activities v into sp. 0, or -EINVAL with err. */
static int parse_item(struct ehtrace_spec *sp, const char *v, const char *t, size_t len,
		      char *err, size_t errlen)
{
	char item[EHPAIR_NAME_MAX * 2], *eq;
	const char *why = NULL;
	uint64_t n;

	if (!len || len >= sizeof(item)) {
		why = "an empty or too long item";
		goto bad;
	}
	memcpy(item, t, len);
	item[len] = 0;
	eq = strchr(item, '=');
	if (!eq) {
		if (sp->activity[0] || strchr(item, ';') || len >= sizeof(sp->activity))
			why = sp->activity[0] ? "two activity names" : "a bad activity name";
		else
			strcpy(sp->activity, item);
	} else if (!strncmp(item, "by=", 3) || !strncmp(item, "value=", 6)) {
		char *dst = item[0] == 'b' ? sp->o.by : sp->o.value;

		if (!ident(eq + 1, strlen(eq + 1), EHPAIR_NAME_MAX))
			why = "a field name is letters, digits and '_'";
		else
			strcpy(dst, eq + 1);
	} else if (!strncmp(item, "if=", 3)) {
		if (parse_if(&sp->o, item + 3))
			why = "if= takes FIELD, one of == != < <= > >=, and a value";
	} else if (!strncmp(item, "top=", 4)) {
		if (!number(eq + 1, 1, EHPAIR_TOP_MAX, &n))
			why = "top= takes 1 to " EH_STR(EHPAIR_TOP_MAX);
		else
			sp->o.top = (uint32_t)n;
	} else if (!strncmp(item, "level=", 6) && sp->provider) {
		if (!number(eq + 1, 1, 255, &n))
			why = "level= takes 1 to 255";
		else
			sp->level = (uint8_t)n;
	} else if (!strncmp(item, "kw=", 3) && sp->provider) {
		if (!number(eq + 1, 1, UINT64_MAX, &sp->kw))
			why = "kw= takes a keyword mask such as 0x1";
	} else {
		why = sp->provider || (strncmp(item, "level=", 6) && strncmp(item, "kw=", 3))
			  ? "an unknown item"
			  : "level= and kw= apply to a provider, not to one tracepoint";
	}
	if (!why)
		return 0;
bad:
	snprintf(err, errlen, "--activities %s: %s (%.*s): " EH_USAGE, v, why, (int)len, t);
	return -EINVAL;
}

/* Whether name has "_L" and hex digits at its end or before a 'K'. */
static bool tp_like(const char *name)
{
	for (const char *u = strstr(name, "_L"); u; u = strstr(u + 1, "_L")) {
		size_t n = strspn(u + 2, "0123456789abcdefABCDEF");

		if (n && (!u[2 + n] || u[2 + n] == 'K'))
			return true;
	}
	return false;
}

/* The source of --activities v (srclen bytes): a tracepoint, or a provider. */
static int parse_source(struct ehtrace_spec *sp, const char *v, size_t srclen, char *err,
			size_t errlen)
{
	char prov[EVHDR_NAME_MAX];
	uint64_t kw;
	uint8_t level;

	if (srclen < sizeof(sp->tp)) {
		memcpy(sp->tp, v, srclen);
		if (!evhdr__parse_tpname(sp->tp, prov, sizeof(prov), &level, &kw))
			return 0;
		/* Not a tracepoint name: a provider (its names leave room for _L<level>K<kw>),
		 * unless it looks like a tracepoint name gone wrong (_L<hex> at its end, or
		 * followed by K). */
		if (ident(v, srclen, EVHDR_NAME_MAX - 24) && !tp_like(sp->tp)) {
			sp->provider = true;
			return 0;
		}
	}
	snprintf(err, errlen,
		 "--activities %s: neither an EventHeader tracepoint name "
		 "(Provider_L<level>K<keyword> in hex, e.g. MyProvider_L4K1) nor a provider name "
		 "(letters, digits and '_'): " EH_USAGE,
		 v);
	return -EINVAL;
}

/* Parse one --activities argument: SOURCE[:ITEM,...] (see EH_USAGE and the man page). */
int opts__activity(struct opts *o, const char *v, char *err, size_t errlen)
{
	struct ehtrace_spec *sp = &o->eh[o->neh];
	const char *colon = strchr(v, ':'), *t;

	if (o->neh == EH_SPEC_MAX) {
		snprintf(err, errlen, "too many --activities: at most %d", EH_SPEC_MAX);
		return -EINVAL;
	}
	memset(sp, 0, sizeof(*sp));
	if (parse_source(sp, v, colon ? (size_t)(colon - v) : strlen(v), err, errlen))
		return -EINVAL;
	for (t = colon ? colon + 1 : NULL; t;) {
		const char *comma = strchr(t, ',');
		size_t len = comma ? (size_t)(comma - t) : strlen(t);

		if (parse_item(sp, v, t, len, err, errlen))
			return -EINVAL;
		t = comma ? comma + 1 : NULL;
	}
	if (sp->o.top && !sp->o.by[0]) {
		snprintf(err, errlen, "--activities %s: top= needs by=FIELD: " EH_USAGE, v);
		return -EINVAL;
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
	static const char *const items[] = {"by", "value", "if", "top", "level", "kw"};
	const char *tp, *act, *name, *iv[6];
	char arg[EVHDR_NAME_MAX + 8 * EHPAIR_NAME_MAX];
	size_t at;

	for (const cJSON *k = it ? it->child : NULL; k; k = k->next)
		if (strcmp(k->string, "tracepoint") && strcmp(k->string, "activity") &&
		    strcmp(k->string, "name") && strcmp(k->string, "by") &&
		    strcmp(k->string, "value") && strcmp(k->string, "if") &&
		    strcmp(k->string, "top") && strcmp(k->string, "level") &&
		    strcmp(k->string, "kw")) {
			snprintf(err, errlen, "%s: unknown key '%s' in activities[%d]", path,
				 k->string, i);
			return -EINVAL;
		}
	if (!cJSON_IsObject(it) || member(it, "tracepoint", &tp) || !tp ||
	    member(it, "activity", &act) || member(it, "name", &name) || (name && !act) ||
	    member(it, "by", &iv[0]) || member(it, "value", &iv[1]) || member(it, "if", &iv[2]) ||
	    member(it, "top", &iv[3]) || member(it, "level", &iv[4]) || member(it, "kw", &iv[5])) {
		snprintf(err, errlen,
			 "%s: activities[%d] needs a string \"tracepoint\" (a tracepoint or a "
			 "provider), optionally an \"activity\" and, with it, a \"name\", and "
			 "strings \"by\", \"value\", \"if\", \"top\", \"level\", \"kw\" as "
			 "--activities takes them",
			 path, i);
		return -EINVAL;
	}
	at = (size_t)snprintf(arg, sizeof(arg), "%s:%s", tp, act ? act : "");
	for (size_t k = 0; k < 6; k++)
		if (iv[k] && at < sizeof(arg))
			at += (size_t)snprintf(arg + at, sizeof(arg) - at, "%s%s=%s",
					       arg[at - 1] == ':' ? "" : ",", items[k], iv[k]);
	if (arg[at - 1] == ':')
		arg[--at] = 0;
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
