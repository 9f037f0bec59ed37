// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * prom_snap.c - the exporter's totals since start and the immutable snapshots a scrape renders.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "ui/prom/prom_snap.h"

const struct prom_family_desc prom_families[PF__COUNT] = {
    [PF_PROG_LAT] = {"lattop_program_latency_seconds", PT_HISTOGRAM,
		     "Run time of one invocation of a BPF program, since lattop started."},
    [PF_PROG_CPU_LAT] = {"lattop_program_cpu_latency_seconds", PT_HISTOGRAM,
			 "Run time of one invocation of a BPF program on one CPU (--per-cpu)."},
    [PF_HELPER_LAT] = {"lattop_helper_latency_seconds", PT_HISTOGRAM,
		       "Time of one map helper call made by a watched BPF program, per map."},
    [PF_SPAN_LAT] = {"lattop_span_latency_seconds", PT_HISTOGRAM,
		     "Time from a span's start probe to its end probe."},
    [PF_SPAN_GRP_LAT] = {"lattop_span_group_latency_seconds", PT_HISTOGRAM,
			 "A span's time for one group of its breakdown by key (--by)."},
    [PF_SPAN_PART_LAT] = {"lattop_span_part_seconds", PT_HISTOGRAM,
			  "A span's time on a CPU (part oncpu), waiting for one (runq) or sleeping "
			  "(sleep), per sample, for spans whose start and end run in one task."},
    [PF_SEG_LAT] = {"lattop_segment_latency_seconds", PT_HISTOGRAM,
		    "Time of one segment of the KVM -> vhost-net -> TUN transmit path."},
    [PF_PROG_RUNS] = {"lattop_program_runs", PT_COUNTER,
		      "Runs of a BPF program counted by bpf_stats since lattop saw it."},
    [PF_PROG_RUNTIME] = {"lattop_program_run_time_seconds", PT_COUNTER,
			 "Run time of a BPF program summed by bpf_stats since lattop saw it."},
    [PF_PROG_INFO] = {"lattop_program_info", PT_GAUGE,
		      "1 for each program, labelled with its first owner, container and attach point."},
    [PF_LOST] = {"lattop_lost_events", PT_COUNTER,
		 "Events lattop lost or could not attribute, by reason (and span)."},
    [PF_EVENTS] = {"lattop_events", PT_COUNTER,
		   "Per-invocation records lattop received from its probes."},
    [PF_INTERVALS] = {"lattop_intervals", PT_COUNTER,
		      "Intervals lattop closed; each close publishes a new snapshot."},
    [PF_CPU] = {"lattop_process_cpu_seconds", PT_COUNTER,
		"CPU time (user and system) of the lattop process."},
    [PF_FLOOR] = {"lattop_probe_floor_seconds", PT_GAUGE,
		  "What the per-invocation probes report for an empty program."},
    [PF_RUN_COST] = {"lattop_probe_run_cost_seconds", PT_GAUGE,
		     "What the probes add to each run here, measured at start-up."},
    [PF_PROBE_CPU] = {"lattop_probe_cpu_ratio", PT_GAUGE,
		      "Share of one CPU the probes cost over the last interval."},
    [PF_PROBED] = {"lattop_probed_programs", PT_GAUGE,
		   "Programs with per-invocation probes attached."},
    [PF_PROBE_MACHINE] = {"lattop_probe_machine_ratio", PT_GAUGE,
			  "Share of the whole machine's CPU the probes cost over the last interval."},
    [PF_BUDGET] = {"lattop_probe_budget_ratio", PT_GAUGE,
		   "Share of the whole machine's CPU the probes may cost (--budget)."},
    [PF_TURNS] = {"lattop_probe_turns", PT_GAUGE,
		  "1 while the budget does not cover every program and they are watched in turns."},
    [PF_UNWATCHABLE] = {"lattop_unwatchable_programs", PT_GAUGE,
			"Programs wanted that the probes cannot watch (the reason is in -o json)."},
    [PF_PUBLISH] = {"lattop_publish_seconds", PT_GAUGE,
		    "UI-thread time the previous snapshot took to publish."},
    [PF_FLIGHT_BYTES] = {"lattop_flight_bytes", PT_GAUGE,
			 "Memory the flight recorder holds (--flight), under its cap."},
    [PF_FLIGHT_IVALS] = {"lattop_flight_intervals", PT_GAUGE,
			 "Closed intervals the flight recorder holds."},
    [PF_FLIGHT_DUMPS] = {"lattop_flight_dumps", PT_COUNTER,
			 "Flight recorder dumps written, by what triggered them."},
    [PF_FLIGHT_ERRS] = {"lattop_flight_dump_errors", PT_COUNTER,
			"Flight recorder dumps that failed or were refused."},
};

