// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * profile.c - segments-mode profiles as JSON (libcjson).
 *
 * {"lattop_version": "0.1.0", "kernel": "6.1.0-56-amd64", "timestamp": "...Z",
 *  "device": "vtap0", "flow": "proto=udp,...",
 *  "eventfds": [{"ctx": "0xffff...", "queue": 0, "runs": 5, "packets": 64}],
 *  "workers": [{"tid": 812, "pid": 2, "comm": "vhost-811", "ctx": "0xffff...", "queue": 0,
 *               "runs": 5, "packets": 64}]}
 * Pointers are hex strings: a JSON number (a double) cannot hold a kernel address.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include <cjson/cJSON.h>

#include "base/jnum.h"
#include "base/jsonw.h"
#include "base/outfile.h"
#include "collect/profile.h"

/* Queue of an eventfd. */
int profile__queue(const struct profile *p, uint64_t ctx)
{
	for (int i = 0; i < p->nctx; i++)
		if (p->ctx[i].ctx == ctx)
			return i;
	return -1;
}

/* A pointer as a hex string member. */
static void hex_field(struct jsonw *w, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	jsonw__string_field(w, key, buf);
}

/* The profile as JSON text laid out as cJSON_Print lays it out (caller frees), or NULL when
 * out of memory. Counts are written exactly (the reader takes up to 2^53). */
static char *profile_json(const struct profile *p)
{
	struct jsonw_mem jm;
	struct jsonw *w = &jm.w;

	if (jsonw__mem_open(&jm))
		return NULL;
	jsonw__pretty(w);
	jsonw__begin_object(w);
	jsonw__string_field(w, "lattop_version", p->version);
	jsonw__string_field(w, "kernel", p->kernel);
	jsonw__string_field(w, "timestamp", p->timestamp);
	jsonw__string_field(w, "device", p->device);
	jsonw__string_field(w, "flow", p->flow);
	jsonw__key(w, "eventfds");
	jsonw__begin_array(w);
	for (int i = 0; i < p->nctx; i++) {
		jsonw__begin_object(w);
		hex_field(w, "ctx", p->ctx[i].ctx);
		jsonw__s64_field(w, "queue", i);
		jsonw__u64_field(w, "runs", p->ctx[i].runs);
		jsonw__u64_field(w, "packets", p->ctx[i].packets);
		jsonw__end_object(w);
	}
	jsonw__end_array(w);
	jsonw__key(w, "workers");
	jsonw__begin_array(w);
	for (int i = 0; i < p->ntid; i++) {
		const struct profile_tid *t = &p->tid[i];

		jsonw__begin_object(w);
		jsonw__u64_field(w, "tid", t->tid);
		jsonw__u64_field(w, "pid", t->pid);
		jsonw__string_field(w, "comm", t->comm);
		hex_field(w, "ctx", t->ctx);
		jsonw__u64_field(w, "queue", t->queue);
		jsonw__u64_field(w, "runs", t->runs);
		jsonw__u64_field(w, "packets", t->packets);
		jsonw__end_object(w);
	}
	jsonw__end_array(w);
	jsonw__end_object(w);
	return jsonw__mem_close(&jm);
}

/* Write a profile. */
int profile__write(struct profile *p, const char *path, char *err, size_t errlen)
{
	struct utsname u;
	time_t t = time(NULL);
	struct tm tm;
	char *txt;
	FILE *f;
	int fd, e = 0;

	gmtime_r(&t, &tm);
	strftime(p->timestamp, sizeof(p->timestamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!uname(&u))
		snprintf(p->kernel, sizeof(p->kernel), "%s", u.release);
	snprintf(p->version, sizeof(p->version), "%s", LATTOP_VERSION);
	txt = profile_json(p);
	if (!txt) {
		snprintf(err, errlen, "cannot write the profile %s: out of memory", path);
		return -ENOMEM;
	}
	/* A new file only (outfile.h): never through a link, never over another file. */
	fd = outfile__create(path, "profile", err, errlen);
	if (fd < 0) {
		free(txt);
		return fd;
	}
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
	} else {
		/* Buffered: a full disk may only show at fflush or fclose. */
		if (fputs(txt, f) < 0 || fputc('\n', f) < 0 || fflush(f))
			e = errno;
		if (!e && fsync(fileno(f)) && errno != EINVAL)
			e = errno;
		if (fclose(f) && !e)
			e = errno;
	}
	free(txt);
	if (e)
		snprintf(err, errlen, "cannot write the profile %s: %s", path, strerror(e));
	return -e;
}

