// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spanfile.c - span specifications from -u arguments and from a spans file (JSON).
 *
 * A spans file (each span may also give "timeout": seconds a start waits for its end, 10, and
 * "split": false to leave out its on-CPU split, true to insist on it; see spans__split):
 *   { "spans": [ { "name": "wakeup_to_run",
 *                  "start": { "kind": "tp_btf", "probe": "sched:sched_wakeup", "field": "pid" },
 *                  "end":   { "kind": "tp_btf", "probe": "sched:sched_switch",
 *                             "field": "next_pid" },
 *                  "filter": { "pid": 0, "comm": "" } } ] }
 * ("activities", EventHeader activities, may stand beside or instead of "spans": opts_eh.c.)
 * A probe's key is "key": "tid" (default) or "pid", or "field": a field of its tracepoint (a
 * tp_btf field lattop names, or any integer field of a generic tracepoint's format file), or a
 * function's argument ("arg0".."arg4": uprobe, kprobe, fentry, fexit) or return value ("ret":
 * uretprobe, kretprobe, fexit).
 * Every error is one sentence naming the file and the key, or the span and the probe.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "base/jnum.h"
#include "collect/spans.h"
#include "collect/tpformat.h"

/* Largest spans file read (a few hundred spans' worth of JSON). */
#define SPANFILE_MAX_BYTES (1 << 20)

static const char *const kind_names[] = {
	[SPK_UPROBE] = "uprobe",
	[SPK_URETPROBE] = "uretprobe",
	[SPK_TRACEPOINT] = "tracepoint",
	[SPK_TP_BTF] = "tp_btf",
	[SPK_FENTRY] = "fentry",
	[SPK_FEXIT] = "fexit",
	[SPK_KPROBE] = "kprobe",
	[SPK_KRETPROBE] = "kretprobe",
};

/* Names of the vhost chain's rows (segsession.c), which -p and the filter name as they name
 * spans: a span may not take one. */
static const char *const reserved_names[] = { "S0", "S1", "S2", "total", NULL };

/* True when name is one of the vhost chain's row names. */
static bool name_reserved(const char *name)
{
	for (int i = 0; reserved_names[i]; i++)
		if (!strcmp(name, reserved_names[i]))
			return true;
	return false;
}

/* Tracepoints lattop carries a BTF (tp_btf) program for, and the fields each offers as keys. */
static const struct {
	const char *name;
	uint32_t tp;
	const char *fields[2];
} tps[] = {
	{ "sched:sched_wakeup", LAT_TP_SCHED_WAKEUP, { "pid", NULL } },
	{ "sched:sched_wakeup_new", LAT_TP_SCHED_WAKEUP_NEW, { "pid", NULL } },
	{ "sched:sched_switch", LAT_TP_SCHED_SWITCH, { "next_pid", "prev_pid" } },
	{ "block:block_rq_issue", LAT_TP_BLOCK_RQ_ISSUE, { "rq", "sector_dev" } },
	{ "block:block_rq_complete", LAT_TP_BLOCK_RQ_COMPLETE, { "rq", "sector_dev" } },
};

/* True when path names a readable file (a name without '/' is left to libbpf's search). */
static bool file_ok(const char *path)
{
	return !strchr(path, '/') || access(path, R_OK) == 0;
}

/* Split "target:func" into a uprobe's path (or /proc/PID/exe) and function. */
static int parse_target(struct span_probe_spec *p, const char *arg, const char *what, char *err,
			size_t errlen);

/* A kprobe's target: a kernel function name (its existence is checked at attach). */
static int parse_kfunc(struct span_probe_spec *p, const char *name, const char *what, char *err,
		       size_t errlen)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '.')
			n = 0;
	if (!n || n >= sizeof(p->func)) {
		snprintf(err, errlen, "%s '%.60s' is not a kernel function name, e.g. vfs_read", what,
			 name);
		return -EINVAL;
	}
	memcpy(p->func, name, n + 1);
	p->path[0] = '\0';
	p->pid = -1;
	return 0;
}