/* The exporter's view of one model series (same position as in the model). */
struct ser_state {
	bool init;
	uint16_t kind;
	uint32_t id, aux, aux2;
	double created_s;
	bool has_hist, dirty;
	struct hist cum;
	uint64_t classic[PROMHIST_LE_N];
	struct promhist_native nat;
	bool has_stats;
	uint64_t runs, run_time_ns;
};

/* Total of one of the model's named counters (same position as in the model). */
struct ctr_state {
	double created_s;
	uint64_t total;
};

struct prom_state {
	uint64_t keep_ns;
	struct ser_state *s;
	size_t n;
	struct ctr_state *c;
	size_t nc;
	double start_s;
	uint64_t lost[4]; /* ringbuf, queue, recursion, nest */
	uint64_t events, intervals;
	double cpu_s;
	uint64_t floor_ns, run_cost_ns;
	double probe_cpu; /* the probes' share of one CPU, last interval */
	int probed;
	bool has_budget, turns;
	double machine, budget; /* share of the machine: the probes' cost, the budget (<0: max) */
	int unwatchable;
	uint64_t publish_ns;
	bool flight; /* --flight: its figures are exported */
	struct flight_stats fl;
};

static const char *const basic_losses[4] = {"ringbuf", "queue", "recursion", "nest"};

/* Take a reference on a snapshot. */
void prom_snap__ref(struct prom_snap *s)
{
	atomic_fetch_add_explicit(&s->ref, 1, memory_order_relaxed);
}

/* Drop a reference: acq_rel so the freeing thread sees every reader's last use. */
void prom_snap__unref(struct prom_snap *s)
{
	if (!s || atomic_fetch_sub_explicit(&s->ref, 1, memory_order_acq_rel) != 1)
		return;
	for (size_t i = 0; i < s->n; i++)
		promhist__native_fini(&s->v[i].nat);
	free(s->v);
	free(s);
}

/* Create a state. */
struct prom_state *prom_state__new(uint64_t keep_ns)
{
	struct prom_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->keep_ns = keep_ns;
	st->start_s = -1;
	return st;
}

/* Free a state. */
void prom_state__free(struct prom_state *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->n; i++) {
		hist__fini(&st->s[i].cum);
		promhist__native_fini(&st->s[i].nat);
	}
	free(st->s);
	free(st->c);
	free(st);
}

/* Grow an array of elem-sized items to hold n (new items zeroed); 0 or -ENOMEM. */
static int grow(void **arr, size_t *have, size_t n, size_t elem)
{
	void *p;

	if (n <= *have)
		return 0;
	p = realloc(*arr, n * elem);
	if (!p)
		return -ENOMEM;
	memset((char *)p + *have * elem, 0, (n - *have) * elem);
	*arr = p;
	*have = n;
	return 0;
}

/* True when series se has a per-invocation histogram to export. */
static bool exports_hist(const struct series *se)
{
	return se->has_hist && (se->src & (SRC_SELF | SRC_FENTRY)) &&
	       (se->kind == LAT_EV_PROG || se->kind == LAT_EV_PROG_CPU ||
		se->kind == LAT_EV_HELPER || se->kind == LAT_EV_SEG || se->kind == LAT_EV_SPAN_GRP ||
		se->kind == LAT_EV_SPAN_PART);
}

