// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * progtrace.c - load, attach and detach per-target fentry/fexit copies; probe the floor.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collect/collector.h"
#include "collect/compat.h"
#include "collect/progagg.h"
#include "collect/progstats.h"
#include "collect/progtrace.h"
#include "model/hist.h"
#include "progrefs.skel.h"
#include "progtrace.skel.h"
#include "progtrace_compat.skel.h"
#include "target.skel.h"

/* Test runs used to measure the probe floor. */
#define FLOOR_RUNS 20000

/* What a probed run costs: rounds of COST_RUNS test runs of our empty program, timed by the
 * kernel, without the probes and then with them; the cost is the difference of the least of each. */
#define COST_ROUNDS 5
#define COST_RUNS 20000

/* Longest wait for the calls in flight on a program before its probes are detached. */
#define QUIESCE_NS (200 * 1000000ull)

/* CLOCK_MONOTONIC in ns. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct watch {
	uint32_t id;
	struct progtrace_bpf *skel;
	struct progagg *agg; /* its in-kernel aggregates, NULL on the ring buffer */
};

struct progtrace {
	struct collector *col;
	int nest_fd, hnest_fd;
	const struct lat_nest *nest_map; /* lat_nest mapped read-only (NULL if mmap failed) */
	struct watch *w;
	int n, cap;
	uint64_t floor_ns;
	uint64_t run_cost_ns;      /* what the probes add to a run (0: not measured) */
	struct progrefs_bpf *refs; /* the bpf_prog iterator, loaded on first use */
	uint64_t retired_misses;   /* recursion_misses of copies already detached */
	bool agg;                  /* aggregate in the kernel (else an event per run) */
	bool hslots;               /* the helper-call slots' fd was handed out: copies reclaim */
	int ncpu;                  /* possible CPUs: entries of each lat_agg map */
	size_t budget, agg_bytes;  /* the cap on aggregates, and what they take now */
	uint64_t over_budget;      /* attaches put on the ring buffer: the budget was spent */
	progagg_sink sink;         /* where harvested aggregates go */
	void *sink_arg;
	bool (*split)(void *sink_arg, uint32_t id); /* split program id's harvests by CPU */
	struct progagg_delta *scratch; /* one harvest's buckets */
};

/* Bytes of the lat_nest array's mapping: its values, whole pages. */
static size_t nest_map_len(int ncpu)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return ((size_t)LAT_NEST_ENTRIES(ncpu) * sizeof(struct lat_nest) + pg - 1) / pg * pg;
}

/* References a watched, orphaned program still has: our entry and exit links, plus the one the
 * iterator takes on the program it is visiting; two more with probe copies (their links). */
#define ORPHAN_REFS 3
#define ORPHAN_REFS_COPIES 5

/* The lat_nest array mapped read-only, to scan the task slots without a syscall each; NULL if
 * the kernel refuses. */
