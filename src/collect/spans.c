// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spans.c - load bpf/spans.bpf.c with the spans' probe table and attach every probe; load one
 * bpf/spanfn.bpf.c copy per fentry/fexit probe, sharing the spans object's maps; map and
 * harvest the spans' in-kernel aggregates.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collect/aggset.h"
#include "collect/collector.h"
#include "collect/spanage.h"
#include "collect/spans.h"
#include "spanfn.skel.h"
#include "spans.skel.h"

struct spans {
	struct spans_bpf *skel;
	struct bpf_link *links[LAT_SPAN_PROBES];
	int nlinks;
	struct spanfn_bpf *fn[LAT_SPAN_PROBES]; /* one copy per fentry/fexit probe */
	int nfn;
	struct spanage *age; /* drops starts older than their span's timeout */
	int n;
	bool split;  /* some span is split: the sched programs are loaded */
	int agg_ncpu;                  /* CPUs per span in lat_agg; 0: samples go as events */
	/* lat_agg slots: the spans' (n), their parts' when a span is split (4n: lattop.h
	 * lat_span_part), then each breakdown's groups and "other". */
	int nslots;
	struct aggset *agg;            /* the spans' aggregates (NULL on the ring buffer) */
	struct progagg_delta *scratch; /* one harvest's buckets */
};

/* A kernel function's prototype, from the BTF of vmlinux or of a loaded module. */
struct kfunc_proto {
	int nargs;
	bool returns; /* not void */
};

/* Find func in btf; 0 with its prototype, or -ENOENT. */
static int btf_proto(const struct btf *btf, const char *func, struct kfunc_proto *out)
{
	const struct btf_type *t;
	int id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);

	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_func_proto(t))
		return -ENOENT;
	out->nargs = btf_vlen(t);
	out->returns = t->type != 0;
	return 0;
}

/* Look func up in vmlinux's BTF, then in each loaded module's (/sys/kernel/btf/<module>). */
static int kfunc_proto(struct btf **vmlinux, const char *func, struct kfunc_proto *out)
{
	struct dirent *d;
	int e = -ENOENT;
	DIR *dir;

	if (!*vmlinux) {
		*vmlinux = btf__load_vmlinux_btf();
		if (!*vmlinux)
			return -errno;
	}
	if (!btf_proto(*vmlinux, func, out))
		return 0;
	dir = opendir("/sys/kernel/btf");
	while (dir && e && (d = readdir(dir))) {
		char path[300];
		struct btf *mod;

		if (d->d_name[0] == '.' || !strcmp(d->d_name, "vmlinux"))
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/btf/%s", d->d_name);
		mod = btf__parse_split(path, *vmlinux);
		if (!mod)
			continue;
		e = btf_proto(mod, func, out);
		btf__free(mod);
	}
	if (dir)
		closedir(dir);
	return e;
}

/* A short suggestion of what to use instead of fentry/fexit on this kernel. */
static const char *instead_of_fentry(void)
{
	return access("/sys/bus/event_source/devices/kprobe/type", R_OK) == 0
		       ? "use kprobe/kretprobe or uprobes"
		       : "use tracepoints or uprobes (this kernel has no kprobes either)";
}

/* Check a fentry/fexit probe p of span sp against the function's BTF: it exists, has the
 * argument the key asks for, returns a value when the key is ret. Done for every probe before
 * anything loads, so a mistake in the spans is named before what the kernel cannot do. */
static int check_fn(struct btf **vmlinux, const struct span_spec *sp,
		    const struct span_probe_spec *p, char *err, size_t errlen)
{
	const char *kind = p->kind == SPK_FEXIT ? "fexit" : "fentry";
	const char *which = p == &sp->start ? "start" : "end";
	struct kfunc_proto proto;

	if (kfunc_proto(vmlinux, p->func, &proto)) {
		snprintf(err, errlen,
			 "span '%s': %s probe %s %s: no kernel function '%s' with BTF (not in "
			 "/sys/kernel/btf/vmlinux nor a loaded module's BTF)",
			 sp->name, which, kind, p->func, p->func);
		return -ENOENT;
	}
	if (p->keysel == LAT_KEY_FIELD && p->field < LAT_FIELD_RET &&
	    (int)p->field >= proto.nargs) {
		snprintf(err, errlen, "span '%s': %s probe %s %s: %s has %d argument%s, no arg%u",
			 sp->name, which, kind, p->func, p->func, proto.nargs,
			 proto.nargs == 1 ? "" : "s", p->field);
		return -ENOENT;
	}
	if (p->keysel == LAT_KEY_FIELD && p->field == LAT_FIELD_RET && !proto.returns) {
		snprintf(err, errlen, "span '%s': %s probe %s %s: %s returns void, no ret to key on",
			 sp->name, which, kind, p->func, p->func);
		return -ENOENT;
	}
	return 0;
}

