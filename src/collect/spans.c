// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spans.c - load bpf/spans.bpf.c with the spans' probe table and attach every probe.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "collect/collector.h"
#include "collect/spans.h"
#include "spans.skel.h"

struct spans {
	struct spans_bpf *skel;
	struct bpf_link *links[LAT_SPAN_PROBES];
	int nlinks;
	int n;
};

/* The tp_btf program of a tracepoint. */
static struct bpf_program *tp_prog(struct spans_bpf *k, uint32_t tp)
{
	switch (tp) {
	case LAT_TP_SCHED_WAKEUP:
		return k->progs.lat_span_sched_wakeup;
	case LAT_TP_SCHED_WAKEUP_NEW:
		return k->progs.lat_span_sched_wakeup_new;
	case LAT_TP_SCHED_SWITCH:
		return k->progs.lat_span_sched_switch;
	case LAT_TP_BLOCK_RQ_ISSUE:
		return k->progs.lat_span_block_rq_issue;
	case LAT_TP_BLOCK_RQ_COMPLETE:
		return k->progs.lat_span_block_rq_complete;
	}
	return NULL;
}

/* Attach one uprobe or uretprobe; the cookie is the probe's index in the rodata table. */
static int attach_uprobe(struct spans *s, const struct span_spec *sp,
			 const struct span_probe_spec *p, int idx, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = p->func,
		    .retprobe = p->kind == SPK_URETPROBE, .bpf_cookie = (__u64)idx);
	struct bpf_link *l;

	l = bpf_program__attach_uprobe_opts(s->skel->progs.lat_span_uprobe, p->pid, p->path, 0,
					    &uo);
	if (!l) {
		int e = errno;

		if (e == ENOENT)
			snprintf(err, errlen,
				 "span '%s': no function '%s' in %s (check the name with `nm -D` "
				 "or `readelf -s`)",
				 sp->name, p->func, p->path);
		else
			snprintf(err, errlen, "span '%s': cannot attach a %s to %s:%s: %s",
				 sp->name, p->kind == SPK_URETPROBE ? "uretprobe" : "uprobe",
				 p->path, p->func, strerror(e));
		errno = e;
		return -e;
	}
	s->links[s->nlinks++] = l;
	return 0;
}

/* Attach one kprobe or kretprobe (the uprobe program: both are kprobe-type programs); the
 * cookie is the probe's index in the rodata table. */
static int attach_kprobe(struct spans *s, const struct span_spec *sp,
			 const struct span_probe_spec *p, int idx, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_kprobe_opts, ko, .retprobe = p->kind == SPK_KRETPROBE,
		    .bpf_cookie = (__u64)idx);
	struct bpf_link *l;

	l = bpf_program__attach_kprobe_opts(s->skel->progs.lat_span_uprobe, p->func, &ko);
	if (!l) {
		int e = errno;

		if (e == ENOENT || e == EINVAL)
			snprintf(err, errlen,
				 "span '%s': no kernel function '%s' to probe (see "
				 "/sys/kernel/tracing/available_filter_functions)",
				 sp->name, p->func);
		else
			snprintf(err, errlen, "span '%s': cannot attach a %s to %s: %s", sp->name,
				 p->kind == SPK_KRETPROBE ? "kretprobe" : "kprobe", p->func,
				 strerror(e));
		errno = e == EINVAL ? ENOENT : e;
		return -errno;
	}
	s->links[s->nlinks++] = l;
	return 0;
}

/* Load and attach every span. */
struct spans *spans__new(struct collector *c, const struct span_spec *sp, int n, char *err,
			 size_t errlen)
{
	struct spans *s = calloc(1, sizeof(*s));
	bool used_tp[LAT_TP__COUNT] = {};
	int np = 0, e;

	if (!s)
		return NULL;
	s->n = n;
	s->skel = spans_bpf__open();
	if (!s->skel) {
		e = errno;
		snprintf(err, errlen, "cannot open the spans BPF object: %s", strerror(e));
		goto fail;
	}
	/* The probe table: start then end of each span, in order. */
	for (int i = 0; i < n && i < LAT_SPAN_MAX; i++) {
		const struct span_probe_spec *ends[2] = { &sp[i].start, &sp[i].end };
		struct lat_span_conf *cf = (struct lat_span_conf *)&s->skel->rodata->confs[i];

		cf->nest = sp[i].nest;
		cf->pid = sp[i].filter_pid;
		memcpy(cf->comm, sp[i].filter_comm, sizeof(cf->comm));
		for (int k = 0; k < 2; k++) {
			struct lat_span_probe *pr =
				(struct lat_span_probe *)&s->skel->rodata->probes[np++];

			pr->span = i;
			pr->end = k;
			pr->keysel = ends[k]->keysel;
			pr->field = ends[k]->field;
			pr->tp = ends[k]->tp;
			used_tp[ends[k]->tp] = true;
		}
	}
	s->skel->rodata->nprobes = np;
	for (uint32_t tp = LAT_TP_NONE + 1; tp < LAT_TP__COUNT; tp++)
		bpf_program__set_autoload(tp_prog(s->skel, tp), used_tp[tp]);
	e = -collector__share(c, s->skel->obj);
	if (!e)
		e = -spans_bpf__load(s->skel);
	if (e) {
		snprintf(err, errlen, "cannot load the spans BPF object: %s", strerror(e));
		goto fail;
	}
	/* uprobes and kprobes one by one (each has its own cookie), then each used tracepoint
	 * once. */
	np = 0;
	for (int i = 0; i < n; i++) {
		const struct span_probe_spec *ends[2] = { &sp[i].start, &sp[i].end };

		for (int k = 0; k < 2; k++, np++) {
			if (ends[k]->tp != LAT_TP_NONE)
				continue;
			if (ends[k]->kind == SPK_KPROBE || ends[k]->kind == SPK_KRETPROBE)
				e = -attach_kprobe(s, &sp[i], ends[k], np, err, errlen);
			else
				e = -attach_uprobe(s, &sp[i], ends[k], np, err, errlen);
			if (e)
				goto fail;
		}
	}
	for (uint32_t tp = LAT_TP_NONE + 1; tp < LAT_TP__COUNT; tp++) {
		struct bpf_link *l;

		if (!used_tp[tp])
			continue;
		l = bpf_program__attach(tp_prog(s->skel, tp));
		if (!l) {
			e = errno;
			snprintf(err, errlen, "cannot attach the tp_btf program %s: %s",
				 bpf_program__name(tp_prog(s->skel, tp)), strerror(e));
			goto fail;
		}
		s->links[s->nlinks++] = l;
	}
	return s;
fail:
	spans__free(s);
	errno = e;
	return NULL;
}

/* Detach and free. */
void spans__free(struct spans *s)
{
	if (!s)
		return;
	for (int i = s->nlinks - 1; i >= 0; i--)
		bpf_link__destroy(s->links[i]);
	spans_bpf__destroy(s->skel);
	free(s);
}

/* Loss counters of span i (read from the object's mmapped .bss). */
void spans__loss(const struct spans *s, int i, struct lat_span_loss *out)
{
	const volatile struct lat_span_loss *l = &s->skel->bss->span_loss[i & (LAT_SPAN_MAX - 1)];

	out->unmatched = l->unmatched;
	out->evicted = l->evicted;
	out->collided = l->collided;
	out->overflow = l->overflow;
}