static int parse_target(struct span_probe_spec *p, const char *arg, const char *what, char *err,
			size_t errlen)
{
	const char *colon = strrchr(arg, ':');
	size_t tlen = colon ? (size_t)(colon - arg) : 0;
	bool digits = tlen > 0;

	if (!colon || !tlen || !colon[1]) {
		snprintf(err, errlen,
			 "%s '%s' needs FILE:FUNCTION or PID:FUNCTION, e.g. /usr/lib/libc.so.6:malloc",
			 what, arg);
		return -EINVAL;
	}
	if (tlen >= sizeof(p->path) || strlen(colon + 1) >= sizeof(p->func)) {
		snprintf(err, errlen, "%s '%.60s...' is too long", what, arg);
		return -EINVAL;
	}
	for (size_t i = 0; i < tlen; i++)
		if (!isdigit((unsigned char)arg[i]))
			digits = false;
	p->pid = -1;
	/* Checked before it becomes an int: no process ID is above PID_MAX_LIMIT. */
	if (digits && (tlen > 7 || strtol(arg, NULL, 10) > 4194304)) {
		snprintf(err, errlen, "%s '%s': no process %.*s (process IDs go up to 4194304)",
			 what, arg, (int)tlen, arg);
		return -ENOENT;
	}
	if (digits) {
		p->pid = (int)strtol(arg, NULL, 10);
		snprintf(p->path, sizeof(p->path), "/proc/%d/exe", p->pid);
		if (access(p->path, R_OK)) {
			snprintf(err, errlen, "%s '%s': no process %d (or its executable is unreadable)",
				 what, arg, p->pid);
			return -ENOENT;
		}
	} else {
		memcpy(p->path, arg, tlen);
		p->path[tlen] = '\0';
		if (!file_ok(p->path)) {
			snprintf(err, errlen, "%s '%s': no such file %s", what, arg, p->path);
			return -ENOENT;
		}
	}
	snprintf(p->func, sizeof(p->func), "%s", colon + 1);
	return 0;
}

/* Parse a -u argument. */
int spans__parse_func(struct span_spec *sp, const char *arg, char *err, size_t errlen)
{
	int e;

	memset(sp, 0, sizeof(*sp));
	e = parse_target(&sp->start, arg, "-u", err, errlen);
	if (e)
		return e;
	sp->start.kind = SPK_UPROBE;
	sp->start.keysel = LAT_KEY_TID;
	sp->end = sp->start;
	sp->end.kind = SPK_URETPROBE;
	sp->nest = 1;
	sp->timeout_ns = SPAN_TIMEOUT_NS;
	snprintf(sp->name, sizeof(sp->name), "%.63s", sp->start.func);
	snprintf(sp->kind, sizeof(sp->kind), "uprobe");
	if (name_reserved(sp->name)) {
		snprintf(err, errlen,
			 "-u '%s': the span name '%s' is the vhost chain's (S0, S1, S2, total): time "
			 "the function from a --spans file under another name",
			 arg, sp->name);
		return -EINVAL;
	}
	return 0;
}

/* Check that no two spans share a name. */
int spans__check_names(const struct span_spec *sp, int n, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < i; k++)
			if (!strcmp(sp[k].name, sp[i].name)) {
				snprintf(err, errlen,
					 "two spans are named '%s': names must be unique (a -u span "
					 "is named after its function; time one from a --spans file "
					 "under another name)",
					 sp[i].name);
				return -EINVAL;
			}
	return 0;
}

/* Report a key not in allowed (NULL-terminated) in object o, or 0. */
static int unknown_key(const cJSON *o, const char *const *allowed, const char *file,
		       const char *where, char *err, size_t errlen)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, o) {
		bool ok = false;

		for (int i = 0; allowed[i]; i++)
			if (!strcmp(it->string, allowed[i]))
				ok = true;
		if (!ok) {
			snprintf(err, errlen, "%s: unknown key '%s' in %s", file, it->string, where);
			return -EINVAL;
		}
	}
	return 0;
}

/* A string member, or NULL (with a sentence) when present but not a string. */
static int get_str(const cJSON *o, const char *key, const char **out, bool required,
		   const char *file, const char *where, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = NULL;
	if (!v && !required)
		return 0;
	if (!cJSON_IsString(v) || !v->valuestring[0]) {
		snprintf(err, errlen, "%s: '%s' in %s %s", file, key, where,
			 v ? "must be a non-empty string" : "is missing");
		return -EINVAL;
	}
	*out = v->valuestring;
	return 0;
}