/* Load and attach the fentry/fexit copy for probe idx (p, of span sp at index span). */
static int attach_fn(struct spans *s, const struct span_spec *sp, int span,
		     const struct span_probe_spec *p, int idx, char *err, size_t errlen)
{
	const char *kind = p->kind == SPK_FEXIT ? "fexit" : "fentry";
	const char *which = p == &sp->start ? "start" : "end";
	struct spanfn_bpf *fn;
	struct bpf_program *prog;
	struct bpf_link *l;
	int e;

	fn = spanfn_bpf__open();
	if (!fn) {
		e = errno;
		snprintf(err, errlen, "cannot open the fentry/fexit BPF object: %s", strerror(e));
		return -e;
	}
	s->fn[s->nfn++] = fn;
	*(struct lat_span_probe *)&fn->rodata->probe =
		*(const struct lat_span_probe *)&s->skel->rodata->probes[idx];
	*(struct lat_span_conf *)&fn->rodata->conf =
		*(const struct lat_span_conf *)&s->skel->rodata->confs[span];
	prog = p->kind == SPK_FEXIT ? fn->progs.lat_span_fexit : fn->progs.lat_span_fentry;
	bpf_program__set_autoload(p->kind == SPK_FEXIT ? fn->progs.lat_span_fentry
						       : fn->progs.lat_span_fexit,
				  false);
	e = bpf_program__set_attach_target(prog, 0, p->func);
	if (e) {
		snprintf(err, errlen, "span '%s': %s probe %s %s: cannot target '%s': %s", sp->name,
			 which, kind, p->func, p->func, strerror(-e));
		return -ENOENT;
	}
	fn->rodata->span_agg_ncpu = s->skel->rodata->span_agg_ncpu;
	fn->rodata->span_nspans = s->skel->rodata->span_nspans;
	e = bpf_map__reuse_fd(fn->maps.pending, bpf_map__fd(s->skel->maps.pending));
	if (!e)
		e = bpf_map__reuse_fd(fn->maps.lat_agg, bpf_map__fd(s->skel->maps.lat_agg));
	if (!e)
		e = bpf_map__reuse_fd(fn->maps.span_loss, bpf_map__fd(s->skel->maps.span_loss));
	if (!e)
		e = bpf_map__reuse_fd(fn->maps.span_grp, bpf_map__fd(s->skel->maps.span_grp));
	if (!e)
		e = bpf_map__reuse_fd(fn->maps.span_gval, bpf_map__fd(s->skel->maps.span_gval));
	if (!e)
		e = bpf_map__reuse_fd(fn->maps.span_task, bpf_map__fd(s->skel->maps.span_task));
	if (!e)
		e = bpf_map__reuse_fd(fn->maps.span_split_open,
				      bpf_map__fd(s->skel->maps.span_split_open));
	if (!e)
		e = bpf_map__reuse_fd(fn->maps.events, bpf_map__fd(s->skel->maps.events));
	if (!e)
		e = bpf_map__reuse_fd(fn->maps.lat_drops, bpf_map__fd(s->skel->maps.lat_drops));
	if (e) {
		snprintf(err, errlen, "cannot share the spans maps: %s", strerror(-e));
		return e;
	}
	e = spanfn_bpf__load(fn);
	if (e == -EPERM || e == -ENOTSUP || e == -EOPNOTSUPP) {
		snprintf(err, errlen,
			 "span '%s': this kernel cannot load fentry/fexit programs (BPF_PROG_LOAD: "
			 "%s); %s",
			 sp->name, strerror(-e), instead_of_fentry());
		return -ENOENT;
	}
	if (e) {
		snprintf(err, errlen, "span '%s': cannot load the %s program for %s: %s", sp->name,
			 kind, p->func, strerror(-e));
		return e;
	}
	l = bpf_program__attach_trace(prog);
	if (!l) {
		e = errno;
		snprintf(err, errlen, "span '%s': cannot attach %s to %s: %s", sp->name, kind,
			 p->func, strerror(e));
		return -e;
	}
	s->links[s->nlinks++] = l;
	return 0;
}

