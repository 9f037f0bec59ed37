// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * vhost.c - load bpf/vhost.bpf.c and attach its kprobes to the vhost-net transmit path.
 *
 * fentry/fexit where the kernel and the modules' BTF allow (~3 ns per hit against ~47 for a
 * kprobe), kprobes/kretprobes otherwise: the object carries both and loads one set. With
 * aggregation on, map the segments' in-kernel aggregates and harvest them (collect/aggset.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "base/ksyms.h"
#include "collect/aggset.h"
#include "collect/collector.h"
#include "collect/vhost.h"
#include "vhost.skel.h"

#define VHOST_LINKS 12

struct vhost {
	struct vhost_bpf *skel;
	bool fentry; /* fentry/fexit programs (else kprobes) */
	struct bpf_link *links[VHOST_LINKS];
	int nlinks;
	char fallback[192]; /* why fentry/fexit were given up, or "" */
	int agg_ncpu;                  /* CPUs per segment in lat_agg; 0: samples go as events */
	struct aggset *agg;            /* the segments' aggregates (NULL on the ring buffer) */
	struct progagg_delta *scratch; /* one harvest's buckets */
	const struct lat_vhost_cpu_counters *vcpu; /* the vcpu array mapped (NULL: not loaded) */
	size_t vcpu_len;
	int ncpu; /* possible CPUs: vcpu's entries */
};

/* The functions of the chain, their module, and whether the chain is useless without them. */
enum { VF_EVENTFD_WRITE, VF_IOEVENTFD_WRITE, VF_POLL_WAKEUP, VF_TX_KICK, VF_TUN_SENDMSG,
       VF_NETIF_RECEIVE_SKB };
static const struct vfunc {
	const char *name, *module;
	bool required;
} vfuncs[] = {
	[VF_EVENTFD_WRITE] = { "eventfd_write", NULL, true },
	[VF_IOEVENTFD_WRITE] = { "ioeventfd_write", "kvm", false },
	[VF_POLL_WAKEUP] = { "vhost_poll_wakeup", "vhost", true },
	[VF_TX_KICK] = { "handle_tx_kick", "vhost_net", true },
	[VF_TUN_SENDMSG] = { "tun_sendmsg", "tun", true },
	[VF_NETIF_RECEIVE_SKB] = { "netif_receive_skb", NULL, true },
};

/* Addresses of the chain's functions (0 = absent) and of eventfd_signal's symbol. */
struct chain_syms {
	uint64_t addr[sizeof(vfuncs) / sizeof(vfuncs[0])];
	const char *signal; /* "eventfd_signal" (<= 6.7), "eventfd_signal_mask" (6.8+) or NULL */
	uint64_t signal_addr;
};

/* ksyms__each callback: note the chain's functions and eventfd_signal's symbol among the
 * text symbols (names compared only after a cheap first-letter test: 100k+ lines). */
static int chain_sym(void *ctx, const struct ksym *sym)
{
	struct chain_syms *k = ctx;

	if ((sym->type != 't' && sym->type != 'T') || !strchr("eihvtn", sym->name[0]))
		return 0;
	for (size_t i = 0; i < sizeof(vfuncs) / sizeof(vfuncs[0]); i++)
		if (!k->addr[i] && !strcmp(sym->name, vfuncs[i].name))
			k->addr[i] = sym->addr ? sym->addr : 1;
	if (!strcmp(sym->name, "eventfd_signal")) {
		k->signal = "eventfd_signal";
		k->signal_addr = sym->addr;
	} else if (!strcmp(sym->name, "eventfd_signal_mask") && !k->signal) {
		k->signal = "eventfd_signal_mask";
		k->signal_addr = sym->addr;
	}
	return 0;
}

/* Look the chain's functions up in /proc/kallsyms (text symbols only). */
static int chain_syms_read(struct chain_syms *k)
{
	memset(k, 0, sizeof(*k));
	return ksyms__each(KSYMS_PATH, chain_sym, k);
}

