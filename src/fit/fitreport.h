/* fitreport: fit every series, compare each with the baseline subject, and write fits.tsv and
 * report.md. */
#ifndef RARPERF_FITREPORT_H
#define RARPERF_FITREPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "fit.h"
#include "plotseries.h"
#include "paired.h"
#include "plotstyle.h"

/* One fitted series and how it compares with the baseline on its host. */
struct fitreport_row {
	const struct plotseries *series;      /* borrowed from the set */
	struct fit_line fit;                  /* y in ms, x in units of the axis */
	const struct fitreport_row *baseline; /* NULL when the host has no baseline */
	double raw_diff_pct;                  /* 100 (intercept - baseline's) / baseline's */
	double slope_diff_pct;                /* 100 (slope - baseline's) / |baseline's| */
	bool has_crossover;                   /* the lines meet within the measured x range */
	double crossover_x;
	struct fit_comparison cmp; /* the same with standard errors and 95 % intervals */
	/* cmp's percentages as ratios row / baseline (what the table prints, as rarplot
	 * --compare prints them), and whether they are paired per round (fitreport_pair). */
	struct paired_ratio raw_ratio, slope_ratio;
	bool paired;
};

struct fitreport {
	const struct plotseries_set *set; /* borrowed */
	const struct results *res;        /* borrowed: what each subject is */
	const char *baseline;             /* subject name, borrowed */
	struct fitreport_row *rows;
	size_t n_rows;
	/* fitreport_pair: compare rows paired per round wherever they can be (then
	 * pair_weights as rarplot --compare's); n_paired rows are. */
	bool pairing, pair_weights;
	size_t n_paired;
	/* The table's units of y: NULL for "ms" and "µs" (normalised.md: "ref", "mref"). */
	const char *yunit, *yunit_small;
	/* The same fits of the counted instructions (a fitreport over PLOTSERIES_INSTRUCTIONS
	 * series, borrowed; NULL: the results carry no counts): fits.tsv's last columns and
	 * report.md's "Instructions counted" (fitreport_counts.c). */
	const struct fitreport *counts;
};

/*
 * Fits every series of set (weighted by each point's sigma when use_weights
 * and the series has them) and compares it with the first series of subject
 * baseline on the same host. Returns 0 and *out (free with fitreport_free),
 * or -1 with a message naming the series and its file.
 */
int fitreport_compute(const struct plotseries_set *set, const char *baseline, bool use_weights,
		      const struct results *res, struct fitreport **out, struct errbuf *eb);

void fitreport_free(struct fitreport *rep);

/*
 * fitreport_pair.c. One method for every comparison the report prints: makes
 * rep's comparisons (the table's, and the claims' through
 * fitreport_compare_rows) the paired ones rarplot --compare computes
 * (compare_compute: per round, bootstrap, the same interval) wherever both
 * rows come from one sweep with per-round estimates and y is rarbench's
 * estimate (estimate); the others keep the delta method over both fits.
 * Recomputes every row's comparison. Returns how many rows are paired.
 */
size_t fitreport_pair(struct fitreport *rep, bool estimate, bool use_weights);

/*
 * The comparison of row a against row b into *cmp (percentages, crossover) and
 * *raw, *slope (the same as ratios a / b): paired when rep pairs and a and b
 * can be (above), else fit_compare. Returns true when paired.
 */
bool fitreport_compare_rows(const struct fitreport *rep, const struct fitreport_row *a,
			    const struct fitreport_row *b, struct fit_comparison *cmp,
			    struct paired_ratio *raw, struct paired_ratio *slope);

/*
 * Writes fits.tsv (names through sanitize_text): a header line then one row
 * per fit, columns
 * subject format host x n intercept_ms intercept_se_ms slope_us slope_se_us r2
 * intercept_lo_ms intercept_hi_ms slope_lo_us slope_hi_us
 * (the last four: 95 % intervals, value -/+ t95(n - 2) x standard error),
 * and with rep->counts four more: instr_per_call instr_per_unit (the counted
 * instructions' intercept and slope) instr_per_call_ratio instr_per_unit_ratio
 * (each over the baseline's; "nan" where a row has no counted series).
 * Atomic. Returns 0 or -1.
 */