static const struct lat_nest *nest_mmap(int fd, int ncpu)
{
	void *p = mmap(NULL, nest_map_len(ncpu), PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Create the tracer, its shared nesting map and the helper-call slots. */
struct progtrace *progtrace__new(struct collector *c)
{
	LIBBPF_OPTS(bpf_map_create_opts, mmapable, .map_flags = BPF_F_MMAPABLE);
	struct progtrace *pt = calloc(1, sizeof(*pt));
	int e;

	if (!pt)
		return NULL;
	pt->col = c;
	pt->agg = true;
	pt->budget = progagg__budget();
	pt->ncpu = progagg__ncpu();
	/* Page-aligned values (BPF_F_MMAPABLE, as bpf/nest.bpf.h declares them): whole-line
	 * records, so no cache line is written by two CPUs. The task slots, then an entry per
	 * possible CPU. */
	pt->nest_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "lat_nest", sizeof(__u32),
				     sizeof(struct lat_nest), LAT_NEST_ENTRIES(pt->ncpu), &mmapable);
	pt->hnest_fd = pt->nest_fd < 0 ? -1
					: bpf_map_create(BPF_MAP_TYPE_ARRAY, "lat_hnest",
							 sizeof(__u32), sizeof(struct lat_hnest),
							 LAT_NEST_ENTRIES(pt->ncpu), &mmapable);
	pt->scratch = pt->hnest_fd < 0 ? NULL : calloc(1, sizeof(*pt->scratch));
	pt->nest_map = pt->scratch ? nest_mmap(pt->nest_fd, pt->ncpu) : NULL;
	if (!pt->scratch) {
		e = pt->hnest_fd < 0 ? errno : ENOMEM;
		if (pt->hnest_fd >= 0)
			close(pt->hnest_fd);
		if (pt->nest_fd >= 0)
			close(pt->nest_fd);
		free(pt);
		errno = e;
		return NULL;
	}
	return pt;
}

/* Detach a copy's probes, entry first: a call that begins after that gets no entry, and every
 * call that had one still finds the exit (the same trampoline image runs both), then free. */
static void copy_destroy(struct progtrace_bpf *skel)
{
	if (!skel)
		return;
	bpf_link__destroy(skel->links.lat_prog_entry);
	skel->links.lat_prog_entry = NULL;
	bpf_link__destroy(skel->links.lat_prog_entry2);
	skel->links.lat_prog_entry2 = NULL;
	bpf_link__destroy(skel->links.lat_prog_exit);
	skel->links.lat_prog_exit = NULL;
	bpf_link__destroy(skel->links.lat_prog_exit2);
	skel->links.lat_prog_exit2 = NULL;
	progtrace_bpf__destroy(skel);
}

/* True while a task slot (bpf/nest.bpf.h) holds an entry of program id. */
static bool task_in_flight(const struct progtrace *pt, uint32_t id)
{
	if (!pt->nest_map)
		return false;
	for (int s = 0; s < LAT_TASK_SLOTS; s++) {
		const struct lat_nest *n = &pt->nest_map[s];
		uint64_t d = __atomic_load_n(&n->owner, __ATOMIC_RELAXED) & LAT_TASK_DEPTH_MASK;

		for (uint64_t i = 0; i < d && i < LAT_NEST_MAX; i++)
			if (n->ids[i] == id)
				return true;
	}
	return false;
}

/* True while some CPU's program stack or a task slot holds an entry of program id (a call in
 * flight). */
static bool in_flight(const struct progtrace *pt, uint32_t id)
{
	if (task_in_flight(pt, id))
		return true;
	for (__u32 cpu = 0; cpu < (__u32)pt->ncpu; cpu++) {
		__u32 key = LAT_NEST_CPU0 + cpu;
		struct lat_nest n;

		if (bpf_map_lookup_elem(pt->nest_fd, &key, &n))
			continue;
		for (__u32 i = 0; i < n.depth && i < LAT_NEST_MAX; i++)
			if (n.ids[i] == id)
				return true;
	}
	return false;
}

/* Before a copy's links go: turn its entry off and give the calls in flight up to
 * QUIESCE_NS to pop their entries. Replacing a trampoline patches the old image to skip its
 * fexit programs, so a call still running in it would leave its entry behind (reclaimed later
 * and counted as prog_stale: only a call running longer than the wait). */
static void copy_quiesce(const struct progtrace *pt, struct progtrace_bpf *skel, uint32_t id)
{
	uint64_t end = mono_ns() + QUIESCE_NS;

	if (!skel || !skel->bss)
		return;
	__atomic_store_n(&skel->bss->entry_off, 1, __ATOMIC_SEQ_CST);
	while (in_flight(pt, id) && mono_ns() < end)
		usleep(1000);
}

/* Detach everything and free. */
void progtrace__free(struct progtrace *pt)
{
	if (!pt)
		return;
	for (int i = 0; i < pt->n; i++)
		copy_quiesce(pt, pt->w[i].skel, pt->w[i].id);
	for (int i = 0; i < pt->n; i++) {
		progagg__free(pt->w[i].agg);
		copy_destroy(pt->w[i].skel);
	}
	free(pt->w);
	free(pt->scratch);
	progrefs_bpf__destroy(pt->refs);
	if (pt->nest_map)
		munmap((void *)pt->nest_map, nest_map_len(pt->ncpu));
	if (pt->hnest_fd >= 0)
		close(pt->hnest_fd);
	if (pt->nest_fd >= 0)
		close(pt->nest_fd);
	free(pt);
}

/* Explain a load/attach failure in one phrase. */
static void explain(int err, const struct bpf_prog_info *info, char *why, size_t len)
{
	if (info && info->type == BPF_PROG_TYPE_TRACING)
		snprintf(why, len, "fentry/fexit/tp_btf programs cannot be traced on this kernel");
	else if (info && info->type == BPF_PROG_TYPE_EXT)
		snprintf(why, len, "extension (freplace) programs cannot be traced");
	else if (err == -EBUSY)
		snprintf(why, len, "busy: an freplace program is attached to it");
	else if (err == -EPERM)
		snprintf(why, len, "this kernel refuses fentry/fexit (EPERM)");
	else if (err == -E2BIG)
		snprintf(why, len, "too many trampolines attached to it");
	else
		snprintf(why, len, "cannot attach fentry/fexit: %s", strerror(-err));
}

/* Attach p, storing its link in *link; 0 or a negative errno. */
static int attach_one(struct bpf_program *p, struct bpf_link **link)
{
	*link = bpf_program__attach(p);
	return *link ? 0 : -errno;
}

/* The second probe pair goes to the same target where copies are on, else it is not loaded. */
static int copies_target(struct progtrace_bpf *skel, int target_fd, const char *func)
{
	int err;

	if (!skel->rodata->copies) {
		bpf_program__set_autoload(skel->progs.lat_prog_entry2, false);
		bpf_program__set_autoload(skel->progs.lat_prog_exit2, false);
		return 0;
	}
	err = bpf_program__set_attach_target(skel->progs.lat_prog_entry2, target_fd, func);
	return err ? err : bpf_program__set_attach_target(skel->progs.lat_prog_exit2, target_fd, func);
}

/* LATTOP_TEST_UNSEEN=N (tests): every Nth run of a watched program goes unseen (0: off). */
static uint32_t unseen_every(void)
{
	const char *v = getenv("LATTOP_TEST_UNSEEN");
	unsigned long n = v ? strtoul(v, NULL, 10) : 0;

	return n > 0 && n < 1000000 ? (uint32_t)n : 0;
}

/* Load and attach one progtrace copy to the program behind target_fd. share says whether it
 * emits into the collector's ring buffer (false: its own, for the floor probe); agg whether it
 * aggregates in the kernel instead (its lat_agg map then has an entry per CPU). */
static int load_copy(struct progtrace *pt, int target_fd, uint32_t id, const char *func,
		     bool share, bool agg, struct progtrace_bpf **out)
{
	struct progtrace_bpf *skel = COMPAT_OPEN(progtrace);
	int err;

	if (!skel)
		return -errno;
	skel->rodata->target_id = id;
	skel->rodata->agg_on = agg;
	skel->rodata->agg_ncpu = (__u32)pt->ncpu;
	skel->rodata->lat_ctx_off = progtrace__ctx_off();
	skel->rodata->lat_stack_shift = progtrace__stack_shift();
	skel->rodata->copies = progtrace__copies();
	skel->rodata->lat_unseen_every = share ? unseen_every() : 0;
	err = bpf_program__set_attach_target(skel->progs.lat_prog_entry, target_fd, func);
	if (!err)
		err = bpf_program__set_attach_target(skel->progs.lat_prog_exit, target_fd, func);
	if (!err)
		err = copies_target(skel, target_fd, func);
	if (!err)
		err = bpf_map__reuse_fd(skel->maps.lat_nest, pt->nest_fd);
	if (!err)
		err = bpf_map__reuse_fd(skel->maps.lat_hnest, pt->hnest_fd);
	if (!err && share)
		err = collector__share(pt->col, skel->obj);
	if (!err && !share)
		err = bpf_map__set_max_entries(skel->maps.events, agg ? 4096 : 1u << 22);
	if (!err && !share)
		err = bpf_map__set_max_entries(skel->maps.lat_drops, (__u32)pt->ncpu);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.lat_agg, agg ? (__u32)pt->ncpu : 1);
	if (!err)
		err = progtrace_bpf__load(skel);
	if (!err)
		skel->bss->hslots_on = pt->hslots; /* before any probe of this copy runs */
	/* The exit first: a call that begins before the entry is attached then gets an exit
	 * without an entry (ignored), never an entry without an exit (a stale stack entry). */
	if (!err) {
		skel->links.lat_prog_exit = bpf_program__attach(skel->progs.lat_prog_exit);
		if (!skel->links.lat_prog_exit)
			err = -errno;
	}
	if (!err && skel->rodata->copies)
		err = attach_one(skel->progs.lat_prog_exit2, &skel->links.lat_prog_exit2);
	if (!err)
		err = attach_one(skel->progs.lat_prog_entry, &skel->links.lat_prog_entry);
	if (!err && skel->rodata->copies)
		err = attach_one(skel->progs.lat_prog_entry2, &skel->links.lat_prog_entry2);
	if (err) {
		copy_destroy(skel);
		return err < 0 ? err : -err;
	}
	*out = skel;
	return 0;
}