/* The symbols the last vhost__support read, for the vhost__new that follows it (one read of
 * kallsyms per session instead of three). */
static struct chain_syms support_ks;
static bool support_ks_valid;

/* True when the kernel can create kprobes through perf (what libbpf uses). */
static bool have_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe/type", R_OK) == 0;
}

/* Can this kernel build the chain? */
int vhost__support(char *why, size_t len, int *kvm)
{
	struct chain_syms k;
	int e;

	*kvm = 0;
	support_ks_valid = false;
	e = chain_syms_read(&k);
	if (!have_kprobes() && (e || !k.addr[VF_TX_KICK])) {
		/* Without vhost-net there is nothing to try fentry on either. */
		snprintf(why, len,
			 "segments of the vhost path need kprobes and vhost-net, which this kernel "
			 "lacks (no kprobe PMU: CONFIG_KPROBES is not set)");
		return -ENOTSUP;
	}
	if (e) {
		snprintf(why, len, "cannot build the vhost chain: cannot read /proc/kallsyms: %s",
			 strerror(-e));
		return e;
	}
	for (size_t i = 0; i < sizeof(vfuncs) / sizeof(vfuncs[0]); i++) {
		const struct vfunc *v = &vfuncs[i];

		if (k.addr[i] || !v->required)
			continue;
		if (v->module)
			snprintf(why, len,
				 "cannot build the vhost chain: %s [%s] is not in this kernel (load "
				 "the %s module)",
				 v->name, v->module, v->module);
		else
			snprintf(why, len, "cannot build the vhost chain: %s is not in this kernel",
				 v->name);
		return -ENOENT;
	}
	/* The chain reads vhost's structures by their BTF: a loaded vhost module without BTF of
	 * its own (module BTF came with 5.11) has none to read them by. */
	if (access("/sys/module/vhost/initstate", F_OK) == 0 &&
	    access("/sys/kernel/btf/vhost", F_OK) != 0) {
		snprintf(why, len,
			 "segments of the vhost path need the vhost module's BTF (Linux 5.11), which "
			 "this kernel lacks");
		return -ENOTSUP;
	}
	if (!k.signal) {
		snprintf(why, len,
			 "cannot build the vhost chain: neither eventfd_signal nor "
			 "eventfd_signal_mask is in this kernel");
		return -ENOENT;
	}
	*kvm = k.addr[VF_IOEVENTFD_WRITE] != 0;
	support_ks = k;
	support_ks_valid = true;
	return 0;
}

/* One probe point: its kprobe program, its fentry/fexit twin, the function, whether it is a
 * return probe and whether it needs kvm. */
struct chain_probe {
	struct bpf_program *kp, *fe;
	const char *func;
	bool ret, kvm;
};

/* The chain's probe points (funcs from ks: eventfd_signal's name depends on the kernel). */
static int probes(struct vhost_bpf *k, const struct chain_syms *ks, struct chain_probe *out)
{
	const struct chain_probe p[] = {
#define P(name, func, ret, kvm) { k->progs.lat_vh_##name, k->progs.lat_vhf_##name, func, ret, kvm }
		P(eventfd_write, "eventfd_write", false, false),
		P(eventfd_write_ret, "eventfd_write", true, false),
		P(eventfd_signal, ks->signal, false, false),
		P(poll_wakeup, "vhost_poll_wakeup", false, false),
		P(tx_kick, "handle_tx_kick", false, false),
		P(tx_kick_ret, "handle_tx_kick", true, false),
		P(tun_sendmsg, "tun_sendmsg", false, false),
		P(netif_receive_skb, "netif_receive_skb", false, false),
		P(ioeventfd_write, "ioeventfd_write", false, true),
		P(ioeventfd_write_ret, "ioeventfd_write", true, true),
#undef P
	};

	memcpy(out, p, sizeof(p));
	return sizeof(p) / sizeof(p[0]);
}