/* A function probe's target and key field: uprobes take FILE:FUNC, kprobes and fentry/fexit a
 * kernel function; "arg0".."arg4" where the probe sees the arguments (not in a uretprobe or
 * kretprobe: the argument registers are gone by then), "ret" where it sees the return. */
static int parse_function(struct span_probe_spec *p, const char *probe, const char *field,
			  const char *file, const char *where, char *err, size_t errlen)
{
	bool ret = p->kind == SPK_URETPROBE || p->kind == SPK_KRETPROBE || p->kind == SPK_FEXIT;
	bool args = p->kind != SPK_URETPROBE && p->kind != SPK_KRETPROBE;
	char what[160];

	if (field) {
		bool arg = !strncmp(field, "arg", 3) && field[3] >= '0' && field[3] <= '4' &&
			   !field[4];

		if (arg && args) {
			p->field = (uint32_t)(field[3] - '0');
		} else if (!strcmp(field, "ret") && ret) {
			p->field = LAT_FIELD_RET;
		} else {
			snprintf(err, errlen, "%s: bad field '%s' in %s: use %s", file, field, where,
				 args && ret ? "arg0..arg4 (the function's arguments) or ret"
				 : args	     ? "arg0..arg4 (the function's arguments)"
					     : "ret (the return value)");
			return -EINVAL;
		}
		p->keysel = LAT_KEY_FIELD;
	}
	snprintf(what, sizeof(what), "%s: probe in %s", file, where);
	if (p->kind == SPK_UPROBE || p->kind == SPK_URETPROBE)
		return parse_target(p, probe, what, err, errlen);
	return parse_kfunc(p, probe, what, err, errlen);
}

/* A generic tracepoint "category:name", checked against tracefs, and its key field's place in
 * the record. */
static int parse_tracepoint(struct span_probe_spec *p, const char *probe, const char *field,
			    const char *file, const char *where, char *err, size_t errlen)
{
	const char *colon = strchr(probe, ':'), *tracefs;
	char cat[64], name[64], avail[512];
	struct tp_field f;
	int e;

	if (!colon || colon == probe || !colon[1] || (size_t)(colon - probe) >= sizeof(cat) ||
	    strlen(colon + 1) >= sizeof(name)) {
		snprintf(err, errlen,
			 "%s: tracepoint '%.80s' in %s needs CATEGORY:NAME, e.g. "
			 "syscalls:sys_enter_nanosleep",
			 file, probe, where);
		return -EINVAL;
	}
	snprintf(cat, sizeof(cat), "%.*s", (int)(colon - probe), probe);
	snprintf(name, sizeof(name), "%s", colon + 1);
	snprintf(p->func, sizeof(p->func), "%s", probe);
	p->tp = LAT_TP_NONE;
	tracefs = tpformat__tracefs();
	if (!tracefs) {
		snprintf(err, errlen,
			 "%s: tracepoint '%s' in %s: tracefs is not mounted and cannot be (%s); "
			 "mount it with `mount -t tracefs tracefs /sys/kernel/tracing`",
			 file, probe, where, strerror(errno));
		return -ENOTSUP;
	}
	if (!tpformat__exists(tracefs, cat, name)) {
		snprintf(err, errlen, "%s: no tracepoint '%s' in %s (see %s/available_events)", file,
			 probe, where, tracefs);
		return -ENOENT;
	}
	if (!field)
		return 0;
	e = tpformat__field(tracefs, cat, name, field, &f, avail, sizeof(avail));
	if (e == -ENOENT || e == -EINVAL) {
		snprintf(err, errlen, "%s: %s field '%s' of %s in %s: use one of %s", file,
			 e == -ENOENT ? "no" : "non-integer", field, probe, where, avail);
		return -EINVAL;
	}
	if (e) {
		snprintf(err, errlen, "%s: cannot read the format of tracepoint '%s' in %s: %s", file,
			 probe, where, strerror(-e));
		return e;
	}
	if (f.off > 0xfff) {
		snprintf(err, errlen, "%s: field '%s' of %s in %s lies beyond 4 KiB in the record",
			 file, field, probe, where);
		return -EINVAL;
	}
	p->keysel = LAT_KEY_FIELD;
	p->fld_off = (uint16_t)f.off;
	p->fld_size = (uint8_t)f.size;
	p->fld_signed = f.is_signed;
	return 0;
}

