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

/* A pointer as a hex string. */
static cJSON *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return cJSON_CreateString(buf);
}

/* Write a profile. */
int profile__write(struct profile *p, const char *path, char *err, size_t errlen)
{
	cJSON *root = cJSON_CreateObject(), *arr;
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
	cJSON_AddStringToObject(root, "lattop_version", p->version);
	cJSON_AddStringToObject(root, "kernel", p->kernel);
	cJSON_AddStringToObject(root, "timestamp", p->timestamp);
	cJSON_AddStringToObject(root, "device", p->device);
	cJSON_AddStringToObject(root, "flow", p->flow);
	arr = cJSON_AddArrayToObject(root, "eventfds");
	for (int i = 0; i < p->nctx; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddItemToObject(o, "ctx", hex(p->ctx[i].ctx));
		cJSON_AddNumberToObject(o, "queue", i);
		cJSON_AddNumberToObject(o, "runs", (double)p->ctx[i].runs);
		cJSON_AddNumberToObject(o, "packets", (double)p->ctx[i].packets);
		cJSON_AddItemToArray(arr, o);
	}
	arr = cJSON_AddArrayToObject(root, "workers");
	for (int i = 0; i < p->ntid; i++) {
		const struct profile_tid *w = &p->tid[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "tid", w->tid);
		cJSON_AddNumberToObject(o, "pid", w->pid);
		cJSON_AddStringToObject(o, "comm", w->comm);
		cJSON_AddItemToObject(o, "ctx", hex(w->ctx));
		cJSON_AddNumberToObject(o, "queue", w->queue);
		cJSON_AddNumberToObject(o, "runs", (double)w->runs);
		cJSON_AddNumberToObject(o, "packets", (double)w->packets);
		cJSON_AddItemToArray(arr, o);
	}
	txt = cJSON_Print(root);
	cJSON_Delete(root);
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

/* Load and validate a profile. */
int profile__load(struct profile *p, const char *path, char *err, size_t errlen)
{
	const cJSON *arr, *it;
	cJSON *root;
	char *txt, where[48];
	int e = 0, i;

	memset(p, 0, sizeof(*p));
	txt = slurp(path, err, errlen, &e);
	if (!txt)
		return -e;
	root = cJSON_Parse(txt);
	if (!root || !cJSON_IsObject(root)) {
		const char *at = cJSON_GetErrorPtr();

		snprintf(err, errlen, "profile %s is not valid JSON (near offset %ld): run lattop "
			 "--discover again",
			 path, at && root == NULL ? (long)(at - txt) : 0L);
		cJSON_Delete(root);
		free(txt);
		return -EINVAL;
	}
	free(txt);
	e = -EINVAL;
	if (get_str(root, "device", p->device, sizeof(p->device), path, "", err, errlen) ||
	    get_str(root, "flow", p->flow, sizeof(p->flow), path, "", err, errlen))
		goto out;
	/* Informational keys: kept when present. */
	get_str(root, "timestamp", p->timestamp, sizeof(p->timestamp), path, "", err, errlen);
	get_str(root, "kernel", p->kernel, sizeof(p->kernel), path, "", err, errlen);
	get_str(root, "lattop_version", p->version, sizeof(p->version), path, "", err, errlen);
	err[0] = '\0';
	if (!(arr = get_arr(root, "eventfds", path, err, errlen)))
		goto out;
	i = 0;
	cJSON_ArrayForEach(it, arr) {
		snprintf(where, sizeof(where), "eventfds[%d].", i);
		if (get_hex(it, "ctx", &p->ctx[i].ctx, path, where, err, errlen) ||
		    get_num(it, "runs", false, 0, PROFILE_COUNT_MAX, &p->ctx[i].runs, path, where,
			    err, errlen) == -EINVAL ||
		    get_num(it, "packets", false, 0, PROFILE_COUNT_MAX, &p->ctx[i].packets, path,
			    where, err, errlen) == -EINVAL)
			goto out;
		i++;
	}
	p->nctx = i;
	if (!(arr = get_arr(root, "workers", path, err, errlen)))
		goto out;
	i = 0;
	cJSON_ArrayForEach(it, arr) {
		struct profile_tid *w = &p->tid[i];
		uint64_t v;

		snprintf(where, sizeof(where), "workers[%d].", i);
		if (get_num(it, "tid", true, 1, PROFILE_TID_MAX, &v, path, where, err, errlen))
			goto out;
		w->tid = (uint32_t)v;
		if (get_hex(it, "ctx", &w->ctx, path, where, err, errlen))
			goto out;
		if (profile__queue(p, w->ctx) < 0) {
			snprintf(err, errlen,
				 "profile %s: %s\"ctx\" is not one of \"eventfds\": run lattop "
				 "--discover again",
				 path, where);
			goto out;
		}
		w->queue = profile__queue(p, w->ctx);
		e = get_num(it, "pid", false, 1, PROFILE_TID_MAX, &v, path, where, err, errlen);
		if (e == -EINVAL)
			goto out;
		if (!e)
			w->pid = (uint32_t)v;
		e = -EINVAL;
		get_str(it, "comm", w->comm, sizeof(w->comm), path, where, err, errlen);
		if (get_num(it, "runs", false, 0, PROFILE_COUNT_MAX, &w->runs, path, where, err,
			    errlen) == -EINVAL ||
		    get_num(it, "packets", false, 0, PROFILE_COUNT_MAX, &w->packets, path, where,
			    err, errlen) == -EINVAL)
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