/* Add one closed series interval to its totals. */
static int update_series(struct ser_state *ss, const struct series *se, double wall_s)
{
	if (!ss->init || ss->kind != se->kind || ss->id != se->id || ss->aux != se->aux ||
	    ss->aux2 != se->aux2) {
		hist__fini(&ss->cum);
		promhist__native_fini(&ss->nat);
		*ss = (struct ser_state){.init = true,
					 .kind = se->kind,
					 .id = se->id,
					 .aux = se->aux,
					 .aux2 = se->aux2,
					 .created_s = wall_s};
	}
	if (exports_hist(se)) {
		if (!ss->has_hist) {
			if (hist__init(&ss->cum))
				return -ENOMEM;
			ss->has_hist = ss->dirty = true;
		}
		if (se->h_last.count) {
			hist__merge(&ss->cum, &se->h_last);
			ss->dirty = true;
		}
	}
	if (se->kind == LAT_EV_PROG && (se->src & SRC_STATS)) {
		ss->has_stats = true;
		ss->runs += se->st_last.cnt;
		ss->run_time_ns += se->st_last.time_ns;
	}
	return 0;
}

/* Add the interval m just closed to the totals. */
int prom_state__update(struct prom_state *st, const struct model *m, double wall_s, double cpu_s)
{
	const uint64_t basic[4] = {m->c_last.rb_drops, m->c_last.queue_drops, m->c_last.recursion,
				   m->c_last.nest};
	int ret = 0;

	if (st->start_s < 0)
		st->start_s = wall_s;
	for (int i = 0; i < 4; i++)
		st->lost[i] += basic[i];
	st->events += m->c_last.events;
	st->intervals++;
	st->cpu_s = cpu_s;
	st->floor_ns = m->floor_ns;
	st->run_cost_ns = m->run_cost_ns;
	st->probe_cpu = model__probe_cost_pct(m, false) / 100.0;
	st->probed = m->probed;
	st->has_budget = m->has_budget;
	st->machine = model__probe_machine_pct(m, false) / 100.0;
	st->budget = m->budget_pct < 0 ? -1 : m->budget_pct / 100.0;
	st->turns = m->turns;
	st->unwatchable = m->unprobeable;
	if (grow((void **)&st->s, &st->n, m->n, sizeof(*st->s)) ||
	    grow((void **)&st->c, &st->nc, m->nctr, sizeof(*st->c)))
		return -ENOMEM;
	for (size_t i = 0; i < m->n; i++)
		if (update_series(&st->s[i], &m->s[i], wall_s))
			ret = -ENOMEM;
	for (size_t i = 0; i < m->nctr; i++) {
		if (!st->c[i].created_s)
			st->c[i].created_s = wall_s;
		st->c[i].total += m->ctr[i].last;
	}
	return ret;
}

/* Record how long the last publish took. */
void prom_state__set_publish_ns(struct prom_state *st, uint64_t ns) { st->publish_ns = ns; }

/* Record the flight recorder's figures. */
void prom_state__set_flight(struct prom_state *st, const struct flight_stats *fs)
{
	st->flight = true;
	st->fl = *fs;
}


/* Growable sample array of a snapshot being built. */
struct builder {
	struct prom_snap *snap;
	size_t cap;
	bool failed;
};

/* Append a sample of family f with created time created_s; NULL when out of memory. */
static struct prom_sample *add(struct builder *b, enum prom_family f, double created_s)
{
	struct prom_sample *p;

	if (b->failed)
		return NULL;
	if (b->snap->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;

		p = realloc(b->snap->v, cap * sizeof(*p));
		if (!p) {
			b->failed = true;
			return NULL;
		}
		b->snap->v = p;
		b->cap = cap;
	}
	p = &b->snap->v[b->snap->n++];
	memset(p, 0, sizeof(*p));
	p->family = (uint8_t)f;
	p->created_s = created_s;
	return p;
}

