/* paired: a comparison of two subjects from their runs paired in time (same point, same round),
 * with a bootstrap over rounds (pure, no I/O). */
/*
 * Design. Host speed drifts within a sweep; the two subjects' runs of one
 * point and round ran in the same step, interleaved, so they saw the same
 * speed. The paired estimate therefore never compares one subject's line
 * with the other's directly:
 *   1. fit the baseline's line Lb to its point estimates (x_p, b_p);
 *   2. express the candidate at each point relative to the baseline at the
 *      same point, R_p = c_p / b_p (drift common to both cancels), and put
 *      it on the baseline's smooth line: z_p = R_p Lb(x_p);
 *   3. fit the candidate's line Lc to (x_p, z_p).
 * The ratios Lc/Lb (intercepts, slopes, values at chosen sizes) are then
 * free of drift to first order: a host that is uniformly k times slower at
 * one point scales b_p and c_p alike and leaves R_p alone.
 * Interval: a bootstrap over rounds. Each replicate draws, at every point,
 * as many of its paired rounds as it has, with replacement, and the same
 * draw for both subjects (the pairing); a point's estimate is scaled by the
 * mean of its drawn rounds' estimates over the mean of all of them. The
 * 2.5 % and 97.5 % quantiles of the replicates are the 95 % interval. The
 * generator is seeded, so the output is deterministic.
 */
#ifndef RARPERF_PAIRED_H
#define RARPERF_PAIRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "fit.h"

#define PAIRED_MAX_AT 16
#define PAIRED_DEFAULT_RESAMPLES 2000
#define PAIRED_DEFAULT_SEED 20u

/*
 * One point measured for both subjects. base_s, cand_s: the point's
 * estimates (seconds or any unit, the same for both); base_sigma,
 * cand_sigma: their standard errors (weights; NaN: the fits are unweighted);
 * base_round[i], cand_round[i] (i < n_rounds): the estimates of the rounds
 * both measured, round i of one paired with round i of the other. Borrowed.
 */
struct paired_point {
	double x;
	double base_s, cand_s;
	double base_sigma, cand_sigma;
	const double *base_round, *cand_round;
	size_t n_rounds;
};

/* A ratio candidate / baseline with its 95 % interval (NaN when unknown). */
struct paired_ratio {
	double value, lo, hi;
};

struct paired_result {
	struct paired_ratio intercept, slope;
	struct paired_ratio at[PAIRED_MAX_AT]; /* Lc(x) / Lb(x) at the sizes asked */
	size_t n_at;
	struct paired_ratio crossover; /* the x where Lc meets Lb; NaN when parallel */
	struct fit_line base, cand;    /* Lb and Lc of the point estimates */
	size_t resamples;              /* replicates drawn (0: no point had 2 rounds) */
	size_t paired_points;          /* points with at least 2 paired rounds */
};

struct paired_opts {
	size_t resamples; /* 0: PAIRED_DEFAULT_RESAMPLES */
	uint64_t seed;
	bool weighted; /* weight by the sigmas when every one is finite and > 0 */
	const double *at;
	size_t n_at; /* at most PAIRED_MAX_AT */
};

/*
 * The paired comparison of pts[0..n) (design above). Returns 0 and fills
 * out, or -1 with eb filled (fewer than FIT_MIN_DISTINCT_X distinct x, a
 * baseline estimate that is not > 0, too many sizes, out of memory).
 */
int paired_compare(const struct paired_point *pts, size_t n, const struct paired_opts *opts,
		   struct paired_result *out, struct errbuf *eb);

/*
 * The same ratios from two independent fits (today's unpaired figure): the
 * delta method on each fit's standard errors and covariance, t95 of the
 * smaller n - 2. at/n_at as in paired_opts.
 */
void paired_unpaired(const struct fit_line *cand, const struct fit_line *base, const double *at,
		     size_t n_at, struct paired_result *out);

#endif
