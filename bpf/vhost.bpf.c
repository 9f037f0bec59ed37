// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * vhost.bpf.c - per-packet segments of the KVM -> vhost-net -> TUN transmit path.
 *
 *   S0  kick (ioeventfd_write or eventfd_write) -> handle_tx_kick   keyed by eventfd_ctx
 *   S1  handle_tx_kick -> first tun_sendmsg of that run              keyed by worker tid
 *   S2  tun_sendmsg -> netif_receive_skb, per packet                 keyed by tid + FIFO slot
 *   total = S0 + S1 + S2
 *
 * The kicker thread (vCPU or writer) runs ioeventfd_write/eventfd_write -> (eventfd_signal) ->
 * vhost_poll_wakeup; a per-CPU slot remembers the kick's start and its eventfd_ctx, and the
 * wakeup pushes the start on that eventfd's FIFO and maps the vhost work to the eventfd. The
 * worker thread then runs handle_tx_kick(work) -> tun_sendmsg -> netif_receive_skb: the run pops
 * the oldest pending kick (S0), each tun_sendmsg pushes one slot per packet it carries (a
 * TUN_MSG_PTR batch of num XDP buffers, else one), and each netif_receive_skb pops one slot,
 * always, so the FIFO stays aligned whether or not the packet is the target flow. Only target
 * packets on the target device are measured.
 *
 * A target packet's samples go, with vseg_agg_ncpu set (the default), into the (segment, CPU)
 * records of agg.bpf.h's lat_agg, which user space harvests through mmap at each interval close
 * (collect/aggset.c), as spans do: at vhost-net rates (1-2 M packets/s per queue) four events a
 * packet are more than the one shared ring buffer and its consumer take. Without it (--details,
 * --raw, LATTOP_PATH=ring, or the aggregates' budget is spent) each sample is one LAT_EV_SEG
 * event, and the packet's sequence number (pkt_seq, the one counter every CPU writes) pairs them.
 *
 * Coalesced kicks: vhost queues the work once however many kicks arrive before it runs
 * (VHOST_WORK_QUEUED), so one run serves every kick pending when it starts. S0 is measured
 * from the oldest of them; the others are dropped from the FIFO and counted as coalesced.
 *
 * Maps keyed by ctx, work and tid are hash maps: these probes are not on a path helpers mode
 * traces (they run in eventfd, vhost and tun code, never inside a watched BPF program).
 * Counters are one copy per CPU (an entry of the vcpu array, sized by user space to the possible
 * CPUs, on its own cache lines, beside the CPU's kick in progress), with atomic adds (a probe
 * nested on the same CPU cannot lose one): the per-packet adds stay in the CPU's cache instead
 * of moving one line between every CPU running the chain. User space sums them.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "agg.bpf.h"
#include "emit.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Module types (vhost.ko), relocated against the module's BTF at load: only the offsets of
 * these fields are used. */
struct vhost_work___lat {
	void *fn;
} __attribute__((preserve_access_index));

struct vhost_poll___lat {
	wait_queue_entry_t wait;
	struct vhost_work___lat work;
} __attribute__((preserve_access_index));

/* include/linux/if_tun.h: what vhost-net passes in msghdr->msg_control. */
struct lat_tun_msg_ctl {
	unsigned short type;
	unsigned short num;
	void *ptr;
};
#define TUN_MSG_PTR 2

#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86DD

/* Set by user space before load. */
const volatile __u64 tx_kick_fn = 0;  /* address of handle_tx_kick (kallsyms) */
const volatile __u32 ifindex = 0;     /* target device, 0 = any */
const volatile struct lat_flow flow = {};
const volatile __u64 ctxs[LAT_VHOST_MAX_CTX] = {}; /* profile eventfds; none = any */
const volatile __u32 nctx = 0;
const volatile __u32 tids[LAT_VHOST_MAX_TID] = {}; /* profile worker threads; none = any */
const volatile __u32 ntid = 0;
const volatile __u32 s0_slots = LAT_VHOST_S0_SLOTS; /* FIFO sizes (--fifo-slots shrinks them) */
const volatile __u32 s2_slots = LAT_VHOST_S2_SLOTS;
/* CPUs each segment has a record for in lat_agg (user space sets it, and lat_agg's max_entries
 * to LAT_VSEG__COUNT times it, before load); 0: every sample goes through the ring buffer. */
const volatile __u32 vseg_agg_ncpu = 0;
/* Count what each (worker, eventfd) pair carries in assoc: only discover reads it, so a measure
 * session spares its hash lookup and two atomic adds per target packet. */
const volatile __u32 want_assoc = 0;

/* Each CPU's counters and kick in progress, key = CPU id: user space sets max_entries to the
 * possible CPUs before load and mmaps it (page-aligned values: whole lines per CPU). An ARRAY,
 * so the lookup is inlined and bounds-checked: no CPU lands in another's entry. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct lat_vhost_cpu_counters);
} vcpu SEC(".maps");

__u64 pkt_seq SEC(".bss");

/* Zeroed values to create entries from (a map value can be copied from, the stack is too
 * small for these). Never written. */
struct lat_vhost_s0fifo zero_s0 SEC(".bss");
struct lat_vhost_worker zero_worker SEC(".bss");

/* eventfd_ctx -> its pending kicks. 64 eventfds: one per vhost TX queue watched at once. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, struct lat_vhost_s0fifo);
} s0fifo SEC(".maps");

/* vhost work (of a TX kick poll) -> its eventfd_ctx. 256: every TX queue of a host's guests. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u64);
	__type(value, __u64);
} work_ctx SEC(".maps");

/* Worker tid -> its state. 64 workers (one per vhost device on 6.1). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct lat_vhost_worker);
} workers SEC(".maps");

/* Discover: (worker tid, eventfd) -> what it carried. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct lat_vhost_assoc_key);
	__type(value, struct lat_vhost_assoc);
} assoc SEC(".maps");

/* CPU cpu's entry (NULL only past the possible CPUs, which no probe runs on). */
static __always_inline struct lat_vhost_cpu_counters *vcpu_at(__u32 cpu)
{
	return bpf_map_lookup_elem(&vcpu, &cpu);
}

/* Add n to counter fld of CPU cpu's copy (the CPU the probe runs on), or of this CPU's. */
#define vcnt_add_at(cpu, fld, n)                                                                  \
	do {                                                                                     \
		struct lat_vhost_cpu_counters *v_ = vcpu_at(cpu);                                \
		if (v_)                                                                          \
			__sync_fetch_and_add(&v_->c.fld, (n));                                   \
	} while (0)
#define vcnt_add(fld, n) vcnt_add_at(bpf_get_smp_processor_id(), fld, n)

/* This CPU's kick slot (NULL: see vcpu_at). */
static __always_inline struct lat_vhost_kick *my_kick(void)
{
	struct lat_vhost_cpu_counters *v = vcpu_at(bpf_get_smp_processor_id());

	return v ? &v->kick : NULL;
}

/* A kick starts on this CPU (ctx may be learnt later, from eventfd_signal). */
static __always_inline void kick_begin(__u64 ctx)
{
	struct lat_vhost_kick *k = my_kick();

	if (!k)
		return;
	k->start_ns = bpf_ktime_get_ns();
	k->ctx = ctx;
	k->tid = (__u32)bpf_get_current_pid_tgid();
	k->active = 1;
}

/* The kick returned. */
static __always_inline void kick_end(void)
{
	struct lat_vhost_kick *k = my_kick();

	if (!k)
		return;
	k->active = 0;
	k->ctx = 0;
}

/* Index of ctx in the profile, or -1 (0 when the profile names none: any eventfd). */
static __always_inline int ctx_index(__u64 ctx)
{
	if (!nctx)
		return 0;
	for (int i = 0; i < LAT_VHOST_MAX_CTX; i++) {
		if (i >= nctx)
			break;
		if (ctxs[i] == ctx)
			return i;
	}
	return -1;
}

/* True when tid is a profile worker (or the profile names none). */
static __always_inline bool tid_wanted(__u32 tid)
{
	if (!ntid)
		return true;
	for (int i = 0; i < LAT_VHOST_MAX_TID; i++) {
		if (i >= ntid)
			break;
		if (tids[i] == tid)
			return true;
	}
	return false;
}

/* User write() to a kick eventfd: the eventfd is the file's private data. */
static __always_inline int on_eventfd_write(struct file *file)
{
	kick_begin((__u64)BPF_CORE_READ(file, private_data));
	return 0;
}

/* A kick (eventfd_write or ioeventfd_write) returns. */
static __always_inline int on_kick_ret(void)
{
	kick_end();
	return 0;
}

/* KVM guest write to an ioeventfd port: the eventfd comes from the eventfd_signal inside. */
static __always_inline int on_ioeventfd_write(void)
{
	kick_begin(0);
	return 0;
}


/* eventfd_signal(ctx, n) (6.1) or eventfd_signal_mask(ctx, mask) (6.8+): the current eventfd
 * of a kick in progress by this thread. */
static __always_inline int on_eventfd_signal(void *efd)
{
	struct lat_vhost_kick *k = my_kick();

	if (k && k->active && k->tid == (__u32)bpf_get_current_pid_tgid())
		k->ctx = (__u64)efd;
	return 0;
}

/* A wakeup of a vhost poll on this CPU: when it is a TX kick poll woken by a kick in progress,
 * push the kick's start on its eventfd's FIFO and remember which eventfd the work belongs to. */
static __always_inline int on_poll_wakeup(void *wait)
{
	__u64 work = (__u64)wait - bpf_core_field_offset(struct vhost_poll___lat, wait) +
		     bpf_core_field_offset(struct vhost_poll___lat, work);
	struct lat_vhost_kick *k = my_kick();
	struct lat_vhost_s0fifo *f;
	__u64 fn = 0, efd;
	__u32 t;

	bpf_probe_read_kernel(&fn, sizeof(fn),
			      (void *)(work + bpf_core_field_offset(struct vhost_work___lat, fn)));
	if (fn != tx_kick_fn)
		return 0; /* RX, socket or another device's poll */
	if (!k || !k->active || !k->ctx || k->tid != (__u32)bpf_get_current_pid_tgid())
		return 0; /* not from a kick we saw start (e.g. VHOST_SET_VRING_KICK) */
	efd = k->ctx;
	if (ctx_index(efd) < 0) {
		vcnt_add(kicks_filtered, 1);
		return 0;
	}
	bpf_map_update_elem(&work_ctx, &work, &efd, BPF_ANY);
	f = bpf_map_lookup_elem(&s0fifo, &efd);
	if (!f) {
		bpf_map_update_elem(&s0fifo, &efd, &zero_s0, BPF_NOEXIST);
		f = bpf_map_lookup_elem(&s0fifo, &efd);
		if (!f)
			return 0;
	}
	t = f->tail;
	if (t - f->head >= s0_slots) {
		f->head = t - s0_slots + 1; /* drop the oldest */
		vcnt_add(fifo_overflow, 1);
	}
	f->slot[t & (LAT_VHOST_S0_SLOTS - 1)] = k->start_ns;
	f->tail = t + 1;
	vcnt_add(kicks, 1);
	return 0;
}

/* Count runs and target packets of a (worker, eventfd) pair for discover. */
static __always_inline void assoc_add(__u32 tid, __u64 ctx, __u64 runs, __u64 packets)
{
	struct lat_vhost_assoc_key key = { .tid = tid, .ctx = ctx };
	struct lat_vhost_assoc *a, init = {};

	if (!want_assoc)
		return;
	a = bpf_map_lookup_elem(&assoc, &key);
	if (!a) {
		init.pid = bpf_get_current_pid_tgid() >> 32;
		bpf_get_current_comm(init.comm, sizeof(init.comm));
		bpf_map_update_elem(&assoc, &key, &init, BPF_NOEXIST);
		a = bpf_map_lookup_elem(&assoc, &key);
		if (!a)
			return;
	}
	__sync_fetch_and_add(&a->runs, runs);
	__sync_fetch_and_add(&a->packets, packets);
}

/* A TX run starts on the worker: pop the oldest pending kick of the work's eventfd (S0) and
 * mark the thread active. */
static __always_inline int on_tx_kick(void *work)
{
	__u64 now = bpf_ktime_get_ns(), w = (__u64)work, efd = 0, *cp;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct lat_vhost_worker *wk;
	struct lat_vhost_s0fifo *f;
	int q;

	if (!tid_wanted(tid))
		return 0;
	wk = bpf_map_lookup_elem(&workers, &tid);
	if (!wk) {
		bpf_map_update_elem(&workers, &tid, &zero_worker, BPF_NOEXIST);
		wk = bpf_map_lookup_elem(&workers, &tid);
		if (!wk)
			return 0;
	}
	wk->active = 1;
	wk->run_ns = now;
	wk->kick_ns = 0;
	wk->s1_ns = 0;
	wk->head = wk->tail; /* a run starts with no packet in flight */
	vcnt_add(runs, 1);
	cp = bpf_map_lookup_elem(&work_ctx, &w);
	if (!cp) {
		vcnt_add(work_eventfd_miss, 1);
		wk->ctx = 0;
		wk->queue = 0;
		return 0;
	}
	efd = *cp;
	q = ctx_index(efd);
	wk->ctx = efd;
	wk->queue = q < 0 ? 0 : q;
	assoc_add(tid, efd, 1, 0);
	f = bpf_map_lookup_elem(&s0fifo, &efd);
	if (!f || f->head == f->tail) {
		vcnt_add(s0_miss, 1);
		return 0;
	}
	wk->kick_ns = f->slot[f->head & (LAT_VHOST_S0_SLOTS - 1)];
	if (f->tail - f->head > 1)
		vcnt_add(coalesced, f->tail - f->head - 1);
	f->head = f->tail;
	return 0;
}

/* The run ends: slots of packets that never reached netif_receive_skb are dropped. */
static __always_inline int on_tx_kick_ret(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct lat_vhost_worker *wk = bpf_map_lookup_elem(&workers, &tid);

	if (!wk || !wk->active)
		return 0;
	wk->active = 0;
	if (wk->tail != wk->head)
		vcnt_add(s2_leftover, wk->tail - wk->head);
	wk->head = wk->tail;
	return 0;
}

/* tun_sendmsg on a worker: S1 on the run's first call, then one S2 slot per packet carried. */
static __always_inline int on_tun_sendmsg(struct msghdr *m)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct lat_tun_msg_ctl ctl = {};
	struct lat_vhost_worker *wk = bpf_map_lookup_elem(&workers, &tid);
	void *cp;
	__u32 n = 1;

	if (!wk)
		return 0; /* not a vhost worker we watch */
	if (!wk->active) {
		vcnt_add(s1_miss, 1);
		return 0;
	}
	if (!wk->s1_ns)
		wk->s1_ns = now;
	cp = BPF_CORE_READ(m, msg_control);
	if (cp && !bpf_probe_read_kernel(&ctl, sizeof(ctl), cp) && ctl.type == TUN_MSG_PTR)
		n = ctl.num;
	for (__u32 i = 0; i < LAT_VHOST_BATCH; i++) {
		__u32 t = wk->tail;

		if (i >= n)
			break;
		if (t - wk->head >= s2_slots) {
			wk->head = t - s2_slots + 1;
			vcnt_add(fifo_overflow, 1);
		}
		wk->slot[t & (LAT_VHOST_S2_SLOTS - 1)] = now;
		wk->tail = t + 1;
	}
	return 0;
}

