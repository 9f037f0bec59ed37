// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * helpertrace.c - find the map helpers a program calls and probe their implementations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "base/ksyms.h"
#include "collect/collector.h"
#include "collect/compat.h"
#include "collect/helpertrace.h"
#include "collect/aggset.h"
#include "collect/progstats.h"
#include "collect/progtrace.h"
#include "helpertrace.skel.h"
#include "helpertrace_compat.skel.h"

struct helper_probe {
	char func[64];
	bool kprobe; /* kprobe/kretprobe (fentry on func failed, or forced) */
	struct helpertrace_bpf *skel;
	struct aggset *agg;    /* its sites' in-kernel aggregates, NULL: events only */
	size_t agg_bytes;      /* their share of the budget */
};

/* A site to aggregate in the kernel: (program, map) calls of a function. */
struct helper_plan {
	char func[64];
	struct lat_hagg_site site;
};

struct helpertrace {
	struct collector *col;
	int nest_fd, hnest_fd;
	struct ksyms *syms;     /* kernel text symbols, loaded on first analysis */
	uint64_t call_base;     /* address of __bpf_call_base */
	struct btf *vmlinux;    /* to check a function exists before trying to trace it */
	struct helper_probe *p;
	int n, cap;
	uint64_t retired_misses;
	uint64_t retired_time, retired_calls; /* bpf_stats of the probes already detached */
	uint64_t base_busy;    /* the slots' busy sum when this tracer was created */
	uint64_t base_foreign; /* the slots' foreign sum then (the slots outlive the tracer) */
	struct progtrace *pt;  /* aggregation: its path, budget and sink (NULL: events only) */
	struct helper_plan *plan; /* the sites of the next attaches, for their aggregates */
	size_t nplan, plancap;
	struct progagg_delta *scratch; /* one harvest's buckets (allocated with the first) */
};

/* Helper functions by kernel implementation name: how a called function maps to the BPF helper
 * the program asked for. Names checked against the kernel's BTF before use. */
static const struct {
	const char *needle; /* substring of the function name */
	uint32_t helper_id;
	const char *helper;
} helper_kinds[] = {
	{ "lookup_percpu", BPF_FUNC_map_lookup_percpu_elem, "bpf_map_lookup_percpu_elem" },
	{ "lookup", BPF_FUNC_map_lookup_elem, "bpf_map_lookup_elem" },
	{ "update", BPF_FUNC_map_update_elem, "bpf_map_update_elem" },
	{ "delete", BPF_FUNC_map_delete_elem, "bpf_map_delete_elem" },
	{ "push", BPF_FUNC_map_push_elem, "bpf_map_push_elem" },
	{ "pop", BPF_FUNC_map_pop_elem, "bpf_map_pop_elem" },
	{ "peek", BPF_FUNC_map_peek_elem, "bpf_map_peek_elem" },
	{ "redirect", BPF_FUNC_redirect_map, "bpf_redirect_map" },
	{ "for_each", BPF_FUNC_for_each_map_elem, "bpf_for_each_map_elem" },
	{ "bpf_ringbuf_output", BPF_FUNC_ringbuf_output, "bpf_ringbuf_output" },
	{ "bpf_ringbuf_reserve", BPF_FUNC_ringbuf_reserve, "bpf_ringbuf_reserve" },
	{ "bpf_ringbuf_submit", BPF_FUNC_ringbuf_submit, "bpf_ringbuf_submit" },
	{ "bpf_ringbuf_discard", BPF_FUNC_ringbuf_discard, "bpf_ringbuf_discard" },
};

/* True when a called kernel function is a map operation lattop reports. */
static int helper_kind(const char *func)
{
	/* for_each: the JIT calls the type's ops (bpf_for_each_array_elem, ..._hash_elem). */
	bool mapish = strstr(func, "map") || strstr(func, "htab") || strstr(func, "trie") ||
		      strstr(func, "ringbuf") || strstr(func, "queue") || strstr(func, "stack") ||
		      strstr(func, "for_each");

	if (!mapish)
		return -1;
	for (size_t i = 0; i < sizeof(helper_kinds) / sizeof(helper_kinds[0]); i++)
		if (strstr(func, helper_kinds[i].needle))
			return (int)i;
	return -1;
}

static void slots_losses(const struct helpertrace *ht, uint64_t *busy, uint64_t *foreign);

/* Create the tracer on progtrace's program stacks and helper-call slots. */
struct helpertrace *helpertrace__new(struct collector *c, int nest_fd, int hnest_fd)
{
	struct helpertrace *ht = calloc(1, sizeof(*ht));

	if (!ht)
		return NULL;
	ht->col = c;
	ht->nest_fd = nest_fd;
	ht->hnest_fd = hnest_fd;
	slots_losses(ht, &ht->base_busy, &ht->base_foreign);
	return ht;
}