/* Attach the generic tracepoint program to tracepoint p->func ("category:name") once; the
 * cookie is the tracepoint's number (p->tp as spans__new assigned it). */
static int attach_tracepoint(struct spans *s, const struct span_spec *sp,
			     const struct span_probe_spec *p, uint32_t tp, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_tracepoint_opts, to, .bpf_cookie = tp);
	const char *colon = strchr(p->func, ':');
	char cat[64];
	struct bpf_link *l;

	snprintf(cat, sizeof(cat), "%.*s", colon ? (int)(colon - p->func) : 0, p->func);
	l = bpf_program__attach_tracepoint_opts(s->skel->progs.lat_span_tp, cat,
						colon ? colon + 1 : p->func, &to);
	if (!l) {
		int e = errno;

		snprintf(err, errlen, "span '%s': cannot attach to tracepoint %s: %s", sp->name,
			 p->func, strerror(e));
		errno = e;
		return -e;
	}
	s->links[s->nlinks++] = l;
	return 0;
}

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

/* The number of generic tracepoint name among the ones seen (names[*n]), added if new. */
static uint32_t generic_tp(const char *names[], int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return LAT_TP__COUNT + (uint32_t)i;
	names[*n] = name;
	return LAT_TP__COUNT + (uint32_t)(*n)++;
}

/* Attach a generic tracepoint probe's tracepoint unless an earlier probe did. */
static int attach_once(struct spans *s, const struct span_spec *sp,
		       const struct span_probe_spec *p, int idx, char *err, size_t errlen)
{
	uint32_t tp = s->skel->rodata->probes[idx].tp;

	for (int i = 0; i < idx; i++)
		if (s->skel->rodata->probes[i].tp == tp)
			return 0;
	return -attach_tracepoint(s, sp, p, tp, err, errlen);
}

/* Check every fentry/fexit end against BTF before anything loads. Returns 0 or a positive
 * errno with one sentence in err. */
static int check_fns(const struct span_spec *sp, int n, char *err, size_t errlen)
{
	struct btf *vmlinux = NULL;
	int e = 0;

	for (int i = 0; i < n && !e; i++) {
		const struct span_probe_spec *ends[2] = { &sp[i].start, &sp[i].end };

		for (int k = 0; k < 2 && !e; k++)
			if (ends[k]->kind == SPK_FENTRY || ends[k]->kind == SPK_FEXIT)
				e = -check_fn(&vmlinux, &sp[i], ends[k], err, errlen);
	}
	btf__free(vmlinux);
	return e;
}

/* The probe table in the object's rodata: start then end of each span, in order; which
 * tp_btf tracepoints are used into used_tp. Returns how many generic tracepoints. */