/* The probe kind named kind into p->kind; a kprobe kind where the kernel has none is refused
 * (whether fentry loads is known only by trying: spans__new). Returns 0 or a negative errno
 * with one sentence in err. */
static int parse_kind(struct span_probe_spec *p, const struct span_spec *sp, const char *kind,
		      const char *probe, const char *which, const char *file, const char *where,
		      char *err, size_t errlen)
{
	int k = -1;

	for (size_t i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(kind, kind_names[i]))
			k = (int)i;
	if (k < 0) {
		snprintf(err, errlen,
			 "%s: unknown kind '%s' in %s: use uprobe, uretprobe, tracepoint, tp_btf, "
			 "fentry, fexit, kprobe or kretprobe",
			 file, kind, where);
		return -EINVAL;
	}
	p->kind = (enum span_probe_kind)k;
	/* The kprobe PMU is there exactly when the kernel has kprobes. */
	if ((k == SPK_KPROBE || k == SPK_KRETPROBE) &&
	    access("/sys/bus/event_source/devices/kprobe/type", R_OK)) {
		snprintf(err, errlen,
			 "span '%s': %s probe %s %s is unavailable: this kernel has no kprobes "
			 "(CONFIG_KPROBES is not set); use uprobe, uretprobe, tracepoint or tp_btf",
			 sp->name, which, kind, probe);
		return -ENOTSUP;
	}
	return 0;
}

/* The key ("tid", the default, or "pid") into p->keysel; "key" and "field" together are
 * refused. Returns 0 or -EINVAL with one sentence in err. */
static int parse_key(struct span_probe_spec *p, const char *key, const char *field,
		     const char *file, const char *where, char *err, size_t errlen)
{
	if (key && field) {
		snprintf(err, errlen, "%s: give 'key' or 'field' in %s, not both", file, where);
		return -EINVAL;
	}
	p->keysel = LAT_KEY_TID;
	if (key && !strcmp(key, "pid")) {
		p->keysel = LAT_KEY_PID;
	} else if (key && strcmp(key, "tid")) {
		snprintf(err, errlen, "%s: bad key '%s' in %s: use tid or pid (or 'field')", file,
			 key, where);
		return -EINVAL;
	}
	return 0;
}

/* A tp_btf probe: one of the tracepoints lattop has a BTF program for, keyed by one of its
 * fields if field is given. Returns 0 or -EINVAL with one sentence in err. */
static int parse_tp_btf(struct span_probe_spec *p, const char *probe, const char *field,
			const char *file, const char *where, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(tps) / sizeof(tps[0]); i++) {
		const char *bare = strchr(tps[i].name, ':') + 1;

		if (strcmp(probe, tps[i].name) && strcmp(probe, bare))
			continue;
		p->tp = tps[i].tp;
		snprintf(p->func, sizeof(p->func), "%s", tps[i].name);
		if (!field)
			return 0;
		for (uint32_t f = 0; f < 2; f++)
			if (tps[i].fields[f] && !strcmp(field, tps[i].fields[f])) {
				p->keysel = LAT_KEY_FIELD;
				p->field = f;
				return 0;
			}
		snprintf(err, errlen, "%s: no field '%s' of %s in %s: use %s%s%s", file, field,
			 tps[i].name, where, tps[i].fields[0], tps[i].fields[1] ? " or " : "",
			 tps[i].fields[1] ? tps[i].fields[1] : "");
		return -EINVAL;
	}
	snprintf(err, errlen,
		 "%s: tp_btf '%s' in %s is not one lattop has a program for: use "
		 "sched:sched_wakeup, sched:sched_wakeup_new, sched:sched_switch, "
		 "block:block_rq_issue or block:block_rq_complete (or kind 'tracepoint' for any "
		 "other)",
		 file, probe, where);
	return -EINVAL;
}

