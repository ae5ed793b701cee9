/* compare: a baseline subject against a candidate from one results set, paired in time when their
 * runs were, with a verdict per quantity (rarplot --compare). */
#ifndef RARPERF_COMPARE_H
#define RARPERF_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "interference.h"
#include "paired.h"
#include "results.h"
#include "verdict.h"

#define COMPARE_MAX_POINTS 4096
#define COMPARE_NAME_MAX 64
#define COMPARE_NOTES_MAX 6
#define COMPARE_NOTE_LEN 200
/* A fit with R² below this is too poor for its intercept and slope to be compared. */
#define COMPARE_MIN_R2 0.9

struct compare_opts {
	const char *baseline, *candidate; /* subject names */
	const char *axis;                 /* "nb_tasks": x of the fits */
	double noise;                     /* 0.02: the threshold of "no change" */
	const double *at;                 /* sizes where the times are compared */
	size_t n_at;                      /* 0: the largest size measured */
	bool allow_unpaired;              /* compare different sweeps (said in the verdict) */
	bool use_weights;                 /* weight the fits by each point's standard error */
	size_t resamples;                 /* bootstrap replicates; 0: PAIRED_DEFAULT_RESAMPLES */
	size_t source; /* only the points of this file (results_point.source); SIZE_MAX: all */
};

/* One quantity: its paired and unpaired ratios, and the verdict on the one used. */
struct compare_quantity {
	char name[COMPARE_NAME_MAX]; /* "intercept", "slope", "time at 10000 tasks" */
	struct paired_ratio paired, unpaired;
	enum verdict_kind verdict;  /* on paired when the comparison is paired, else unpaired */
	bool widened;               /* paired is the interval for the next sweep (between.h) */
	struct paired_ratio within; /* with widened: the paired interval within the sweep */
	size_t between_k;           /* with widened: the sweeps between.tsv measured it over */
	size_t needed; /* with widened: the sweeps between.tsv would need for the interval to fit
			  within the threshold (BETWEEN_NEVER: no number would) */
};

struct compare_outcome {
	bool paired;
	char why_unpaired[COMPARE_NOTE_LEN]; /* "" when paired */
	const char *stat;                    /* "estimate" or "median" */
	size_t n_points, paired_points, resamples;
	struct compare_quantity q[2 + PAIRED_MAX_AT];
	size_t n_q;
	double at[PAIRED_MAX_AT];
	struct paired_ratio crossover;                   /* of the comparison used */
	double x_min, x_max;                             /* the sizes measured */
	size_t n_extrapolated;                           /* --at sizes outside them */
	struct fit_line base, cand;                      /* the unpaired fits (y in seconds) */
	char notes[COMPARE_NOTES_MAX][COMPARE_NOTE_LEN]; /* why a figure is unreliable */
	size_t n_notes;
	bool regressed, improved, inconclusive; /* some quantity was (inconclusive: or unknown) */
	/* Baseline and candidate are different tools (results_different_tools): the verdicts print
	 * as costs, higher or lower (verdict_name_tools); regressed and improved as above. */
	bool tools;
	size_t widened; /* > 0: some intervals widened with the between-sweep variation of this
			   many sweeps (between_widen) */
	struct interference host; /* the host's interference, from the sweep's reference */
};

/*
 * The overall verdict's words: "regressed", "inconclusive (...)", "improved"
 * or "no change (...)", in that order of precedence.
 */
const char *compare_overall(bool regressed, bool inconclusive, bool improved);

/* compare_overall between two different tools (tools true): "higher", "lower", "no difference". */
const char *compare_overall_tools(bool regressed, bool inconclusive, bool improved, bool tools);

/*
 * Compares o->candidate with o->baseline in res. Bad input (exit 2 for the
 * caller) returns -1 with one line in eb: a subject missing (naming the
 * subjects there are), measured on several hosts or in several files, the
 * two measured at different points (naming the first one that differs), or
 * different sweeps without allow_unpaired. Returns 0 and fills out.
 */
int compare_compute(const struct results *res, const struct compare_opts *o,
		    struct compare_outcome *out, struct errbuf *eb);

/*
 * The distinct sizes o's baseline was measured at (as compare_compute gathers
 * them), ascending, into xs (at most cap). Returns how many; 0 when the
 * baseline cannot be gathered (compare_compute says why).
 */
size_t compare_sizes(const struct results *res, const struct compare_opts *o, double *xs,
		     size_t cap);

/*
 * compare_sweeps.c. The same comparison repeated over K sweeps (K files
 * that each hold both subjects): each sweep compared on its own (paired),
 * then, per quantity, the mean of the K ratios, their standard deviation
 * and CV, the 95 % interval of the mean (t(K-1) sd / sqrt K, the verdict's)
 * and the 95 % prediction interval of the next sweep's ratio (t(K-1) sd
 * sqrt(1 + 1/K)): the between-sweep variation no single sweep can see.
 */
#define COMPARE_MAX_SWEEPS 64
struct compare_across {
	size_t k, n_q;
	char names[2 + PAIRED_MAX_AT][COMPARE_NAME_MAX];
	double mean[2 + PAIRED_MAX_AT], sd[2 + PAIRED_MAX_AT];
	struct paired_ratio ci[2 + PAIRED_MAX_AT], next[2 + PAIRED_MAX_AT];
	enum verdict_kind verdict[2 + PAIRED_MAX_AT];
	size_t held[2 + PAIRED_MAX_AT]; /* (sweep, other sweep) pairs whose interval held it */
	/* sweeps for ci's half-width to reach the threshold with the same sd (SIZE_MAX: > 1000) */
	size_t needed[2 + PAIRED_MAX_AT];
	bool regressed, improved, inconclusive;
};

/*
 * The sweeps of res that hold o's subjects, in file order, into source[]
 * (at most COMPARE_MAX_SWEEPS); 0 when some file holds one subject without
 * the other (then the files are not sweeps of both). Returns the count.
 */
size_t compare_sweeps_find(const struct results *res, const struct compare_opts *o, size_t *source);

/*
 * Compares every sweep (per[i] for source[i], i < k, each with o and
 * o->source set) and fills across. Returns 0, or -1 with eb naming the file.
 */
int compare_sweeps(const struct results *res, const struct compare_opts *o, const size_t *source,
		   size_t k, struct compare_outcome *per, struct compare_across *across,
		   struct errbuf *eb);

#endif