/* Attach one probe point. */
static int attach(struct vhost *v, const struct chain_probe *p, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_kprobe_opts, ko, .retprobe = p->ret);
	struct bpf_link *l;

	const char *fail = getenv("LATTOP_VHOST_FENTRY_FAIL");

	if (v->fentry && fail && !strcmp(fail, p->func)) {
		/* Debug: make this function's fentry/fexit attach fail (tests the fallback). */
		l = NULL;
		errno = EBUSY;
	} else if (v->fentry)
		l = bpf_program__attach(p->fe);
	else
		l = bpf_program__attach_kprobe_opts(p->kp, p->func, &ko);
	if (!l) {
		int e = errno;

		snprintf(err, errlen, "cannot attach a%s %s to %s: %s", v->fentry ? "n" : "",
			 v->fentry ? (p->ret ? "fexit" : "fentry")
				   : (p->ret ? "kretprobe" : "kprobe"),
			 p->func, strerror(e));
		return -e;
	}
	v->links[v->nlinks++] = l;
	return 0;
}

/* Attach every probe point of the loaded set; 0 or a negative errno with err. */
static int attach_all(struct vhost *v, const struct chain_syms *ks, bool kvm, char *err,
		      size_t errlen)
{
	struct chain_probe pr[VHOST_LINKS];
	int n = probes(v->skel, ks, pr);

	for (int i = 0; i < n; i++) {
		int e;

		if (pr[i].kvm && !kvm)
			continue;
		e = attach(v, &pr[i], err, errlen);
		if (e)
			return e;
	}
	return 0;
}

/* Destroy the links attached so far. */
static void detach_all(struct vhost *v)
{
	for (int i = v->nlinks - 1; i >= 0; i--)
		bpf_link__destroy(v->links[i]);
	v->nlinks = 0;
}

/* Unmap the vcpu array (before its object goes). */
static void vcpu_unmap(struct vhost *v)
{
	if (v->vcpu)
		munmap((void *)v->vcpu, v->vcpu_len);
	v->vcpu = NULL;
}

/* Map the loaded object's vcpu array read-only (its values are page-aligned: BPF_F_MMAPABLE). */
static int vcpu_map(struct vhost *v)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	v->vcpu_len = ((size_t)v->ncpu * sizeof(*v->vcpu) + pg - 1) / pg * pg;
	p = mmap(NULL, v->vcpu_len, PROT_READ, MAP_SHARED, bpf_map__fd(v->skel->maps.vcpu), 0);
	if (p == MAP_FAILED)
		return -errno;
	v->vcpu = p;
	return 0;
}

/* Open and load the object with fentry/fexit or with kprobes; 0 or a negative errno. */
static int load(struct vhost *v, struct collector *c, const struct vhost_conf *conf,
		const struct chain_syms *ks, bool kvm, bool fentry)
{
	struct chain_probe pr[VHOST_LINKS];
	struct vhost_bpf *k;
	int n, e;

	vcpu_unmap(v);
	vhost_bpf__destroy(v->skel);
	k = v->skel = vhost_bpf__open();
	if (!k)
		return -errno;
	v->fentry = fentry;
	k->rodata->tx_kick_fn = ks->addr[VF_TX_KICK];
	k->rodata->ifindex = conf->ifindex;
	memcpy((void *)&k->rodata->flow, &conf->flow, sizeof(conf->flow));
	for (int i = 0; i < conf->nctx && i < LAT_VHOST_MAX_CTX; i++)
		k->rodata->ctxs[i] = conf->ctx[i];
	k->rodata->nctx = conf->nctx;
	for (int i = 0; i < conf->ntid && i < LAT_VHOST_MAX_TID; i++)
		k->rodata->tids[i] = conf->tid[i];
	k->rodata->ntid = conf->ntid;
	if (conf->fifo_slots) {
		k->rodata->s0_slots = conf->fifo_slots;
		k->rodata->s2_slots = conf->fifo_slots;
	}
	k->rodata->vseg_agg_ncpu = (__u32)v->agg_ncpu;
	k->rodata->want_assoc = conf->assoc;
	e = bpf_map__set_max_entries(k->maps.lat_agg,
				     v->agg_ncpu ? (__u32)(LAT_VSEG__COUNT * v->agg_ncpu) : 1);
	if (!e)
		e = bpf_map__set_max_entries(k->maps.vcpu, (__u32)v->ncpu);
	if (e)
		return e;
	n = probes(k, ks, pr);
	for (int i = 0; i < n; i++) {
		bool want = kvm || !pr[i].kvm;

		bpf_program__set_autoload(pr[i].kp, want && !fentry);
		bpf_program__set_autoload(pr[i].fe, want && fentry);
		if (want && fentry) {
			e = bpf_program__set_attach_target(pr[i].fe, 0, pr[i].func);
			if (e)
				return e;
		}
	}
	e = collector__share(c, k->obj);
	if (!e)
		e = vhost_bpf__load(k);
	if (!e)
		e = vcpu_map(v);
	return e;
}