static int fill_probe_table(struct spans *s, const struct span_spec *sp, int n,
			    bool used_tp[LAT_TP__COUNT])
{
	const char *generic[LAT_SPAN_PROBES];
	int np = 0, ngeneric = 0;

	for (int i = 0; i < n && i < LAT_SPAN_MAX; i++)
		s->split |= spans__split(&sp[i]);
	s->nslots = s->split ? s->n * LAT_PART__COUNT : s->n; /* the groups' slots follow */
	for (int i = 0; i < n && i < LAT_SPAN_MAX; i++) {
		const struct span_probe_spec *ends[2] = { &sp[i].start, &sp[i].end };
		struct lat_span_conf *cf = (struct lat_span_conf *)&s->skel->rodata->confs[i];

		cf->nest = sp[i].nest;
		cf->split = spans__split(&sp[i]);
		cf->pid = sp[i].filter_pid;
		memcpy(cf->comm, sp[i].filter_comm, sizeof(cf->comm));
		cf->nfilt = sp[i].nfilt;
		memcpy(cf->filt, sp[i].filt, sizeof(cf->filt));
		/* A breakdown's slots follow the spans' (and the earlier breakdowns'); on the ring
		 * buffer there are none (the groups are shown from the aggregates only). */
		if (sp[i].by && s->agg_ncpu) {
			cf->by = sp[i].by;
			cf->by_field = sp[i].by_field;
			cf->groups = sp[i].groups;
			cf->grp_base = (uint32_t)s->nslots;
			s->nslots += sp[i].groups + 1;
		}
		for (int k = 0; k < 2; k++) {
			struct lat_span_probe *pr =
				(struct lat_span_probe *)&s->skel->rodata->probes[np++];

			pr->span = i;
			pr->end = k;
			pr->keysel = ends[k]->keysel;
			pr->field = ends[k]->field;
			pr->tp = ends[k]->kind == SPK_TRACEPOINT
					 ? generic_tp(generic, &ngeneric, ends[k]->func)
					 : ends[k]->tp;
			pr->fld_off = ends[k]->fld_off;
			pr->fld_size = ends[k]->fld_size;
			pr->fld_signed = ends[k]->fld_signed;
			if (pr->tp < LAT_TP__COUNT)
				used_tp[pr->tp] = true;
		}
	}
	s->skel->rodata->nprobes = np;
	s->skel->rodata->span_nspans = (__u32)s->n;
	return ngeneric;
}

/* Load the object with only the tracepoint programs the table uses, sharing the collector's
 * maps. Returns 0 or a positive errno with one sentence in err. */
static int load_object(struct spans *s, struct collector *c, const bool used_tp[LAT_TP__COUNT],
		       int ngeneric, char *err, size_t errlen)
{
	int e;

	for (uint32_t tp = LAT_TP_NONE + 1; tp < LAT_TP__COUNT; tp++)
		bpf_program__set_autoload(tp_prog(s->skel, tp), used_tp[tp]);
	bpf_program__set_autoload(s->skel->progs.lat_span_tp, ngeneric > 0);
	bpf_program__set_autoload(s->skel->progs.lat_split_switch, s->split);
	bpf_program__set_autoload(s->skel->progs.lat_split_wakeup, s->split);
	s->skel->rodata->span_agg_ncpu = (__u32)s->agg_ncpu;
	e = -bpf_map__set_max_entries(s->skel->maps.lat_agg,
				      s->agg_ncpu ? (__u32)(s->nslots * s->agg_ncpu) : 1);
	if (!e)
		e = -collector__share(c, s->skel->obj);
	if (!e)
		e = -spans_bpf__load(s->skel);
	if (e)
		snprintf(err, errlen, "cannot load the spans BPF object: %s", strerror(e));
	return e;
}

/* Attach uprobes, kprobes and generic tracepoints one by one (each has its own cookie: its
 * index in the table) and fentry/fexit one copy each. Returns 0 or a positive errno. */
static int attach_probes(struct spans *s, const struct span_spec *sp, int n, char *err,
			 size_t errlen)
{
	int np = 0, e = 0;

	for (int i = 0; i < n; i++) {
		const struct span_probe_spec *ends[2] = { &sp[i].start, &sp[i].end };

		for (int k = 0; k < 2; k++, np++) {
			if (ends[k]->tp != LAT_TP_NONE)
				continue;
			if (ends[k]->kind == SPK_KPROBE || ends[k]->kind == SPK_KRETPROBE)
				e = -attach_kprobe(s, &sp[i], ends[k], np, err, errlen);
			else if (ends[k]->kind == SPK_TRACEPOINT)
				e = attach_once(s, &sp[i], ends[k], np, err, errlen);
			else if (ends[k]->kind == SPK_FENTRY || ends[k]->kind == SPK_FEXIT)
				e = -attach_fn(s, &sp[i], i, ends[k], np, err, errlen);
			else
				e = -attach_uprobe(s, &sp[i], ends[k], np, err, errlen);
			if (e)
				return e;
		}
	}
	return 0;
}