/* A required string member into buf. */
static int get_str(const cJSON *o, const char *key, char *buf, size_t len, const char *path,
		   const char *where, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= len) {
		snprintf(err, errlen, "profile %s: %s\"%s\" is %s: run lattop --discover again",
			 path, where, key, v ? "not a valid string" : "missing");
		return -EINVAL;
	}
	snprintf(buf, len, "%s", v->valuestring);
	return 0;
}

/* A required hex pointer member. */
static int get_hex(const cJSON *o, const char *key, uint64_t *out, const char *path,
		   const char *where, char *err, size_t errlen)
{
	char buf[24], *end;

	if (get_str(o, key, buf, sizeof(buf), path, where, err, errlen))
		return -EINVAL;
	errno = 0;
	*out = strtoull(buf, &end, 16);
	if (errno || *end || strncmp(buf, "0x", 2) || !*out) {
		snprintf(err, errlen,
			 "profile %s: %s\"%s\" is not a hex address like \"0xffff8881...\": run "
			 "lattop --discover again",
			 path, where, key);
		return -EINVAL;
	}
	return 0;
}

/* Largest pid/tid the kernel hands out (PID_MAX_LIMIT), and largest count a JSON number holds
 * exactly. */
#define PROFILE_TID_MAX 4194304
#define PROFILE_COUNT_MAX (1ll << 53)

/* A whole-number member from min to max into *out: 0, -ENOENT when absent (a sentence in err
 * when required), -EINVAL when present but not such a number (always a sentence). */
static int get_num(const cJSON *o, const char *key, bool required, int64_t min, int64_t max,
		   uint64_t *out, const char *path, const char *where, char *err, size_t errlen)
{
	char why[160];
	int64_t v;
	int e = jnum__int(o, key, min, max, &v, why, sizeof(why));

	if (!e)
		*out = (uint64_t)v;
	else if (e == -ENOENT && required)
		snprintf(err, errlen,
			 "profile %s: %s\"%s\" is missing: run lattop --discover again", path,
			 where, key);
	else if (e == -EINVAL)
		snprintf(err, errlen, "profile %s: %s%s (run lattop --discover again)", path, where,
			 why);
	return e;
}

/* A required array member. */
static const cJSON *get_arr(const cJSON *o, const char *key, const char *path, char *err,
			    size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v) ||
	    cJSON_GetArraySize(v) > LAT_VHOST_MAX_CTX) {
		snprintf(err, errlen,
			 "profile %s: \"%s\" is %s: run lattop --discover again", path, key,
			 !v ? "missing" : !cJSON_IsArray(v) ? "not an array"
				: cJSON_GetArraySize(v) ? "too long (at most 16 entries)" : "empty");
		return NULL;
	}
	return v;
}

/* Read the whole file. */
static char *slurp(const char *path, char *err, size_t errlen, int *e)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		*e = errno;
		snprintf(err, errlen, "cannot open the profile %s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? 2 * cap : 16384;
			if (cap > (1u << 20) || !(nb = realloc(buf, cap))) {
				snprintf(err, errlen, "profile %s is too large (over 1 MiB)", path);
				free(buf);
				fclose(f);
				*e = EINVAL;
				return NULL;
			}
			buf = nb;
		}
		size_t r = fread(buf + n, 1, 4096, f);

		n += r;
		if (r < 4096)
			break;
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Read and parse the profile file: its JSON object (caller deletes), or NULL with one sentence
 * in err and a positive errno in *e. */
static cJSON *parse_file(const char *path, char *err, size_t errlen, int *e)
{
	char *txt = slurp(path, err, errlen, e);
	cJSON *root;

	if (!txt)
		return NULL;
	root = cJSON_Parse(txt);
	if (!root || !cJSON_IsObject(root)) {
		const char *at = cJSON_GetErrorPtr();

		snprintf(err, errlen, "profile %s is not valid JSON (near offset %ld): run lattop "
			 "--discover again",
			 path, at && root == NULL ? (long)(at - txt) : 0L);
		cJSON_Delete(root);
		root = NULL;
		*e = EINVAL;
	}
	free(txt);
	return root;
}