/* True when the packet at skb->data (L3, after eth_type_trans) is the target flow. */
static __always_inline bool flow_match(struct sk_buff *skb)
{
	__u16 proto = bpf_ntohs(BPF_CORE_READ(skb, protocol));
	unsigned char *l3 = BPF_CORE_READ(skb, data);
	__u8 src[16] = {}, dst[16] = {}, l4;
	__u16 ports[2] = {};
	int alen;

	if (proto == ETH_P_IP) {
		struct iphdr ip;

		if (flow.family == 6 || bpf_probe_read_kernel(&ip, sizeof(ip), l3))
			return false;
		__builtin_memcpy(src, &ip.saddr, 4);
		__builtin_memcpy(dst, &ip.daddr, 4);
		l4 = ip.protocol;
		alen = 4;
		if (!(ip.frag_off & bpf_htons(0x1fff)))
			bpf_probe_read_kernel(ports, sizeof(ports), l3 + ip.ihl * 4);
	} else if (proto == ETH_P_IPV6) {
		struct ipv6hdr ip6;

		if (flow.family == 4 || bpf_probe_read_kernel(&ip6, sizeof(ip6), l3))
			return false;
		__builtin_memcpy(src, &ip6.saddr, 16);
		__builtin_memcpy(dst, &ip6.daddr, 16);
		l4 = ip6.nexthdr; /* extension headers are not walked */
		alen = 16;
		bpf_probe_read_kernel(ports, sizeof(ports), l3 + sizeof(ip6));
	} else {
		return false;
	}
	if (flow.proto && flow.proto != l4)
		return false;
	if ((flow.sport || flow.dport) && l4 != IPPROTO_UDP && l4 != IPPROTO_TCP)
		return false;
	if (flow.sport && flow.sport != ports[0])
		return false;
	if (flow.dport && flow.dport != ports[1])
		return false;
	for (int i = 0; i < 16; i++) {
		if (i >= alen)
			break;
		if (flow.has_src && flow.src[i] != src[i])
			return false;
		if (flow.has_dst && flow.dst[i] != dst[i])
			return false;
	}
	return true;
}

