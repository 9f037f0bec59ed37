/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * compare.h - A/B comparison of two recordings (lattop -r A --compare B): series matched by
 * what survives a reload, each side's figures over its whole recording, the change in percent
 * and whether it is significant. No front end and no file here: a caller feeds each side's
 * model interval by interval (cmp_side__add_interval), then compare__run pairs the sides; the
 * text/CSV/JSON writers, the TUI and the HTML report render the rows it leaves.
 *
 * Matching: a program by name and type (IDs change between loads), a helper by its name, its
 * program's name and its map's name, a segment or span by name. Two series of one side with
 * the same key (a program loaded twice) count as one: counts add up, histograms merge.
 *
 * Significance: a change counts only when it exceeds both
 *   - the bucket error: each side's percentile is within 2^-HIST_SUB_BITS (0.78%) of the
 *     truth, so their ratio within (1 + e) / (1 - e), +-1.57% (rate and max are exact: 0);
 *   - the sampling noise: a bootstrap over intervals. Each side's intervals (grouped into at
 *     most CMP_MAX_BLOCKS consecutive blocks on long recordings) are drawn with replacement
 *     CMP_RESAMPLES times, the figure recomputed from the drawn intervals' histograms and
 *     counts, and the change of each A draw against its B draw taken; the noise is
 *     CMP_NOISE_Z standard deviations of those changes (3: a figure of two recordings of
 *     one behaviour crosses it about 1 time in 100; at 2, 5 in 100, and with five figures a
 *     series a fifth of the time). The draws come from a fixed seed (CMP_SEED), so the same
 *     two files always give the same output.
 * The max is one run: its change and noise are shown but never significant (a bootstrap of
 * an extreme is unreliable: on two recordings of one behaviour it flagged 5 to 8 maxes in 100
 * at 3 standard deviations).
 *
 * Thread use: one thread at a time (the UI/main thread).
 */
#ifndef LAT_COMPARE_H
#define LAT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/hist.h"
#include "model/model.h"

#define CMP_MAX_BLOCKS 256  /* bootstrap units per side: consecutive intervals merge beyond */
#define CMP_RESAMPLES 200   /* bootstrap draws per side */
#define CMP_SEED 0x6c6174746f70ull /* "lattop": the draws are the same on every run */
#define CMP_NOISE_Z 3.0     /* the noise: this many standard deviations of the draws' changes */

/* The figures compared, in the order reports show them. */
enum cmp_stat { CMP_RATE, CMP_P50, CMP_P95, CMP_P99, CMP_P999, CMP_MAX, CMP__NSTAT };

/* A series' verdict. */
enum cmp_status {
	CMP_UNCHANGED, /* no significant change */
	CMP_SLOWER,    /* a latency figure rose significantly, none fell */
	CMP_FASTER,    /* a latency figure fell significantly, none rose */
	CMP_CHANGED,   /* latency figures moved both ways, or only the rate changed */
	CMP_ONLY_A,    /* recorded in A only */
	CMP_ONLY_B,    /* recorded in B only */
	CMP__NSTATUS,
};

/* What identifies a series across recordings. */
struct cmp_key {
	uint16_t kind;  /* enum lat_kind */
	char name[64];  /* program, helper or segment name */
	char type[32];  /* a program's type ("" for others) */
	char prog[64];  /* a helper's program name ("" for others) */
	char sub[32];   /* a helper's map name ("" for others) */
	/* A program's first attach point ("" when not recorded: before format 1.5, or none), so
	 * that two programs of one name attached in two places stay two rows across reloads. */
	char attach[144];
};

/* One bootstrap unit of a series: a block of consecutive intervals with runs. */
struct cmp_block {
	uint32_t blk;       /* block number */
	uint32_t off, n;    /* its buckets: pairs off .. off + n - 1 of the series */
	uint64_t count;     /* runs */
	uint64_t min, max;  /* exact, when the block has a histogram */
};

/* One series of one side, over the whole recording. */
struct cmp_series {
	struct cmp_key key;
	bool has_dist;         /* a histogram was recorded (per-invocation figures) */
	bool has_count;        /* an interval had a count (from bpf_stats or probes; none: a
				* --no-stats recording's program without probes) */
	uint64_t count;        /* runs */
	struct hist h;         /* the whole recording's histogram (empty without has_dist) */
	struct cmp_block *b;   /* blocks with runs, ascending */
	size_t nb, bcap;
	uint32_t *bidx;        /* bucket pairs of the blocks: index, count */
	uint64_t *bcnt;
	size_t np, pcap;
	struct hist open;      /* the block being filled (blk open_blk) */
	uint64_t open_count;
	uint32_t open_blk;
	bool open_used;
};