/* Add label name=value to a sample. */
static void label(struct prom_sample *p, const char *name, const char *value)
{
	struct prom_label *l = &p->label[p->nlabels++];

	l->name = name;
	snprintf(l->value, sizeof(l->value), "%s", value);
}

/* Add label name=v (an unsigned number) to a sample. */
static void label_u(struct prom_sample *p, const char *name, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	label(p, name, buf);
}

/* True when program series se is still exported at now_ns (not gone for longer than keep). */
static bool prog_alive(const struct prom_state *st, const struct series *se, uint64_t now_ns)
{
	return !se || !se->gone || now_ns - se->gone_ns <= st->keep_ns;
}

/* The program series of a helper series (NULL when unknown). */
static const struct series *prog_of(const struct model *m, const struct series *h)
{
	return model__find((struct model *)m, LAT_EV_PROG, h->id, 0, 0);
}

/* The family a series' histogram belongs to. */
static enum prom_family hist_family(const struct series *se)
{
	if (se->kind == LAT_EV_PROG)
		return PF_PROG_LAT;
	if (se->kind == LAT_EV_PROG_CPU)
		return PF_PROG_CPU_LAT;
	if (se->kind == LAT_EV_HELPER)
		return PF_HELPER_LAT;
	if (se->kind == LAT_EV_SPAN_GRP)
		return PF_SPAN_GRP_LAT;
	if (se->kind == LAT_EV_SPAN_PART)
		return PF_SPAN_PART_LAT;
	return !strcmp(se->type, "vhost") ? PF_SEG_LAT : PF_SPAN_LAT;
}

/* Add series i's histogram sample (classic and native buckets recomputed when it changed). */
static void add_hist(struct builder *b, struct ser_state *ss, const struct model *m,
		     const struct series *se)
{
	enum prom_family f = hist_family(se);
	struct prom_sample *p;

	if (ss->dirty) {
		promhist__native_fini(&ss->nat);
		promhist__classic(&ss->cum, ss->classic);
		if (promhist__native(&ss->cum, &ss->nat)) {
			b->failed = true;
			return;
		}
		ss->dirty = false;
	}
	p = add(b, f, ss->created_s);
	if (!p)
		return;
	switch (f) {
	case PF_PROG_LAT:
		label_u(p, "prog_id", se->id);
		label(p, "prog_name", se->name);
		label(p, "prog_type", se->type);
		break;
	case PF_PROG_CPU_LAT:
		label_u(p, "prog_id", se->id);
		label(p, "prog_name", se->name);
		label_u(p, "cpu", se->aux);
		break;
	case PF_HELPER_LAT: {
		const struct series *prog = prog_of(m, se);

		label_u(p, "prog_id", se->id);
		label(p, "prog_name", prog ? prog->name : "");
		label(p, "helper", se->name);
		label_u(p, "map_id", se->aux2);
		label(p, "map_name", se->sub);
		break;
	}
	case PF_SEG_LAT:
		label(p, "segment", se->name);
		break;
	case PF_SPAN_GRP_LAT: /* bounded: at most 33 groups a span (--by's K + other) */
		label(p, "span", se->name);
		label(p, "group", se->sub);
		break;
	case PF_SPAN_PART_LAT:
		label(p, "span", se->name);
		label(p, "part", model__part_name(se->aux));
		break;
	default:
		label(p, "span", se->name);
		break;
	}
	p->count = ss->cum.count;
	p->sum_s = (double)ss->cum.sum * 1e-9;
	memcpy(p->classic, ss->classic, sizeof(p->classic));
	/* The snapshot owns copies: the state's arrays change at the next close. */
	p->nat.zero_count = ss->nat.zero_count;
	if (ss->nat.nspans) {
		p->nat.spans = malloc(ss->nat.nspans * sizeof(*p->nat.spans));
		p->nat.deltas = malloc(ss->nat.ndeltas * sizeof(*p->nat.deltas));
		if (!p->nat.spans || !p->nat.deltas) {
			b->failed = true;
			return;
		}
		memcpy(p->nat.spans, ss->nat.spans, ss->nat.nspans * sizeof(*p->nat.spans));
		memcpy(p->nat.deltas, ss->nat.deltas, ss->nat.ndeltas * sizeof(*p->nat.deltas));
		p->nat.nspans = ss->nat.nspans;
		p->nat.ndeltas = ss->nat.ndeltas;
	}
}