/* Add the samples a target packet has (have: bit LAT_VSEG_x + 1) to this CPU's records of the
 * segments: true when added (aggregation on), false when they go as events. */
static __always_inline bool vseg_agg(__u32 cpu, __u16 have, __u64 s0, __u64 s1, __u64 s2)
{
	__u64 dur[LAT_VSEG__COUNT] = { s0, s1, s2, s0 + s1 + s2 };

	if (cpu >= vseg_agg_ncpu) /* also: 0, aggregation off */
		return false;
	for (__u32 k = 0; k < LAT_VSEG__COUNT; k++)
		if (have & (1 << (k + 1)))
			agg_add_at(k, vseg_agg_ncpu, cpu, dur[k]); /* k * ncpu + cpu: always there */
	return true;
}

/* A packet enters the stack on a worker: pop its slot (always, to keep the FIFO aligned), then
 * aggregate or emit S0, S1, S2 and total when it is the target flow on the target device. An
 * event's flags carry which samples the packet has (bit LAT_VSEG_x + 1), so a reader knows
 * when it has them all. */
static __always_inline int on_netif_receive_skb(struct sk_buff *skb)
{
	__u64 now = bpf_ktime_get_ns(), sent = 0, s0 = 0, s1 = 0, s2 = 0, seq;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct lat_vhost_worker *wk = bpf_map_lookup_elem(&workers, &tid);
	__u32 cpu = bpf_get_smp_processor_id(); /* once per packet: a helper call on 6.1 */
	__u16 have = 0;

	if (!wk || !wk->active)
		return 0;
	if (wk->head == wk->tail) {
		vcnt_add_at(cpu, fifo_underflow, 1);
	} else {
		sent = wk->slot[wk->head & (LAT_VHOST_S2_SLOTS - 1)];
		wk->head++;
	}
	if (ifindex && BPF_CORE_READ(skb, dev, ifindex) != ifindex)
		return 0;
	vcnt_add_at(cpu, pkts_seen, 1);
	if (!flow_match(skb))
		return 0;
	vcnt_add_at(cpu, pkts_matched, 1);
	if (wk->ctx)
		assoc_add(tid, wk->ctx, 0, 1);
	if (wk->kick_ns) {
		s0 = wk->run_ns - wk->kick_ns;
		have |= 1 << (LAT_VSEG_S0 + 1);
	}
	if (wk->s1_ns) {
		s1 = wk->s1_ns - wk->run_ns;
		have |= 1 << (LAT_VSEG_S1 + 1);
	}
	if (sent) {
		s2 = now - sent;
		have |= 1 << (LAT_VSEG_S2 + 1);
	}
	if ((have & 0xe) == 0xe)
		have |= 1 << (LAT_VSEG_TOTAL + 1);
	if (vseg_agg(cpu, have, s0, s1, s2))
		return 0;
	seq = __sync_fetch_and_add(&pkt_seq, 1);
	if (have & (1 << (LAT_VSEG_S0 + 1)))
		emit_event(LAT_EV_SEG, have, LAT_SEG_VHOST + LAT_VSEG_S0, wk->queue, seq,
			   wk->kick_ns, s0);
	if (have & (1 << (LAT_VSEG_S1 + 1)))
		emit_event(LAT_EV_SEG, have, LAT_SEG_VHOST + LAT_VSEG_S1, wk->queue, seq,
			   wk->run_ns, s1);
	if (have & (1 << (LAT_VSEG_S2 + 1)))
		emit_event(LAT_EV_SEG, have, LAT_SEG_VHOST + LAT_VSEG_S2, wk->queue, seq, sent,
			   s2);
	if (have & (1 << (LAT_VSEG_TOTAL + 1)))
		emit_event(LAT_EV_SEG, have, LAT_SEG_VHOST + LAT_VSEG_TOTAL, wk->queue, seq,
			   wk->kick_ns, s0 + s1 + s2);
	return 0;
}

