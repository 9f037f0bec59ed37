// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * attrdump.c - test and bench tool: one attrib__scan, then each program's entry as a JSON line
 * (strings escaped by jsonw: a comm's control bytes come out as \uHHHH), and a last line
 * {"source":..., "scan_ns":..., "progs":...}.
 *
 * Usage: attrdump [ID...] (only those programs; none: all). With -n N it scans N times first
 * and reports the mean and the least time of one scan (scan_ns, min_ns: the bench; the first
 * scan also loads the iterator), printing no entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "base/clock.h"
#include "base/jsonw.h"
#include "collect/attrib.h"
#include "ui/report/batch.h"

static int quiet(enum libbpf_print_level l, const char *fmt, va_list ap)
{
	(void)l;
	(void)fmt;
	(void)ap;
	return 0;
}


/* One entry as a JSON line: its ID and the "attr" object JSON reports give a row. */
static void dump(struct jsonw *w, const struct prog_attr *e)
{
	jsonw__begin_object(w);
	jsonw__u64_field(w, "id", e->id);
	batch__json_attr(w, e);
	jsonw__end_object(w);
	fputc('\n', w->f);
}

int main(int argc, char **argv)
{
	struct attrib *a = attrib__new();
	int rounds = 1, first = 1, err = 0, nprogs = 0;
	struct jsonw w;
	uint64_t t0, t, min_ns = UINT64_MAX;

	if (argc > 2 && !strcmp(argv[1], "-n")) {
		rounds = atoi(argv[2]);
		first = 3;
	}
	if (!getenv("LATTOP_DEBUG"))
		libbpf_set_print(quiet);
	if (!a || rounds < 1)
		return 1;
	t0 = now_ns();
	for (int i = 0; i < rounds && !err; i++) {
		t = now_ns();
		err = attrib__scan(a);
		t = now_ns() - t;
		min_ns = t < min_ns ? t : min_ns;
	}
	t0 = (now_ns() - t0) / (uint64_t)rounds;
	if (err) {
		fprintf(stderr, "attrdump: scan: %s\n", strerror(-err));
		return 1;
	}
	for (uint32_t id = 0; !bpf_prog_get_next_id(id, &id);) {
		const struct prog_attr *e = attrib__get(a, id);
		bool want = first == argc;

		for (int i = first; i < argc && !want; i++)
			want = strtoul(argv[i], NULL, 10) == id;
		nprogs += e != NULL;
		if (!e || !want || first == 3)
			continue;
		jsonw__init(&w, stdout);
		dump(&w, e);
	}
	jsonw__init(&w, stdout);
	jsonw__begin_object(&w);
	jsonw__string_field(&w, "source", attrib__owner_source(a));
	jsonw__u64_field(&w, "scan_ns", t0);
	jsonw__u64_field(&w, "min_ns", min_ns);
	jsonw__u64_field(&w, "progs", (uint64_t)nprogs);
	jsonw__end_object(&w);
	fputc('\n', stdout);
	attrib__free(a);
	return 0;
}