/* Add a program's bpf_stats counter sample (runs or run time). */
static void add_stats(struct builder *b, const struct ser_state *ss, const struct series *se,
		      enum prom_family f)
{
	struct prom_sample *p = add(b, f, ss->created_s);

	if (!p)
		return;
	label_u(p, "prog_id", se->id);
	label(p, "prog_name", se->name);
	label(p, "prog_type", se->type);
	p->value = f == PF_PROG_RUNS ? (double)ss->runs : (double)ss->run_time_ns * 1e-9;
}

/* Add label name=v in its visible form (bytes from the kernel or /proc: a comm, a path). */
static void label_vis(struct prom_sample *p, const char *name, const char *value)
{
	struct prom_label *l = &p->label[p->nlabels++];

	l->name = name;
	text__esc(l->value, sizeof(l->value), value);
}

/* Add a program's info sample: who holds it and where it is attached (the join pattern:
 * `... * on(prog_id) group_left(owner_comm) lattop_program_info`), so those labels do not
 * multiply the histogram series. */
static void add_info(struct builder *b, const struct ser_state *ss, const struct series *se)
{
	const struct prog_attr *a = se->attr;
	struct prom_sample *p = add(b, PF_PROG_INFO, ss->created_s);
	char buf[160];

	if (!p)
		return;
	label_u(p, "prog_id", se->id);
	label(p, "prog_name", se->name);
	label(p, "prog_type", se->type);
	label_vis(p, "owner_comm", a->nowners ? a->owners[0].comm : "");
	if (a->nowners)
		label_u(p, "owner_pid", (uint64_t)a->owners[0].pid);
	else
		label(p, "owner_pid", "");
	label_vis(p, "container", a->container[0] ? a->container : a->unit);
	model__attr_attach(a, buf, sizeof(buf));
	label_vis(p, "attach", buf);
	p->value = 1;
}

/* Add the loss counters: the four session-wide ones always, then the named ones. */
static void add_losses(struct builder *b, const struct prom_state *st, const struct model *m)
{
	for (int i = 0; i < 4; i++) {
		struct prom_sample *p = add(b, PF_LOST, st->start_s);

		if (!p)
			return;
		label(p, "reason", basic_losses[i]);
		p->value = (double)st->lost[i];
	}
	for (size_t i = 0; i < m->nctr && i < st->nc; i++) {
		const struct model_counter *c = &m->ctr[i];
		struct prom_sample *p;

		if (!c->loss)
			continue;
		p = add(b, PF_LOST, st->c[i].created_s);
		if (!p)
			return;
		label(p, "reason", c->name);
		if (c->series >= 0 && (size_t)c->series < m->n &&
		    m->s[c->series].kind == LAT_EV_PROG) {
			label_u(p, "prog_id", m->s[c->series].id);
			label(p, "prog_name", m->s[c->series].name);
		} else if (c->series >= 0 && (size_t)c->series < m->n) {
			label(p, "span", m->s[c->series].name);
		}
		p->value = (double)st->c[i].total;
	}
}

/* Add an unlabelled sample of family f. */
static void add_plain(struct builder *b, enum prom_family f, double created_s, double v)
{
	struct prom_sample *p = add(b, f, created_s);

	if (p)
		p->value = v;
}