/* Entry points: kprobes/kretprobes, or fentry/fexit where the kernel and the modules' BTF allow
 * (the loader tries fentry first; ~3 ns per hit instead of ~47). Attach targets are set by the
 * loader: eventfd_signal is eventfd_signal_mask from Linux 6.8. */
SEC("kprobe")
int BPF_KPROBE(lat_vh_eventfd_write, struct file *file)
{
	return on_eventfd_write(file);
}

SEC("kretprobe")
int BPF_KRETPROBE(lat_vh_eventfd_write_ret)
{
	return on_kick_ret();
}

SEC("kprobe")
int BPF_KPROBE(lat_vh_ioeventfd_write)
{
	return on_ioeventfd_write();
}

SEC("kretprobe")
int BPF_KRETPROBE(lat_vh_ioeventfd_write_ret)
{
	return on_kick_ret();
}

SEC("kprobe")
int BPF_KPROBE(lat_vh_eventfd_signal, void *efd)
{
	return on_eventfd_signal(efd);
}

SEC("kprobe")
int BPF_KPROBE(lat_vh_poll_wakeup, void *wait)
{
	return on_poll_wakeup(wait);
}

SEC("kprobe")
int BPF_KPROBE(lat_vh_tx_kick, void *work)
{
	return on_tx_kick(work);
}