/* Ring buffer callback for the floor probe: collect durations. */
static int on_floor(void *ctx, void *data, size_t size)
{
	struct hist *h = ctx;
	const struct lat_event *e = data;

	if (size == sizeof(*e))
		hist__add(h, e->dur_ns);
	return 0;
}

/* Run prog_fd (our empty XDP program) runs times with BPF_PROG_TEST_RUN on a 64-byte IPv4
 * frame; *ns (may be NULL) gets the kernel's mean ns per run. 0, or a negative errno. */
static int test_runs(int prog_fd, int runs, uint32_t *ns)
{
	unsigned char pkt[64] = { [12] = 0x08 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = runs);

	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return -errno;
	if (ns)
		*ns = opts.duration;
	return 0;
}

/* Run the floor probe's target FLOOR_RUNS times and put what copy measured into h: from its
 * ring buffer, or from its aggregates (the path the session's probes take). */
static int floor_runs(struct progtrace *pt, struct progtrace_bpf *copy, int prog_fd,
		      struct hist *h, char *why, size_t len)
{
	struct ring_buffer *rb = NULL;
	struct progagg *pa = NULL;
	int err = 0;

	if (pt->agg)
		pa = progagg__open(bpf_map__fd(copy->maps.lat_agg), pt->ncpu);
	else
		rb = ring_buffer__new(bpf_map__fd(copy->maps.events), on_floor, h, NULL);
	if (!pa && !rb) {
		err = -errno;
		snprintf(why, len, "cannot read the probe's %s: %s",
			 pt->agg ? "aggregates" : "ring buffer", strerror(-err));
		return err;
	}
	if ((err = test_runs(prog_fd, FLOOR_RUNS, NULL))) {
		snprintf(why, len, "cannot run the probe program: %s", strerror(-err));
	} else if (rb) {
		ring_buffer__consume(rb);
	} else if (progagg__harvest(pa, true, pt->scratch)) {
		const struct progagg_delta *d = pt->scratch;

		err = hist__add_sparse(h, d->idx, d->cnt, d->n);
		h->count = d->d.count;
		h->min = d->d.min;
		h->max = d->d.max;
	}
	ring_buffer__free(rb);
	progagg__free(pa);
	return err;
}