/* Parse one probe object ("start" or "end") of span sp. */
static int parse_probe(const cJSON *o, struct span_spec *sp, struct span_probe_spec *p,
		       const char *which, const char *file, char *err, size_t errlen)
{
	static const char *const keys[] = { "kind", "probe", "key", "field", NULL };
	const char *kind, *probe, *key, *field;
	char where[128];
	int e;

	snprintf(where, sizeof(where), "span '%s' %s", sp->name, which);
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: '%s' in span '%s' %s", file, which, sp->name,
			 o ? "must be an object" : "is missing");
		return -EINVAL;
	}
	if ((e = unknown_key(o, keys, file, where, err, errlen)) ||
	    (e = get_str(o, "kind", &kind, true, file, where, err, errlen)) ||
	    (e = get_str(o, "probe", &probe, true, file, where, err, errlen)) ||
	    (e = get_str(o, "key", &key, false, file, where, err, errlen)) ||
	    (e = get_str(o, "field", &field, false, file, where, err, errlen)) ||
	    (e = parse_kind(p, sp, kind, probe, which, file, where, err, errlen)) ||
	    (e = parse_key(p, key, field, file, where, err, errlen)))
		return e;
	if (p->kind == SPK_TRACEPOINT)
		return parse_tracepoint(p, probe, field, file, where, err, errlen);
	if (p->kind != SPK_TP_BTF)
		return parse_function(p, probe, field, file, where, err, errlen);
	return parse_tp_btf(p, probe, field, file, where, err, errlen);
}

/* Parse the optional filter object of span sp. */
static int parse_filter(const cJSON *o, struct span_spec *sp, const char *file, char *err,
			size_t errlen)
{
	static const char *const keys[] = { "pid",  "comm", "arg0", "arg1", "arg2",
					    "arg3", "arg4", "ret",  NULL };
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(o, "pid");
	const char *comm;
	char where[96], what[200];
	int e;

	snprintf(where, sizeof(where), "span '%s' filter", sp->name);
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: 'filter' in span '%s' must be an object", file, sp->name);
		return -EINVAL;
	}
	if ((e = unknown_key(o, keys, file, where, err, errlen)) ||
	    (e = get_str(o, "comm", &comm, false, file, where, err, errlen)))
		return e;
	/* Conditions on the arguments and the return value: "arg2": "> 4096", "ret": "< 0". */
	for (int i = 2; keys[i]; i++) {
		const char *cond;

		if ((e = get_str(o, keys[i], &cond, false, file, where, err, errlen)))
			return e;
		snprintf(what, sizeof(what), "%s: '%s' in %s", file, keys[i], where);
		if (cond && (e = spans__parse_cond(sp, keys[i], cond, what, err, errlen)))
			return e;
	}
	if (pid) {
		char why[160];
		int64_t v;

		/* 0: any process; else a process ID (at most PID_MAX_LIMIT). */
		if (jnum__int(o, "pid", 0, 4194304, &v, why, sizeof(why))) {
			jnum__show(o, "pid", why, sizeof(why));
			snprintf(err, errlen,
				 "%s: 'pid' in %s must be a process ID up to 4194304 (0: any), "
				 "not %s",
				 file, where, why);
			return -EINVAL;
		}
		sp->filter_pid = (uint32_t)v;
	}
	if (comm && strlen(comm) >= sizeof(sp->filter_comm)) {
		snprintf(err, errlen, "%s: 'comm' in %s is longer than 15 characters", file, where);
		return -EINVAL;
	}
	if (comm)
		snprintf(sp->filter_comm, sizeof(sp->filter_comm), "%s", comm);
	return 0;
}

/* Parse the optional breakdown object of span sp: { "by": KEY, "groups": K }. */
static int parse_breakdown(const cJSON *o, struct span_spec *sp, const char *file, char *err,
			   size_t errlen)
{
	static const char *const keys[] = { "by", "groups", NULL };
	char where[96], what[200];
	const char *by;
	int e;

	snprintf(where, sizeof(where), "span '%s' breakdown", sp->name);
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: 'breakdown' in span '%s' must be an object", file,
			 sp->name);
		return -EINVAL;
	}
	if ((e = unknown_key(o, keys, file, where, err, errlen)) ||
	    (e = get_str(o, "by", &by, true, file, where, err, errlen)))
		return e;
	snprintf(what, sizeof(what), "%s: 'by' in %s", file, where);
	if ((e = spans__parse_by(sp, by, false, what, err, errlen)))
		return e;
	if (cJSON_GetObjectItemCaseSensitive(o, "groups")) {
		char why[160];
		int64_t v;

		if (jnum__int(o, "groups", 1, LAT_SPAN_GROUPS, &v, why, sizeof(why))) {
			jnum__show(o, "groups", why, sizeof(why));
			snprintf(err, errlen, "%s: 'groups' in %s must be 1 to %d, not %s", file,
				 where, LAT_SPAN_GROUPS, why);
			return -EINVAL;
		}
		sp->groups = (uint8_t)v;
	}
	return 0;
}