/* recursion_misses of one probe's entry and exit programs (whichever set is loaded). */
static uint64_t probe_misses(const struct helper_probe *p)
{
	const struct helpertrace_bpf *k = p->skel;

	if (p->kprobe)
		return progstats__recursion_misses(bpf_program__fd(k->progs.lat_helper_kentry)) +
		       progstats__recursion_misses(bpf_program__fd(k->progs.lat_helper_kexit));
	return progstats__recursion_misses(bpf_program__fd(k->progs.lat_helper_entry)) +
	       progstats__recursion_misses(bpf_program__fd(k->progs.lat_helper_entry_btf)) +
	       progstats__recursion_misses(bpf_program__fd(k->progs.lat_helper_exit)) +
	       progstats__recursion_misses(bpf_program__fd(k->progs.lat_helper_entry2)) +
	       progstats__recursion_misses(bpf_program__fd(k->progs.lat_helper_entry_btf2)) +
	       progstats__recursion_misses(bpf_program__fd(k->progs.lat_helper_exit2));
}

/* Add probe p's programs' bpf_stats run time to *t and the calls it saw (its entry program's
 * runs) to *calls. */
static void probe_stats(const struct helper_probe *p, uint64_t *t, uint64_t *calls)
{
	const struct helpertrace_bpf *k = p->skel;

	if (p->kprobe) {
		progstats__run_add(bpf_program__fd(k->progs.lat_helper_kentry), t, calls);
		progstats__run_add(bpf_program__fd(k->progs.lat_helper_kexit), t, NULL);
		return;
	}
	progstats__run_add(bpf_program__fd(k->progs.lat_helper_entry), t, calls);
	progstats__run_add(bpf_program__fd(k->progs.lat_helper_entry_btf), t, calls);
	progstats__run_add(bpf_program__fd(k->progs.lat_helper_exit), t, NULL);
	progstats__run_add(bpf_program__fd(k->progs.lat_helper_entry2), t, NULL);
	progstats__run_add(bpf_program__fd(k->progs.lat_helper_entry_btf2), t, NULL);
	progstats__run_add(bpf_program__fd(k->progs.lat_helper_exit2), t, NULL);
}

/* Does func's BTF type its first argument as struct bpf_map *? Then its fentry probe can load
 * the map's id directly (lat_helper_entry_btf). */
static bool map_arg_typed(struct helpertrace *ht, const char *func)
{
	const struct btf_type *t;
	const struct btf_param *p;
	int id;

	if (!ht->vmlinux)
		ht->vmlinux = btf__load_vmlinux_btf();
	id = ht->vmlinux ? btf__find_by_name_kind(ht->vmlinux, func, BTF_KIND_FUNC) : -1;
	t = id < 0 ? NULL : btf__type_by_id(ht->vmlinux, btf__type_by_id(ht->vmlinux, id)->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return false;
	p = btf_params(t);
	t = btf__type_by_id(ht->vmlinux, btf__resolve_type(ht->vmlinux, p[0].type));
	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(ht->vmlinux, btf__resolve_type(ht->vmlinux, t->type));
	return t && btf_is_struct(t) &&
	       !strcmp(btf__name_by_offset(ht->vmlinux, t->name_off), "bpf_map");
}

/* Sums of the per-CPU slots' busy and foreign counters. */
static void slots_losses(const struct helpertrace *ht, uint64_t *busy, uint64_t *foreign)
{
	int ncpu = progagg__ncpu();

	*busy = *foreign = 0;
	for (__u32 cpu = 0; cpu < (__u32)ncpu; cpu++) {
		__u32 key = LAT_NEST_CPU0 + cpu;
		struct lat_hnest h;

		if (!bpf_map_lookup_elem(ht->hnest_fd, &key, &h)) {
			*busy += h.busy;
			*foreign += h.foreign;
		}
	}
}

/* Detach a probe set, its entry first: a call that begins after that is not timed, and one
 * that began before still finds its exit (for fentry/fexit the trampoline image a call entered
 * runs both; with kprobes only a call still in flight when the kretprobe goes loses it, and
 * the program probes reclaim its slot). Then free. */
static void probe_destroy(struct helpertrace_bpf *skel)
{
	if (!skel)
		return;
	bpf_link__destroy(skel->links.lat_helper_entry);
	skel->links.lat_helper_entry = NULL;
	bpf_link__destroy(skel->links.lat_helper_entry2);
	skel->links.lat_helper_entry2 = NULL;
	bpf_link__destroy(skel->links.lat_helper_kentry);
	skel->links.lat_helper_kentry = NULL;
	bpf_link__destroy(skel->links.lat_helper_exit);
	skel->links.lat_helper_exit = NULL;
	bpf_link__destroy(skel->links.lat_helper_exit2);
	skel->links.lat_helper_exit2 = NULL;
	bpf_link__destroy(skel->links.lat_helper_kexit);
	skel->links.lat_helper_kexit = NULL;
	helpertrace_bpf__destroy(skel);
}

/* True while a task slot (bpf/nest.bpf.h) has a traced map call in flight: only slots whose
 * task holds program entries are read. */
static bool task_slots_busy(const struct helpertrace *ht)
{
	for (__u32 s = 0; s < LAT_TASK_SLOTS; s++) {
		struct lat_nest n;
		struct lat_hnest h;

		if (bpf_map_lookup_elem(ht->nest_fd, &s, &n) ||
		    !(n.owner & LAT_TASK_DEPTH_MASK) || bpf_map_lookup_elem(ht->hnest_fd, &s, &h))
			continue;
		for (int i = 0; i < LAT_NEST_MAX; i++)
			if (h.start_ns[i])
				return true;
	}
	return false;
}

/* True while some CPU or task has a traced map call in flight (a slot taken). */
static bool slots_busy(const struct helpertrace *ht)
{
	int ncpu = progagg__ncpu();

	for (__u32 cpu = 0; cpu < (__u32)ncpu; cpu++) {
		__u32 key = LAT_NEST_CPU0 + cpu;
		struct lat_hnest h;

		if (bpf_map_lookup_elem(ht->hnest_fd, &key, &h))
			continue;
		for (int i = 0; i < LAT_NEST_MAX; i++)
			if (h.start_ns[i])
				return true;
	}
	return task_slots_busy(ht);
}

/* CLOCK_MONOTONIC in ns. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Detach every helper probe (their losses stay in the totals). First every entry is turned
 * off and the calls in flight get up to 200 ms to return through their exits: replacing a
 * trampoline patches the old image to skip its fexit programs, and a kretprobe that goes
 * loses its pending returns. A call still in flight after that leaves its slot taken: the
 * program probes reclaim it (helper_stale) when the program entry at its depth goes, so no
 * slot stays busy for good. */
void helpertrace__detach_all(struct helpertrace *ht)
{
	uint64_t end = mono_ns() + 200 * 1000000ull;

	for (int i = 0; i < ht->n; i++)
		if (ht->p[i].skel->bss)
			__atomic_store_n(&ht->p[i].skel->bss->entry_off, 1, __ATOMIC_SEQ_CST);
	while (ht->n && slots_busy(ht) && mono_ns() < end)
		usleep(1000);
	/* The calls in flight are done: the aggregates hold the last calls. */
	helpertrace__harvest(ht, true);
	for (int i = 0; i < ht->n; i++) {
		ht->retired_misses += probe_misses(&ht->p[i]);
		probe_stats(&ht->p[i], &ht->retired_time, &ht->retired_calls);
		aggset__free(ht->p[i].agg);
		if (ht->pt)
			progtrace__agg_release(ht->pt, ht->p[i].agg_bytes);
		probe_destroy(ht->p[i].skel);
	}
	ht->n = 0;
	ht->nplan = 0;
}

/* Aggregate in the kernel with pt's path, budget and sink. */
void helpertrace__set_agg(struct helpertrace *ht, struct progtrace *pt)
{
	ht->pt = pt;
}

/* Note the sites the next attaches will aggregate. */
int helpertrace__plan(struct helpertrace *ht, const struct helper_site *sites, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!sites[i].func[0] || sites[i].why[0])
			continue;
		if (ht->nplan == ht->plancap) {
			size_t cap = ht->plancap ? ht->plancap * 2 : 32;
			struct helper_plan *np = realloc(ht->plan, cap * sizeof(*np));

			if (!np)
				return -ENOMEM;
			ht->plan = np;
			ht->plancap = cap;
		}
		snprintf(ht->plan[ht->nplan].func, sizeof(ht->plan[0].func), "%s", sites[i].func);
		ht->plan[ht->nplan++].site =
			(struct lat_hagg_site){ sites[i].prog_id, sites[i].map_id };
	}
	return 0;
}

