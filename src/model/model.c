// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * model.c - series table, interval closing, and row computation.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* Create an empty model starting at now_ns. */
struct model *model__new(uint64_t now_ns)
{
	struct model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->start_ns = m->open_start_ns = m->cum_start_ns = now_ns;
	m->last_start_ns = m->last_end_ns = now_ns;
	snprintf(m->source, sizeof(m->source), "stats");
	return m;
}

/* Release a series' histograms. */
static void series__fini(struct series *s)
{
	hist__fini(&s->h_open);
	hist__fini(&s->h_last);
	hist__fini(&s->h_cum);
	if (s->heat)
		for (int i = 0; i < MODEL_P99_RING; i++)
			free(s->heat[i].cnt);
	free(s->heat);
	s->heat = NULL;
	free(s->attr);
	s->attr = NULL;
}

/* Bytes a series' heat history holds. */
static size_t heat_bytes(const struct series *s)
{
	size_t b = 0;

	if (!s->heat)
		return 0;
	for (int i = 0; i < MODEL_P99_RING; i++)
		b += s->heat[i].cap * sizeof(uint32_t);
	return b + MODEL_P99_RING * sizeof(*s->heat);
}

/* Free a model (NULL is a no-op). */
void model__free(struct model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		series__fini(&m->s[i]);
	free(m->s);
	free(m->index);
	free(m->act);
	free(m->ctr);
	free(m->ctr_index);
	free(m->ctr_act);
	free(m);
}

/* What the model holds and has done. */
void model__cost(const struct model *m, struct model_cost *c)
{
	size_t heat = 0;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < m->n; i++) {
		c->hist_bytes += hist__bytes(&m->s[i].h_open) + hist__bytes(&m->s[i].h_last) +
				 hist__bytes(&m->s[i].h_cum);
		heat += heat_bytes(&m->s[i]) + (m->s[i].attr ? sizeof(*m->s[i].attr) : 0);
	}
	c->bytes = sizeof(*m) + c->hist_bytes + heat + m->cap * (sizeof(*m->s) + sizeof(*m->act)) +
		   m->index_cap * sizeof(*m->index) +
		   m->ctrcap * (sizeof(*m->ctr) + sizeof(*m->ctr_act)) +
		   m->ctr_index_cap * sizeof(*m->ctr_index);
	c->visits = m->visits;
}

/* Hash of a series key (64-bit mix of the four fields). */
static size_t key_hash(uint16_t kind, uint32_t id, uint32_t aux, uint32_t aux2)
{
	uint64_t h = ((uint64_t)kind << 48) ^ ((uint64_t)aux2 << 32) ^ ((uint64_t)aux << 16) ^ id;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return (size_t)h;
}

/* True when series s has this key. */
static bool key_eq(const struct series *s, uint16_t kind, uint32_t id, uint32_t aux,
		   uint32_t aux2)
{
	return s->id == id && s->kind == kind && s->aux == aux && s->aux2 == aux2;
}

/* Put position pos of m->s into the index (linear probing). */
static void index_put(struct model *m, size_t pos)
{
	const struct series *s = &m->s[pos];
	size_t i = key_hash(s->kind, s->id, s->aux, s->aux2) & (m->index_cap - 1);

	while (m->index[i])
		i = (i + 1) & (m->index_cap - 1);
	m->index[i] = (uint32_t)pos + 1;
}

