// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * opts.c - command-line parsing. Every error is one sentence naming the input and the fix.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "base/listen.h"
#include "base/themefind.h"

/* Name of a mode. */
const char *opts__mode_name(enum lat_mode m)
{
	return model__mode_name(m);
}

/* Parse a duration in seconds. */
int opts__parse_secs(const char *s, uint64_t *ns)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v <= 0 || v > 366 * 86400.0)
		return -EINVAL;
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return *ns ? 0 : -EINVAL;
}

/* Parse a positive count. */
static int parse_count(const char *s, long *out)
{
	char *end;
	long v;

	if (!s || !*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* True if c may appear in a BPF program name. */
static bool name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

/* The selector keys, by enum filter_sel. */
static const char *const sel_keys[] = {
	[FSEL_COMM] = "comm",	   [FSEL_DEV] = "dev",	 [FSEL_CGROUP] = "cgroup",
	[FSEL_CONTAINER] = "container", [FSEL_UNIT] = "unit", [FSEL_TYPE] = "type",
	[FSEL_ATTACH] = "attach",
};

/* The value of a selector entry. */
const char *opts__sel_value(const struct filter_ent *f)
{
	const char *c = strchr(f->name, ':');

	return c ? c + 1 : f->name;
}

/* Parse one selector entry tok (len bytes, holding a colon) into f. Returns 0 or -EINVAL with
 * one sentence in err. */
static int parse_sel(struct filter_ent *f, const char *tok, size_t len, char *err, size_t errlen)
{
	size_t klen = (size_t)(memchr(tok, ':', len) - (const void *)tok);

	for (size_t k = 1; k < sizeof(sel_keys) / sizeof(sel_keys[0]); k++) {
		if (strlen(sel_keys[k]) != klen || strncmp(tok, sel_keys[k], klen))
			continue;
		if (klen + 1 == len) {
			snprintf(err, errlen, "selector '%.*s' in -p needs a value, e.g. %s:%s",
				 (int)len, tok, sel_keys[k],
				 k == FSEL_COMM ? "cilium-agent" : k == FSEL_DEV ? "eth0" : "VALUE");
			return -EINVAL;
		}
		for (size_t i = klen + 1; i < len; i++) {
			if ((unsigned char)tok[i] <= ' ' || (unsigned char)tok[i] == 0x7f) {
				snprintf(err, errlen,
					 "bad selector '%.*s' in -p: spaces and control characters "
					 "cannot be matched",
					 (int)(klen + 1), tok);
				return -EINVAL;
			}
		}
		if (len >= sizeof(f->name)) {
			snprintf(err, errlen, "selector '%.*s...' in -p is too long: at most %zu characters",
				 (int)(klen + 1), tok, sizeof(f->name) - 1);
			return -EINVAL;
		}
		memcpy(f->name, tok, len);
		f->name[len] = '\0';
		f->sel = (uint8_t)k;
		return 0;
	}
	snprintf(err, errlen,
		 "unknown selector '%.*s' in -p: use comm:, dev:, cgroup:, container:, unit:, type: "
		 "or attach:",
		 (int)(klen > 20 ? 20 : klen + 1), tok);
	return -EINVAL;
}

/* Parse a -p list. */
int opts__parse_filter(struct opts *o, const char *list, char *err, size_t errlen)
{
	const char *p = list;

	if (!*p) {
		snprintf(err, errlen, "-p needs a list of program IDs or names, e.g. -p 12,xdp_fw");
		return -EINVAL;
	}
	while (*p) {
		const char *tok = p;
		size_t len = strcspn(p, ",");
		struct filter_ent *f;
		bool digits = true, valid = len > 0;

		if (len && memchr(tok, ':', len)) {
			if (o->nfilter == FILTER_MAX) {
				snprintf(err, errlen, "too many entries in -p: at most %d", FILTER_MAX);
				return -EINVAL;
			}
			f = &o->filter[o->nfilter];
			memset(f, 0, sizeof(*f));
			if (parse_sel(f, tok, len, err, errlen))
				return -EINVAL;
			o->nfilter++;
			p += len;
			if (*p == ',' && !*++p) {
				snprintf(err, errlen, "-p list ends with a comma: remove it");
				return -EINVAL;
			}
			continue;
		}
		for (size_t i = 0; i < len; i++) {
			if (!isdigit((unsigned char)tok[i]))
				digits = false;
			if (!name_char((unsigned char)tok[i]))
				valid = false;
		}
		if (!valid || len >= sizeof(f->name)) {
			snprintf(err, errlen,
				 "bad entry '%.*s' in -p: use program IDs, names (letters, digits, "
				 "'_' and '.') or selectors (comm:NAME, dev:IFNAME, ...) separated by "
				 "commas",
				 (int)(len > 40 ? 40 : len), tok);
			return -EINVAL;
		}
		if (o->nfilter == FILTER_MAX) {
			snprintf(err, errlen, "too many entries in -p: at most %d", FILTER_MAX);
			return -EINVAL;
		}
		f = &o->filter[o->nfilter];
		memset(f, 0, sizeof(*f));
		if (digits) {
			unsigned long v;

			errno = 0;
			v = strtoul(tok, NULL, 10);
			if (errno || v == 0 || v > UINT32_MAX) {
				snprintf(err, errlen, "bad program ID '%.*s' in -p: IDs are 1..%u",
					 (int)len, tok, UINT32_MAX);
				return -EINVAL;
			}
			f->id = (uint32_t)v;
		} else {
			memcpy(f->name, tok, len);
			f->name[len] = '\0';
		}
		o->nfilter++;
		p += len;
		if (*p == ',') {
			p++;
			if (!*p) {
				snprintf(err, errlen, "-p list ends with a comma: remove it");
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Format the filter as a -p list, whole entries only. */
int opts__filter_str(const struct opts *o, char *buf, size_t len)
{
	size_t at = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	for (int i = 0; i < o->nfilter; i++) {
		const struct filter_ent *f = &o->filter[i];
		char ent[sizeof(f->name) + 12];
		int n;

		if (f->id)
			n = snprintf(ent, sizeof(ent), "%s%u", at ? "," : "", f->id);
		else
			n = snprintf(ent, sizeof(ent), "%s%s", at ? "," : "", f->name);
		if ((size_t)n >= len - at)
			return -ENOSPC; /* never half an entry */
		memcpy(buf + at, ent, (size_t)n + 1);
		at += (size_t)n;
	}
	return 0;
}

/* Option parsers: each takes the option's value, sets o, and returns 0, -EINVAL with one
 * sentence in err, or an opts_action > 0 that ends parsing (--help, --version). */
static int o_mode(struct opts *o, const char *v, char *err, size_t errlen)
{
	o->mode_set = true;
	for (int m = 0; m < MODE__COUNT; m++)
		if (!strcmp(v, model__mode_name((enum lat_mode)m))) {
			o->mode = (enum lat_mode)m;
			return 0;
		}
	snprintf(err, errlen, "unknown mode '%s': use programs, helpers or segments", v);
	return -EINVAL;
}

static int o_interval(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (opts__parse_secs(v, &o->interval_ns) || o->interval_ns < 10000000ull) {
		snprintf(err, errlen, "bad interval '%s' for -d: give seconds >= 0.01, e.g. -d 0.5",
			 v);
		return -EINVAL;
	}
	return 0;
}

/* Parse a --budget value. */
int opts__parse_budget(const char *v, double *out)
{
	char *end;
	double d;

	if (!v || !*v || isspace((unsigned char)*v))
		return -EINVAL;
	if (!strcmp(v, "max")) {
		*out = OPTS_BUDGET_MAX;
		return 0;
	}
	errno = 0;
	d = strtod(v, &end);
	if (*end == '%')
		end++;
	if (errno || *end || !isfinite(d) || d < 0 || d > 100)
		return -EINVAL;
	*out = d;
	return 0;
}

static int o_budget(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (opts__parse_budget(v, &o->budget_pct)) {
		snprintf(err, errlen,
			 "bad budget '%s' for --budget: give a percentage of the machine's CPU "
			 "from 0 to 100 (e.g. --budget 0.5), or max",
			 v);
		return -EINVAL;
	}
	o->budget_set = true;
	return 0;
}

/* The budget in force. */
double opts__budget(const struct opts *o)
{
	if (o->budget_set)
		return o->budget_pct;
	return o->nfilter || o->demo ? OPTS_BUDGET_MAX : OPTS_BUDGET_DEFAULT;
}

static int o_iterations(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (parse_count(v, &o->iterations)) {
		snprintf(err, errlen,
			 "bad count '%s' for -n: give a whole number of intervals >= 1", v);
		return -EINVAL;
	}
	return 0;
}

static int o_duration(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (opts__parse_secs(v, &o->duration_ns)) {
		snprintf(err, errlen, "bad duration '%s' for -D: give seconds > 0, e.g. -D 10", v);
		return -EINVAL;
	}
	return 0;
}

static int o_output(struct opts *o, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {
		[OUT_TEXT] = "text", [OUT_CSV] = "csv", [OUT_JSON] = "json", [OUT_TRACE] = "trace"
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(v, names[i])) {
			o->out = (enum out_fmt)i;
			return 0;
		}
	snprintf(err, errlen, "unknown output format '%s' for -o: use text, csv or json", v);
	return -EINVAL;
}

static int o_uprobe(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (o->nspans == LAT_SPAN_MAX) {
		snprintf(err, errlen, "too many spans: at most %d in all", LAT_SPAN_MAX);
		return -EINVAL;
	}
	if (spans__parse_func(&o->spans[o->nspans], v, err, errlen))
		return -EINVAL;
	o->nspans++;
	o->u_span = o->nspans;
	return 0;
}

/* The -u span a --by or --where follows, or NULL with a sentence. */
static struct span_spec *u_span(struct opts *o, const char *opt, char *err, size_t errlen)
{
	if (!o->u_span) {
		snprintf(err, errlen, "%s applies to the -u before it: give -u FILE:FUNC first (a "
				      "spans file says \"breakdown\" and \"filter\" instead)",
			 opt);
		return NULL;
	}
	return &o->spans[o->u_span - 1];
}

static int o_by(struct opts *o, const char *v, char *err, size_t errlen)
{
	struct span_spec *sp = u_span(o, "--by", err, errlen);

	return sp ? spans__parse_by(sp, v, true, "--by", err, errlen) : -EINVAL;
}

static int o_where(struct opts *o, const char *v, char *err, size_t errlen)
{
	struct span_spec *sp = u_span(o, "--where", err, errlen);

	return sp ? spans__parse_cond(sp, NULL, v, "--where", err, errlen) : -EINVAL;
}

static int o_spans(struct opts *o, const char *v, char *err, size_t errlen)
{
	o->u_span = 0;
	if (spans__parse_file(v, o->spans, LAT_SPAN_MAX, &o->nspans, err, errlen))
		return -EINVAL;
	return opts__activities_file(o, v, err, errlen);
}

static int o_activities(struct opts *o, const char *v, char *err, size_t errlen)
{
	return opts__activity(o, v, err, errlen);
}

static int o_span_timeout(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (opts__parse_secs(v, &o->span_timeout_ns) || o->span_timeout_ns < 100000000ull ||
	    o->span_timeout_ns > 86400000000000ull) {
		snprintf(err, errlen,
			 "bad timeout '%s' for --span-timeout: give seconds from 0.1 to 86400, "
			 "e.g. --span-timeout 60",
			 v);
		return -EINVAL;
	}
	return 0;
}

static int o_flow(struct opts *o, const char *v, char *err, size_t errlen)
{
	if (flow__parse(&o->flow, v, err, errlen))
		return -EINVAL;
	o->flow_spec = v;
	return 0;
}

static int o_fifo_slots(struct opts *o, const char *v, char *err, size_t errlen)
{
	long n;

	if (parse_count(v, &n) || n > LAT_VHOST_S0_SLOTS) {
		snprintf(err, errlen, "bad FIFO size '%s' for --fifo-slots: give 1..%d", v,
			 LAT_VHOST_S0_SLOTS);
		return -EINVAL;
	}
	o->fifo_slots = (uint32_t)n;
	return 0;
}

static int o_listen(struct opts *o, const char *v, char *err, size_t errlen)
{
	struct prom_addr a;

	if (prom__parse_listen(v, &a, err, errlen))
		return -EINVAL;
	o->listen = v;
	return 0;
}

static int o_events(struct opts *o, const char *v, char *err, size_t errlen)
{
	(void)v, (void)err, (void)errlen;
	o->events = true;
	o->batch = true;
	return 0;
}

/* -r and --compare each name one file: a second one is an error, not a silent replacement. */
static int once(const char **field, const char *v, const char *opt, char *err, size_t errlen)
{
	if (*field) {
		snprintf(err, errlen, "%s given twice ('%.100s' and '%.100s'): give it once", opt,
			 *field, v);
		return -EINVAL;
	}
	*field = v;
	return 0;
}

static int o_read(struct opts *o, const char *v, char *err, size_t errlen)
{
	return once(&o->replay, v, "-r", err, errlen);
}

static int o_compare(struct opts *o, const char *v, char *err, size_t errlen)
{
	return once(&o->compare, v, "--compare", err, errlen);
}

static int o_theme(struct opts *o, const char *v, char *err, size_t errlen)
{
	char path[4096];

	if (theme__find(v, path, sizeof(path))) {
		snprintf(err, errlen,
			 "no theme '%s': give a name from ./themes or %s, or a path to a .json file",
			 v, theme__dir());
		return -EINVAL;
	}
	o->theme = v;
	return 0;
}

static int o_help(struct opts *o, const char *v, char *err, size_t errlen)
{
	(void)o, (void)v, (void)err, (void)errlen;
	return OPTS_HELP;
}

static int o_version(struct opts *o, const char *v, char *err, size_t errlen)
{
	(void)o, (void)v, (void)err, (void)errlen;
	return OPTS_VERSION;
}

#define STR_(x) #x
#define STR(x) STR_(x)
#define FIELD(f) offsetof(struct opts, f)

/* The option table, in --help's order: getopt_long's options, the short-option string and
 * --help are all made from it. */
static const struct opt_def opt_table[] = {
	{ "mode", 'm', "MODE",
	  "view: programs (default), helpers (map helper latency\n"
	  "per watched program; needs fentry) or segments (the\n"
	  "spans of -u and --spans and the vhost chain of\n"
	  "--profile; the default when any of them is given)",
	  o_mode, 0 },
	{ "uprobe", 'u', "FILE:FUNC",
	  "time a user function from entry to return, per thread\n"
	  "(FILE a binary or library, or PID:FUNC; repeatable)",
	  o_uprobe, 0 },
	{ "by", 0, "KEY[:K]",
	  "break the -u span before it down by KEY: pid, comm,\n"
	  "cgroup, arg0..arg4 or ret; the first K values (1..32,\n"
	  "default 8) get rows of their own, the rest \"other\"",
	  o_by, 0 },
	{ "where", 0, "COND",
	  "only calls of the -u span before it where COND holds:\n"
	  "'argN OP NUMBER' or 'ret OP NUMBER', OP <, <=, >, >=,\n"
	  "== or != (signed; up to 4; dropped calls counted)",
	  o_where, 0 },
	{ "spans", 0, "FILE",
	  "spans defined in a JSON file: start/end probes\n"
	  "(uprobes, any tracepoint, tp_btf, fentry/fexit,\n"
	  "kprobes) and key; spans keyed by thread also show\n"
	  "on-CPU, run-queue and sleeping time (\"split\")",
	  o_spans, 0 },
	{ "span-timeout", 0, "SECS",
	  "drop a span's start whose end has not come in SECS\n"
	  "(0.1 to 86400, default 10; counted as evicted): -u\n"
	  "spans and file spans that set no \"timeout\"",
	  o_span_timeout, 0 },
	{ "activities", 0, "SRC[:ITEM,...]",
	  "EventHeader activities as spans: SRC a user_events\n"
	  "tracepoint (MyProvider_L4K1) or a whole provider\n"
	  "(MyProvider, its tracepoints present and future);\n"
	  "a row per activity and plain event name, children\n"
	  "under their parent; ITEMs: NAME (that one only),\n"
	  "by=FIELD, top=N, value=FIELD, if=FIELD<op>VALUE,\n"
	  "level=N, kw=MASK (a provider's); repeatable",
	  o_activities, 0 },
	{ "eventheader", 0, NULL,
	  "write each closed interval's figures as EventHeader\n"
	  "events of provider lattop (user_events tracepoint\n"
	  "lattop_L4K1), the session as one activity",
	  NULL, FIELD(eh_emit) },
	{ "profile", 0, "FILE",
	  "segments of the KVM -> vhost-net -> TUN transmit path\n"
	  "(S0 kick -> handle_tx_kick, S1 -> tun_sendmsg, S2 ->\n"
	  "netif_receive_skb, total) for the profile's flow",
	  NULL, FIELD(profile_path) },
	{ "discover", 0, NULL,
	  "find the vhost worker threads and kick eventfds that\n"
	  "carry --flow on --device for -D SECS (default 10) and\n"
	  "write them to --profile-out FILE",
	  NULL, FIELD(discover) },
	{ "device", 0, "DEV", "with --discover: the TAP/TUN device (e.g. vnet0)", NULL,
	  FIELD(device) },
	{ "flow", 0, "SPEC",
	  "with --discover: proto=udp|tcp,src=IP,dst=IP,sport=N,\n"
	  "dport=N (any subset; IPv4 or IPv6)",
	  o_flow, 0 },
	{ "profile-out", 0, "FILE",
	  "with --discover: where to write the profile (JSON;\n"
	  "a new file, mode 0600)",
	  NULL, FIELD(profile_out) },
	{ "details", 0, NULL,
	  "with --profile -b: one line per packet (time, tid,\n"
	  "queue, s0, s1, s2, total)",
	  NULL, FIELD(details) },
	{ "fifo-slots", 0, "N",
	  "debug: shrink the segment FIFOs to N slots (1.." STR(LAT_VHOST_S0_SLOTS) ")",
	  o_fifo_slots, 0 },
	{ "programs", 'p', "LIST",
	  "programs to watch (rows shown, per-invocation probes):\n"
	  "IDs or names, comma-separated (up to " STR(FILTER_MAX) "; a name may\n"
	  "match several programs), or selectors: comm:NAME,\n"
	  "dev:IFNAME, cgroup:PATH, container:ID, unit:NAME,\n"
	  "type:TYPE, attach:KIND (owner, device, cgroup, ...)",
	  opts__parse_filter, 0 },
	{ "budget", 0, "PCT",
	  "CPU the program probes may cost, in % of the machine\n"
	  "(all CPUs; measured run cost x runs): programs are\n"
	  "watched in turns when all would cost more; 0: bpf_stats\n"
	  "only; max: all (default " STR(OPTS_BUDGET_DEFAULT) ", max with -p or --demo)",
	  o_budget, 0 },
	{ "no-stats", 0, NULL,
	  "do not turn on bpf_stats (every BPF program on the\n"
	  "machine pays for it): figures only for the programs\n"
	  "with probes (-p, --demo) and segments; needs fentry\n"
	  "unless spans or --profile are given",
	  NULL, FIELD(no_stats) },
	{ "interval", 'd', "SECS", "refresh/report interval, decimals allowed (default 1)",
	  o_interval, 0 },
	{ "batch", 'b', NULL, "print one report per interval to stdout, no TUI", NULL,
	  FIELD(batch) },
	{ "iterations", 'n', "N", "stop after N intervals", o_iterations, 0 },
	{ "duration", 'D', "SECS", "stop after SECS seconds", o_duration, 0 },
	{ "output", 'o', "FMT", "batch format: text (default), csv, json (JSON Lines)", o_output,
	  0 },
	{ "cumulative", 'c', NULL, "batch figures since start instead of per interval", NULL,
	  FIELD(cumulative) },
	{ "hist", 0, NULL,
	  "batch: each row's log2 histogram too (text: lines under\n"
	  "the row; csv: a hist column; json: a hist array)",
	  NULL, FIELD(hist) },
	{ "per-cpu", 0, NULL,
	  "split every program by CPU: a row per program per\n"
	  "CPU under its own (batch: a cpu field; -w records\n"
	  "them; --listen: lattop_program_cpu_* series)",
	  NULL, FIELD(per_cpu) },
	{ "demo", 0, NULL, "load the bundled demo programs and drive them", NULL, FIELD(demo) },
	{ "no-color", 0, NULL, "no colours (also when NO_COLOR is set and non-empty)", NULL,
	  FIELD(no_color) },
	{ "write", 'w', "FILE",
	  "record the session to FILE, a new file (mode 0600;\n"
	  "never over a file or through a link); TUI or -b",
	  NULL, FIELD(record) },
	{ "raw", 0, NULL, "with -w: record every event too (48 bytes per event)", NULL,
	  FIELD(raw) },
	{ "read", 'r', "FILE",
	  "replay a recording (no root needed); with -b print per-\n"
	  "interval reports (-n N) or totals over the recording,\n"
	  "or a perf.data of EventHeader events (perf-collect)",
	  o_read, 0 },
	{ "compare", 0, "FILE",
	  "with -r A: compare recording A (before) with FILE (B,\n"
	  "after): per series both sides' count, rate, p50 .. max\n"
	  "and the change, significant or not; the TUI, or -b\n"
	  "(-o text, csv, json), or --html OUT",
	  o_compare, 0 },
	{ "events", 0, NULL,
	  "with -r: export a --raw recording event by event\n"
	  "(-o csv, or -o trace for Chrome/Perfetto trace JSON)",
	  o_events, 0 },
	{ "html", 0, "FILE",
	  "with -r: write a report of the recording to FILE, a\n"
	  "new file (one self-contained HTML page: metadata,\n"
	  "losses, per series percentiles over time, heatmap\n"
	  "and histogram; with --compare the comparison's)",
	  NULL, FIELD(html) },
	{ "theme", 0, "NAME|PATH",
	  "colours: default, light, mono, or a theme file\n"
	  "(t cycles)",
	  o_theme, 0 },
	{ "listen", 0, "[ADDR:]PORT",
	  "serve Prometheus metrics on http://ADDR:PORT/metrics\n"
	  "(ADDR 127.0.0.1 unless given); alone it runs headless\n"
	  "until a signal, -n or -D; with -b or --tui it serves\n"
	  "alongside them",
	  o_listen, 0 },
	{ "tui", 0, NULL, "with --listen: keep the TUI", NULL, FIELD(tui) },
	{ "flight", 0, "DURATION",
	  "flight recorder: keep the last DURATION (e.g. 15m)\n"
	  "of intervals in memory, as a recording holds them;\n"
	  "dump them on SIGUSR2, the D key, --trigger or\n"
	  "--flight-http's POST /dump",
	  opts__o_flight, 0 },
	{ "flight-max", 0, "SIZE",
	  "with --flight: hard cap on its memory (default 64M;\n"
	  "K, M, G binary): the oldest interval goes first",
	  opts__o_flight_max, 0 },
	{ "flight-dir", 0, "DIR",
	  "with --flight: where dumps go (default\n"
	  "$STATE_DIRECTORY, as the service sets it, else .)",
	  NULL, FIELD(flight_dir) },
	{ "flight-files", 0, "N",
	  "with --flight: keep the newest N dumps lattop wrote\n"
	  "(default " STR(OPTS_FLIGHT_FILES) "; 0 keeps all)",
	  opts__o_flight_files, 0 },
	{ "flight-http", 0, NULL,
	  "with --flight and --listen: POST /dump (?last=5m)\n"
	  "writes a dump (anyone who reaches the port can)",
	  NULL, FIELD(flight_http) },
	{ "trigger", 0, "EXPR",
	  "with --flight: dump when [SERIES:]METRIC>VALUE holds\n"
	  "at an interval close (e.g. demo_xdp_hash:p99>20us;\n"
	  "p50 p95 p99 p999 max avg rate count lost; alone:\n"
	  "drops lost ...; > >= < <=; repeatable)",
	  opts__o_trigger, 0 },
	{ "trigger-after", 0, "DURATION",
	  "keep recording DURATION after a trigger fires\n"
	  "before dumping (default 30s, at most half --flight)",
	  opts__o_trigger_after, 0 },
	{ "trigger-cooldown", 0, "DURATION",
	  "a trigger that fired stays quiet this long\n"
	  "(default 5m)",
	  opts__o_trigger_cooldown, 0 },
	{ "help", 'h', NULL, "show this help and exit", o_help, 0 },
	{ "version", 'V', NULL, "show the version and exit", o_version, 0 },
};
#define NOPTS (sizeof(opt_table) / sizeof(opt_table[0]))
/* getopt_long's value for an option without a short name: this plus its table index. */
#define OPT_LONG_BASE 256

/* The option table and its length. */
const struct opt_def *opts__table(size_t *n)
{
	*n = NOPTS;
	return opt_table;
}

/* The text before and after the option list of --help. */
static const char usage_head[] =
	"Usage: lattop [OPTION]...\n"
	"Live latency of eBPF programs: per-program run counts, rates and run time from\n"
	"bpf_stats, and per-invocation latency percentiles where the kernel can measure\n"
	"them.\n"
	"\n";
static const char usage_tail[] =
	"\n"
	"Keys: q/F10 quit, ?/F1 help, space/Z pause, c cumulative/interval, z reset,\n"
	"< >/F6 sort, r reverse, f edit the filter, + - add/remove the selected program,\n"
	"Up/Down (k/j)/PgUp/PgDn/Home/End select, Enter/H histogram pane,\n"
	"m histogram/heatmap in the pane, o a span's on-CPU/runnable/sleeping time,\n"
	"C split by CPU, K a span's breakdown groups (--by) hidden/shown,\n"
	"d interval, / n search,\n"
	"w W record on/off (W asks for the file name), D dump the flight recorder\n"
	"(--flight), t theme, p h s Tab modes. In a replay: space pause/resume,\n"
	"+/= - faster/slower, . , step, g/b jump to a time, Home End first/last\n"
	"interval, Z pause the display.\n"
	"In a comparison (-r A --compare B):\n"
	"Enter/H pane, m histograms/heatmaps, t theme, Up Down PgUp PgDn Home End, q.\n"
	"Exit status: 0 ok, 1 runtime error (a recording that could not be written\n"
	"included) or missing privileges, 2 bad usage (an existing output file too).\n"
	"See lattop(8).\n";

/* Where an option's --help text starts (the column after "  -x, --name ARG"). */
#define HELP_COL 25

/* Print one option's lines of --help: names and value, then its text from HELP_COL (on the
 * next line when the names reach it). */
static void usage_opt(FILE *f, const struct opt_def *d)
{
	char lead[64];
	const char *h = d->help;

	snprintf(lead, sizeof(lead), "  %c%c%s--%s%s%s", d->letter ? '-' : ' ',
		 d->letter ? d->letter : ' ', d->letter ? ", " : "  ", d->name, d->arg ? " " : "",
		 d->arg ? d->arg : "");
	if (strlen(lead) < HELP_COL)
		fprintf(f, "%-*s", HELP_COL, lead);
	else
		fprintf(f, "%s\n%*s", lead, HELP_COL, "");
	while (*h) {
		size_t n = strcspn(h, "\n");

		fprintf(f, "%.*s\n", (int)n, h);
		h += n;
		if (*h && *++h)
			fprintf(f, "%*s", HELP_COL, "");
	}
}

/* Print the usage text, the options from the option table. */
void opts__usage(void *fp)
{
	FILE *f = fp;

	fputs(usage_head, f);
	for (size_t i = 0; i < NOPTS; i++)
		usage_opt(f, &opt_table[i]);
	fputs(usage_tail, f);
}

/* Check --listen and --tui go with a live session; 0 or -EINVAL with err set. */
static int check_listen(const struct opts *o, char *err, size_t errlen)
{
	if (o->tui && !o->listen)
		snprintf(err, errlen, "--tui applies to --listen (the TUI is the default without it)");
	else if (o->tui && o->batch)
		snprintf(err, errlen, "--tui and -b exclude each other: give one of them with --listen");
	else if (o->listen && o->replay)
		snprintf(err, errlen, "--listen serves a live session: it does not apply to -r");
	else if (o->listen && o->discover)
		snprintf(err, errlen, "--listen does not apply to --discover: give it with --profile");
	else
		return 0;
	return -EINVAL;
}

/* Check the spans go together (names, --span-timeout, -r) and give each span that sets no
 * timeout the --span-timeout one; 0 or -EINVAL with err set. */
static int check_spans(struct opts *o, char *err, size_t errlen)
{
	if (spans__check_names(o->spans, o->nspans, err, errlen))
		return -EINVAL;
	if (o->span_timeout_ns && !o->nspans && !o->neh) {
		snprintf(err, errlen,
			 "--span-timeout applies to spans: give -u, --spans or --activities too");
		return -EINVAL;
	}
	/* After every span is read, so the option's place among -u and --spans is irrelevant. */
	for (int i = 0; o->span_timeout_ns && i < o->nspans; i++)
		if (!o->spans[i].timeout_given)
			o->spans[i].timeout_ns = o->span_timeout_ns;
	if ((o->nspans || o->neh) && o->replay) {
		snprintf(err, errlen,
			 "-u, --spans and --activities trace a live system: they do not apply to -r");
		return -EINVAL;
	}
	return 0;
}

/* Check the parsed options go together and settle the mode; 0 or -EINVAL with err set. */
static int check_all(struct opts *o, char *err, size_t errlen)
{
	if (opts__check_record(o, err, errlen) || check_spans(o, err, errlen) ||
	    opts__check_segments(o, err, errlen))
		return -EINVAL;
	if (o->mode == MODE_SEGMENTS && !o->nspans && !o->neh && !o->profile_path && !o->replay) {
		snprintf(err, errlen,
			 "segments mode needs spans or a profile: give -u, --spans or --profile");
		return -EINVAL;
	}
	if ((o->nspans || o->neh || o->profile_path) && !o->mode_set)
		o->mode = MODE_SEGMENTS;
	if (check_listen(o, err, errlen) || opts__check_flight(o, err, errlen))
		return -EINVAL;
	if (o->per_cpu && (o->mode != MODE_PROGRAMS || o->compare)) {
		snprintf(err, errlen, "--per-cpu splits the programs table: not with %s",
			 o->compare ? "--compare" : "helpers or segments mode");
		return -EINVAL;
	}
	if ((o->out != OUT_TEXT || o->cumulative || o->hist) && !o->batch) {
		snprintf(err, errlen, "-o, -c and --hist apply to batch output: add -b");
		return -EINVAL;
	}
	return 0;
}

/* getopt_long's long options and short-option string ("-:" first: a missing value is ':'),
 * from the option table. */
static void getopt_tables(struct option *lo, char *shortopts)
{
	char *s = shortopts;

	*s++ = ':';
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *d = &opt_table[i];

		lo[i] = (struct option){ d->name, d->arg ? required_argument : no_argument, NULL,
					 d->letter ? d->letter : OPT_LONG_BASE + (int)i };
		if (d->letter) {
			*s++ = d->letter;
			if (d->arg)
				*s++ = ':';
		}
	}
	lo[NOPTS] = (struct option){ 0 };
	*s = '\0';
}

/* The table entry of getopt_long's value c, NULL for none. */
static const struct opt_def *opt_of(int c)
{
	if (c >= OPT_LONG_BASE && c < OPT_LONG_BASE + (int)NOPTS)
		return &opt_table[c - OPT_LONG_BASE];
	for (size_t i = 0; i < NOPTS; i++)
		if (opt_table[i].letter && opt_table[i].letter == c)
			return &opt_table[i];
	return NULL;
}

/* Apply option d with value v (NULL for none) to o: its parser, or else its field (a bool set
 * true, or the value). */
static int opt_apply(struct opts *o, const struct opt_def *d, const char *v, char *err,
		     size_t errlen)
{
	char *field = (char *)o + d->field;

	if (d->parse)
		return d->parse(o, v, err, errlen);
	if (d->arg)
		memcpy(field, &v, sizeof(v));
	else
		*(bool *)field = true;
	return 0;
}

/* The error of a getopt_long result that is no option (c is ':' or '?'). */
static void opt_error(int c, int argc, char **argv, char *err, size_t errlen)
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "";

	if (c == ':')
		snprintf(err, errlen, "option '%s' needs a value; see lattop --help", arg);
	else if (optopt > 0 && optopt < OPT_LONG_BASE)
		snprintf(err, errlen, "unknown option '-%c'; see lattop --help", optopt);
	else
		snprintf(err, errlen, "unknown option '%s'; see lattop --help", arg);
}

/* Parse argv into o. */
int opts__parse(struct opts *o, int argc, char **argv, char *err, size_t errlen)
{
	struct option lo[NOPTS + 1];
	char shortopts[2 * NOPTS + 2];
	const char *nc = getenv("NO_COLOR");
	int c;

	memset(o, 0, sizeof(*o));
	o->interval_ns = 1000000000ull;
	o->flight_files = OPTS_FLIGHT_FILES;
	o->no_color = nc && *nc;
	err[0] = '\0';
	getopt_tables(lo, shortopts);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		const struct opt_def *d = opt_of(c);
		int r;

		if (!d) {
			opt_error(c, argc, argv, err, errlen);
			return -EINVAL;
		}
		r = opt_apply(o, d, optarg, err, errlen);
		if (r)
			return r < 0 ? -EINVAL : r;
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'; see lattop --help", argv[optind]);
		return -EINVAL;
	}
	return check_all(o, err, errlen) ? -EINVAL : OPTS_RUN;
}