SEC("kretprobe")
int BPF_KRETPROBE(lat_vh_tx_kick_ret)
{
	return on_tx_kick_ret();
}

SEC("kprobe")
int BPF_KPROBE(lat_vh_tun_sendmsg, void *sock, struct msghdr *m)
{
	return on_tun_sendmsg(m);
}

SEC("kprobe")
int BPF_KPROBE(lat_vh_netif_receive_skb, struct sk_buff *skb)
{
	return on_netif_receive_skb(skb);
}

SEC("fentry")
int BPF_PROG(lat_vhf_eventfd_write, struct file *file)
{
	return on_eventfd_write(file);
}

SEC("fexit")
int BPF_PROG(lat_vhf_eventfd_write_ret)
{
	return on_kick_ret();
}

SEC("fentry")
int BPF_PROG(lat_vhf_ioeventfd_write)
{
	return on_ioeventfd_write();
}

SEC("fexit")
int BPF_PROG(lat_vhf_ioeventfd_write_ret)
{
	return on_kick_ret();
}

SEC("fentry")
int BPF_PROG(lat_vhf_eventfd_signal, void *efd)
{
	return on_eventfd_signal(efd);
}

SEC("fentry")
int BPF_PROG(lat_vhf_poll_wakeup, void *wait)
{
	return on_poll_wakeup(wait);
}

SEC("fentry")
int BPF_PROG(lat_vhf_tx_kick, void *work)
{
	return on_tx_kick(work);
}

SEC("fexit")
int BPF_PROG(lat_vhf_tx_kick_ret)
{
	return on_tx_kick_ret();
}

SEC("fentry")
int BPF_PROG(lat_vhf_tun_sendmsg, void *sock, struct msghdr *m)
{
	return on_tun_sendmsg(m);
}

SEC("fentry")
int BPF_PROG(lat_vhf_netif_receive_skb, struct sk_buff *skb)
{
	return on_netif_receive_skb(skb);
}