/* Add the flight recorder's samples (--flight only). */
static void add_flight(struct builder *b, const struct prom_state *st)
{
	if (!st->flight)
		return;
	add_plain(b, PF_FLIGHT_BYTES, 0, (double)st->fl.bytes);
	add_plain(b, PF_FLIGHT_IVALS, 0, (double)st->fl.intervals);
	for (int i = 0; i < FT__COUNT; i++) {
		struct prom_sample *p = add(b, PF_FLIGHT_DUMPS, st->start_s);

		if (!p)
			return;
		label(p, "trigger", flight__trigger_name((enum flight_trigger)i));
		p->value = (double)st->fl.dumps[i];
	}
	add_plain(b, PF_FLIGHT_ERRS, st->start_s, (double)st->fl.errors);
}

/* A new snapshot of the totals. */
struct prom_snap *prom_state__snapshot(struct prom_state *st, const struct model *m,
				       uint64_t now_ns)
{
	struct builder b = {.snap = calloc(1, sizeof(*b.snap))};
	size_t n = st->n < m->n ? st->n : m->n;

	if (!b.snap)
		return NULL;
	atomic_init(&b.snap->ref, 1);
	/* Room for every sample at once: one allocation instead of a doubling series. */
	b.cap = 3 * n + m->nctr + 16;
	b.snap->v = malloc(b.cap * sizeof(*b.snap->v));
	if (!b.snap->v)
		b.cap = 0;
	/* Families in enum order: one pass over the series per family keeps them grouped. */
	for (int f = PF_PROG_LAT; f <= PF_SEG_LAT; f++)
		for (size_t i = 0; i < n; i++) {
			const struct series *se = &m->s[i];

			if (!st->s[i].has_hist || hist_family(se) != (enum prom_family)f)
				continue;
			if (!prog_alive(st,
					se->kind == LAT_EV_PROG ? se
					: se->kind == LAT_EV_HELPER || se->kind == LAT_EV_PROG_CPU
						? prog_of(m, se)
						: NULL,
					now_ns))
				continue;
			add_hist(&b, &st->s[i], m, se);
		}
	for (int f = PF_PROG_RUNS; f <= PF_PROG_RUNTIME; f++)
		for (size_t i = 0; i < n; i++)
			if (st->s[i].has_stats && prog_alive(st, &m->s[i], now_ns))
				add_stats(&b, &st->s[i], &m->s[i], (enum prom_family)f);
	for (size_t i = 0; i < n; i++)
		if (m->s[i].kind == LAT_EV_PROG && m->s[i].attr && prog_alive(st, &m->s[i], now_ns))
			add_info(&b, &st->s[i], &m->s[i]);
	add_losses(&b, st, m);
	add_plain(&b, PF_EVENTS, st->start_s, (double)st->events);
	add_plain(&b, PF_INTERVALS, st->start_s, (double)st->intervals);
	add_plain(&b, PF_CPU, st->start_s, st->cpu_s);
	if (st->floor_ns)
		add_plain(&b, PF_FLOOR, 0, (double)st->floor_ns * 1e-9);
	if (st->run_cost_ns)
		add_plain(&b, PF_RUN_COST, 0, (double)st->run_cost_ns * 1e-9);
	if (st->floor_ns)
		add_plain(&b, PF_PROBE_CPU, 0, st->probe_cpu);
	add_plain(&b, PF_PROBED, 0, st->probed);
	if (st->has_budget && st->floor_ns) {
		if (st->machine >= 0)
			add_plain(&b, PF_PROBE_MACHINE, 0, st->machine);
		if (st->budget >= 0)
			add_plain(&b, PF_BUDGET, 0, st->budget);
		add_plain(&b, PF_TURNS, 0, st->turns);
		add_plain(&b, PF_UNWATCHABLE, 0, st->unwatchable);
	}
	add_plain(&b, PF_PUBLISH, 0, (double)st->publish_ns * 1e-9);
	add_flight(&b, st);
	if (b.failed) {
		prom_snap__unref(b.snap);
		errno = ENOMEM;
		return NULL;
	}
	return b.snap;
}