/* The least over COST_ROUNDS rounds of the kernel's mean ns per run of prog_fd (the test
 * run's duration: its own clock around the runs, preemption off) into *ns: 0, or a negative
 * errno when a run fails. The least, not the median: what else runs on the machine (another
 * task, an emulator's other guests) only ever adds time to a round, so the least disturbed
 * round is the closest to what a run costs (the median of 5 was seen to differ 4.7 times
 * between two sessions a minute apart on a loaded emulated guest). */
static int least_run_ns(int prog_fd, uint32_t *ns)
{
	uint32_t d;

	*ns = UINT32_MAX;
	for (int i = 0; i < COST_ROUNDS; i++) {
		int err = test_runs(prog_fd, COST_RUNS, &d);

		if (err)
			return err;
		if (d < *ns)
			*ns = d;
	}
	return 0;
}

/* Probe fentry support and measure the floor on an empty program of our own. */
int progtrace__probe(struct progtrace *pt, char *why, size_t len)
{
	struct target_bpf *tgt = target_bpf__open();
	struct progtrace_bpf *copy = NULL;
	struct bpf_program *p;
	uint32_t bare = 0, probed = 0;
	bool bare_ok;
	struct hist h;
	int err;

	if (!tgt)
		return -errno;
	/* Only target_light is needed: the other test programs would cost verifier time (a
	 * second under emulation). */
	bpf_object__for_each_program(p, tgt->obj)
		if (p != tgt->progs.target_light)
			bpf_program__set_autoload(p, false);
	/* The target object's ring buffer is never used by target_light; keep it tiny. */
	err = bpf_map__set_max_entries(tgt->maps.events, 4096);
	if (!err)
		err = target_bpf__load(tgt);
	if (err) {
		snprintf(why, len, "cannot load a BPF program to probe with: %s", strerror(-err));
		goto out;
	}
	/* The run cost is measured on the aggregates' path only: on the ring buffer's, 100,000
	 * probed runs would fill a ring nobody reads yet and time the drops instead. */
	bare_ok = pt->agg && !least_run_ns(bpf_program__fd(tgt->progs.target_light), &bare);
	err = load_copy(pt, bpf_program__fd(tgt->progs.target_light), 0, "target_light", false,
			pt->agg, &copy);
	if (err) {
		explain(err, NULL, why, len);
		goto out;
	}
	err = hist__init(&h);
	if (err)
		goto out;
	err = floor_runs(pt, copy, bpf_program__fd(tgt->progs.target_light), &h, why, len);
	if (!err && h.count == 0) {
		err = -ENODATA;
		snprintf(why, len, "fentry/fexit attached but reported nothing");
	}
	if (!err)
		pt->floor_ns = hist__percentile(&h, 0.5);
	hist__fini(&h);
	/* The same program with the probes on it, on the path the session's probes take. */
	if (!err && bare_ok && !least_run_ns(bpf_program__fd(tgt->progs.target_light), &probed))
		pt->run_cost_ns = probed > bare ? probed - bare : 1;
out:
	copy_destroy(copy);
	target_bpf__destroy(tgt);
	return err;
}