/* The "eventfds" array: each kick eventfd's ctx, runs and packets. Returns 0 or -EINVAL with
 * one sentence in err. */
static int load_eventfds(struct profile *p, const cJSON *root, const char *path, char *err,
			 size_t errlen)
{
	const cJSON *arr = get_arr(root, "eventfds", path, err, errlen), *it;
	char where[48];
	int i = 0;

	if (!arr)
		return -EINVAL;
	cJSON_ArrayForEach(it, arr) {
		snprintf(where, sizeof(where), "eventfds[%d].", i);
		if (get_hex(it, "ctx", &p->ctx[i].ctx, path, where, err, errlen) ||
		    get_num(it, "runs", false, 0, PROFILE_COUNT_MAX, &p->ctx[i].runs, path, where,
			    err, errlen) == -EINVAL ||
		    get_num(it, "packets", false, 0, PROFILE_COUNT_MAX, &p->ctx[i].packets, path,
			    where, err, errlen) == -EINVAL)
			return -EINVAL;
		i++;
	}
	p->nctx = i;
	return 0;
}

/* One "workers" entry into w: tid and ctx required (the ctx one of the eventfds, which gives
 * its queue), pid, comm, runs and packets optional. Returns 0 or -EINVAL with one sentence in
 * err. */
static int load_worker(const struct profile *p, const cJSON *it, struct profile_tid *w,
		       const char *where, const char *path, char *err, size_t errlen)
{
	uint64_t v;
	int e, q;

	if (get_num(it, "tid", true, 1, PROFILE_TID_MAX, &v, path, where, err, errlen))
		return -EINVAL;
	w->tid = (uint32_t)v;
	if (get_hex(it, "ctx", &w->ctx, path, where, err, errlen))
		return -EINVAL;
	q = profile__queue(p, w->ctx);
	if (q < 0) {
		snprintf(err, errlen,
			 "profile %s: %s\"ctx\" is not one of \"eventfds\": run lattop "
			 "--discover again",
			 path, where);
		return -EINVAL;
	}
	w->queue = (uint32_t)q;
	e = get_num(it, "pid", false, 1, PROFILE_TID_MAX, &v, path, where, err, errlen);
	if (e == -EINVAL)
		return -EINVAL;
	if (!e)
		w->pid = (uint32_t)v;
	get_str(it, "comm", w->comm, sizeof(w->comm), path, where, err, errlen);
	if (get_num(it, "runs", false, 0, PROFILE_COUNT_MAX, &w->runs, path, where, err,
		    errlen) == -EINVAL ||
	    get_num(it, "packets", false, 0, PROFILE_COUNT_MAX, &w->packets, path, where, err,
		    errlen) == -EINVAL)
		return -EINVAL;
	return 0;
}

/* Load and validate a profile: the file's JSON, its device and flow, the informational keys,
 * then the eventfds and the workers that use them. */
int profile__load(struct profile *p, const char *path, char *err, size_t errlen)
{
	const cJSON *arr, *it;
	cJSON *root;
	char where[48];
	int e = 0, i = 0;

	memset(p, 0, sizeof(*p));
	root = parse_file(path, err, errlen, &e);
	if (!root)
		return -e;
	e = -EINVAL;
	if (get_str(root, "device", p->device, sizeof(p->device), path, "", err, errlen) ||
	    get_str(root, "flow", p->flow, sizeof(p->flow), path, "", err, errlen))
		goto out;
	/* Informational keys: kept when present. */
	get_str(root, "timestamp", p->timestamp, sizeof(p->timestamp), path, "", err, errlen);
	get_str(root, "kernel", p->kernel, sizeof(p->kernel), path, "", err, errlen);
	get_str(root, "lattop_version", p->version, sizeof(p->version), path, "", err, errlen);
	err[0] = '\0';
	if (load_eventfds(p, root, path, err, errlen) ||
	    !(arr = get_arr(root, "workers", path, err, errlen)))
		goto out;
	cJSON_ArrayForEach(it, arr) {
		snprintf(where, sizeof(where), "workers[%d].", i);
		if (load_worker(p, it, &p->tid[i], where, path, err, errlen))
			goto out;
		i++;
	}
	p->ntid = i;
	err[0] = '\0';
	e = 0;
out:
	cJSON_Delete(root);
	return e;
}