/* Rebuild the index for capacity cap series. */
static int index_rebuild(struct model *m, size_t cap)
{
	size_t icap = 16;
	uint32_t *ni;

	while (icap < cap * 2)
		icap <<= 1;
	ni = calloc(icap, sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	free(m->index);
	m->index = ni;
	m->index_cap = icap;
	for (size_t i = 0; i < m->n; i++)
		index_put(m, i);
	return 0;
}

/* Find a series without adding; NULL when absent. */
struct series *model__find(struct model *m, uint16_t kind, uint32_t id, uint32_t aux,
			   uint32_t aux2)
{
	size_t i;

	if (!m->index_cap)
		return NULL;
	i = key_hash(kind, id, aux, aux2) & (m->index_cap - 1);
	while (m->index[i]) {
		struct series *s = &m->s[m->index[i] - 1];

		if (key_eq(s, kind, id, aux, aux2))
			return s;
		i = (i + 1) & (m->index_cap - 1);
	}
	return NULL;
}

/* The names of a split span's parts (enum lat_span_part), as JSON keys and labels take them. */
const char *model__part_name(unsigned part)
{
	static const char *const names[LAT_PART__COUNT] = { "wall", "oncpu", "runq", "sleep" };

	return part < LAT_PART__COUNT ? names[part] : "?";
}

/* Part part of span row s's samples (s a span: LAT_EV_SEG, id below LAT_SPAN_MAX), or NULL
 * when the span is not split (or part is the wall time, s itself). */
const struct series *model__span_part(const struct model *m, const struct series *s,
				      unsigned part)
{
	if (s->kind != LAT_EV_SEG || s->id >= LAT_SPAN_MAX || part == LAT_PART_WALL ||
	    part >= LAT_PART__COUNT)
		return NULL;
	return model__find((struct model *)m, LAT_EV_SPAN_PART, s->id, part, 0);
}

/* Find a series, or add an empty one. */
struct series *model__series(struct model *m, uint16_t kind, uint32_t id, uint32_t aux,
			     uint32_t aux2)
{
	struct series *s = model__find(m, kind, id, aux, aux2);

	if (s)
		return s;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		uint32_t *na = realloc(m->act, cap * sizeof(*na)); /* room for every series */
		struct series *ns;

		if (!na)
			return NULL;
		m->act = na;
		ns = realloc(m->s, cap * sizeof(*ns));
		if (!ns)
			return NULL;
		m->s = ns;
		/* The capacity grows only with the index: a full index would never end a probe. */
		if (index_rebuild(m, cap))
			return NULL;
		m->cap = cap;
	}
	s = &m->s[m->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->id = id;
	s->aux = aux;
	s->aux2 = aux2;
	s->first_ns = m->open_start_ns;
	if (kind == LAT_EV_PROG && m->split_all) {
		s->split_ns = m->open_start_ns ? m->open_start_ns : 1;
		s->cpu_rows = true;
	}
	snprintf(s->name, sizeof(s->name), "%u", id);
	index_put(m, m->n - 1);
	return s;
}

/* Give a series its (empty) histograms on first use: their closes count from now. */
static void series__need_hist(struct model *m, struct series *s)
{
	if (s->has_hist)
		return;
	hist__init_empty(&s->h_open);
	hist__init_empty(&s->h_last);
	hist__init_empty(&s->h_cum);
	s->p99_ival = m->intervals;
	s->has_hist = true;
}

/* Put a series with figures in the open interval on the active list: the close that ends this
 * interval moves them to last, the next one clears last. The list has room for every series. */
static void series__touch(struct model *m, struct series *s)
{
	s->act_until = m->intervals + 2;
	if (!s->listed) {
		s->listed = true;
		m->act[m->nact++] = (uint32_t)(s - m->s);
	}
}

/* Add one run of dur ns from source src to series s's open interval: the hot path of events.
 * Returns 0 or -ENOMEM. */
static inline int add_run(struct model *m, struct series *s, unsigned src, uint64_t dur)
{
	/* Once per series and interval, and whenever the open buckets are not dense (other
	 * sources touch a series too: stats, probing, replayed deltas); later events skip it. */
	if (__builtin_expect(s->act_until != m->intervals + 2 || !s->h_open.buckets, 0)) {
		series__need_hist(m, s);
		series__touch(m, s);
		if (hist__densify(&s->h_open))
			return -ENOMEM;
	}
	s->src |= src;
	s->meas_open = true;
	hist__add(&s->h_open, dur);
	return 0;
}

/* A split program's CPU series (LAT_EV_PROG_CPU, id, cpu), made on first use and named after
 * the program (again when the program's name came later); NULL on allocation failure. */
static struct series *cpu_series(struct model *m, uint32_t id, uint32_t cpu)
{
	struct series *c = model__series(m, LAT_EV_PROG_CPU, id, cpu, 0);
	const struct series *p;

	if (!c)
		return NULL;
	if (!c->sub[0])
		snprintf(c->sub, sizeof(c->sub), "cpu %u", cpu);
	p = model__find(m, LAT_EV_PROG, id, 0, 0); /* after: making c may move the table */
	if (p && strcmp(c->name, p->name)) {
		memcpy(c->name, p->name, sizeof(c->name));
		memcpy(c->type, p->type, sizeof(c->type));
	}
	return c;
}

/* The event of a split program also goes to the CPU it ran on (not counted as an event
 * again). */
static int cpu_event(struct model *m, const struct lat_event *e, unsigned src)
{
	struct series *c = cpu_series(m, e->id, e->cpu);

	return c ? add_run(m, c, src, e->dur_ns) : -ENOMEM;
}

/* Account one event into the open interval. */
int model__add_event(struct model *m, const struct lat_event *e, unsigned src)
{
	struct series *s = m->last_hit < m->n ? &m->s[m->last_hit] : NULL;

	if (!s || !key_eq(s, e->kind, e->id, e->aux, e->aux2)) {
		s = model__series(m, e->kind, e->id, e->aux, e->aux2);
		if (!s)
			return -ENOMEM;
		m->last_hit = (size_t)(s - m->s);
	}
	if (add_run(m, s, src, e->dur_ns))
		return -ENOMEM;
	m->c_open.events += e->kind != LAT_EV_SPAN_PART; /* a part: the same sample again */
	if (__builtin_expect(s->split_ns != 0, 0) && e->kind == LAT_EV_PROG)
		return cpu_event(m, e, src);
	return 0;
}

/* Account n samples of bucket b into a series' open interval. */
int model__add_bucket(struct model *m, struct series *s, uint32_t bucket, uint64_t n)
{
	series__need_hist(m, s);
	series__touch(m, s);
	if (hist__add_bucket(&s->h_open, bucket, n))
		return -ENOMEM;
	m->c_open.events += n;
	return 0;
}

/* Add a recorded histogram delta to a series' open interval. */
int model__add_hist(struct model *m, struct series *s, const uint32_t *idx, const uint64_t *cnt,
		    size_t n, const struct hist_delta *d)
{
	struct hist *h = &s->h_open;

	series__need_hist(m, s);
	series__touch(m, s);
	if (hist__add_sparse(h, idx, cnt, n))
		return -ENOMEM;
	if (!d->count)
		return 0;
	h->count += d->count;
	h->sum = h->sum + d->sum < h->sum ? UINT64_MAX : h->sum + d->sum;
	h->clamped += d->clamped;
	h->min = d->min < h->min ? d->min : h->min;
	h->max = d->max > h->max ? d->max : h->max;
	return 0;
}

/* Add a live histogram delta (in-kernel aggregates) to a series' open interval. */
int model__add_agg(struct model *m, struct series *s, const uint32_t *idx, const uint64_t *cnt,
		   size_t n, const struct hist_delta *d, unsigned src)
{
	int e = model__add_hist(m, s, idx, cnt, n, d);

	if (e)
		return e;
	s->src |= src;
	s->meas_open = true;
	if (s->kind != LAT_EV_SPAN_PART) /* a part: the span's samples again */
		m->c_open.events += d->count;
	return 0;
}

/* Add one CPU's share of a program's harvest to its CPU series. */
int model__add_cpu_share(struct model *m, uint32_t prog_id, uint32_t cpu, const uint32_t *idx,
			 const uint64_t *cnt, size_t n, const struct hist_delta *d, unsigned src)
{
	struct series *c = cpu_series(m, prog_id, cpu);
	int e;

	if (!c)
		return -ENOMEM;
	if ((e = model__add_hist(m, c, idx, cnt, n, d)))
		return e;
	c->src |= src;
	c->meas_open = true;
	return 0;
}

/* Split a program by CPU from now on. */
void model__split(struct series *s, uint64_t now_ns)
{
	if (s->kind == LAT_EV_PROG && !s->split_ns)
		s->split_ns = now_ns ? now_ns : 1;
}

/* Whether a program is split by CPU now. */
bool model__is_split(const struct model *m, uint32_t prog_id)
{
	const struct series *s = model__find((struct model *)m, LAT_EV_PROG, prog_id, 0, 0);

	return s && s->split_ns;
}

/* Say whether a series is measured per invocation from now on. */
void model__set_probing(struct model *m, struct series *s, bool on)
{
	/* The next two closes move meas_open on (they read SRC_PROBING). */
	series__touch(m, s);
	if (on)
		s->src |= SRC_PROBING;
	else
		s->src &= ~SRC_PROBING;
	if (on)
		s->meas_open = true;
}

/* Say whether a series is watched in turns from now on. */
void model__set_turns(struct model *m, struct series *s, bool on)
{
	series__touch(m, s);
	s->in_turns = on;
	if (on)
		s->samp_open = true;
}

/* The recorded interval watched a series in turns. */
void model__set_sampled(struct model *m, struct series *s)
{
	series__touch(m, s);
	s->samp_open = true;
}

/* The recorded interval measured a series per invocation. */
void model__set_measured(struct model *m, struct series *s)
{
	series__touch(m, s);
	s->meas_open = true;
}

/* Copy a string field whole up to its first NUL (or its size less one), zeros after it. */
#define ATTR_STR(d, s) memcpy((d), (s), strnlen((s), sizeof(d) - 1))

/* Copy a into *d field by field over zeros: bytes after a string's end and padding are zero,
 * every string ends within its field, counts are clamped to what the arrays hold, so two
 * copies of the same facts compare equal byte for byte. */
static void attr_norm(struct prog_attr *d, const struct prog_attr *a)
{
	memset(d, 0, sizeof(*d));
	d->id = a->id;
	d->uid = a->uid;
	d->load_time_s = a->load_time_s;
	d->verified_insns = a->verified_insns;
	ATTR_STR(d->tag, a->tag);
	d->nowners = a->nowners < ATTR_OWNERS ? a->nowners : ATTR_OWNERS;
	d->owners_total = a->owners_total > d->nowners ? a->owners_total : d->nowners;
	for (uint32_t i = 0; i < d->nowners; i++) {
		d->owners[i].pid = a->owners[i].pid;
		ATTR_STR(d->owners[i].comm, a->owners[i].comm);
	}
	ATTR_STR(d->cgroup, a->cgroup);
	ATTR_STR(d->container, a->container);
	ATTR_STR(d->unit, a->unit);
	d->npoints = a->npoints < ATTR_POINTS ? a->npoints : ATTR_POINTS;
	d->points_total = a->points_total > d->npoints ? a->points_total : d->npoints;
	for (uint32_t i = 0; i < d->npoints; i++) {
		ATTR_STR(d->points[i].kind, a->points[i].kind);
		ATTR_STR(d->points[i].where, a->points[i].where);
		d->points[i].link_id = a->points[i].link_id;
	}
}

/* Set what is known of who holds a series' program and where it is attached. */
int model__set_attr(struct model *m, struct series *s, const struct prog_attr *a)
{
	struct prog_attr n;

	(void)m;
	if (!a) {
		if (s->attr)
			s->attr_gen++;
		free(s->attr);
		s->attr = NULL;
		return 0;
	}
	attr_norm(&n, a);
	if (s->attr && !memcmp(s->attr, &n, sizeof(n)))
		return 0;
	if (!s->attr) {
		s->attr = malloc(sizeof(*s->attr));
		if (!s->attr)
			return -ENOMEM;
	}
	memcpy(s->attr, &n, sizeof(n));
	s->attr_gen++;
	return 0;
}

/* Set a series' stats deltas for the open interval and its absolute run count. */
void model__set_stats(struct model *m, struct series *s, uint64_t cnt, uint64_t time_ns,
		      uint64_t run_cnt)
{
	series__touch(m, s);
	s->st_open.cnt = cnt;
	s->st_open.time_ns = time_ns;
	s->run_cnt = run_cnt;
}

void model__add_helper_cost(struct model *m, struct series *s, uint64_t ns)
{
	series__touch(m, s);
	s->st_open.helper_ns += ns;
}

/* Apply a complete scan of loaded programs. */
void model__apply_stats(struct model *m, const struct prog_stat *st, size_t n, uint64_t now_ns)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->s[i].kind == LAT_EV_PROG)
			m->s[i].seen = false;

	for (size_t i = 0; i < n; i++) {
		struct series *s = model__series(m, LAT_EV_PROG, st[i].id, 0, 0);

		if (!s)
			continue;
		s->seen = true;
		snprintf(s->name, sizeof(s->name), "%s", st[i].name);
		snprintf(s->type, sizeof(s->type), "%s", st[i].type_name);
		s->recursion_misses = st[i].recursion_misses;
		/* Counted whether or not bpf_stats is on; from the first reading, as runs are. */
		if (s->rm_primed && st[i].recursion_misses > s->rm_base)
			model__set_series_counter(m, s, MODEL_RECURSION_MISSES, true,
						  st[i].recursion_misses - s->rm_base);
		if (!s->rm_primed) {
			s->rm_primed = true;
			s->rm_base = st[i].recursion_misses;
		}
		/* Without bpf_stats the counters read 0, or someone else's system-wide stats:
		 * neither is this session's to show. */
		if (m->no_stats)
			continue;
		s->src |= SRC_STATS;
		/* The first reading is the baseline: a program's history before lattop started is
		 * not this session's. Counters only grow; a reset (ID reuse cannot happen: IDs are
		 * cyclic but never reused while alive) would show as a smaller value, taken as new. */
		if (s->stats_primed && st[i].run_cnt >= s->run_cnt &&
		    st[i].run_time_ns >= s->run_time_ns) {
			s->st_open.cnt += st[i].run_cnt - s->run_cnt;
			s->st_open.time_ns += st[i].run_time_ns - s->run_time_ns;
			series__touch(m, s);
		}
		s->stats_primed = true;
		s->run_cnt = st[i].run_cnt;
		s->run_time_ns = st[i].run_time_ns;
	}

	for (size_t i = 0; i < m->n; i++) {
		struct series *s = &m->s[i];

		if (s->kind == LAT_EV_PROG && ((s->src & SRC_STATS) || m->no_stats) && !s->seen &&
		    !s->gone) {
			s->gone = true;
			s->gone_ns = now_ns;
		}
	}
}