/* The probe floor in ns. */
uint64_t progtrace__floor_ns(const struct progtrace *pt)
{
	return pt->floor_ns;
}

/* What the probes add to a run here, in ns (0: not measured). */
uint64_t progtrace__run_cost_ns(const struct progtrace *pt)
{
	return pt->run_cost_ns;
}

/* Index of id in the watch list, or -1. */
static int watch_index(const struct progtrace *pt, uint32_t id)
{
	for (int i = 0; i < pt->n; i++)
		if (pt->w[i].id == id)
			return i;
	return -1;
}

/* Whether the next copy aggregates in the kernel: the session's path is aggregation and the
 * budget has room for one more (else it goes on the ring buffer, counted). */
static bool agg_fits(struct progtrace *pt)
{
	if (!pt->agg)
		return false;
	if (progagg__fits(pt->agg_bytes, pt->ncpu, pt->budget))
		return true;
	pt->over_budget++;
	return false;
}

/* Add a loaded copy to the watch list, mapping its aggregates; on failure the copy is
 * destroyed. Returns 0 or a negative errno. */
static int watch_add(struct progtrace *pt, uint32_t id, struct progtrace_bpf *skel)
{
	struct progagg *agg = NULL;

	if (skel->rodata->agg_on) {
		agg = progagg__open(bpf_map__fd(skel->maps.lat_agg), pt->ncpu);
		if (!agg) {
			int e = -errno;

			copy_destroy(skel);
			return e;
		}
	}
	if (pt->n == pt->cap) {
		int cap = pt->cap ? pt->cap * 2 : 16;
		struct watch *nw = realloc(pt->w, cap * sizeof(*nw));

		if (!nw) {
			progagg__free(agg);
			copy_destroy(skel);
			return -ENOMEM;
		}
		pt->w = nw;
		pt->cap = cap;
	}
	pt->w[pt->n++] = (struct watch){ id, skel, agg };
	if (agg)
		pt->agg_bytes += progagg__bytes(pt->ncpu);
	return 0;
}

/* Attach to program id. */
int progtrace__attach(struct progtrace *pt, uint32_t id, char *why, size_t len)
{
	struct bpf_prog_info info = {};
	__u32 ilen = sizeof(info);
	struct progtrace_bpf *skel;
	char func[64];
	int fd, err;

	if (watch_index(pt, id) >= 0)
		return 0;
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0) {
		err = -errno;
		snprintf(why, len, err == -ENOENT ? "gone" : "cannot open: %s", strerror(-err));
		return err;
	}
	err = bpf_obj_get_info_by_fd(fd, &info, &ilen);
	if (err) {
		err = -errno;
		snprintf(why, len, "cannot read program info: %s", strerror(-err));
		goto out;
	}
	if (!info.btf_id || !info.nr_func_info) {
		err = -ENOTSUP;
		snprintf(why, len, "no BTF: fentry needs the program's BTF (load it with BTF)");
		goto out;
	}
	if (!info.jited_prog_len) {
		err = -ENOTSUP;
		snprintf(why, len, "not JIT-compiled: fentry needs a JITed program");
		goto out;
	}
	progstats__name(fd, &info, func, sizeof(func));
	err = load_copy(pt, fd, id, func, true, agg_fits(pt), &skel);
	if (err) {
		explain(err, &info, why, len);
		goto out;
	}
	err = watch_add(pt, id, skel);
	if (err)
		snprintf(why, len, "cannot map its aggregates: %s", strerror(-err));
out:
	close(fd);
	return err;
}
static uint64_t misses(const struct bpf_program *p);

/* A split harvest's CPU share: to the sink as (LAT_EV_PROG_CPU, prog id, cpu). */
struct split_to {
	struct progtrace *pt;
	uint32_t id;
};

