// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * segsession.c - the vhost-net segments of a session (see segsession.h).
 *
 * The chain's counters become the model's session-wide named counters (model__set_counter for
 * losses, model__set_tally for counts), which the views, batch output and recordings show.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/text.h"
#include "collect/collector.h"
#include "collect/vhost.h"
#include "session/segsession.h"
#include "model/model.h"
#include "cli/opts.h"
#include "session/session.h" /* the exit statuses */

/* The chain's counters as shown, in order; loss ones are shown in the warning colour when they
 * grow. */
static const struct {
	const char *name;
	size_t off;
	bool loss;
} counter_defs[] = {
#define C(f, loss) { #f, offsetof(struct lat_vhost_counters, f), loss }
	C(fifo_overflow, true),  C(fifo_underflow, true), C(s0_miss, true),
	C(s1_miss, true),        C(work_eventfd_miss, true), C(pkts_seen, false),
	C(pkts_matched, false),  C(s2_leftover, true),    C(coalesced, false),
	C(kicks_filtered, false),
#undef C
};
#define NCOUNTERS (sizeof(counter_defs) / sizeof(counter_defs[0]))

/* One packet's samples while its events arrive (--details). */
struct pending_pkt {
	uint64_t seq;
	uint32_t tid, queue;
	uint16_t have, got;
	uint64_t dur[LAT_VSEG__COUNT];
	uint64_t end_ns;
};

#define PENDING_PKTS 256

/* Warnings the chain keeps for the session to show (device, profile, kvm). */
#define SEG_WARN_MAX 8

struct segsession {
	const struct opts *o;
	struct model *m;
	char warn[SEG_WARN_MAX][320];
	int nwarn;
	struct vhost *v;
	char why[256];
	int64_t wall_off_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC at open */
	bool details_header;
	struct pending_pkt pend[PENDING_PKTS];
};

/* Series of the chain: after the spans' ids. */
#define SEG_SERIES_ID(k) (LAT_SPAN_MAX + (k))

static const char *const seg_names[LAT_VSEG__COUNT] = { "S0", "S1", "S2", "total" };
static const char *const seg_subs[LAT_VSEG__COUNT] = {
	"kick->handle_tx_kick",
	"handle_tx_kick->tun_sendmsg",
	"tun_sendmsg->netif_receive_skb",
	"S0+S1+S2",
};