/* One recording's side: its series and its blocks' durations. */
struct cmp_side {
	size_t nivals;        /* intervals the recording holds (sizes the blocks) */
	size_t per_block;     /* intervals per block */
	size_t nblocks;
	uint64_t *block_ns;   /* each block's duration */
	uint64_t dur_ns;      /* all intervals' */
	size_t added;         /* intervals added so far */
	struct cmp_series *s;
	size_t n, cap;
	uint32_t *map;        /* model position -> series + 1 (0: not looked up yet) */
	size_t nmap;
};

/* Create a side for a recording of nivals intervals; NULL + errno on failure. */
struct cmp_side *cmp_side__new(size_t nivals);
/* Free a side (NULL is a no-op). */
void cmp_side__free(struct cmp_side *sd);
/* Take the interval model m has just closed (its per-interval figures: model__row); every
 * series m holds becomes present on this side, runs or not. Returns 0 or -ENOMEM. */
int cmp_side__add_interval(struct cmp_side *sd, const struct model *m);
/* Finish a side after its last interval. Returns 0 or -ENOMEM. */
int cmp_side__finish(struct cmp_side *sd);
/* Put block k (0 .. se->nb - 1) of series se into h (an initialised histogram, reset here):
 * its buckets, runs, min and max, so hist__percentile gives the block's percentiles. Returns
 * 0 or -ENOMEM. */
int cmp_series__block_hist(const struct cmp_series *se, size_t k, struct hist *h);
/* The key of series se of model m (a helper's program is looked up in m). */
void cmp__key(const struct model *m, const struct series *se, struct cmp_key *k);
/* Order of two keys (kind, name, type, program, map, attach point): <0, 0 (the same series)
 * or >0. */
int cmp__key_order(const struct cmp_key *a, const struct cmp_key *b);

/* One figure of a row. */
struct cmp_fig {
	bool has_a, has_b;  /* the side has this figure (percentiles need a histogram) */
	double a, b;        /* rate per second, or ns */
	bool has_change;    /* both sides have it and a > 0 (or both are 0) */
	double change_pct;  /* (b / a - 1) * 100 */
	double noise_pct;   /* CMP_NOISE_Z bootstrap standard deviations of the change (INFINITY:
			     * too few draws) */
	double err_pct;     /* the bucket error of the change (0 for rate and max) */
	bool significant;   /* |change| > err and |change| > noise (never for the max) */
};

/* One matched key. */
struct cmp_row {
	struct cmp_key key;
	enum cmp_status status;
	const struct cmp_series *sa, *sb; /* NULL on the side that lacks the key */
	uint64_t count_a, count_b;
	bool has_count_a, has_count_b; /* the side has the key and a count of it (not "-") */
	struct cmp_fig f[CMP__NSTAT];
};

/* A comparison: rows sorted by kind, then key. */
struct compare {
	const struct cmp_side *a, *b;
	struct cmp_row *rows;
	size_t n;
	double bucket_err_pct; /* of a percentile's change */
};

/* Pair sides a and b (finished) into c: match, figures, bootstrap, verdicts. c refers to the
 * sides, which must outlive it. Returns 0 or -ENOMEM. */
int compare__run(struct compare *c, const struct cmp_side *a, const struct cmp_side *b);
/* Release c's rows (a zeroed c is fine). */
void compare__fini(struct compare *c);
/* Names: "rate", "p50", "p95", "p99", "p999", "max"; the verdicts "unchanged", "slower",
 * "faster", "changed", "only_a", "only_b". */
const char *compare__stat_name(enum cmp_stat st);
const char *compare__status_name(enum cmp_status st);
/* The percentile a stat is (0.5 .. 0.999), 1 for max, 0 for rate. */
double compare__stat_q(enum cmp_stat st);
/* The heatmap of series se of side sd over its whole recording in at most cols columns (each
 * a run of consecutive blocks, oldest first): out[i] points into cnt, which needs room for
 * cols * MODEL_HEAT_ROWS counts. Returns the columns filled. */
size_t compare__heat(const struct cmp_side *sd, const struct cmp_series *se, size_t cols,
		     struct heat_slot *out, uint32_t *cnt);

#endif /* LAT_COMPARE_H */