static void on_cpu_share(void *arg, int cpu, const struct progagg_delta *d)
{
	const struct split_to *to = arg;

	to->pt->sink(to->pt->sink_arg, LAT_EV_PROG_CPU, to->id, (uint32_t)cpu, 0, d);
}

/* Hand what one watched program's aggregates gained to the sink: split by CPU first when the
 * session asks for it, then the program's whole delta. */
static void harvest_one(struct progtrace *pt, struct watch *w, bool force)
{
	struct split_to to = { pt, w->id };
	uint64_t n;

	if (pt->sink && pt->split && pt->split(pt->sink_arg, w->id))
		n = progagg__harvest_split(w->agg, force, pt->scratch, on_cpu_share, &to);
	else
		n = progagg__harvest(w->agg, force, pt->scratch);
	if (n && pt->sink)
		pt->sink(pt->sink_arg, LAT_EV_PROG, w->id, 0, 0, pt->scratch);
}

/* Hand what every watched program's aggregates gained to the sink. */
void progtrace__harvest(struct progtrace *pt)
{
	for (int i = 0; i < pt->n; i++)
		if (pt->w[i].agg)
			harvest_one(pt, &pt->w[i], false);
}

/* Choose the path of the copies attached from now on. */
void progtrace__set_agg(struct progtrace *pt, bool on)
{
	pt->agg = on;
}

/* True when copies attached from now on aggregate in the kernel. */
bool progtrace__agg(const struct progtrace *pt)
{
	return pt->agg;
}

/* Where harvested aggregates go. */
void progtrace__set_sink(struct progtrace *pt, progagg_sink fn, void *arg)
{
	pt->sink = fn;
	pt->sink_arg = arg;
}

/* Which programs' harvests are split by CPU. */
void progtrace__set_split(struct progtrace *pt, bool (*fn)(void *sink_arg, uint32_t id))
{
	pt->split = fn;
}

/* The sink. */
progagg_sink progtrace__sink(const struct progtrace *pt, void **arg)
{
	*arg = pt->sink_arg;
	return pt->sink;
}

/* Take bytes of the budget for another user. */
bool progtrace__agg_reserve(struct progtrace *pt, size_t bytes)
{
	if (pt->agg_bytes > pt->budget || bytes > pt->budget - pt->agg_bytes) {
		pt->over_budget++;
		return false;
	}
	pt->agg_bytes += bytes;
	return true;
}

/* Give bytes back. */
void progtrace__agg_release(struct progtrace *pt, size_t bytes)
{
	pt->agg_bytes -= bytes < pt->agg_bytes ? bytes : pt->agg_bytes;
}

/* What the aggregates take, and the cap. */
void progtrace__agg_mem(const struct progtrace *pt, struct progtrace_mem *out)
{
	int on_agg = 0;

	for (int i = 0; i < pt->n; i++)
		on_agg += pt->w[i].agg != NULL;
	*out = (struct progtrace_mem){
		.bytes = pt->agg_bytes,
		.budget = pt->budget,
		.per_program = progagg__bytes(pt->ncpu),
		.ncpu = pt->ncpu,
		.aggregated = on_agg,
		.on_ring = pt->n - on_agg,
		.over_budget = pt->over_budget,
	};
}

/* recursion_misses of one of our programs. */
static uint64_t misses(const struct bpf_program *p)
{
	return progstats__recursion_misses(bpf_program__fd(p));
}

/* recursion_misses of one copy's probes (the second pair's only where it is loaded). */
static uint64_t copy_misses(const struct progtrace_bpf *k)
{
	uint64_t sum = misses(k->progs.lat_prog_entry) + misses(k->progs.lat_prog_exit);

	if (k->rodata->copies)
		sum += misses(k->progs.lat_prog_entry2) + misses(k->progs.lat_prog_exit2);
	return sum;
}

/* What the probes on program id have seen so far. */
int progtrace__runs(const struct progtrace *pt, uint32_t id, uint64_t *runs, uint64_t *missed)
{
	int i = watch_index(pt, id);

	if (i < 0)
		return -ENOENT;
	if (!pt->w[i].agg)
		return -ENOTSUP;
	*runs = progagg__total(pt->w[i].agg);
	*missed = copy_misses(pt->w[i].skel);
	return 0;
}

/* Add one program's bpf_stats to *t and *n (n: only when runs is set). */
static void prog_stats_add(const struct bpf_program *p, uint64_t *t, uint64_t *n)
{
	if (p)
		progstats__run_add(bpf_program__fd(p), t, n);
}