/* Keep one warning for the session (segsession__warning). */
static void warn(struct segsession *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct segsession *g, const char *fmt, ...)
{
	va_list ap;

	if (g->nwarn == SEG_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(g->warn[g->nwarn++], sizeof(g->warn[0]), fmt, ap);
	va_end(ap);
}

/* Warn about what breaks the same-thread assumption: NAPI tun and RPS move netif_receive_skb
 * off the vhost worker. Each finding is one more warning (NAPI and RPS may both be on). */
static void check_device(struct segsession *sg, const char *dev)
{
	char path[256], buf[128];
	unsigned long flags;
	glob_t g;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/tun_flags", dev);
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%lx", &flags) == 1 &&
		    (flags & 0x10)) /* IFF_NAPI */
			warn(sg,
				      "%s has NAPI enabled (IFF_NAPI): packets reach netif_receive_skb "
				      "from NAPI, not the vhost worker, so S2 is not measured",
				      dev);
		fclose(f);
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-*/rps_cpus", dev);
	if (glob(path, 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		f = fopen(g.gl_pathv[i], "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strspn(buf, "0,\n") != strlen(buf))
			warn(sg,
				      "%s has RPS enabled (%s): packets may be processed on other "
				      "CPUs than the vhost worker's",
				      dev, g.gl_pathv[i]);
		fclose(f);
	}
	globfree(&g);
}

/* Profile worker threads that still exist; names the first gone one in gone. */
static int live_workers(const struct profile *p, char *gone, size_t len)
{
	int live = 0;

	gone[0] = '\0';
	for (int i = 0; i < p->ntid; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%u", p->tid[i].tid);
		if (!access(path, F_OK))
			live++;
		else if (!gone[0])
			snprintf(gone, len, "%u (%s)", p->tid[i].tid, p->tid[i].comm);
	}
	return live;
}

/* True when name is one of the chain's segment names. */
bool segsession__named(const char *name)
{
	for (int k = 0; k < LAT_VSEG__COUNT; k++)
		if (!strcmp(seg_names[k], name))
			return true;
	return false;
}

/* Give the chain's four series their (empty) histograms and labels. */
static int add_series(struct model *m)
{
	for (int k = 0; k < LAT_VSEG__COUNT; k++) {
		struct series *se = model__series(m, LAT_EV_SEG, SEG_SERIES_ID(k), 0, 0);
		const struct hist_delta none = {};

		if (!se || model__add_hist(m, se, NULL, NULL, 0, &none))
			return -ENOMEM;
		se->src |= SRC_FENTRY;
		snprintf(se->name, sizeof(se->name), "%s", seg_names[k]);
		snprintf(se->type, sizeof(se->type), "vhost");
		snprintf(se->sub, sizeof(se->sub), "%s", seg_subs[k]);
	}
	return 0;
}

/* Load the chain. */
int segsession__open(struct segsession **out, const struct opts *o, struct collector *col,
		     struct model *m, bool agg, char *err, size_t errlen)
{
	struct segsession *g = calloc(1, sizeof(*g));
	struct vhost_conf conf = {};
	struct timespec rt, mono;
	const char *kind;
	char gone[64];
	int kvm, nprobes;

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	*out = g;
	g->o = o;
	g->m = m;
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	g->wall_off_ns = ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000ll +
			 (rt.tv_nsec - mono.tv_nsec);
	if (vhost__support(g->why, sizeof(g->why), &kvm)) {
		if (o->discover) {
			snprintf(err, errlen, "%s", g->why);
			return EXIT_RUNTIME;
		}
		return EXIT_OK; /* measure degrades: session__set_mode says why */
	}
	if (!o->discover) {
		if (!live_workers(&o->profile, gone, sizeof(gone))) {
			snprintf(err, errlen,
				 "stale profile %s: its vhost worker thread %s no longer exists (the "
				 "device was reset or its owner exited); run lattop --discover again",
				 o->profile_path, gone);
			return EXIT_USAGE;
		}
		if (gone[0])
			warn(g,
				      "profile %s: worker thread %s no longer exists; the others are "
				      "watched",
				      o->profile_path, gone);
		for (int i = 0; i < o->profile.nctx; i++)
			conf.ctx[conf.nctx++] = o->profile.ctx[i].ctx;
		for (int i = 0; i < o->profile.ntid; i++)
			conf.tid[conf.ntid++] = o->profile.tid[i].tid;
	}
	check_device(g, o->discover ? o->device : o->profile.device);
	conf.ifindex = o->ifindex;
	conf.flow = o->flow;
	conf.fifo_slots = o->fifo_slots;
	conf.agg = agg;
	conf.assoc = o->discover;
	g->v = vhost__new(col, &conf, err, errlen);
	if (!g->v)
		return EXIT_RUNTIME;
	kind = vhost__probe_kind(g->v, &nprobes);
	if (vhost__fallback_why(g->v)[0])
		snprintf(m->seg_notice, sizeof(m->seg_notice),
			 "vhost chain: %d %s (fentry/fexit: %s)", nprobes, kind,
			 vhost__fallback_why(g->v));
	else
		snprintf(m->seg_notice, sizeof(m->seg_notice), "vhost chain: %d %s", nprobes,
			 kind);
	if (!kvm)
		warn(g,
			      "ioeventfd_write [kvm] is not in this kernel: KVM guest kicks are not "
			      "timed (S0 misses); load kvm to see them");
	if (!o->discover && add_series(m)) {
		snprintf(err, errlen, "out of memory");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Detach and free. */
void segsession__free(struct segsession *g)
{
	if (!g)
		return;
	vhost__free(g->v);
	free(g);
}

/* True when the chain is attached. */
bool segsession__ready(const struct segsession *g)
{
	return g && g->v;
}

/* Why the chain is not attached. */
const char *segsession__why(const struct segsession *g)
{
	return g ? g->why : "";
}

/* The i-th warning of the open, or NULL past the last. */
const char *segsession__warning(const struct segsession *g, int i)
{
	return g && i < g->nwarn ? g->warn[i] : NULL;
}

/* A nanosecond figure or "-" (text). */
static void fmt_ns(char *buf, size_t len, bool have, uint64_t v)
{
	if (have)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "-");
}

/* Print one packet's line in the batch format. */
static void print_packet(struct segsession *g, const struct pending_pkt *p)
{
	uint64_t wall = p->end_ns + (uint64_t)g->wall_off_ns;
	char v[LAT_VSEG__COUNT][24];

	for (int k = 0; k < LAT_VSEG__COUNT; k++)
		fmt_ns(v[k], sizeof(v[k]), p->have & (1u << (k + 1)), p->dur[k]);
	switch (g->o->out) {
	case OUT_CSV:
		if (!g->details_header)
			printf("packet,ts_ns,tid,queue,s0_ns,s1_ns,s2_ns,total_ns\n");
		g->details_header = true;
		for (int k = 0; k < LAT_VSEG__COUNT; k++)
			if (!strcmp(v[k], "-"))
				v[k][0] = '\0';
		printf("packet,%" PRIu64 ",%u,%u,%s,%s,%s,%s\n", wall, p->tid, p->queue, v[0], v[1],
		       v[2], v[3]);
		break;
	case OUT_JSON: {
		/* By hand: ts_ns needs all its digits (a cJSON number is a double). */
		static const char *const keys[] = { "s0_ns", "s1_ns", "s2_ns", "total_ns" };

		printf("{\"packet\":{\"ts_ns\":%" PRIu64 ",\"tid\":%u,\"queue\":%u", wall, p->tid,
		       p->queue);
		for (int k = 0; k < LAT_VSEG__COUNT; k++)
			printf(",\"%s\":%s", keys[k], strcmp(v[k], "-") ? v[k] : "null");
		printf("}}\n");
		break;
	}
	default: {
		time_t t = (time_t)(wall / 1000000000ull);
		struct tm tm;
		char ts[32];

		localtime_r(&t, &tm);
		strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
		printf("packet %s.%09" PRIu64 " tid %u queue %u s0 %s s1 %s s2 %s total %s\n", ts,
		       (uint64_t)(wall % 1000000000ull), p->tid, p->queue, v[0], v[1], v[2], v[3]);
	}
	}
}

/* Collect one sample of a packet; print the packet once all its samples are in. */
static void details_add(struct segsession *g, const struct lat_event *e, int k)
{
	struct pending_pkt *p = &g->pend[e->aux2 % PENDING_PKTS];

	if (p->got && p->seq != e->aux2)
		p->got = 0; /* a packet whose samples never all came (a ring buffer drop) */
	if (!p->got) {
		memset(p, 0, sizeof(*p));
		p->seq = e->aux2;
		p->tid = e->tid;
		p->queue = e->aux;
		p->have = e->flags & 0x1e;
	}
	p->got |= 1u << (k + 1);
	p->dur[k] = e->dur_ns;
	/* The packet's time: the end of its S2 (its netif_receive_skb), the latest of its samples;
	 * a packet without S2 (its tun_sendmsg was not in the FIFO: fifo_underflow) takes the
	 * end of the latest sample it has, never the boot clock's zero. */
	if (e->start_ns + e->dur_ns > p->end_ns)
		p->end_ns = e->start_ns + e->dur_ns;
	if ((p->got & p->have) == p->have) {
		print_packet(g, p);
		p->got = 0;
	}
}

/* Account an event of the chain. */
bool segsession__event(struct segsession *g, const struct lat_event *e)
{
	struct lat_event ev;
	int k;

	if (e->kind != LAT_EV_SEG || e->id < LAT_SEG_VHOST ||
	    e->id >= LAT_SEG_VHOST + LAT_VSEG__COUNT)
		return false;
	k = (int)(e->id - LAT_SEG_VHOST);
	if (g->o->details)
		details_add(g, e, k);
	/* One series per segment: the queue and the packet sequence are per-packet details. */
	ev = *e;
	ev.id = SEG_SERIES_ID(k);
	ev.aux = 0;
	ev.aux2 = 0;
	ev.flags = 0;
	model__add_event(g->m, &ev, SRC_FENTRY);
	return true;
}

/* Where a harvest of the segments goes: the session's sink and its argument. */
struct seg_sink {
	progagg_sink sink;
	void *arg;
};

/* Harvest sink: a segment's aggregates (id LAT_SEG_VHOST + k, as its events) go to the one
 * series per segment the events feed (segsession__event). */
static void on_seg_agg(void *arg, uint16_t kind, uint32_t id, uint32_t aux, uint32_t aux2,
		       const struct progagg_delta *d)
{
	const struct seg_sink *to = arg;

	(void)aux;
	(void)aux2;
	to->sink(to->arg, kind, SEG_SERIES_ID(id - LAT_SEG_VHOST), 0, 0, d);
}

/* Hand what the segments' in-kernel aggregates gained to sink, into the segments' series. */
void segsession__harvest(struct segsession *g, bool force, progagg_sink sink, void *arg)
{
	struct seg_sink to = { sink, arg };

	if (g && g->v)
		vhost__harvest(g->v, force, on_seg_agg, &to);
}

/* Bytes the segments' in-kernel aggregates would take, for the session's budget. */
size_t segsession__agg_bytes(void)
{
	return vhost__agg_bytes();
}

/* Bytes they take now (0 on the ring buffer or without the chain). */
size_t segsession__agg_mem(const struct segsession *g)
{
	return g ? vhost__agg_mem(g->v) : 0;
}

/* Read the counters and look for a stale profile. */
void segsession__interval(struct segsession *g)
{
	struct lat_vhost_counters c;

	if (!g || !g->v)
		return;
	vhost__counters(g->v, &c);
	for (size_t i = 0; i < NCOUNTERS; i++) {
		uint64_t v = *(const uint64_t *)((const char *)&c + counter_defs[i].off);

		if (counter_defs[i].loss)
			model__set_counter(g->m, counter_defs[i].name, v);
		else
			model__set_tally(g->m, counter_defs[i].name, v);
	}
	if (!g->o->discover && c.kicks_filtered && !c.kicks)
		snprintf(g->m->seg_notice, sizeof(g->m->seg_notice),
			 "stale profile %s: %" PRIu64 " kicks arrived on other eventfds and none on "
			 "the profile's (the device was reset?); run lattop --discover again",
			 g->o->profile_path, (uint64_t)c.kicks_filtered);
}

/* Build the profile from what the chain saw: every (thread, eventfd) pair that carried a
 * target packet. Returns the number of workers. */
static int build_profile(struct segsession *g, struct profile *p)
{
	struct vhost_assoc a[256];
	int n = vhost__assoc(g->v, a, 256);

	memset(p, 0, sizeof(*p));
	snprintf(p->device, sizeof(p->device), "%s", g->o->device);
	flow__format(&g->o->flow, p->flow, sizeof(p->flow));
	for (int i = 0; i < n; i++) {
		int q;

		if (!a[i].packets)
			continue;
		q = profile__queue(p, a[i].ctx);
		if (q < 0 && p->nctx < LAT_VHOST_MAX_CTX) {
			q = p->nctx++;
			p->ctx[q].ctx = a[i].ctx;
		}
		if (q < 0 || p->ntid == LAT_VHOST_MAX_TID)
			continue;
		p->ctx[q].runs += a[i].runs;
		p->ctx[q].packets += a[i].packets;
		p->tid[p->ntid++] = (struct profile_tid){
			.tid = a[i].tid, .pid = a[i].pid, .ctx = a[i].ctx, .queue = (uint32_t)q,
			.runs = a[i].runs, .packets = a[i].packets,
		};
		memcpy(p->tid[p->ntid - 1].comm, a[i].comm, sizeof(a[i].comm));
	}
	return p->ntid;
}

/* --discover, after the watch: build the profile, write it, say what it holds. */
int segsession__profile(struct segsession *g)
{
	static struct profile p;
	const struct opts *o = g->o;
	struct lat_vhost_counters c;
	char err[512];

	vhost__counters(g->v, &c);
	if (!build_profile(g, &p)) {
		fputs("lattop: no packet of flow ", stderr);
		text__fputs(stderr, o->flow_spec);
		fputs(" reached ", stderr);
		text__fputs(stderr, o->device);
		fprintf(stderr,
			" from a vhost worker in %.1f s (TX kicks seen %" PRIu64
			", packets on the device %" PRIu64 "): is the guest sending?\n",
			o->duration_ns / 1e9, (uint64_t)c.kicks, (uint64_t)c.pkts_seen);
		return EXIT_RUNTIME;
	}
	if (profile__write(&p, o->profile_out, err, sizeof(err))) {
		text__line(stderr, "lattop: ", err);
		return EXIT_RUNTIME;
	}
	/* The device, the flow and the notice come from the command line and the kernel, a
	 * worker's comm from any process (prctl PR_SET_NAME): all in their visible form. */
	fputs("profile ", stdout);
	text__fputs(stdout, o->profile_out);
	fputs(": device ", stdout);
	text__fputs(stdout, p.device);
	fputs(" flow ", stdout);
	text__fputs(stdout, p.flow);
	fputs(" (", stdout);
	text__fputs(stdout, g->m->seg_notice);
	fputs(")\n", stdout);
	for (int i = 0; i < p.ntid; i++) {
		printf("  worker tid %u (", p.tid[i].tid);
		text__fputs(stdout, p.tid[i].comm);
		printf(") queue %u eventfd_ctx 0x%" PRIx64 ": %" PRIu64 " runs, %" PRIu64
		       " packets\n",
		       p.tid[i].queue, p.tid[i].ctx, p.tid[i].runs, p.tid[i].packets);
	}
	return EXIT_OK;
}