int fitreport_write_tsv(const struct fitreport *rep, const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * Prints the comparison table (Markdown, names through sanitize's Markdown
 * mode: safe on a terminal too) to f: per subject x format (x
 * host): points, intercept (ms) +/- SE [95 % interval], slope (us per unit)
 * +/- SE [95 % interval], R2, % raw cost and % slope against the baseline,
 * crossover size. With several hosts, a second table of min / median / max
 * slope across hosts and the split of the slope's variance (fitreport_hosts).
 */
void fitreport_print_table(const struct fitreport *rep, FILE *f);

/*
 * The slopes of one subject x format on H hosts, b_h with standard errors
 * s_h. The variance of a host's slope splits into a within-host part (the
 * sampling variance of one host's fit, the mean of s_h^2) and a between-host
 * part (how much the hosts really differ: the variance of the b_h beyond
 * that, max(0, var(b_h) - mean(s_h^2)), the method of moments of a random
 * effects model). The mean slope's 95 % interval uses the observed spread:
 * mean +/- t95(H - 1) sd(b_h) / sqrt(H).
 */
struct fitreport_hosts {
	size_t hosts;
	double mean, within_sd, between_sd, between_share, lo, hi;
};

/* Fills *out from H slopes and standard errors. H < 2 gives NaN spreads. */
void fitreport_hosts_split(const double *slope, const double *se, size_t h,
			   struct fitreport_hosts *out);

/* What report.md says about how it was made. */
struct fitreport_context {
	const char *const *inputs;
	size_t n_inputs;
	const char *stat;               /* its name: "median", "mean", "median estimate" */
	enum plotseries_stat stat_kind; /* what y is: the error bars and weights follow */
	bool use_weights;
	const char *const *figures; /* file names relative to the report, may be 0 */
	size_t n_figures;
	/* captions[i]: what figure file i shows and why it was drawn; NULL, or an entry NULL, for
	 * none. Written once above the first file of each run of equal captions. */
	const char *const *captions;
	/* Each subject's look in the figures (plotstyle_assign), listed when figures were drawn;
	 * may be NULL. */
	const struct plotstyle_entry *styles;
	size_t n_styles;
	const char *const *notes; /* extra lines, e.g. figures skipped and why */
	size_t n_notes;
	/* Write more sections (called with more_arg; each may be NULL): verdict_sections after
	 * the verdicts (e.g. the claims checked), more_sections after the fits (e.g. the
	 * profiles). */
	void (*verdict_sections)(FILE *f, const void *arg);
	/* first_sections: right after the question, before anything else (several hosts: what
	 * holds across machines reads first). */
	void (*first_sections)(FILE *f, const void *arg);
	void (*more_sections)(FILE *f, const void *arg);
	const void *more_arg;
};

/*
 * Writes report.md in the reader's order: the title; the question (the axis,
 * its sizes, the subjects with their tools, the baseline, the inputs); the
 * figures with their captions; the verdicts (the table, its reliability,
 * ctx's verdict_sections); what was skipped (res's skipped subjects with their
 * reasons, ctx's notes); the fits (and the slopes across hosts,
 * more_sections); the method; each subject's look. The method names rarbench's estimator and
 * treatment of contended runs (rep->res, results.h: "unknown" when the files do not say) and what
 * the error bars, the weights, the ± and the brackets are. Every string from a file or the command
 * line goes through sanitize (Markdown mode, or a code span of sanitised text). Atomic.
 */
int fitreport_write_markdown(const struct fitreport *rep, const struct fitreport_context *ctx,
			     const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/*
 * The line under a figure's title, in report.md's words (fitreport_write_markdown's method):
 * what each point is (kind; for rarbench's estimate, res's estimator and what it did with
 * contended runs), what the error bars are or, with several hosts (band), the band, and how the
 * lines were fitted: weighted when all_weighted, partly when only some series were
 * (some_weighted). Into buf (size bytes, truncated). res may be NULL.
 */
void fitreport_caption(enum plotseries_stat kind, const struct results *res, bool band,
		       bool all_weighted, bool some_weighted, char *buf, size_t size);

/*
 * fitreport_counts.c. The counted row of the same subject, format and host as row (in
 * rep->counts), or NULL.
 */
const struct fitreport_row *fitreport_counts_row(const struct fitreport *rep,
						 const struct fitreport_row *row);

/*
 * report.md's "Instructions counted" section: per subject, instructions per call (the
 * intercept) and per unit of the axis (the slope), each with its ratio to the baseline's;
 * what a count is and that verdicts on time rest on time. Nothing without rep->counts.
 */
void fitreport_print_counts(const struct fitreport *rep, FILE *f);

/*
 * report.md's "Where the wait goes: daemons" (fitreport_daemons.c): for each subject whose
 * points carry a daemon's cost (pkexec's polkitd), per size its median, the daemon's CPU per run,
 * its share and peak, and the daemon's CPU per run fitted over size. Nothing when none does.
 */
void fitreport_print_daemons(const struct fitreport *rep, FILE *f);

/* "task" for nb_tasks, "role" for nb_roles, "role×task" for the product, else the name. */
const char *fitreport_unit(const char *axis);

#endif