/* bpf_stats of the probes on program id. */
int progtrace__probe_stats(const struct progtrace *pt, uint32_t id, uint64_t *run_time_ns,
			   uint64_t *runs)
{
	int i = watch_index(pt, id);
	const struct progtrace_bpf *k;

	if (i < 0)
		return -ENOENT;
	k = pt->w[i].skel;
	*run_time_ns = *runs = 0;
	prog_stats_add(k->progs.lat_prog_entry, run_time_ns, runs);
	prog_stats_add(k->progs.lat_prog_exit, run_time_ns, NULL);
	if (k->rodata->copies) {
		prog_stats_add(k->progs.lat_prog_entry2, run_time_ns, NULL);
		prog_stats_add(k->progs.lat_prog_exit2, run_time_ns, NULL);
	}
	return 0;
}

/* Detach from program id. */
void progtrace__detach(struct progtrace *pt, uint32_t id)
{
	int i = watch_index(pt, id);

	if (i < 0)
		return;
	/* Keep its losses in the totals: counters only grow. */
	pt->retired_misses += copy_misses(pt->w[i].skel);
	copy_quiesce(pt, pt->w[i].skel, id);
	/* The calls in flight are done: what the aggregates hold is the program's last runs. */
	if (pt->w[i].agg) {
		harvest_one(pt, &pt->w[i], true);
		progagg__free(pt->w[i].agg);
		pt->agg_bytes -= progagg__bytes(pt->ncpu);
	}
	copy_destroy(pt->w[i].skel);
	pt->w[i] = pt->w[--pt->n];
}

/* True when program id is attached. */
bool progtrace__attached(const struct progtrace *pt, uint32_t id)
{
	return watch_index(pt, id) >= 0;
}

/* fd of the shared per-CPU program stack map. */
int progtrace__nest_fd(const struct progtrace *pt)
{
	return pt->nest_fd;
}

/* fd of the shared per-CPU helper-call slots; from now on every copy reclaims them (set before
 * the caller can attach a helper probe that fills one). */
int progtrace__hnest_fd(struct progtrace *pt)
{
	pt->hslots = true;
	for (int k = 0; k < pt->n; k++)
		__atomic_store_n(&pt->w[k].skel->bss->hslots_on, 1, __ATOMIC_SEQ_CST);
	return pt->hnest_fd;
}

/* Number of attached programs. */
int progtrace__count(const struct progtrace *pt)
{
	return pt->n;
}

/* Detach from watched programs that only our links keep alive. */
int progtrace__reap(struct progtrace *pt, uint32_t *reaped, int max)
{
	struct lat_prog_ref r[64];
	struct bpf_link *link;
	int fd, n = 0;
	ssize_t got;

	if (!pt->n)
		return 0;
	if (!pt->refs) {
		pt->refs = progrefs_bpf__open_and_load();
		if (!pt->refs)
			return -errno;
	}
	link = bpf_program__attach_iter(pt->refs->progs.lat_refs_iter, NULL);
	if (!link)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		int e = -errno;

		bpf_link__destroy(link);
		return e;
	}
	while ((got = read(fd, r, sizeof(r))) > 0) {
		for (size_t k = 0; k < (size_t)got / sizeof(r[0]); k++) {
			if (r[k].refcnt > (progtrace__copies() ? ORPHAN_REFS_COPIES : ORPHAN_REFS) ||
			    watch_index(pt, r[k].id) < 0)
				continue;
			if (n < max)
				reaped[n++] = r[k].id;
		}
	}
	close(fd);
	bpf_link__destroy(link);
	for (int i = 0; i < n; i++)
		progtrace__detach(pt, reaped[i]);
	return n;
}

/* IDs of our own tracing programs. */
int progtrace__own_ids(const struct progtrace *pt, uint32_t *ids, int max)
{
	int n = 0;

	for (int i = 0; i < pt->n && n + 4 <= max; i++) {
		const struct progtrace_bpf *k = pt->w[i].skel;

		ids[n++] = progstats__prog_id(bpf_program__fd(k->progs.lat_prog_entry));
		ids[n++] = progstats__prog_id(bpf_program__fd(k->progs.lat_prog_exit));
		if (k->rodata->copies) {
			ids[n++] = progstats__prog_id(bpf_program__fd(k->progs.lat_prog_entry2));
			ids[n++] = progstats__prog_id(bpf_program__fd(k->progs.lat_prog_exit2));
		}
	}
	return n;
}