/* Attach each used tp_btf tracepoint once. Returns 0 or a positive errno. */
static int attach_tp_btf(struct spans *s, const bool used_tp[LAT_TP__COUNT], char *err,
			 size_t errlen)
{
	for (uint32_t tp = LAT_TP_NONE + 1; tp < LAT_TP__COUNT; tp++) {
		struct bpf_link *l;
		int e;

		if (!used_tp[tp])
			continue;
		l = bpf_program__attach(tp_prog(s->skel, tp));
		if (!l) {
			e = errno;
			snprintf(err, errlen, "cannot attach the tp_btf program %s: %s",
				 bpf_program__name(tp_prog(s->skel, tp)), strerror(e));
			return e;
		}
		s->links[s->nlinks++] = l;
	}
	return 0;
}

/* Attach the split spans' sched programs (none unless a span is split). Returns 0 or a
 * positive errno. */
static int attach_split(struct spans *s, char *err, size_t errlen)
{
	struct bpf_program *progs[2] = { s->skel->progs.lat_split_switch,
					 s->skel->progs.lat_split_wakeup };

	for (int i = 0; s->split && i < 2; i++) {
		struct bpf_link *l = bpf_program__attach(progs[i]);

		if (!l) {
			int e = errno;

			snprintf(err, errlen, "cannot attach the tp_btf program %s: %s",
				 bpf_program__name(progs[i]), strerror(e));
			return e;
		}
		s->links[s->nlinks++] = l;
	}
	return 0;
}

/* Start the sweeper that drops starts older than their span's timeout. Returns 0 or a
 * positive errno. */
static int start_aging(struct spans *s, const struct span_spec *sp, int n, char *err,
		       size_t errlen)
{
	uint64_t timeout[LAT_SPAN_MAX] = {};
	int e;

	for (int i = 0; i < n && i < LAT_SPAN_MAX; i++)
		timeout[i] = sp[i].timeout_ns;
	s->age = spanage__start(bpf_map__fd(s->skel->maps.pending), timeout, n);
	if (!s->age) {
		e = errno;
		snprintf(err, errlen, "cannot start the pending-table sweeper: %s", strerror(e));
		return e;
	}
	return 0;
}

/* Whether span sp is split: its start and end run in the task its key names. */
bool spans__split(const struct span_spec *sp)
{
	if (sp->no_split || sp->start.keysel != sp->end.keysel)
		return false;
	return sp->start.keysel == LAT_KEY_TID || (sp->start.keysel == LAT_KEY_PID && !sp->nest);
}

/* Bytes the aggregates of the n spans sp take in the kernel: the spans' records, four each
 * when one is split (lattop.h lat_span_part), then each breakdown's groups and "other". */
size_t spans__agg_bytes(const struct span_spec *sp, int n)
{
	bool split = false;
	int slots;

	for (int i = 0; i < n; i++)
		split |= spans__split(&sp[i]);
	slots = split ? n * LAT_PART__COUNT : n;
	for (int i = 0; i < n; i++)
		if (sp[i].by)
			slots += sp[i].groups + 1;
	return aggset__bytes(progagg__ncpu(), slots);
}

/* The value of span i's group slot g, once the kernel has taken it. */
int spans__group_value(const struct spans *s, int i, uint32_t g, uint64_t v[2])
{
	const struct lat_span_conf *cf;
	struct lat_span_loss l;
	struct lat_span_gval gv;
	__u32 k = (__u32)i * LAT_SPAN_GROUPS + g;

	if (!s || i < 0 || i >= s->n || g >= LAT_SPAN_GROUPS)
		return -ENOENT;
	cf = (const struct lat_span_conf *)&s->skel->rodata->confs[i];
	spans__loss(s, i, &l);
	if (g >= cf->groups || g >= l.groups ||
	    bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.span_gval), &k, &gv))
		return -ENOENT;
	v[0] = gv.val[0];
	v[1] = gv.val[1];
	return 0;
}

/* Map the aggregates the loaded object sized: span i's series is (LAT_EV_SEG, i, 0, 0), the
 * one its events would go to. Returns 0 or a positive errno with one sentence in err. */