/* Bytes the segments' in-kernel aggregates take (whole pages), for the session's budget. */
size_t vhost__agg_bytes(void)
{
	return aggset__bytes(progagg__ncpu(), LAT_VSEG__COUNT);
}

/* Map the aggregates the loaded object sized: segment k's slot goes to (LAT_EV_SEG,
 * LAT_SEG_VHOST + k, 0, 0), the id its events carry. 0 or a negative errno with err. */
static int map_aggs(struct vhost *v, char *err, size_t errlen)
{
	struct agg_key keys[LAT_VSEG__COUNT];

	if (!v->agg_ncpu)
		return 0;
	for (int k = 0; k < LAT_VSEG__COUNT; k++)
		keys[k] = (struct agg_key){ LAT_EV_SEG, LAT_SEG_VHOST + (uint32_t)k, 0, 0 };
	v->scratch = calloc(1, sizeof(*v->scratch));
	v->agg = v->scratch ? aggset__open(bpf_map__fd(v->skel->maps.lat_agg), v->agg_ncpu, keys,
					   LAT_VSEG__COUNT)
			    : NULL;
	if (!v->agg) {
		int e = v->scratch ? errno : ENOMEM;

		snprintf(err, errlen, "cannot map the vhost segments' aggregates: %s",
			 strerror(e));
		return -e;
	}
	return 0;
}

/* Load and attach: fentry/fexit where the kernel and the modules' BTF allow, else kprobes
 * (LATTOP_VHOST_PROBES=kprobe forces them, for tests). */
struct vhost *vhost__new(struct collector *c, const struct vhost_conf *conf, char *err,
			 size_t errlen)
{
	const char *force = getenv("LATTOP_VHOST_PROBES");
	struct vhost *v = calloc(1, sizeof(*v));
	struct chain_syms ks;
	int e, kvm;

	if (!v)
		return NULL;
	v->ncpu = progagg__ncpu();
	v->agg_ncpu = conf->agg ? v->ncpu : 0;
	if (!support_ks_valid) {
		e = vhost__support(err, errlen, &kvm);
		if (e)
			goto fail;
	}
	ks = support_ks; /* what that check read: the chain is built on the same symbols */
	support_ks_valid = false;
	kvm = ks.addr[VF_IOEVENTFD_WRITE] != 0;
	if (ks.addr[VF_TX_KICK] == 1) {
		/* The wakeup probe tells TX kicks from others by this address. */
		snprintf(err, errlen,
			 "cannot build the vhost chain: /proc/kallsyms hides kernel addresses "
			 "(kernel.kptr_restrict); run as root with kptr_restrict below 2");
		e = -EPERM;
		goto fail;
	}
	e = -EINVAL;
	if (!force || strcmp(force, "kprobe")) {
		/* fentry/fexit; if loading or attaching them fails, kprobes (an attach can fail
		 * where loading worked: a busy trampoline, a function ftrace cannot patch). */
		e = load(v, c, conf, &ks, kvm, true);
		if (e) {
			snprintf(v->fallback, sizeof(v->fallback), "loading them failed: %s",
				 strerror(-e));
		} else {
			e = attach_all(v, &ks, kvm, v->fallback, sizeof(v->fallback));
			if (!e) {
				e = map_aggs(v, err, errlen);
				if (!e)
					return v;
				goto fail; /* attached, but its aggregates cannot be read */
			}
			detach_all(v);
		}
		if (!have_kprobes()) {
			snprintf(err, errlen,
				 "segments of the vhost path need fentry on the vhost modules or "
				 "kprobes: fentry/fexit failed here (%s) and this kernel has no "
				 "kprobes (CONFIG_KPROBES is not set)",
				 v->fallback);
			goto fail;
		}
	}
	e = load(v, c, conf, &ks, kvm, false);
	if (e) {
		snprintf(err, errlen,
			 "cannot load the vhost BPF object: %s (are the vhost module's BTF and "
			 "/sys/kernel/btf/vhost there?)",
			 strerror(-e));
		goto fail;
	}
	e = attach_all(v, &ks, kvm, err, errlen);
	if (!e)
		e = map_aggs(v, err, errlen);
	if (e)
		goto fail;
	return v;
fail:
	vhost__free(v);
	errno = e < 0 ? -e : EINVAL;
	return NULL;
}