/* Hand what the probes' aggregates gained to the sink. */
void helpertrace__harvest(struct helpertrace *ht, bool force)
{
	progagg_sink sink;
	void *arg;

	if (!ht->pt || !ht->scratch)
		return;
	sink = progtrace__sink(ht->pt, &arg);
	for (int i = 0; i < ht->n; i++)
		if (ht->p[i].agg)
			aggset__harvest(ht->p[i].agg, force, ht->scratch, sink, arg);
}

/* Detach everything and free. */
void helpertrace__free(struct helpertrace *ht)
{
	if (!ht)
		return;
	helpertrace__detach_all(ht);
	free(ht->p);
	free(ht->plan);
	free(ht->scratch);
	ksyms__free(ht->syms);
	btf__free(ht->vmlinux);
	free(ht);
}

/* Load the kernel's text symbols and __bpf_call_base, the origin of call offsets (once). */
static int load_kallsyms(struct helpertrace *ht)
{
	if (ht->syms)
		return 0;
	ht->syms = ksyms__load(KSYMS_PATH);
	if (!ht->syms)
		return -errno;
	ht->call_base = ksyms__addr(ht->syms, "__bpf_call_base");
	if (!ht->call_base || ksyms__hidden(ht->syms)) {
		ksyms__free(ht->syms);
		ht->syms = NULL;
		return -EPERM; /* addresses hidden (kptr_restrict) */
	}
	return 0;
}

/* Short name of a map type. */
static const char *map_type_name(uint32_t t)
{
	const char *s = libbpf_bpf_map_type_str(t);

	return s ? s : "unknown";
}

/* Does a kernel function operate on maps of type t? (Several map types share functions; the
 * probe reports the map id, so only the row list depends on this.) */