/* The span's optional breakdown, then a check of it and of the filter's conditions against
 * the probes (the file named in the sentence). */
static int parse_by(const cJSON *o, struct span_spec *sp, const char *file, char *err,
		    size_t errlen)
{
	const cJSON *by = cJSON_GetObjectItemCaseSensitive(o, "breakdown");
	char why[400];
	int e;

	if (by && (e = parse_breakdown(by, sp, file, err, errlen)))
		return e;
	if ((e = spans__check_by(sp, err, errlen))) {
		snprintf(why, sizeof(why), "%s: %s", file, err);
		snprintf(err, errlen, "%s", why);
	}
	return e;
}

/* Parse one span object. */
/* A span's "split" (after its probes): false leaves the on-CPU split out; true asks for it,
 * refused for a span that cannot have it. Returns 0 or -EINVAL with one sentence. */
static int parse_split(const cJSON *v, struct span_spec *sp, const char *file, char *err,
		       size_t errlen)
{
	if (!v)
		return 0;
	if (!cJSON_IsBool(v)) {
		snprintf(err, errlen, "%s: 'split' in span '%s' must be true or false", file,
			 sp->name);
		return -EINVAL;
	}
	sp->no_split = cJSON_IsFalse(v);
	if (!sp->no_split && !spans__split(sp)) {
		snprintf(err, errlen,
			 "%s: span '%s' cannot be split into on-CPU and off-CPU time: its start "
			 "and end must both be keyed by \"tid\" (or by \"pid\" on a span that does "
			 "not nest), so that both run in the task whose time is measured",
			 file, sp->name);
		return -EINVAL;
	}
	return 0;
}

static int parse_span(const cJSON *o, int idx, struct span_spec *sp, const char *file, char *err,
		      size_t errlen)
{
	static const char *const keys[] = { "name",    "start",     "end",   "filter",
					    "timeout", "breakdown", "split", NULL };
	const cJSON *filter, *timeout;
	const char *name;
	char where[64];
	int e;

	memset(sp, 0, sizeof(*sp));
	snprintf(where, sizeof(where), "spans[%d]", idx);
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: %s must be an object", file, where);
		return -EINVAL;
	}
	if ((e = unknown_key(o, keys, file, where, err, errlen)) ||
	    (e = get_str(o, "name", &name, true, file, where, err, errlen)))
		return e;
	if (strlen(name) >= sizeof(sp->name)) {
		snprintf(err, errlen, "%s: 'name' in %s is longer than 63 characters", file, where);
		return -EINVAL;
	}
	snprintf(sp->name, sizeof(sp->name), "%s", name);
	if (name_reserved(name)) {
		snprintf(err, errlen,
			 "%s: the name '%s' in %s is the vhost chain's (S0, S1, S2, total): choose "
			 "another",
			 file, name, where);
		return -EINVAL;
	}
	if ((e = parse_probe(cJSON_GetObjectItemCaseSensitive(o, "start"), sp, &sp->start, "start",
			     file, err, errlen)) ||
	    (e = parse_probe(cJSON_GetObjectItemCaseSensitive(o, "end"), sp, &sp->end, "end", file,
			     err, errlen)))
		return e;
	filter = cJSON_GetObjectItemCaseSensitive(o, "filter");
	if (filter && (e = parse_filter(filter, sp, file, err, errlen)))
		return e;
	if ((e = parse_by(o, sp, file, err, errlen)))
		return e;
	/* Seconds a start may wait for its end before it is dropped (counted as evicted). */
	timeout = cJSON_GetObjectItemCaseSensitive(o, "timeout");
	sp->timeout_ns = SPAN_TIMEOUT_NS;
	if (timeout) {
		char why[160];
		double secs;

		if (jnum__num(o, "timeout", 0.1, 86400, &secs, why, sizeof(why))) {
			jnum__show(o, "timeout", why, sizeof(why));
			snprintf(err, errlen,
				 "%s: 'timeout' in span '%s' must be seconds from 0.1 to 86400, "
				 "not %s",
				 file, sp->name, why);
			return -EINVAL;
		}
		sp->timeout_ns = (uint64_t)(secs * 1e9);
		sp->timeout_given = 1;
	}
	/* One function's entry and return on one thread nest (recursion): a stack of starts.
	 * The entry of one function and the return of another do not: their pairs need not nest,
	 * so they keep one start per thread and count a replaced one as a collision. */
	{
		bool entry_return =
			(sp->start.kind == SPK_UPROBE && sp->end.kind == SPK_URETPROBE) ||
			(sp->start.kind == SPK_KPROBE && sp->end.kind == SPK_KRETPROBE) ||
			(sp->start.kind == SPK_FENTRY && sp->end.kind == SPK_FEXIT);
		bool same_fn = !strcmp(sp->start.func, sp->end.func) &&
			       !strcmp(sp->start.path, sp->end.path) && sp->start.pid == sp->end.pid;

		sp->nest = entry_return && same_fn && sp->start.keysel == LAT_KEY_TID &&
			   sp->end.keysel == LAT_KEY_TID;
		snprintf(sp->kind, sizeof(sp->kind), "%s",
			 sp->start.kind == sp->end.kind || entry_return ? kind_names[sp->start.kind]
									: "mixed");
	}
	return parse_split(cJSON_GetObjectItemCaseSensitive(o, "split"), sp, file, err, errlen);
}