/* Why fentry/fexit were given up, or "". */
const char *vhost__fallback_why(const struct vhost *v)
{
	return v->fentry ? "" : v->fallback;
}

/* Which probes the chain uses, and how many are attached. */
const char *vhost__probe_kind(const struct vhost *v, int *n)
{
	*n = v->nlinks;
	return v->fentry ? "fentry/fexit" : "kprobes/kretprobes";
}

/* Detach and free. */
void vhost__free(struct vhost *v)
{
	if (!v)
		return;
	detach_all(v);
	aggset__free(v->agg);
	free(v->scratch);
	vcpu_unmap(v);
	vhost_bpf__destroy(v->skel);
	free(v);
}

/* Hand what each segment's aggregates gained since the last harvest to sink. */
void vhost__harvest(struct vhost *v, bool force, progagg_sink sink, void *arg)
{
	if (v && v->agg)
		aggset__harvest(v->agg, force, v->scratch, sink, arg);
}

/* Bytes of kernel memory the segments' aggregates take (0 on the ring buffer). */
size_t vhost__agg_mem(const struct vhost *v)
{
	return v && v->agg ? vhost__agg_bytes() : 0;
}

/* The chain's counters: the sum of every possible CPU's copy (the mapped vcpu array). Every
 * field is a __u64, so the copies add up field by field. */
void vhost__counters(const struct vhost *v, struct lat_vhost_counters *out)
{
	enum { NF = sizeof(*out) / sizeof(uint64_t) };
	uint64_t sum[NF] = {};

	for (int cpu = 0; v->vcpu && cpu < v->ncpu; cpu++) {
		const volatile uint64_t *c = (const volatile uint64_t *)&v->vcpu[cpu].c;

		for (int f = 0; f < NF; f++)
			sum[f] += c[f];
	}
	memcpy(out, sum, sizeof(*out));
}

/* (thread, eventfd) pairs seen so far. */
int vhost__assoc(const struct vhost *v, struct vhost_assoc *out, int max)
{
	int fd = bpf_map__fd(v->skel->maps.assoc), n = 0;
	struct lat_vhost_assoc_key key, next;
	struct lat_vhost_assoc val;
	void *prev = NULL;

	while (n < max && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		out[n].tid = key.tid;
		out[n].pid = val.pid;
		memcpy(out[n].comm, val.comm, sizeof(out[n].comm));
		out[n].comm[sizeof(out[n].comm) - 1] = '\0';
		out[n].ctx = key.ctx;
		out[n].runs = val.runs;
		out[n].packets = val.packets;
		n++;
	}
	return n;
}