static bool func_fits_map(const char *func, uint32_t t)
{
	if (strstr(func, "ringbuf"))
		return t == BPF_MAP_TYPE_RINGBUF;
	if (strstr(func, "htab") || strstr(func, "for_each_hash"))
		return t == BPF_MAP_TYPE_HASH || t == BPF_MAP_TYPE_LRU_HASH ||
		       t == BPF_MAP_TYPE_PERCPU_HASH || t == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
		       t == BPF_MAP_TYPE_HASH_OF_MAPS;
	if (strstr(func, "array"))
		return t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_ARRAY ||
		       t == BPF_MAP_TYPE_ARRAY_OF_MAPS;
	if (strstr(func, "queue_stack"))
		return t == BPF_MAP_TYPE_QUEUE || t == BPF_MAP_TYPE_STACK;
	if (strstr(func, "queue_map"))
		return t == BPF_MAP_TYPE_QUEUE;
	if (strstr(func, "stack_map"))
		return t == BPF_MAP_TYPE_STACK;
	if (strstr(func, "trie"))
		return t == BPF_MAP_TYPE_LPM_TRIE;
	if (strstr(func, "dev_map") || strstr(func, "dev_hash"))
		return t == BPF_MAP_TYPE_DEVMAP || t == BPF_MAP_TYPE_DEVMAP_HASH;
	if (strstr(func, "cpu_map"))
		return t == BPF_MAP_TYPE_CPUMAP;
	/* The generic helpers (bpf_map_lookup_elem, ...) call any type's ops. */
	return t != BPF_MAP_TYPE_RINGBUF && t != BPF_MAP_TYPE_PROG_ARRAY;
}

/* Append a site to a growing array. */
static int add_site(struct helper_site **out, size_t *n, size_t *cap, const struct helper_site *s)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct helper_site *ns = realloc(*out, ncap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		*out = ns;
		*cap = ncap;
	}
	(*out)[(*n)++] = *s;
	return 0;
}

struct map_desc {
	uint32_t id, type;
	char name[24];
	bool by_ptr; /* loaded as a map pointer (ld_imm64 BPF_PSEUDO_MAP_FD): helpers act on it */
};

/* What the analysis reads of a program: its translated instructions and its maps. */
struct prog_image {
	struct bpf_insn *insns;
	uint32_t ninsns;
	struct map_desc *maps;
	uint32_t nmaps;
};

/* Free an image's arrays. */
static void image_fini(struct prog_image *img)
{
	free(img->insns);
	free(img->maps);
}

/* The ID, type and name of each map of map_ids into img->maps (type 0 and no name for a map
 * that went away meanwhile). */
static void describe_maps(struct prog_image *img, const uint32_t *map_ids)
{
	for (uint32_t i = 0; i < img->nmaps; i++) {
		struct bpf_map_info mi = {};
		__u32 mlen = sizeof(mi);
		int mfd = bpf_map_get_fd_by_id(map_ids[i]);

		img->maps[i].id = map_ids[i];
		if (mfd >= 0 && !bpf_obj_get_info_by_fd(mfd, &mi, &mlen)) {
			img->maps[i].type = mi.type;
			snprintf(img->maps[i].name, sizeof(img->maps[i].name), "%s", mi.name);
		}
		if (mfd >= 0)
			close(mfd);
	}
}

/* Read program fd's translated instructions and maps into img (sized by a first info call).
 * Returns 0 or a negative errno with one sentence in err. */
static int read_image(int fd, uint32_t prog_id, struct prog_image *img, char *err, size_t errlen)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	uint32_t *map_ids = NULL;
	int e = 0;

	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		e = -errno;
		snprintf(err, errlen, "cannot read program %u: %s", prog_id, strerror(-e));
		return e;
	}
	img->nmaps = info.nr_map_ids;
	img->ninsns = info.xlated_prog_len / sizeof(struct bpf_insn);
	img->insns = calloc(img->ninsns ? img->ninsns : 1, sizeof(*img->insns));
	img->maps = calloc(img->nmaps ? img->nmaps : 1, sizeof(*img->maps));
	map_ids = calloc(img->nmaps ? img->nmaps : 1, sizeof(*map_ids));
	if (!img->insns || !map_ids || !img->maps) {
		snprintf(err, errlen, "out of memory");
		free(map_ids);
		return -ENOMEM;
	}
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = img->ninsns * sizeof(*img->insns);
	info.xlated_prog_insns = (__u64)(unsigned long)img->insns;
	info.nr_map_ids = img->nmaps;
	info.map_ids = (__u64)(unsigned long)map_ids;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		e = -errno;
		snprintf(err, errlen, "cannot read program %u's instructions: %s", prog_id,
			 strerror(-e));
	} else {
		describe_maps(img, map_ids);
	}
	free(map_ids);
	return e;
}

/* Distinct map-operation functions called (src_reg 0: a kernel helper at __bpf_call_base +
 * imm, which the verifier rewrote to the map type's ops) into funcs (at most 64), and which
 * maps are loaded as map pointers (the dump shows ld_imm64 src_reg 1 with the map id; global
 * data is src_reg 2, a value address, never a helper's map). Returns how many functions. */
static int scan_calls(const struct helpertrace *ht, struct prog_image *img, char funcs[64][64])
{
	int nfuncs = 0;

	for (uint32_t i = 0; i < img->ninsns; i++) {
		const struct bpf_insn *in = &img->insns[i];
		const char *name;
		bool seen = false;

		if (in->code == (BPF_LD | BPF_IMM | BPF_DW) && in->src_reg == BPF_PSEUDO_MAP_FD) {
			for (uint32_t k = 0; k < img->nmaps; k++)
				if (img->maps[k].id == (uint32_t)in->imm)
					img->maps[k].by_ptr = true;
		}
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != 0)
			continue;
		name = ksyms__name_at(ht->syms, ht->call_base + (int64_t)in->imm);
		if (!name || helper_kind(name) < 0)
			continue;
		for (int k = 0; k < nfuncs; k++)
			seen |= !strcmp(funcs[k], name);
		if (!seen && nfuncs < 64)
			snprintf(funcs[nfuncs++], sizeof(funcs[0]), "%.63s", name);
	}
	return nfuncs;
}