/* Read a whole spans file into a NUL-terminated buffer (NULL + errno; EFBIG when it holds more
 * than SPANFILE_MAX_BYTES). */
char *spans__read_file(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(SPANFILE_MAX_BYTES + 2);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	/* One byte more than the limit: a file that fills it is too large, not cut short. */
	n = fread(buf, 1, SPANFILE_MAX_BYTES + 1, f);
	fclose(f);
	if (n > SPANFILE_MAX_BYTES) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* Parse a spans file. */
int spans__parse_file(const char *path, struct span_spec *out, int max, int *n, char *err,
		      size_t errlen)
{
	static const char *const keys[] = { "spans", "activities", NULL };
	char *txt = spans__read_file(path);
	const cJSON *arr, *it;
	cJSON *root;
	int e = 0, i = 0;

	if (!txt && errno == EFBIG) {
		snprintf(err, errlen,
			 "the spans file %s is larger than %d MiB, the most lattop reads: split it "
			 "into several --spans files",
			 path, SPANFILE_MAX_BYTES >> 20);
		return -EFBIG;
	}
	if (!txt) {
		snprintf(err, errlen, "cannot read the spans file %s: %s", path, strerror(errno));
		return -ENOENT;
	}
	root = cJSON_Parse(txt);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		int line = 1;

		for (const char *c = txt; at && c < at && *c; c++)
			line += *c == '\n';
		snprintf(err, errlen, "%s: not valid JSON (line %d)", path, line);
		free(txt);
		return -EINVAL;
	}
	free(txt);
	arr = cJSON_GetObjectItemCaseSensitive(root, "spans");
	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "%s: the top level must be an object with a 'spans' array",
			 path);
		e = -EINVAL;
	} else if ((e = unknown_key(root, keys, path, "the top level", err, errlen))) {
		/* err set */
	} else if (!arr && cJSON_GetObjectItemCaseSensitive(root, "activities")) {
		/* EventHeader activities only: the session's options read them (opts_eh.c). */
	} else if (!cJSON_IsArray(arr) || !cJSON_GetArraySize(arr)) {
		snprintf(err, errlen, "%s: 'spans' must be a non-empty array", path);
		e = -EINVAL;
	}
	if (!e) {
		cJSON_ArrayForEach(it, arr) {
			if (*n >= max) {
				snprintf(err, errlen, "%s: too many spans: at most %d in all", path,
					 max);
				e = -EINVAL;
				break;
			}
			e = parse_span(it, i++, &out[*n], path, err, errlen);
			if (e)
				break;
			for (int k = 0; k < *n; k++)
				if (!strcmp(out[k].name, out[*n].name)) {
					snprintf(err, errlen, "%s: two spans are named '%s'", path,
						 out[k].name);
					e = -EINVAL;
				}
			if (e)
				break;
			(*n)++;
		}
	}
	cJSON_Delete(root);
	return e;
}