/* Growth of an absolute counter since the last reading. */
static uint64_t grew(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : 0;
}

/* Set the sources' absolute loss counters. */
void model__set_losses(struct model *m, const struct model_losses *l)
{
	m->c_open.rb_drops += grew(l->rb_drops, m->abs.rb_drops);
	m->c_open.queue_drops += grew(l->queue_drops, m->abs.queue_drops);
	m->c_open.recursion += grew(l->recursion, m->abs.recursion);
	m->c_open.nest += grew(l->nest, m->abs.nest);
	m->abs = *l;
}

/* The source views show for the current mode. */
const char *model__source(const struct model *m, char *buf, size_t len)
{
	const char *seen[32]; /* the kinds written so far: a line holds a few */
	size_t at = 0, nseen = 0;

	if (m->mode != MODE_SEGMENTS || !len)
		return m->source;
	buf[0] = '\0';
	for (size_t i = 0; i < m->n && at < len && nseen < 32; i++) {
		const struct series *s = &m->s[i];
		bool dup = false;

		if (s->kind != LAT_EV_SEG || !s->type[0])
			continue;
		for (size_t j = 0; j < nseen && !dup; j++)
			dup = !strcmp(seen[j], s->type);
		if (dup)
			continue;
		seen[nseen++] = s->type;
		at += snprintf(buf + at, len - at, "%s%s", at ? "+" : "", s->type);
	}
	return buf[0] ? buf : "none";
}

