/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * opts.h - command-line options: parsing and validation, no side effects.
 */
#ifndef LAT_OPTS_H
#define LAT_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/ehtrace.h"
#include "collect/flow.h"
#include "collect/profile.h"
#include "collect/spans.h"
#include "model/model.h"
#include "model/trigger.h"

enum out_fmt {
	OUT_TEXT = 0,
	OUT_CSV,
	OUT_JSON,
	OUT_TRACE, /* --events -o trace: Chrome/Perfetto trace JSON */
};

/* Most entries a -p list may hold (the ETW design capped at 64; lattop supports 4x that). */
#define FILTER_MAX 256
#define EH_SPEC_MAX 16 /* --activities arguments */

/* A -p selector: KEY:VALUE picks programs by who holds them or where they are attached. */
enum filter_sel {
	FSEL_NONE = 0,  /* an ID or a name */
	FSEL_COMM,      /* comm:NAME, an owner process's comm */
	FSEL_DEV,       /* dev:IFNAME, attached to a network device (XDP, tc, tcx, netkit) */
	FSEL_CGROUP,    /* cgroup:PATH, owner in PATH or under it, or attached to it or under it */
	FSEL_CONTAINER, /* container:ID, the owner's container (its id or its leading digits) */
	FSEL_UNIT,      /* unit:NAME, the owner's systemd unit */
	FSEL_TYPE,      /* type:TYPE, the program type as the TYPE column names it */
	FSEL_ATTACH,    /* attach:KIND, an attach point of that kind (xdp, tc, cgroup, ...) */
};

/* One -p entry: a program ID, a program name or a selector (the whole "KEY:VALUE" in name,
 * the value after its colon). */
struct filter_ent {
	uint32_t id;    /* 0 when a name or a selector */
	char name[64];  /* "" when an ID */
	uint8_t sel;    /* enum filter_sel */
};
/* The value of a selector entry (after "KEY:"). */
const char *opts__sel_value(const struct filter_ent *f);

/* Room for the longest -p list as text: FILTER_MAX entries of the longest name (63 chars, or
 * 10 digits) each followed by a comma (the last by the NUL). */
#define FILTER_STR_MAX (FILTER_MAX * 64)
_Static_assert(sizeof(((struct filter_ent *)0)->name) == 64, "FILTER_STR_MAX assumes name[64]");

struct opts {
	enum lat_mode mode;
	struct filter_ent filter[FILTER_MAX];
	int nfilter;
	uint64_t interval_ns; /* -d, default 1 s */
	bool batch;           /* -b */
	long iterations;      /* -n, 0 = unlimited */
	uint64_t duration_ns; /* -D, 0 = unlimited */
	enum out_fmt out;     /* -o */
	bool cumulative;      /* -c: batch figures since start instead of per interval */
	bool per_cpu;         /* --per-cpu: every program split by CPU (rows, recording, metrics) */
	bool demo;            /* --demo */
	bool no_color;        /* --no-color or NO_COLOR */
	const char *theme;    /* --theme */
	const char *record;   /* -w FILE */
	const char *replay;   /* -r FILE */
	const char *compare;  /* --compare FILE: -r's recording (A) against this one (B) */
	bool raw;             /* --raw: record every event too */
	bool events;          /* --events: export a --raw recording event by event */
	const char *html;     /* --html FILE: write a recording's HTML report to a new file */
	bool mode_set;        /* -m given (spans imply segments mode otherwise) */
	struct span_spec spans[LAT_SPAN_MAX]; /* -u and --spans, in the order given */
	int nspans;
	int u_span; /* 1 + the span of the last option, when it was -u (--by, --where); 0 */
	uint64_t span_timeout_ns; /* --span-timeout, for spans that set none (0: not given) */
	struct ehtrace_spec eh[EH_SPEC_MAX]; /* --activities: EventHeader activities */
	int neh;
	bool eh_emit; /* --eventheader: lattop's figures as EventHeader events */
	/* Segments of the vhost-net transmit path (segsession.c). */
	bool discover;           /* --discover: find the flow's workers, write --profile-out */
	const char *device;      /* --device DEV (discover) */
	uint32_t ifindex;        /* of --device, or of the profile's device */
	const char *flow_spec;   /* --flow SPEC (discover) */
	struct lat_flow flow;
	const char *profile_out; /* --profile-out FILE */
	const char *profile_path; /* --profile FILE (measure) */
	struct profile profile;   /* loaded from profile_path */
	bool details;            /* --details: one line per packet (batch) */
	bool hist;               /* --hist: each row's log2 histogram in batch output */
	uint32_t fifo_slots;     /* --fifo-slots N (debug), 0 = the design's sizes */
	const char *listen;      /* --listen [ADDR:]PORT: serve /metrics (checked by opts__parse) */
	bool tui;                /* --tui: with --listen, keep the TUI (headless otherwise) */
	bool no_stats;           /* --no-stats: no bpf_stats fd; figures from the probes alone */
	bool budget_set;         /* --budget given */
	double budget_pct;       /* --budget: % of the machine's CPU the probes may take, or
				  * OPTS_BUDGET_MAX (opts__budget: the value in force) */
	/* The flight recorder (opts_flight.c). */
	uint64_t flight_ns;      /* --flight DURATION, 0 = off */
	uint64_t flight_max;     /* --flight-max SIZE (0: not given; OPTS_FLIGHT_MAX then) */
	const char *flight_dir;  /* --flight-dir DIR (NULL: $STATE_DIRECTORY's first, else .) */
	long flight_files;       /* --flight-files N (OPTS_FLIGHT_FILES unless given; 0 keeps all) */
	bool flight_http;        /* --flight-http: POST /dump on --listen */
	struct trigger triggers[TRIGGER_MAX]; /* --trigger, in the order given */
	int ntriggers;
	uint64_t trigger_after_ns;    /* --trigger-after (0: not given; the default then) */
	uint64_t trigger_cooldown_ns; /* --trigger-cooldown (0: not given; the default then) */
};