/* Exits that found no entry (lat_nest unpaired, summed over CPUs). */
static uint64_t copies_lost(const struct progtrace *pt)
{
	uint64_t sum = 0;

	for (int c = 0; c < pt->ncpu && pt->nest_map; c++)
		sum += __atomic_load_n(&pt->nest_map[c].unpaired, __ATOMIC_RELAXED);
	return sum;
}

/* Calls our probes missed for recursion: the kernel's recursion_misses of our tracing programs;
 * with probe copies, where a miss of one copy loses nothing, the exits that found no entry
 * (both entry copies missed, or the call began before they were attached). A call whose exit
 * both copies missed leaves its entry stale: counted in prog_stale. */
uint64_t progtrace__recursion_misses(const struct progtrace *pt)
{
	uint64_t sum = pt->retired_misses;

	if (progtrace__copies())
		return copies_lost(pt);

	for (int i = 0; i < pt->n; i++)
		sum += copy_misses(pt->w[i].skel);
	return sum;
}

/* Read the nesting stacks' and the helper slots' counters. */
void progtrace__nest(const struct progtrace *pt, struct progtrace_nest *out)
{
	memset(out, 0, sizeof(*out));
	/* The counters live in the CPUs' entries (CPU_COUNT), one lookup each. */
	for (__u32 cpu = 0; cpu < (__u32)pt->ncpu; cpu++) {
		__u32 key = LAT_NEST_CPU0 + cpu;
		struct lat_nest n;
		struct lat_hnest h;

		if (!bpf_map_lookup_elem(pt->nest_fd, &key, &n)) {
			out->overflow += n.overflow;
			out->stale += n.stale;
			out->unpaired += n.unpaired;
		}
		if (!bpf_map_lookup_elem(pt->hnest_fd, &key, &h))
			out->helper_stale += h.stale;
	}
}

/* True when LATTOP_IRQ_CTX_FAIL is set: the probes then behave as on a kernel whose BTF lacks
 * the per-CPU preempt_count (a debug knob, to test that fallback on a kernel that has it). */
bool progtrace__ctx_off(void)
{
	const char *v = getenv("LATTOP_IRQ_CTX_FAIL");

	return v && *v && strcmp(v, "0");
}

/* log2 of the running kernel's THREAD_SIZE for the probes' lat_stack_shift (bpf/lattop.h
 * LAT_STACK_SHIFT): x86-64 stacks are 16 KiB, 32 KiB where the kernel has KASAN, which its BTF
 * shows (kasan_report). Looked up once; where the BTF cannot be read the smaller shift stays. */
uint32_t progtrace__stack_shift(void)
{
	static uint32_t shift;

	if (!shift) {
		struct btf *vmlinux = btf__load_vmlinux_btf();

		shift = LAT_STACK_SHIFT;
		if (vmlinux && btf__find_by_name_kind(vmlinux, "kasan_report", BTF_KIND_FUNC) >= 0)
			shift = LAT_STACK_SHIFT + 1;
		btf__free(vmlinux);
	}
	return shift;
}

/* Does a task on this kernel get preempted inside a BPF program that runs with only migration
 * disabled? PREEMPT_RT (/sys/kernel/realtime), a dynamic kernel in full or lazy mode (debugfs's
 * sched/preempt, else preempt=full on the command line), or a CONFIG_PREEMPT build ("PREEMPT "
 * in its version).
 * There the kernel skips a probe program for every other task on the CPU while one task is
 * preempted inside it, so a second pair of probes is attached (progtrace.bpf.c, "Probe
 * copies"). LATTOP_PROBE_COPIES=0/1 overrides (a debug and test knob). */
bool progtrace__copies(void)
{
	static int on = -1;
	const char *v = getenv("LATTOP_PROBE_COPIES");
	char buf[4096] = "";
	FILE *f;

	if (v && *v)
		return strcmp(v, "0") != 0;
	if (on >= 0)
		return on;
	on = access("/sys/kernel/realtime", F_OK) == 0;
	f = on ? NULL : fopen("/sys/kernel/debug/sched/preempt", "re");
	if (f) {
		on = fgets(buf, sizeof(buf), f) && !strstr(buf, "(none)") &&
		     !strstr(buf, "(voluntary)");
		fclose(f);
		return on;
	}
	f = on ? NULL : fopen("/proc/sys/kernel/version", "re");
	if (f) {
		on = fgets(buf, sizeof(buf), f) && strstr(buf, " PREEMPT ");
		fclose(f);
	}
	f = on ? NULL : fopen("/proc/cmdline", "re");
	if (f) {
		on = fgets(buf, sizeof(buf), f) && strstr(buf, "preempt=full");
		fclose(f);
	}
	return on;
}
