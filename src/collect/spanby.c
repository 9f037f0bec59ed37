// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spanby.c - a span's breakdown by key and its conditions on arguments and the return value,
 * as -u's --by and --where and a spans file's "breakdown" and "filter" give them:
 *   --by KEY[:K]          KEY pid, comm, cgroup, argN (N 0..4) or ret; K groups (1..32, 8)
 *   --where 'FIELD OP N'  FIELD argN or ret; OP <, <=, >, >=, == or !=; N a signed integer
 * Every error is one sentence.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/spans.h"

/* A field name: "argN" (N 0..4) -> N, "ret" -> LAT_FIELD_RET; -1 when neither. len: its
 * length in s. */
static int field_of(const char *s, size_t len)
{
	if (len == 3 && !strncmp(s, "ret", 3))
		return LAT_FIELD_RET;
	if (len == 4 && !strncmp(s, "arg", 3) && s[3] >= '0' && s[3] <= '4')
		return s[3] - '0';
	return -1;
}

/* Parse a breakdown key (and ":K" when colon_groups). */
int spans__parse_by(struct span_spec *sp, const char *v, bool colon_groups, const char *what,
		    char *err, size_t errlen)
{
	static const char *const names[] = {
	    [LAT_BY_PID] = "pid", [LAT_BY_COMM] = "comm", [LAT_BY_CGROUP] = "cgroup"};
	const char *colon = colon_groups ? strchr(v, ':') : NULL;
	size_t len = colon ? (size_t)(colon - v) : strlen(v);
	int f = field_of(v, len);

	sp->by = LAT_BY_NONE;
	for (int i = LAT_BY_PID; i <= LAT_BY_CGROUP; i++)
		if (strlen(names[i]) == len && !strncmp(v, names[i], len))
			sp->by = (uint8_t)i;
	if (f >= 0) {
		sp->by = f == LAT_FIELD_RET ? LAT_BY_RET : LAT_BY_ARG;
		sp->by_field = (uint8_t)f;
	}
	if (!sp->by) {
		snprintf(err, errlen,
			 "%s '%.60s': break down by pid, comm, cgroup, arg0..arg4 or ret", what, v);
		return -EINVAL;
	}
	sp->groups = SPAN_GROUPS_DEFAULT;
	if (colon) {
		char *end;
		long k = strtol(colon + 1, &end, 10);

		if (!isdigit((unsigned char)colon[1]) || *end || k < 1 || k > LAT_SPAN_GROUPS) {
			snprintf(err, errlen, "%s '%.60s': the groups after ':' must be 1 to %d",
				 what, v, LAT_SPAN_GROUPS);
			return -EINVAL;
		}
		sp->groups = (uint8_t)k;
	}
	return 0;
}

/* The operator at s: its enum lat_span_op and length, or -1. */
static int op_of(const char *s, int *len)
{
	static const char *const ops[] = {
	    [LAT_OP_LE] = "<=", [LAT_OP_GE] = ">=", [LAT_OP_EQ] = "==",
	    [LAT_OP_NE] = "!=", [LAT_OP_LT] = "<",  [LAT_OP_GT] = ">"};

	/* The two-character ones first, so that "<=" is not "<" then "=". */
	static const int order[] = {LAT_OP_LE, LAT_OP_GE, LAT_OP_EQ,
				    LAT_OP_NE, LAT_OP_LT, LAT_OP_GT};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		size_t n = strlen(ops[order[i]]);

		if (!strncmp(s, ops[order[i]], n)) {
			*len = (int)n;
			return order[i];
		}
	}
	return -1;
}

/* Parse one condition. */
int spans__parse_cond(struct span_spec *sp, const char *field, const char *v, const char *what,
		      char *err, size_t errlen)
{
	const char *p = v;
	int f, op, oplen = 0;
	long long n;
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	if (field) {
		f = field_of(field, strlen(field));
	} else {
		const char *q = p;

		while (isalnum((unsigned char)*q))
			q++;
		f = field_of(p, (size_t)(q - p));
		p = q;
	}
	while (isspace((unsigned char)*p))
		p++;
	op = op_of(p, &oplen);
	if (f < 0 || op < 0) {
		snprintf(err, errlen,
			 "%s '%.60s': a condition is FIELD OP NUMBER, FIELD arg0..arg4 or ret, OP "
			 "<, <=, >, >=, == or !=, e.g. 'arg2 > 4096'",
			 what, v);
		return -EINVAL;
	}
	p += oplen;
	while (isspace((unsigned char)*p))
		p++;
	errno = 0;
	n = strtoll(p, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (end == p || *end || errno) {
		snprintf(err, errlen, "%s '%.60s': '%.30s' is not a 64-bit integer", what, v, p);
		return -EINVAL;
	}
	if (sp->nfilt >= LAT_SPAN_FILTERS) {
		snprintf(err, errlen, "%s '%.60s': at most %d conditions per span", what, v,
			 LAT_SPAN_FILTERS);
		return -EINVAL;
	}
	sp->filt[sp->nfilt++] =
	    (struct lat_span_filt){.field = (uint8_t)f, .op = (uint8_t)op, .val = n};
	return 0;
}

/* Whether probe kind k sees the arguments (a function's entry) or the return value. */
static bool sees_args(enum span_probe_kind k)
{
	return k == SPK_UPROBE || k == SPK_KPROBE || k == SPK_FENTRY;
}

static bool sees_ret(enum span_probe_kind k)
{
	return k == SPK_URETPROBE || k == SPK_KRETPROBE || k == SPK_FEXIT;
}

/* Check what the breakdown and the conditions need of the span's probes. */
int spans__check_by(const struct span_spec *sp, char *err, size_t errlen)
{
	bool arg = sp->by == LAT_BY_ARG, ret = sp->by == LAT_BY_RET;

	for (int i = 0; i < sp->nfilt; i++) {
		arg |= sp->filt[i].field < LAT_FIELD_RET;
		ret |= sp->filt[i].field == LAT_FIELD_RET;
	}
	if (arg && !sees_args(sp->start.kind)) {
		snprintf(err, errlen,
			 "span '%s': its breakdown or filter names an argument, which needs a "
			 "uprobe, kprobe or fentry start",
			 sp->name);
		return -EINVAL;
	}
	if (ret && !sees_ret(sp->end.kind)) {
		snprintf(err, errlen,
			 "span '%s': its breakdown or filter names ret, which needs a uretprobe, "
			 "kretprobe or fexit end",
			 sp->name);
		return -EINVAL;
	}
	return 0;
}

/* A group's label. */
void spans__group_label(uint8_t by, uint8_t by_field, const uint64_t v[2], char *buf, size_t len)
{
	char comm[17];

	switch (by) {
	case LAT_BY_PID:
		snprintf(buf, len, "pid %" PRIu64, v[0]);
		break;
	case LAT_BY_COMM:
		memcpy(comm, v, 16);
		comm[16] = '\0';
		snprintf(buf, len, "comm %s", comm);
		break;
	case LAT_BY_CGROUP:
		snprintf(buf, len, "cgroup %" PRIu64, v[0]);
		break;
	case LAT_BY_ARG:
		snprintf(buf, len, "arg%u=%" PRId64, by_field, (int64_t)v[0]);
		break;
	default:
		snprintf(buf, len, "ret=%" PRId64, (int64_t)v[0]);
		break;
	}
}