/* A site of program prog_id on map m (helper, function and why left for the caller). */
static struct helper_site map_site(uint32_t prog_id, const struct map_desc *m)
{
	struct helper_site s = { .prog_id = prog_id, .map_id = m->id };

	snprintf(s.map_name, sizeof(s.map_name), "%s", m->name);
	snprintf(s.map_type, sizeof(s.map_type), "%s", map_type_name(m->type));
	return s;
}

/* A site per (function called, map it can act on). Returns 0 or -ENOMEM. */
static int traced_sites(const struct prog_image *img, uint32_t prog_id, char funcs[64][64],
			int nfuncs, struct helper_site **out, size_t *n, size_t *cap)
{
	for (int k = 0; k < nfuncs; k++) {
		int kind = helper_kind(funcs[k]);

		for (uint32_t i = 0; i < img->nmaps; i++) {
			const struct map_desc *m = &img->maps[i];
			struct helper_site s;

			if (!m->by_ptr || !func_fits_map(funcs[k], m->type))
				continue;
			s = map_site(prog_id, m);
			s.helper_id = helper_kinds[kind].helper_id;
			snprintf(s.helper, sizeof(s.helper), "%s", helper_kinds[kind].helper);
			snprintf(s.func, sizeof(s.func), "%.63s", funcs[k]);
			/* Tracing the ring buffer would catch lattop's own probes emitting. */
			if (m->type == BPF_MAP_TYPE_RINGBUF)
				snprintf(s.why, sizeof(s.why),
					 "not traced: lattop's own probes use the ring buffer");
			if (add_site(out, n, cap, &s))
				return -ENOMEM;
		}
	}
	return 0;
}

/* A site per array map the program uses: its lookups are inlined, so the row says so.
 * Returns 0 or -ENOMEM. */
static int inlined_sites(const struct prog_image *img, uint32_t prog_id,
			 struct helper_site **out, size_t *n, size_t *cap)
{
	for (uint32_t i = 0; i < img->nmaps; i++) {
		const struct map_desc *m = &img->maps[i];
		struct helper_site s;

		if (!m->by_ptr ||
		    (m->type != BPF_MAP_TYPE_ARRAY && m->type != BPF_MAP_TYPE_ARRAY_OF_MAPS))
			continue;
		s = map_site(prog_id, m);
		s.helper_id = BPF_FUNC_map_lookup_elem;
		snprintf(s.helper, sizeof(s.helper), "bpf_map_lookup_elem");
		snprintf(s.why, sizeof(s.why), "inlined by the verifier: nothing to trace");
		if (add_site(out, n, cap, &s))
			return -ENOMEM;
	}
	return 0;
}

/* List the map helper sites of a program: read its instructions and maps, find the map
 * functions it calls, then a site per (function, map) and per inlined array lookup. */
int helpertrace__analyze(struct helpertrace *ht, uint32_t prog_id, struct helper_site **out,
			 size_t *n, char *err, size_t errlen)
{
	struct prog_image img = { 0 };
	char funcs[64][64];
	int nfuncs, fd, e;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	e = load_kallsyms(ht);
	if (e) {
		snprintf(err, errlen,
			 "cannot resolve helper calls: /proc/kallsyms hides addresses (%s)",
			 strerror(-e));
		return e;
	}
	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0) {
		e = -errno;
		snprintf(err, errlen, "program %u is gone", prog_id);
		return e;
	}
	e = read_image(fd, prog_id, &img, err, errlen);
	close(fd);
	if (!e) {
		nfuncs = scan_calls(ht, &img, funcs);
		e = traced_sites(&img, prog_id, funcs, nfuncs, out, n, &cap);
		if (!e)
			e = inlined_sites(&img, prog_id, out, n, &cap);
		if (e)
			snprintf(err, errlen, "out of memory");
	}
	image_fini(&img);
	return e;
}

/* Index of a probed function, or -1. */
static int probe_index(const struct helpertrace *ht, const char *func)
{
	for (int i = 0; i < ht->n; i++)
		if (!strcmp(ht->p[i].func, func))
			return i;
	return -1;
}

/* True when the kernel can create kprobes through perf (what libbpf uses). */
static bool have_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe/type", R_OK) == 0;
}

/* The planned sites of func (distinct pairs, at most LAT_HAGG_SITES) into out, when calls
 * aggregate in the kernel and their bytes fit in the budget (then taken: *bytes). */