/* The flight recorder's defaults: the byte cap, the dump files kept, the recording kept after
 * a trigger fires (at most half of --flight) and the cooldown after it. */
#define OPTS_FLIGHT_MAX (64ull << 20)
#define OPTS_FLIGHT_MIN (64ull << 10)
#define OPTS_FLIGHT_FILES 20
#define OPTS_TRIGGER_AFTER_NS (30ull * 1000000000ull)
#define OPTS_TRIGGER_COOLDOWN_NS (300ull * 1000000000ull)

/* What opts__parse asks the caller to do. */
enum opts_action {
	OPTS_RUN = 0,
	OPTS_HELP,
	OPTS_VERSION,
};

/* One command-line option. The table of them (opts.c) drives getopt_long, the short-option string
 * and --help, and the tests check it against the man page. */
struct opt_def {
	const char *name; /* long name, without "--" */
	char letter;      /* short name, 0 for none */
	const char *arg;  /* the value's name in --help, NULL for an option without a value */
	const char *help; /* --help text; each '\n' starts a line under the first */
	/* Parse value v into o: 0, -EINVAL with one sentence in err, or an opts_action > 0 that
	 * ends parsing (--help). NULL: set the field at offset .field of struct opts instead, a
	 * bool (to true) for an option without a value, else a const char * (to v). */
	int (*parse)(struct opts *o, const char *v, char *err, size_t errlen);
	size_t field;
};

/* The option table, in --help's order; *n gets its length. */
const struct opt_def *opts__table(size_t *n);
/* Parse argv into o. Returns an opts_action (>= 0) or -EINVAL with one sentence in err. */
int opts__parse(struct opts *o, int argc, char **argv, char *err, size_t errlen);
/* Parse a -p list ("12,57,xdp_fw") into o->filter. Returns 0 or -EINVAL with err set. */
int opts__parse_filter(struct opts *o, const char *list, char *err, size_t errlen);
/* Format o's filter as a -p list into buf. Returns 0, or -ENOSPC (buf then holds the whole
 * entries that fit) when len < FILTER_STR_MAX and the list is longer. */
int opts__filter_str(const struct opts *o, char *buf, size_t len);
/* Parse a duration in seconds ("1", "0.25"); returns 0 or -EINVAL. */
int opts__parse_secs(const char *s, uint64_t *ns);
/* Name of a mode ("programs", ...). */
const char *opts__mode_name(enum lat_mode m);
/* Check the recording/replay options (-w, -r, --raw, --events, -o trace, --no-stats) go
 * together; 0 or -EINVAL with one sentence in err (opts_rec.c). */
int opts__check_record(struct opts *o, char *err, size_t errlen);
/* Check the vhost segment options (--discover, --device, --flow, --profile, --details,
 * --fifo-slots) go together, resolve the device and load the profile; 0 or -EINVAL with one
 * sentence in err (opts_seg.c). */
int opts__check_segments(struct opts *o, char *err, size_t errlen);
/* The flight recorder's options (opts_flight.c): parsers for the option table and the check
 * that they go together (defaults filled in); 0 or -EINVAL with one sentence in err. */
int opts__o_flight(struct opts *o, const char *v, char *err, size_t errlen);
int opts__o_flight_max(struct opts *o, const char *v, char *err, size_t errlen);
int opts__o_flight_files(struct opts *o, const char *v, char *err, size_t errlen);
int opts__o_trigger(struct opts *o, const char *v, char *err, size_t errlen);
int opts__o_trigger_after(struct opts *o, const char *v, char *err, size_t errlen);
int opts__o_trigger_cooldown(struct opts *o, const char *v, char *err, size_t errlen);
int opts__check_flight(struct opts *o, char *err, size_t errlen);
/* Parse a duration: a number with s, m or h ("15m", "30s", "1.5h"), ms, or plain seconds;
 * 0 or -EINVAL. */
int opts__parse_duration(const char *v, uint64_t *ns);
/* Parse one --activities argument (opts_eh.c); 0 or -EINVAL with one sentence. */
int opts__activity(struct opts *o, const char *v, char *err, size_t errlen);
/* The "activities" of spans file path (opts_eh.c; an unreadable file or bad JSON is left to
 * the spans' parser to name). Returns 0 or -EINVAL with one sentence. */
int opts__activities_file(struct opts *o, const char *path, char *err, size_t errlen);
/* Print the usage text to f. */
void opts__usage(void *f);

/* --budget max. */
#define OPTS_BUDGET_MAX (-1.0)
/* The probes' CPU budget without --budget: a share of the machine with no -p; what -p names
 * (or --demo's programs) is watched whatever it costs, as before the budget existed. */
#define OPTS_BUDGET_DEFAULT 1.0
/* The budget in force: --budget, else OPTS_BUDGET_MAX with -p or --demo, else
 * OPTS_BUDGET_DEFAULT. */
double opts__budget(const struct opts *o);
/* Parse a --budget value: a percentage in [0, 100] ("1", "0.5", "2%") or "max". */
int opts__parse_budget(const char *v, double *out);

#endif /* LAT_OPTS_H */