/* The notice views show for the current mode. */
const char *model__notice(const struct model *m)
{
	return m->mode == MODE_SEGMENTS ? m->seg_notice : m->notice;
}

/* Hash of a counter key: its series' position and the first MODEL_CTR_NAME - 1 bytes of its
 * name (what is kept of it). FNV-1a, then the series' key mix. */
static size_t ctr_hash(int32_t pos, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < MODEL_CTR_NAME - 1 && name[i]; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001b3ull;
	return key_hash(0, (uint32_t)pos, (uint32_t)h, (uint32_t)(h >> 32));
}

/* Put counter position pos into the counters' index. */
static void ctr_index_put(struct model *m, size_t pos)
{
	size_t i = ctr_hash(m->ctr[pos].series, m->ctr[pos].name) & (m->ctr_index_cap - 1);

	while (m->ctr_index[i])
		i = (i + 1) & (m->ctr_index_cap - 1);
	m->ctr_index[i] = (uint32_t)pos + 1;
}

/* Grow the counters' table, index and active list to cap; 0 or -ENOMEM. */
static int ctr_grow(struct model *m, size_t cap)
{
	size_t icap = 16;
	struct model_counter *nc;
	uint32_t *na, *ni;

	while (icap < cap * 2)
		icap <<= 1;
	na = realloc(m->ctr_act, cap * sizeof(*na));
	if (!na)
		return -ENOMEM;
	m->ctr_act = na;
	nc = realloc(m->ctr, cap * sizeof(*nc));
	if (!nc)
		return -ENOMEM;
	m->ctr = nc;
	ni = calloc(icap, sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	free(m->ctr_index);
	m->ctr_index = ni;
	m->ctr_index_cap = icap;
	m->ctrcap = cap;
	for (size_t i = 0; i < m->nctr; i++)
		ctr_index_put(m, i);
	return 0;
}

/* Find a named counter, or add it when add is set; NULL when absent or out of memory. */
static struct model_counter *counter(struct model *m, const struct series *se, const char *name,
				     bool loss, bool add)
{
	int32_t pos = se ? (int32_t)(se - m->s) : -1;
	struct model_counter *c;
	uint32_t *tail;
	size_t i;

	if (m->ctr_index_cap) {
		i = ctr_hash(pos, name) & (m->ctr_index_cap - 1);
		for (; m->ctr_index[i]; i = (i + 1) & (m->ctr_index_cap - 1)) {
			c = &m->ctr[m->ctr_index[i] - 1];
			if (c->series == pos && !strncmp(c->name, name, MODEL_CTR_NAME - 1))
				return c;
		}
	}
	if (!add)
		return NULL;
	if (m->nctr == m->ctrcap && ctr_grow(m, m->ctrcap ? 2 * m->ctrcap : 16))
		return NULL;
	c = &m->ctr[m->nctr++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->series = pos;
	c->loss = loss;
	ctr_index_put(m, m->nctr - 1);
	/* Chain it after its series' (or the session's) last counter. */
	tail = se ? &m->s[pos].ctr_tail : &m->ctr_tail;
	if (*tail)
		m->ctr[*tail - 1].next = (uint32_t)m->nctr;
	else if (se)
		m->s[pos].ctr_head = (uint32_t)m->nctr;
	else
		m->ctr_head = (uint32_t)m->nctr;
	*tail = (uint32_t)m->nctr;
	return c;
}

/* Put a counter whose open value may have changed on the counters' active list. */
static void ctr_touch(struct model *m, struct model_counter *c)
{
	c->act_until = m->intervals + 2;
	if (!c->listed) {
		c->listed = true;
		m->ctr_act[m->nctr_act++] = (uint32_t)(c - m->ctr);
	}
}

/* The next named counter of series se after c (the first when c is NULL). */
const struct model_counter *model__counter_next(const struct model *m, const struct series *se,
						const struct model_counter *c)
{
	uint32_t at = c ? c->next : se ? se->ctr_head : m->ctr_head;

	return at ? &m->ctr[at - 1] : NULL;
}

/* A source's absolute counter value: its growth goes into the open interval. */
int model__set_series_counter(struct model *m, const struct series *se, const char *name,
			      bool loss, uint64_t abs)
{
	struct model_counter *c = counter(m, se, name, loss, true);

	if (!c)
		return -ENOMEM;
	ctr_touch(m, c);
	/* A counter that went down (its source was reloaded) restarts from the new value. */
	c->open += abs >= c->abs ? abs - c->abs : abs;
	c->abs = abs;
	return 0;
}

/* A session-wide loss counter. */
int model__set_counter(struct model *m, const char *name, uint64_t abs)
{
	return model__set_series_counter(m, NULL, name, true, abs);
}

/* A session-wide count that is not a loss. */
int model__set_tally(struct model *m, const char *name, uint64_t abs)
{
	return model__set_series_counter(m, NULL, name, false, abs);
}

/* A recorded delta (replay). */
int model__add_counter(struct model *m, const struct series *se, const char *name, bool loss,
		       uint64_t delta)
{
	struct model_counter *c = counter(m, se, name, loss, true);

	if (!c)
		return -ENOMEM;
	ctr_touch(m, c);
	c->open += delta;
	return 0;
}

/* A counter's last-interval or cumulative value. */
uint64_t model__counter(const struct model *m, const struct series *se, const char *name,
			bool cumulative)
{
	const struct model_counter *c = counter((struct model *)m, se, name, false, false);

	return !c ? 0 : cumulative ? c->cum : c->last;
}

/* True when a loss counter grew in the last closed interval. */
bool model__counters_lost(const struct model *m, const struct series *se)
{
	for (const struct model_counter *c = model__counter_next(m, se, NULL); c;
	     c = model__counter_next(m, se, c))
		if (c->loss && c->last)
			return true;
	return false;
}

/* Log2 row of the heat history a value falls in (the top row takes what is above it). */
int model__heat_row(uint64_t v)
{
	int r = v ? 64 - __builtin_clzll(v) : 0;

	return r < MODEL_HEAT_ROWS ? r : MODEL_HEAT_ROWS - 1;
}

/* Fill heat slot sl with histogram h's log2 counts (h NULL or empty: no runs). Returns 0 or
 * -ENOMEM (the slot then says no runs). */
static int heat_fill(struct heat_slot *sl, const struct hist *h)
{
	uint32_t per[MODEL_HEAT_ROWS] = { 0 };
	int lo = MODEL_HEAT_ROWS, hi = -1;
	uint64_t c;

	sl->n = 0;
	if (!h || !h->count)
		return 0;
	for (uint32_t it = 0, b; hist__next(h, &it, &b, &c);) {
		int r = model__heat_row(hist__bucket_lo(b));

		per[r] = c > UINT32_MAX - per[r] ? UINT32_MAX : per[r] + (uint32_t)c;
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
	}
	if (hi < lo)
		return 0;
	if (hi - lo + 1 > sl->cap) {
		uint32_t *p = realloc(sl->cnt, (size_t)(hi - lo + 1) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		sl->cnt = p;
		sl->cap = (uint8_t)(hi - lo + 1);
	}
	memcpy(sl->cnt, per + lo, (size_t)(hi - lo + 1) * sizeof(*per));
	sl->lo = (uint8_t)lo;
	sl->n = (uint8_t)(hi - lo + 1);
	sl->p50 = (uint8_t)model__heat_row(hist__percentile(h, 0.50));
	sl->p99 = (uint8_t)model__heat_row(hist__percentile(h, 0.99));
	return 0;
}

/* Push one p99 onto a series' ring, and h's log2 counts onto its heat ring (h NULL: an idle
 * interval). The heat ring is allocated at the first interval with runs. */
static int p99_push(struct series *s, uint64_t v, const struct hist *h)
{
	int err = 0;

	if (!s->heat && h && h->count)
		s->heat = calloc(MODEL_P99_RING, sizeof(*s->heat));
	if (s->heat)
		err = heat_fill(&s->heat[s->p99_head], h);
	else if (h && h->count)
		err = -ENOMEM;
	s->p99_ring[s->p99_head] = v;
	s->p99_head = (s->p99_head + 1) % MODEL_P99_RING;
	if (s->p99_n < MODEL_P99_RING)
		s->p99_n++;
	return err;
}

/* Close one active series: stats and histograms move open -> last -> cumulative, and its p99
 * ring gets the zeros of the closes it sat out idle, then this interval's p99. */
static int series__close(struct model *m, struct series *s)
{
	struct hist tmp;
	int err;

	s->meas_last = s->meas_open;
	s->meas_cum = s->meas_cum || s->meas_open;
	s->meas_open = s->src & SRC_PROBING;
	s->samp_last = s->samp_open;
	s->samp_cum = s->samp_cum || s->samp_open;
	s->samp_open = s->in_turns;
	s->st_last = s->st_open;
	s->st_cum.cnt += s->st_open.cnt;
	s->st_cum.time_ns += s->st_open.time_ns;
	s->st_cum.helper_ns += s->st_open.helper_ns;
	memset(&s->st_open, 0, sizeof(s->st_open));
	if (!s->has_hist)
		return 0;
	/* Swap open and last, then clear the new open: no copy of the buckets. */
	tmp = s->h_last;
	s->h_last = s->h_open;
	s->h_open = tmp;
	hist__reset(&s->h_open);
	err = hist__merge(&s->h_cum, &s->h_last);
	for (uint64_t k = s->p99_ival; k < m->intervals && k < s->p99_ival + MODEL_P99_RING; k++)
		p99_push(s, 0, NULL);
	if (p99_push(s, hist__percentile(&s->h_last, 0.99), &s->h_last))
		err = -ENOMEM;
	s->p99_ival = m->intervals + 1;
	return err;
}

/* Close the open interval at now_ns: only the series and counters on the active lists; one
 * that had nothing in this interval leaves its list (its last figures are now empty) and gives
 * back its open and last buckets. */
int model__close_interval(struct model *m, uint64_t now_ns)
{
	size_t keep = 0;
	int err = 0;

	for (size_t k = 0; k < m->nact; k++) {
		struct series *s = &m->s[m->act[k]];

		if (series__close(m, s))
			err = -ENOMEM;
		if (s->act_until > m->intervals + 1) {
			m->act[keep++] = m->act[k];
			continue;
		}
		s->listed = false;
		hist__fini(&s->h_open);
		hist__fini(&s->h_last);
	}
	m->visits += m->nact;
	m->nact = keep;
	m->c_last = m->c_open;
	m->c_cum.events += m->c_open.events;
	m->c_cum.rb_drops += m->c_open.rb_drops;
	m->c_cum.queue_drops += m->c_open.queue_drops;
	m->c_cum.recursion += m->c_open.recursion;
	m->c_cum.nest += m->c_open.nest;
	memset(&m->c_open, 0, sizeof(m->c_open));
	keep = 0;
	for (size_t k = 0; k < m->nctr_act; k++) {
		struct model_counter *c = &m->ctr[m->ctr_act[k]];

		c->last = c->open;
		c->cum += c->open;
		c->open = 0;
		if (c->act_until > m->intervals + 1)
			m->ctr_act[keep++] = m->ctr_act[k];
		else
			c->listed = false;
	}
	m->visits += m->nctr_act;
	m->nctr_act = keep;
	m->last_start_ns = m->open_start_ns;
	m->last_end_ns = now_ns;
	m->open_start_ns = now_ns;
	m->intervals++;
	return err;
}

/* Copy a series' p99 history, oldest first: the ring, then the zeros of the closes since. */
size_t model__p99_history(const struct model *m, const struct series *s, uint64_t *out,
			  size_t max)
{
	uint64_t all[2 * MODEL_P99_RING];
	uint64_t idle = s->has_hist ? m->intervals - s->p99_ival : 0;
	size_t n = 0, first;

	/* The oldest ring entry sits p99_n entries before the newest. */
	first = (s->p99_head + MODEL_P99_RING - s->p99_n) % MODEL_P99_RING;
	for (size_t i = 0; i < s->p99_n; i++)
		all[n++] = s->p99_ring[(first + i) % MODEL_P99_RING];
	for (uint64_t i = 0; i < idle && i < MODEL_P99_RING; i++)
		all[n++] = 0;
	first = n > MODEL_P99_RING ? n - MODEL_P99_RING : 0; /* the ring's length at most */
	first = n - first > max ? n - max : first;
	memcpy(out, all + first, (n - first) * sizeof(*out));
	return n - first;
}

/* Point out[] at a series' heat history, oldest first: the ring, then the idle closes since. */
size_t model__heat_history(const struct model *m, const struct series *s, struct heat_slot *out,
			   size_t max)
{
	uint64_t idle = s->has_hist ? m->intervals - s->p99_ival : 0;
	uint32_t first = (s->p99_head + MODEL_P99_RING - s->p99_n) % MODEL_P99_RING;
	size_t n, skip, k = 0;

	if (idle > MODEL_P99_RING)
		idle = MODEL_P99_RING;
	n = s->p99_n + (size_t)idle;
	skip = n > MODEL_P99_RING ? n - MODEL_P99_RING : 0; /* the ring's length at most */
	skip = n - skip > max ? n - max : skip;
	for (size_t i = skip; i < n; i++, k++) {
		memset(&out[k], 0, sizeof(out[k]));
		if (i < s->p99_n && s->heat)
			out[k] = s->heat[(first + i) % MODEL_P99_RING];
	}
	return k;
}

/* Forget cumulative figures. */
void model__reset(struct model *m, uint64_t now_ns)
{
	for (size_t i = 0; i < m->n; i++) {
		memset(&m->s[i].st_cum, 0, sizeof(m->s[i].st_cum));
		m->s[i].meas_cum = m->s[i].meas_open;
		m->s[i].samp_cum = m->s[i].samp_open;
		if (m->s[i].has_hist)
			hist__reset(&m->s[i].h_cum);
	}
	memset(&m->c_cum, 0, sizeof(m->c_cum));
	for (size_t i = 0; i < m->nctr; i++)
		m->ctr[i].cum = 0;
	m->cum_start_ns = now_ns;
}

/* The histogram behind a row's distribution, or NULL. */
const struct hist *model__row_hist(const struct row *r)
{
	if (!r->has_dist || !r->s->has_hist)
		return NULL;
	return r->cumulative ? &r->s->h_cum : &r->s->h_last;
}

/* True when a row's count and percentiles come from per-invocation events: the series was
 * measured in the window, or (no bpf_stats behind it, not a program) it has a histogram at
 * all. A program without bpf_stats (--no-stats) follows the window too: probes on with no
 * runs yet is 0 runs; probes off is no figures, not the 0 of an emptied histogram. */
static bool row_per_event(const struct model *m, const struct series *s, const struct hist *h,
			  bool cumulative)
{
	bool meas = cumulative ? s->meas_cum : s->meas_last;

	if (m->legacy_rows || (!(s->src & SRC_STATS) && s->kind != LAT_EV_PROG))
		return h && (s->src & (SRC_SELF | SRC_FENTRY));
	return meas;
}

/* The first owner as "comm[pid]", " +N" for the others. */
void model__attr_owner(const struct prog_attr *a, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!a->nowners)
		return;
	if (a->owners_total > 1)
		snprintf(buf, len, "%.15s[%d] +%u", a->owners[0].comm, a->owners[0].pid,
			 a->owners_total - 1);
	else
		snprintf(buf, len, "%.15s[%d]", a->owners[0].comm, a->owners[0].pid);
}

/* The first attach point as "kind where", " +N" for the others. */
void model__attr_attach(const struct prog_attr *a, char *buf, size_t len)
{
	const struct attr_point *p = &a->points[0];

	buf[0] = '\0';
	if (!a->npoints)
		return;
	if (a->points_total > 1)
		snprintf(buf, len, "%.15s%s%.111s +%u", p->kind, p->where[0] ? " " : "", p->where,
			 a->points_total - 1);
	else
		snprintf(buf, len, "%.15s%s%.111s", p->kind, p->where[0] ? " " : "", p->where);
}

/* Compute a row for series s from the last interval or the cumulative figures. */
void model__row(const struct model *m, const struct series *s, bool cumulative, struct row *r)
{
	const struct series_counts *sc = cumulative ? &s->st_cum : &s->st_last;
	const struct hist *h = NULL;
	uint64_t span_ns = cumulative ? m->last_end_ns - m->cum_start_ns
				      : m->last_end_ns - m->last_start_ns;
	double span_s = span_ns / 1e9;

	memset(r, 0, sizeof(*r));
	r->s = s;
	r->m = m;
	r->cumulative = cumulative;
	r->cpu_pct = -1;
	r->timed = -1;
	r->total_runs = s->run_cnt;
	r->prog_name = s->name;
	if (s->kind == LAT_EV_PROG_CPU)
		snprintf(r->label, sizeof(r->label), "  cpu %u", s->aux);
	if (s->kind == LAT_EV_SPAN_GRP)
		snprintf(r->label, sizeof(r->label), "  %s", s->sub[0] ? s->sub : "?");
	if (s->attr) {
		model__attr_owner(s->attr, r->owner, sizeof(r->owner));
		model__attr_attach(s->attr, r->attach, sizeof(r->attach));
		snprintf(r->container, sizeof(r->container), "%s",
			 s->attr->container[0] ? s->attr->container : s->attr->unit);
	}
	if (s->has_hist)
		h = cumulative ? &s->h_cum : &s->h_last;

	/* No source: neither bpf_stats nor probes behind the row (--no-stats, not watched). */
	r->source = (s->src & SRC_STATS) ? "stats" : "-";
	if (row_per_event(m, s, h, cumulative)) {
		/* Per-invocation source: every figure from the histogram (none yet: 0 runs). */
		r->source = (s->src & SRC_SELF) ? "self" : "events";
		r->has_rate = true;
		r->has_dist = h != NULL;
		if (h) {
			r->count = h->count;
			r->avg_ns = hist__mean(h);
			r->p50 = hist__percentile(h, 0.50);
			r->p95 = hist__percentile(h, 0.95);
			r->p99 = hist__percentile(h, 0.99);
			r->p999 = hist__percentile(h, 0.999);
			r->max = h->count ? h->max : 0;
		}
		if (s->src & SRC_STATS)
			r->timed = sc->cnt ? (double)(h ? h->count : 0) / sc->cnt : 1;
		/* Watched in turns: the count is the kernel's, the percentiles a sample. */
		if ((cumulative ? s->samp_cum : s->samp_last) && (s->src & SRC_STATS)) {
			r->sampled = true;
			r->count = sc->cnt;
		}
		if (r->timed > 1)
			r->timed = 1;
	} else if (s->src & SRC_STATS) {
		r->has_rate = true;
		r->count = sc->cnt;
		r->avg_ns = sc->cnt ? (double)sc->time_ns / sc->cnt : 0;
	}
	if (r->has_rate && span_s > 0)
		r->rate = r->count / span_s;
	if ((s->src & SRC_STATS) && span_s > 0)
		r->cpu_pct = sc->time_ns / (double)span_ns * 100.0;
}

/* CPU cost of the attached probes: the runs they timed times what each probed run costs,
 * measured at start-up (run_cost_ns), or the probe floor where it was not (a recording from
 * before it, the ring buffer's path); per program, what its probes' own programs took per
 * run (probe_ns, bpf_stats) where that is more; plus, in helpers mode, its share of what the
 * helper probes took (st_*.helper_ns). */
double model__probe_cost_pct(const struct model *m, bool cumulative)
{
	uint64_t span_ns = cumulative ? m->last_end_ns - m->cum_start_ns
				      : m->last_end_ns - m->last_start_ns;
	uint64_t per_run = m->run_cost_ns ? m->run_cost_ns : m->floor_ns;
	double ns = 0;

	if (!span_ns || !per_run)
		return 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct series *s = &m->s[i];
		uint64_t runs;

		if (s->kind != LAT_EV_PROG || !(s->src & SRC_FENTRY) || !s->has_hist)
			continue;
		runs = cumulative ? s->h_cum.count : s->h_last.count;
		ns += (double)runs * (double)(s->probe_ns > per_run ? s->probe_ns : per_run);
		ns += (double)(cumulative ? s->st_cum.helper_ns : s->st_last.helper_ns);
	}
	return ns / (double)span_ns * 100.0;
}

/* The probes' cost as a share of the machine. */
double model__probe_machine_pct(const struct model *m, bool cumulative)
{
	if (m->ncpu <= 0)
		return -1;
	return model__probe_cost_pct(m, cumulative) / m->ncpu;
}

/* Short words for the reasons a program is not watched (the note's beginning). */
static const struct {
	const char *start, *word;
} note_words[] = {
	{ "no BTF", "no-btf" },
	{ "fentry/fexit/tp_btf", "tracing" },
	{ "extension", "extension" },
	{ "busy", "busy" },
	{ "not JIT", "no-jit" },
	{ "too many trampolines", "full" },
	{ "this kernel refuses", "refused" },
	{ "gone", "gone" },
	{ "unloaded by its owner", "unloaded" },
	{ "over the budget", "budget" },
};

const char *model__note_word(const char *note)
{
	if (!note || !note[0])
		return "";
	for (size_t i = 0; i < sizeof(note_words) / sizeof(note_words[0]); i++)
		if (!strncmp(note, note_words[i].start, strlen(note_words[i].start)))
			return note_words[i].word;
	return "refused";
}

/* A replay's turns and unprobeable from its series. */
void model__derive_watch(struct model *m)
{
	m->turns = false;
	m->unprobeable = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct series *s = &m->s[i];
		const char *w = model__note_word(s->note);

		if (s->kind != LAT_EV_PROG || s->gone)
			continue;
		m->turns = m->turns || s->samp_last;
		if (w[0] && strcmp(w, "budget") && strcmp(w, "unloaded") && strcmp(w, "gone"))
			m->unprobeable++;
	}
}

/* Name of a mode. */
const char *model__mode_name(enum lat_mode m)
{
	static const char *const names[MODE__COUNT] = {
		[MODE_PROGRAMS] = "programs",
		[MODE_HELPERS] = "helpers",
		[MODE_SEGMENTS] = "segments",
	};

	return m < MODE__COUNT ? names[m] : "?";
}