static int agg_sites(struct helpertrace *ht, const char *func, struct lat_hagg_site *out,
		     size_t *bytes)
{
	int n = 0;

	*bytes = 0;
	if (!ht->pt || !progtrace__agg(ht->pt))
		return 0;
	for (size_t i = 0; i < ht->nplan && n < LAT_HAGG_SITES; i++) {
		bool dup = false;

		if (strcmp(ht->plan[i].func, func))
			continue;
		for (int k = 0; k < n && !dup; k++)
			dup = out[k].prog_id == ht->plan[i].site.prog_id &&
			      out[k].map_id == ht->plan[i].site.map_id;
		if (!dup)
			out[n++] = ht->plan[i].site;
	}
	if (!n)
		return 0;
	if (!ht->scratch)
		ht->scratch = calloc(1, sizeof(*ht->scratch));
	if (!ht->scratch || !progtrace__agg_reserve(ht->pt, aggset__bytes(progagg__ncpu(), n)))
		return 0;
	*bytes = aggset__bytes(progagg__ncpu(), n);
	return n;
}

/* The fentry/fexit targets: the chosen entry and the exit, and their copies where tasks are
 * preempted inside BPF programs (progtrace__copies; helpertrace.bpf.c copies), which are
 * otherwise not loaded. */
static int fentry_targets(struct helpertrace_bpf *skel, bool typed, const char *func)
{
	bool two = progtrace__copies();
	struct bpf_program *entry2 = typed ? skel->progs.lat_helper_entry_btf2
					   : skel->progs.lat_helper_entry2;
	int e;

	skel->rodata->copies = two;
	bpf_program__set_autoload(skel->progs.lat_helper_entry2, two && !typed);
	bpf_program__set_autoload(skel->progs.lat_helper_entry_btf2, two && typed);
	bpf_program__set_autoload(skel->progs.lat_helper_exit2, two);
	e = bpf_program__set_attach_target(typed ? skel->progs.lat_helper_entry_btf
						 : skel->progs.lat_helper_entry, 0, func);
	if (!e)
		e = bpf_program__set_attach_target(skel->progs.lat_helper_exit, 0, func);
	if (!e && two)
		e = bpf_program__set_attach_target(entry2, 0, func);
	if (!e && two)
		e = bpf_program__set_attach_target(skel->progs.lat_helper_exit2, 0, func);
	return e;
}

/* Attach p, its link in *link; 0 or a negative errno. */
static int attach_prog(struct bpf_program *p, struct bpf_link **link)
{
	*link = bpf_program__attach(p);
	return *link ? 0 : -errno;
}

/* Attach the fentry/fexit set (and the copies where loaded): the exits first, then the entries:
 * a call that begins in between gets an exit without an entry (ignored), never an entry
 * without an exit (a slot taken for good). */
static int fentry_attach(struct helpertrace_bpf *skel, struct bpf_program *entry,
			 struct bpf_program *exit, bool typed)
{
	bool two = skel->rodata->copies;
	int e = attach_prog(exit, &skel->links.lat_helper_exit);

	if (!e && two)
		e = attach_prog(skel->progs.lat_helper_exit2, &skel->links.lat_helper_exit2);
	if (!e)
		e = attach_prog(entry, &skel->links.lat_helper_entry);
	if (!e && two)
		e = attach_prog(typed ? skel->progs.lat_helper_entry_btf2
				      : skel->progs.lat_helper_entry2,
				&skel->links.lat_helper_entry2);
	return e;
}

/* Open a copy for func with one probe set loaded (fentry/fexit, else kprobe/kretprobe),
 * sharing the stacks and the ring buffer; load and attach it. 0 or a negative errno. */
static int load_probe(struct helpertrace *ht, const struct helper_site *site, bool fentry,
		      const struct lat_hagg_site *agg, int nagg, struct helpertrace_bpf **out)
{
	struct helpertrace_bpf *skel = COMPAT_OPEN(helpertrace);
	struct bpf_program *entry, *exit;
	bool typed;
	int e;

	*out = NULL;
	if (!skel)
		return -errno;
	skel->rodata->helper_id = site->helper_id;
	skel->rodata->func_idx = (uint32_t)ht->n + 1;
	skel->rodata->lat_ctx_off = progtrace__ctx_off();
	skel->rodata->lat_stack_shift = progtrace__stack_shift();
	skel->rodata->agg_nsites = (__u32)nagg;
	skel->rodata->agg_ncpu = (__u32)progagg__ncpu();
	for (int k = 0; k < nagg; k++)
		skel->rodata->agg_sites[k] = agg[k];
	typed = fentry && map_arg_typed(ht, site->func);
	entry = typed	 ? skel->progs.lat_helper_entry_btf
		: fentry ? skel->progs.lat_helper_entry
			 : skel->progs.lat_helper_kentry;
	exit = fentry ? skel->progs.lat_helper_exit : skel->progs.lat_helper_kexit;
	bpf_program__set_autoload(skel->progs.lat_helper_entry, fentry && !typed);
	bpf_program__set_autoload(skel->progs.lat_helper_entry_btf, typed);
	bpf_program__set_autoload(skel->progs.lat_helper_exit, fentry);
	bpf_program__set_autoload(skel->progs.lat_helper_kentry, !fentry);
	bpf_program__set_autoload(skel->progs.lat_helper_kexit, !fentry);
	/* The copies load only where fentry_targets asks for them (never with kprobes). */
	bpf_program__set_autoload(skel->progs.lat_helper_entry2, false);
	bpf_program__set_autoload(skel->progs.lat_helper_entry_btf2, false);
	bpf_program__set_autoload(skel->progs.lat_helper_exit2, false);
	e = fentry ? fentry_targets(skel, typed, site->func) : 0;
	if (!e)
		e = bpf_map__reuse_fd(skel->maps.lat_nest, ht->nest_fd);
	if (!e)
		e = bpf_map__reuse_fd(skel->maps.lat_hnest, ht->hnest_fd);
	if (!e)
		e = collector__share(ht->col, skel->obj);
	if (!e)
		e = bpf_map__set_max_entries(skel->maps.lat_agg,
					     nagg ? (__u32)(nagg * progagg__ncpu()) : 1);
	if (!e)
		e = helpertrace_bpf__load(skel);
	/* The exit first, then the entry: a call that begins in between gets an exit without
	 * an entry (ignored), never an entry without an exit (a slot taken for good). The links
	 * go in the skeleton's slots, so destroying it detaches them. */
	if (!e && fentry) {
		e = fentry_attach(skel, entry, exit, typed);
	} else if (!e) {
		LIBBPF_OPTS(bpf_kprobe_opts, ret, .retprobe = true);
		struct bpf_link *l = bpf_program__attach_kprobe_opts(exit, site->func, &ret);

		skel->links.lat_helper_kexit = l;
		if (!l)
			e = -errno;
		if (!e) {
			l = bpf_program__attach_kprobe_opts(entry, site->func, NULL);
			skel->links.lat_helper_kentry = l;
			if (!l)
				e = -errno;
		}
	}
	if (e) {
		probe_destroy(skel);
		return e < 0 ? e : -e;
	}
	*out = skel;
	return 0;
}