static int map_aggs(struct spans *s, char *err, size_t errlen)
{
	struct agg_key keys[LAT_SPAN_MAX * (LAT_PART__COUNT + LAT_SPAN_GROUPS + 1)];
	int base = s->split ? s->n * LAT_PART__COUNT : s->n;

	if (!s->agg_ncpu)
		return 0;
	/* The spans' records, their parts' (split), then each breakdown's groups and "other". */
	for (int i = 0; i < base; i++)
		keys[i] = (struct agg_key){ i < s->n ? LAT_EV_SEG : LAT_EV_SPAN_PART,
					    (uint32_t)(i % s->n), (uint32_t)(i / s->n), 0 };
	for (int i = 0; i < s->n; i++) {
		const struct lat_span_conf *cf =
			(const struct lat_span_conf *)&s->skel->rodata->confs[i];

		for (uint32_t g = 0; cf->by && g <= cf->groups; g++) /* groups, then "other" */
			keys[cf->grp_base + g] =
				(struct agg_key){ LAT_EV_SPAN_GRP, (uint32_t)i, g, 0 };
	}
	s->scratch = calloc(1, sizeof(*s->scratch));
	s->agg = s->scratch ? aggset__open(bpf_map__fd(s->skel->maps.lat_agg), s->agg_ncpu, keys,
					   s->nslots)
			    : NULL;
	if (!s->agg) {
		int e = s->scratch ? errno : ENOMEM;

		snprintf(err, errlen, "cannot map the spans' aggregates: %s", strerror(e));
		return e;
	}
	return 0;
}

/* Load and attach every span: check fentry/fexit functions, open the object, fill its probe
 * table, load it, map its aggregates, attach the probes, then the tp_btf tracepoints, and
 * start aging last (the table it sweeps exists then). */
struct spans *spans__new(struct collector *c, const struct span_spec *sp, int n, bool agg,
			 char *err, size_t errlen)
{
	struct spans *s = calloc(1, sizeof(*s));
	bool used_tp[LAT_TP__COUNT] = {};
	int ngeneric, e;

	if (!s)
		return NULL;
	s->n = n < LAT_SPAN_MAX ? n : LAT_SPAN_MAX;
	s->agg_ncpu = agg && s->n > 0 ? progagg__ncpu() : 0;
	s->nslots = s->n;
	/* Every probe finds its span through its link's cookie (bpf/spans.bpf.c). */
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_attach_cookie, NULL) == 0) {
		e = ENOTSUP;
		snprintf(err, errlen, "spans need BPF link cookies (Linux 5.15), which this kernel "
				      "lacks: no span can be measured here");
		goto fail;
	}
	e = check_fns(sp, n, err, errlen);
	if (e)
		goto fail;
	s->skel = spans_bpf__open();
	if (!s->skel) {
		e = errno;
		snprintf(err, errlen, "cannot open the spans BPF object: %s", strerror(e));
		goto fail;
	}
	ngeneric = fill_probe_table(s, sp, n, used_tp);
	e = load_object(s, c, used_tp, ngeneric, err, errlen);
	if (!e)
		e = map_aggs(s, err, errlen);
	if (!e)
		e = attach_probes(s, sp, n, err, errlen);
	if (!e)
		e = attach_tp_btf(s, used_tp, err, errlen);
	if (!e)
		e = attach_split(s, err, errlen);
	if (!e)
		e = start_aging(s, sp, n, err, errlen);
	if (!e)
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
	spanage__stop(s->age);
	for (int i = s->nlinks - 1; i >= 0; i--)
		bpf_link__destroy(s->links[i]);
	for (int i = s->nfn - 1; i >= 0; i--)
		spanfn_bpf__destroy(s->fn[i]);
	aggset__free(s->agg);
	free(s->scratch);
	spans_bpf__destroy(s->skel);
	free(s);
}

/* Hand what each span's aggregates gained since the last harvest to sink. */
void spans__harvest(struct spans *s, bool force, progagg_sink sink, void *arg)
{
	if (s && s->agg)
		aggset__harvest(s->agg, force, s->scratch, sink, arg);
}

/* Bytes of kernel memory the spans' aggregates take (0 on the ring buffer). */
size_t spans__agg_mem(const struct spans *s)
{
	return s && s->agg ? aggset__bytes(progagg__ncpu(), s->nslots) : 0;
}

/* Loss counters of span i (one lookup in the shared span_loss array), the starts the timeout
 * dropped counted as evicted. */
void spans__loss(const struct spans *s, int i, struct lat_span_loss *out)
{
	__u32 k = (__u32)i & (LAT_SPAN_MAX - 1);

	memset(out, 0, sizeof(*out));
	bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.span_loss), &k, out);
	out->evicted += spanage__dropped(s->age, (int)k);
}
