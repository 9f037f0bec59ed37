// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * vhost.c - load bpf/vhost.bpf.c and attach its kprobes to the vhost-net transmit path.
 *
 * Kprobes only: fentry/fexit on module functions would cost less per hit (~3 ns against ~47),
 * but needs per-module attach targets and is not done here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collect/collector.h"
#include "collect/vhost.h"
#include "vhost.skel.h"

#define VHOST_LINKS 12

struct vhost {
	struct vhost_bpf *skel;
	struct bpf_link *links[VHOST_LINKS];
	int nlinks;
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
struct ksyms {
	uint64_t addr[sizeof(vfuncs) / sizeof(vfuncs[0])];
	const char *signal; /* "eventfd_signal" (<= 6.7), "eventfd_signal_mask" (6.8+) or NULL */
	uint64_t signal_addr;
};

/* Look the chain's functions up in /proc/kallsyms (text symbols only). */
static int ksyms_read(struct ksyms *k)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "r");

	memset(k, 0, sizeof(*k));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		for (size_t i = 0; i < sizeof(vfuncs) / sizeof(vfuncs[0]); i++)
			if (!k->addr[i] && !strcmp(name, vfuncs[i].name))
				k->addr[i] = addr ? addr : 1;
		if (!strcmp(name, "eventfd_signal")) {
			k->signal = "eventfd_signal";
			k->signal_addr = addr;
		} else if (!strcmp(name, "eventfd_signal_mask") && !k->signal) {
			k->signal = "eventfd_signal_mask";
			k->signal_addr = addr;
		}
	}
	fclose(f);
	return 0;
}

/* True when the kernel can create kprobes through perf (what libbpf uses). */
static bool have_kprobes(void)
{
	return access("/sys/bus/event_source/devices/kprobe/type", R_OK) == 0;
}

/* Can this kernel build the chain? */
int vhost__support(char *why, size_t len, int *kvm)
{
	struct ksyms k;
	int e;

	*kvm = 0;
	e = ksyms_read(&k);
	if (!have_kprobes()) {
		/* Say whether vhost-net is missing too: both are for the user to fix. */
		snprintf(why, len,
			 "segments of the vhost path need kprobes%s, which this kernel lacks (no "
			 "kprobe PMU: CONFIG_KPROBES is not set)",
			 !e && k.addr[VF_TX_KICK] ? "" : " and vhost-net");
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
	if (!k.signal) {
		snprintf(why, len,
			 "cannot build the vhost chain: neither eventfd_signal nor "
			 "eventfd_signal_mask is in this kernel");
		return -ENOENT;
	}
	*kvm = k.addr[VF_IOEVENTFD_WRITE] != 0;
	return 0;
}

/* Attach prog as a kprobe or kretprobe on func. */
static int attach(struct vhost *v, struct bpf_program *prog, const char *func, bool ret,
		  char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_kprobe_opts, ko, .retprobe = ret);
	struct bpf_link *l = bpf_program__attach_kprobe_opts(prog, func, &ko);

	if (!l) {
		int e = errno;

		snprintf(err, errlen, "cannot attach a %s to %s: %s", ret ? "kretprobe" : "kprobe",
			 func, strerror(e));
		return -e;
	}
	v->links[v->nlinks++] = l;
	return 0;
}

/* Load and attach. */
struct vhost *vhost__new(struct collector *c, const struct vhost_conf *conf, char *err,
			 size_t errlen)
{
	struct vhost *v = calloc(1, sizeof(*v));
	struct vhost_bpf *k;
	struct ksyms ks;
	int e, kvm;

	if (!v)
		return NULL;
	e = vhost__support(err, errlen, &kvm);
	if (e)
		goto fail;
	e = ksyms_read(&ks);
	if (e)
		goto fail;
	if (ks.addr[VF_TX_KICK] == 1) {
		/* The wakeup probe tells TX kicks from others by this address. */
		snprintf(err, errlen,
			 "cannot build the vhost chain: /proc/kallsyms hides kernel addresses "
			 "(kernel.kptr_restrict); run as root with kptr_restrict below 2");
		e = -EPERM;
		goto fail;
	}
	k = v->skel = vhost_bpf__open();
	if (!k) {
		e = -errno;
		snprintf(err, errlen, "cannot open the vhost BPF object: %s", strerror(errno));
		goto fail;
	}
	k->rodata->tx_kick_fn = ks.addr[VF_TX_KICK];
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
	if (!kvm) {
		bpf_program__set_autoload(k->progs.lat_vh_ioeventfd_write, false);
		bpf_program__set_autoload(k->progs.lat_vh_ioeventfd_write_ret, false);
	}
	e = collector__share(c, k->obj);
	if (!e)
		e = vhost_bpf__load(k);
	if (e) {
		snprintf(err, errlen,
			 "cannot load the vhost BPF object: %s (are the vhost module's BTF and "
			 "/sys/kernel/btf/vhost there?)",
			 strerror(-e));
		goto fail;
	}
	if ((e = attach(v, k->progs.lat_vh_eventfd_write, "eventfd_write", false, err, errlen)) ||
	    (e = attach(v, k->progs.lat_vh_eventfd_write_ret, "eventfd_write", true, err,
			errlen)) ||
	    (e = attach(v, k->progs.lat_vh_eventfd_signal, ks.signal, false, err, errlen)) ||
	    (e = attach(v, k->progs.lat_vh_poll_wakeup, "vhost_poll_wakeup", false, err,
			errlen)) ||
	    (e = attach(v, k->progs.lat_vh_tx_kick, "handle_tx_kick", false, err, errlen)) ||
	    (e = attach(v, k->progs.lat_vh_tx_kick_ret, "handle_tx_kick", true, err, errlen)) ||
	    (e = attach(v, k->progs.lat_vh_tun_sendmsg, "tun_sendmsg", false, err, errlen)) ||
	    (e = attach(v, k->progs.lat_vh_netif_receive_skb, "netif_receive_skb", false, err,
			errlen)))
		goto fail;
	if (kvm &&
	    ((e = attach(v, k->progs.lat_vh_ioeventfd_write, "ioeventfd_write", false, err,
			 errlen)) ||
	     (e = attach(v, k->progs.lat_vh_ioeventfd_write_ret, "ioeventfd_write", true, err,
			 errlen))))
		goto fail;
	return v;
fail:
	vhost__free(v);
	errno = e < 0 ? -e : EINVAL;
	return NULL;
}

/* Detach and free. */
void vhost__free(struct vhost *v)
{
	if (!v)
		return;
	for (int i = v->nlinks - 1; i >= 0; i--)
		bpf_link__destroy(v->links[i]);
	vhost_bpf__destroy(v->skel);
	free(v);
}

/* The chain's counters (the object's mmapped .bss). */
void vhost__counters(const struct vhost *v, struct lat_vhost_counters *out)
{
	const volatile struct lat_vhost_counters *c = &v->skel->bss->vcnt;

	out->fifo_overflow = c->fifo_overflow;
	out->fifo_underflow = c->fifo_underflow;
	out->s0_miss = c->s0_miss;
	out->s1_miss = c->s1_miss;
	out->work_eventfd_miss = c->work_eventfd_miss;
	out->pkts_seen = c->pkts_seen;
	out->pkts_matched = c->pkts_matched;
	out->s2_leftover = c->s2_leftover;
	out->kicks = c->kicks;
	out->kicks_filtered = c->kicks_filtered;
	out->coalesced = c->coalesced;
	out->runs = c->runs;
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