/* Add a loaded copy to the probes, mapping its aggregates (nagg sites, bytes of the budget);
 * on failure the copy is destroyed and the bytes given back. 0 or a negative errno. */
static int probe_add(struct helpertrace *ht, const struct helper_site *site,
		     struct helpertrace_bpf *skel, const struct lat_hagg_site *agg, int nagg,
		     size_t bytes)
{
	struct agg_key keys[LAT_HAGG_SITES];
	struct aggset *ha = NULL;
	int e = 0;

	for (int k = 0; k < nagg && k < LAT_HAGG_SITES; k++)
		keys[k] = (struct agg_key){ LAT_EV_HELPER, agg[k].prog_id, site->helper_id,
					    agg[k].map_id };
	if (nagg) {
		ha = aggset__open(bpf_map__fd(skel->maps.lat_agg), progagg__ncpu(), keys, nagg);
		if (!ha)
			e = -errno;
	}
	if (!e && ht->n == ht->cap) {
		int cap = ht->cap ? ht->cap * 2 : 16;
		struct helper_probe *np = realloc(ht->p, cap * sizeof(*np));

		if (np) {
			ht->p = np;
			ht->cap = cap;
		} else {
			e = -ENOMEM;
		}
	}
	if (e) {
		aggset__free(ha);
		probe_destroy(skel);
		if (ht->pt)
			progtrace__agg_release(ht->pt, bytes);
		return e;
	}
	snprintf(ht->p[ht->n].func, sizeof(ht->p[0].func), "%s", site->func);
	ht->p[ht->n].kprobe = !bpf_program__autoload(skel->progs.lat_helper_exit);
	ht->p[ht->n].agg = ha;
	ht->p[ht->n].agg_bytes = bytes;
	ht->p[ht->n++].skel = skel;
	return 0;
}

/* Is func one of ftrace's functions? 1 yes, 0 no, -1 when the list cannot be read (tracefs
 * not mounted). A kernel object built without ftrace's hooks (CC_FLAGS_FTRACE removed, as Linux
 * does from 6.14 for queue_stack_maps.c, lpm_trie.c, ringbuf.c and the freelists, against
 * deadlocks of probes nested in their locks) has none of its functions there. */
static int ftrace_listed(const char *func)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/available_filter_functions",
		"/sys/kernel/debug/tracing/available_filter_functions",
	};
	size_t n = strlen(func);
	char line[256];
	int found = -1;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]) && found < 0; i++) {
		FILE *f = fopen(paths[i], "r");

		if (!f)
			continue;
		found = 0;
		/* "name" or "name [module]" per line */
		while (!found && fgets(line, sizeof(line), f))
			found = !strncmp(line, func, n) &&
				(line[n] == '\n' || line[n] == ' ' || line[n] == '\0');
		fclose(f);
	}
	return found;
}

/* Did both attaches fail because the kernel built func without tracing hooks? fentry then
 * finds no patchable call at its start (EBUSY) and kprobe events refuse a function ftrace does
 * not list (EINVAL, unless the kernel has KPROBE_EVENTS_ON_NOTRACE). ftrace's list decides
 * where it is readable; the pair of errors where it is not. */
static bool built_notrace(const char *func, int fentry_err, int kprobe_err)
{
	int listed = ftrace_listed(func);

	if (listed >= 0)
		return !listed;
	return fentry_err == -EBUSY && kprobe_err == -EINVAL;
}

/* Attach probes for a site's function: fentry/fexit, else kprobe/kretprobe on the same
 * function (LATTOP_HELPER_PROBES=kprobe forces them, for tests). */
