// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * spanfn.bpf.c - one fentry or fexit probe of a span on a kernel function.
 *
 * A fentry/fexit program's target is fixed when it is loaded, so user space opens one copy of
 * this object per probe, points the one program it needs at the function
 * (bpf_program__set_attach_target before load), fills `probe` and `conf` (rodata), and reuses
 * the spans object's pending table, aggregates (with span_agg_ncpu set alike), loss counters,
 * ring buffer and drop counter. The programs are generic: they never read the context
 * directly, only through bpf_get_func_arg and bpf_get_func_ret, which check the argument
 * number at run time, so one program fits every function (user space has already checked the
 * function has the argument, from its BTF).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "span.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile struct lat_span_probe probe = {};
const volatile struct lat_span_conf conf = {};

/* The probe's key argument, or 0 when it keys on the thread or process. */
static __always_inline __u64 fn_arg(void *ctx)
{
	__u64 v = 0;

	if (probe.keysel == LAT_KEY_FIELD && probe.field < LAT_FIELD_RET)
		bpf_get_func_arg(ctx, probe.field, &v);
	return v;
}

/* The arguments and, at a fexit, the return value, for the span's filter and breakdown
 * (a function with fewer arguments leaves the rest 0). */
static __always_inline void fn_vals(void *ctx, __u64 *av, bool ret)
{
	for (__u32 i = 0; i < 5; i++)
		bpf_get_func_arg(ctx, i, &av[i]);
	if (ret)
		bpf_get_func_ret(ctx, &av[LAT_FIELD_RET]);
}

SEC("fentry")
int lat_span_fentry(void *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	__u64 av[LAT_FIELD_RET + 1] = {};

	if (conf.by || conf.nfilt)
		fn_vals(ctx, av, false);
	return span_probe_hit(&probe, &conf, fn_arg(ctx), now, av);
}

SEC("fexit")
int lat_span_fexit(void *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	__u64 av[LAT_FIELD_RET + 1] = {};
	__u64 v = 0;

	if (conf.by || conf.nfilt)
		fn_vals(ctx, av, true);
	if (probe.keysel == LAT_KEY_FIELD && probe.field == LAT_FIELD_RET)
		bpf_get_func_ret(ctx, &v);
	else
		v = fn_arg(ctx);
	return span_probe_hit(&probe, &conf, v, now, av);
}
