/* fitreport: fit every series and compare each with the baseline subject; pure (its writers,
 * fits.tsv, the table and report.md: src/fitio/fitreport_write.h). */
#ifndef RARPERF_FITREPORT_H
#define RARPERF_FITREPORT_H

#include <stdbool.h>

#include "errbuf.h"
#include "fit.h"
#include "plotseries.h"
#include "paired.h"

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
	 * report.md's "Instructions counted" (src/fitio/fitreport_counts.c). */
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

/* "task" for nb_tasks, "role" for nb_roles, "role×task" for the product, else the name. */
const char *fitreport_unit(const char *axis);

#endif