int helpertrace__attach(struct helpertrace *ht, struct helper_site *site)
{
	const char *force = getenv("LATTOP_HELPER_PROBES");
	bool kprobe_only = force && !strcmp(force, "kprobe");
	struct helpertrace_bpf *skel = NULL;
	struct lat_hagg_site agg[LAT_HAGG_SITES];
	char fwhy[64] = "";
	int e = -ENOTSUP, fe = 0, nagg;
	size_t bytes;

	if (!site->func[0] || site->why[0])
		return site->why[0] ? -ENOTSUP : -EINVAL;
	if (probe_index(ht, site->func) >= 0)
		return 0;
	nagg = agg_sites(ht, site->func, agg, &bytes);
	if (!ht->vmlinux)
		ht->vmlinux = btf__load_vmlinux_btf();
	if (!kprobe_only && ht->vmlinux &&
	    btf__find_by_name_kind(ht->vmlinux, site->func, BTF_KIND_FUNC) < 0)
		snprintf(fwhy, sizeof(fwhy), "no BTF");
	else if (!kprobe_only)
		e = load_probe(ht, site, true, agg, nagg, &skel);
	if (!fwhy[0] && !kprobe_only && e)
		snprintf(fwhy, sizeof(fwhy), "%s", strerror(-e));
	fe = fwhy[0] ? e : 0;
	if (!skel && have_kprobes())
		e = load_probe(ht, site, false, agg, nagg, &skel);
	if (!skel && ht->pt)
		progtrace__agg_release(ht->pt, bytes);
	if (!skel) {
		if (have_kprobes() && built_notrace(site->func, fe, e))
			snprintf(site->why, sizeof(site->why),
				 "not traceable: this kernel has no tracing hooks in %s "
				 "(neither fentry nor kprobes can attach to it)", site->func);
		else if (kprobe_only || fwhy[0] == '\0')
			snprintf(site->why, sizeof(site->why), "not traceable: kprobe on %s: %s",
				 site->func, have_kprobes() ? strerror(-e) : "no kprobes");
		else if (have_kprobes())
			snprintf(site->why, sizeof(site->why),
				 "not traceable: fentry on %s: %s; kprobe: %s", site->func, fwhy,
				 strerror(-e));
		else
			snprintf(site->why, sizeof(site->why),
				 "not traceable: fentry on %s: %s (and no kprobes)", site->func,
				 fwhy);
		return e ? e : -ENOTSUP;
	}
	return probe_add(ht, site, skel, agg, nagg, bytes);
}

/* Number of kernel functions probed. */
int helpertrace__count(const struct helpertrace *ht)
{
	return ht->n;
}

/* Map calls a task made whose entry both probe copies missed (lat_hnest lost, over CPUs). */
static uint64_t copies_lost(const struct helpertrace *ht)
{
	int ncpu = progagg__ncpu();
	uint64_t sum = 0;

	for (__u32 cpu = 0; cpu < (__u32)ncpu; cpu++) {
		__u32 key = LAT_NEST_CPU0 + cpu;
		struct lat_hnest h;

		if (!bpf_map_lookup_elem(ht->hnest_fd, &key, &h))
			sum += h.lost;
	}
	return sum;
}

/* Calls the helper probes missed for recursion: the kernel's recursion_misses of our probes;
 * with probe copies, where a miss of one copy loses nothing, the calls both entry copies
 * missed (a call whose exit both missed leaves its slot to be reclaimed: helper_stale). */
uint64_t helpertrace__recursion_misses(const struct helpertrace *ht)
{
	uint64_t sum = ht->retired_misses;

	if (progtrace__copies())
		return copies_lost(ht);

	for (int i = 0; i < ht->n; i++)
		sum += probe_misses(&ht->p[i]);
	return sum;
}

void helpertrace__probe_stats(const struct helpertrace *ht, uint64_t *run_time_ns,
			      uint64_t *calls)
{
	*run_time_ns = ht->retired_time;
	*calls = ht->retired_calls;
	for (int i = 0; i < ht->n; i++)
		probe_stats(&ht->p[i], run_time_ns, calls);
}

/* Helper calls skipped because a traced call held their slot. */
uint64_t helpertrace__busy(const struct helpertrace *ht)
{
	uint64_t busy, foreign;

	slots_losses(ht, &busy, &foreign);
	return busy - ht->base_busy;
}

/* Helper calls not attributed because they ran in another interrupt context than the
 * program on top of the stack. */
uint64_t helpertrace__foreign(const struct helpertrace *ht)
{
	uint64_t busy, foreign;

	slots_losses(ht, &busy, &foreign);
	return foreign - ht->base_foreign;
}

/* Can the probes read the CPU's interrupt context? The same two per-CPU variables that
 * bpf/nest.bpf.h reads as weak ksyms, looked up in the kernel's BTF as libbpf does. */
bool helpertrace__ctx_readable(struct helpertrace *ht)
{
	if (progtrace__ctx_off())
		return false;
	if (!ht->vmlinux)
		ht->vmlinux = btf__load_vmlinux_btf();
	if (!ht->vmlinux)
		return false;
	return btf__find_by_name_kind(ht->vmlinux, "__preempt_count", BTF_KIND_VAR) >= 0 ||
	       btf__find_by_name_kind(ht->vmlinux, "pcpu_hot", BTF_KIND_VAR) >= 0;
}
