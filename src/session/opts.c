// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * opts.c - command-line parsing. Every error is one sentence naming the input and the fix.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/opts.h"
#include "base/listen.h"
#include "base/themefind.h"

/* Name of a mode. */
const char *opts__mode_name(enum lat_mode m)
{
	return model__mode_name(m);
}

/* Print the usage text. */
void opts__usage(void *fp)
{
	FILE *f = fp;

	fprintf(f,
		"Usage: lattop [OPTION]...\n"
		"Live latency of eBPF programs: per-program run counts, rates and run time from\n"
		"bpf_stats, and per-invocation latency percentiles where the kernel can measure\n"
		"them.\n"
		"\n"
		"  -m, --mode MODE        view: programs (default), helpers (map helper latency\n"
		"                         per watched program; needs fentry) or segments (the\n"
		"                         spans of -u and --spans and the vhost chain of\n"
		"                         --profile; the default when any of them is given)\n"
		"  -u, --uprobe FILE:FUNC time a user function from entry to return, per thread\n"
		"                         (FILE a binary or library, or PID:FUNC; repeatable)\n"
		"      --spans FILE       spans defined in a JSON file: start/end probes\n"
		"                         (uprobes, any tracepoint, tp_btf, fentry/fexit,\n"
		"                         kprobes) and key\n"
		"      --span-timeout SECS\n"
		"                         drop a span's start whose end has not come in SECS\n"
		"                         (0.1 to 86400, default 10; counted as evicted): -u\n"
		"                         spans and file spans that set no \"timeout\"\n"
		"      --profile FILE     segments of the KVM -> vhost-net -> TUN transmit path\n"
		"                         (S0 kick -> handle_tx_kick, S1 -> tun_sendmsg, S2 ->\n"
		"                         netif_receive_skb, total) for the profile's flow\n"
		"      --discover         find the vhost worker threads and kick eventfds that\n"
		"                         carry --flow on --device for -D SECS (default 10) and\n"
		"                         write them to --profile-out FILE\n"
		"      --device DEV       with --discover: the TAP/TUN device (e.g. vnet0)\n"
		"      --flow SPEC        with --discover: proto=udp|tcp,src=IP,dst=IP,sport=N,\n"
		"                         dport=N (any subset; IPv4 or IPv6)\n"
		"      --profile-out FILE with --discover: where to write the profile (JSON;\n"
		"                         a new file, mode 0600)\n"
		"      --details          with --profile -b: one line per packet (time, tid,\n"
		"                         queue, s0, s1, s2, total)\n"
		"      --fifo-slots N     debug: shrink the segment FIFOs to N slots (1..1024)\n"
		"  -p, --programs LIST    programs to watch (rows shown, per-invocation probes):\n"
		"                         IDs or names, comma-separated (up to %d; a name may\n"
		"                         match several programs)\n"
		"  -d, --interval SECS    refresh/report interval, decimals allowed (default 1)\n"
		"  -b, --batch            print one report per interval to stdout, no TUI\n"
		"  -n, --iterations N     stop after N intervals\n"
		"  -D, --duration SECS    stop after SECS seconds\n"
		"  -o, --output FMT       batch format: text (default), csv, json (JSON Lines)\n"
		"  -c, --cumulative       batch figures since start instead of per interval\n"
		"      --hist             batch: each row's log2 histogram too (text: lines under\n"
		"                         the row; csv: a hist column; json: a hist array)\n"
		"      --demo             load the bundled demo programs and drive them\n"
		"      --no-color         no colours (also when NO_COLOR is set and non-empty)\n"
		"  -w, --write FILE       record the session to FILE, a new file (mode 0600;\n"
		"                         never over a file or through a link); TUI or -b\n"
		"      --raw              with -w: record every event too (48 bytes per event)\n"
		"  -r, --read FILE        replay a recording (no root needed); with -b print per-\n"
		"                         interval reports (-n N) or totals over the recording\n"
		"      --events           with -r: export a --raw recording event by event\n"
		"                         (-o csv, or -o trace for Chrome/Perfetto trace JSON)\n"
		"      --theme NAME|PATH  colours: default, light, mono, or a theme file\n"
		"                         (t cycles)\n"
		"      --listen [ADDR:]PORT\n"
		"                         serve Prometheus metrics on http://ADDR:PORT/metrics\n"
		"                         (ADDR 127.0.0.1 unless given); alone it runs headless\n"
		"                         until a signal, -n or -D; with -b or --tui it serves\n"
		"                         alongside them\n"
		"      --tui              with --listen: keep the TUI\n"
		"  -h, --help             show this help and exit\n"
		"  -V, --version          show the version and exit\n"
		"\n"
		"Keys: q/F10 quit, ?/F1 help, space/Z pause, c cumulative/interval, z reset,\n"
		"< >/F6 sort, r reverse, f edit the filter, + - add/remove the selected program,\n"
		"Up/Down (k/j)/PgUp/PgDn/Home/End select, Enter/H histogram pane, d interval,\n"
		"/ n search,"
		" w W record on/off (W asks for the file name), t theme,\n"
		"p h s Tab modes.\n"
		"Exit status: 0 ok, 1 runtime error (a recording that could not be written\n"
		"included) or missing privileges, 2 bad usage (an existing output file too).\n"
		"See lattop(8).\n",
		FILTER_MAX);
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

		for (size_t i = 0; i < len; i++) {
			if (!isdigit((unsigned char)tok[i]))
				digits = false;
			if (!name_char((unsigned char)tok[i]))
				valid = false;
		}
		if (!valid || len >= sizeof(f->name)) {
			snprintf(err, errlen,
				 "bad entry '%.*s' in -p: use program IDs or names (letters, digits, "
				 "'_' and '.') separated by commas",
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

/* Parse argv into o. */
int opts__parse(struct opts *o, int argc, char **argv, char *err, size_t errlen)
{
	enum { OPT_DEMO = 256, OPT_NO_COLOR, OPT_THEME, OPT_RAW, OPT_EVENTS, OPT_SPANS,
	       OPT_DISCOVER, OPT_DEVICE, OPT_FLOW, OPT_PROFILE_OUT, OPT_PROFILE, OPT_DETAILS,
	       OPT_FIFO_SLOTS, OPT_HIST, OPT_SPAN_TIMEOUT, OPT_LISTEN, OPT_TUI };
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "programs", required_argument, NULL, 'p' },
		{ "interval", required_argument, NULL, 'd' },
		{ "batch", no_argument, NULL, 'b' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'D' },
		{ "output", required_argument, NULL, 'o' },
		{ "cumulative", no_argument, NULL, 'c' },
		{ "demo", no_argument, NULL, OPT_DEMO },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "theme", required_argument, NULL, OPT_THEME },
		{ "write", required_argument, NULL, 'w' },
		{ "read", required_argument, NULL, 'r' },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "events", no_argument, NULL, OPT_EVENTS },
		{ "uprobe", required_argument, NULL, 'u' },
		{ "spans", required_argument, NULL, OPT_SPANS },
		{ "span-timeout", required_argument, NULL, OPT_SPAN_TIMEOUT },
		{ "discover", no_argument, NULL, OPT_DISCOVER },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ "flow", required_argument, NULL, OPT_FLOW },
		{ "profile-out", required_argument, NULL, OPT_PROFILE_OUT },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "details", no_argument, NULL, OPT_DETAILS },
		{ "fifo-slots", required_argument, NULL, OPT_FIFO_SLOTS },
		{ "hist", no_argument, NULL, OPT_HIST },
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "tui", no_argument, NULL, OPT_TUI },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *nc = getenv("NO_COLOR");
	int c, err_ret = -EINVAL;

	memset(o, 0, sizeof(*o));
	o->interval_ns = 1000000000ull;
	o->no_color = nc && *nc;
	err[0] = '\0';
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:p:d:bn:D:o:chVw:r:u:", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			o->mode_set = true;
			if (!strcmp(optarg, "programs")) {
				o->mode = MODE_PROGRAMS;
			} else if (!strcmp(optarg, "helpers")) {
				o->mode = MODE_HELPERS;
			} else if (!strcmp(optarg, "segments")) {
				o->mode = MODE_SEGMENTS;
			} else {
				snprintf(err, errlen,
					 "unknown mode '%s': use programs, helpers or segments", optarg);
				return err_ret;
			}
			break;
		case 'p':
			if (opts__parse_filter(o, optarg, err, errlen))
				return err_ret;
			break;
		case 'd':
			if (opts__parse_secs(optarg, &o->interval_ns) ||
			    o->interval_ns < 10000000ull) {
				snprintf(err, errlen,
					 "bad interval '%s' for -d: give seconds >= 0.01, e.g. -d 0.5",
					 optarg);
				return err_ret;
			}
			break;
		case 'b':
			o->batch = true;
			break;
		case 'n':
			if (parse_count(optarg, &o->iterations)) {
				snprintf(err, errlen,
					 "bad count '%s' for -n: give a whole number of intervals >= 1",
					 optarg);
				return err_ret;
			}
			break;
		case 'D':
			if (opts__parse_secs(optarg, &o->duration_ns)) {
				snprintf(err, errlen,
					 "bad duration '%s' for -D: give seconds > 0, e.g. -D 10", optarg);
				return err_ret;
			}
			break;
		case 'o':
			if (!strcmp(optarg, "text"))
				o->out = OUT_TEXT;
			else if (!strcmp(optarg, "csv"))
				o->out = OUT_CSV;
			else if (!strcmp(optarg, "json"))
				o->out = OUT_JSON;
			else if (!strcmp(optarg, "trace"))
				o->out = OUT_TRACE;
			else {
				snprintf(err, errlen,
					 "unknown output format '%s' for -o: use text, csv or json",
					 optarg);
				return err_ret;
			}
			break;
		case 'c':
			o->cumulative = true;
			break;
		case OPT_DEMO:
			o->demo = true;
			break;
		case OPT_NO_COLOR:
			o->no_color = true;
			break;
		case 'w':
			o->record = optarg;
			break;
		case 'r':
			o->replay = optarg;
			break;
		case OPT_RAW:
			o->raw = true;
			break;
		case 'u':
			if (o->nspans == LAT_SPAN_MAX) {
				snprintf(err, errlen, "too many spans: at most %d in all", LAT_SPAN_MAX);
				return err_ret;
			}
			if (spans__parse_func(&o->spans[o->nspans], optarg, err, errlen))
				return err_ret;
			o->nspans++;
			break;
		case OPT_SPANS:
			if (spans__parse_file(optarg, o->spans, LAT_SPAN_MAX, &o->nspans, err,
					      errlen))
				return err_ret;
			break;
		case OPT_SPAN_TIMEOUT:
			if (opts__parse_secs(optarg, &o->span_timeout_ns) ||
			    o->span_timeout_ns < 100000000ull || o->span_timeout_ns > 86400000000000ull) {
				snprintf(err, errlen,
					 "bad timeout '%s' for --span-timeout: give seconds from 0.1 "
					 "to 86400, e.g. --span-timeout 60",
					 optarg);
				return err_ret;
			}
			break;
		case OPT_DISCOVER:
			o->discover = true;
			break;
		case OPT_DEVICE:
			o->device = optarg;
			break;
		case OPT_FLOW:
			if (flow__parse(&o->flow, optarg, err, errlen))
				return err_ret;
			o->flow_spec = optarg;
			break;
		case OPT_PROFILE_OUT:
			o->profile_out = optarg;
			break;
		case OPT_PROFILE:
			o->profile_path = optarg;
			break;
		case OPT_DETAILS:
			o->details = true;
			break;
		case OPT_HIST:
			o->hist = true;
			break;
		case OPT_LISTEN: {
			struct prom_addr a;

			if (prom__parse_listen(optarg, &a, err, errlen))
				return err_ret;
			o->listen = optarg;
			break;
		}
		case OPT_TUI:
			o->tui = true;
			break;
		case OPT_FIFO_SLOTS: {
			long v;

			if (parse_count(optarg, &v) || v > LAT_VHOST_S0_SLOTS) {
				snprintf(err, errlen,
					 "bad FIFO size '%s' for --fifo-slots: give 1..%d", optarg,
					 LAT_VHOST_S0_SLOTS);
				return err_ret;
			}
			o->fifo_slots = (uint32_t)v;
			break;
		}
		case OPT_EVENTS:
			o->events = true;
			o->batch = true;
			break;
		case OPT_THEME: {
			char path[4096];

			if (theme__find(optarg, path, sizeof(path))) {
				snprintf(err, errlen,
					 "no theme '%s': give a name from ./themes or %s, or a path "
					 "to a .json file",
					 optarg, theme__dir());
				return err_ret;
			}
			o->theme = optarg;
			break;
		}
		case 'h':
			return OPTS_HELP;
		case 'V':
			return OPTS_VERSION;
		case ':':
			snprintf(err, errlen, "option '%s' needs a value; see lattop --help",
				 argv[optind - 1]);
			return err_ret;
		default:
			if (optopt)
				snprintf(err, errlen, "unknown option '-%c'; see lattop --help",
					 optopt);
			else
				snprintf(err, errlen, "unknown option '%s'; see lattop --help",
					 argv[optind - 1]);
			return err_ret;
		}
	}
	if (optind < argc) {
		snprintf(err, errlen, "unexpected argument '%s'; see lattop --help", argv[optind]);
		return err_ret;
	}
	if (opts__check_record(o, err, errlen))
		return err_ret;
	if (spans__check_names(o->spans, o->nspans, err, errlen))
		return err_ret;
	if (o->span_timeout_ns && !o->nspans) {
		snprintf(err, errlen, "--span-timeout applies to spans: give -u or --spans too");
		return err_ret;
	}
	/* After every span is read, so the option's place among -u and --spans is irrelevant. */
	for (int i = 0; o->span_timeout_ns && i < o->nspans; i++)
		if (!o->spans[i].timeout_given)
			o->spans[i].timeout_ns = o->span_timeout_ns;
	if (o->nspans && o->replay) {
		snprintf(err, errlen, "-u and --spans trace a live system: they do not apply to -r");
		return err_ret;
	}
	if (opts__check_segments(o, err, errlen))
		return err_ret;
	if (o->mode == MODE_SEGMENTS && !o->nspans && !o->profile_path && !o->replay) {
		snprintf(err, errlen,
			 "segments mode needs spans or a profile: give -u, --spans or --profile");
		return err_ret;
	}
	if ((o->nspans || o->profile_path) && !o->mode_set)
		o->mode = MODE_SEGMENTS;
	if (check_listen(o, err, errlen))
		return err_ret;
	if ((o->out != OUT_TEXT || o->cumulative || o->hist) && !o->batch) {
		snprintf(err, errlen, "-o, -c and --hist apply to batch output: add -b");
		return err_ret;
	}
	return OPTS_RUN;
}
