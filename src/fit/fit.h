/* fit: weighted and unweighted straight-line least squares with standard errors (pure, no I/O). */
/*
 * Layer src/fit (libfit.a): the statistics. From the results model to fits, comparisons, verdicts
 * and the figures' series: every function computes over what its caller read and returns it, or
 * prints it into a buffer the caller owns (snprintf). NO I/O: no file, stream or descriptor is
 * opened, read or written here, nor fileio.h or atomicfile.h included (tools/lint-no-io.sh, run
 * by make check-fast and make lint, says exactly what is refused). Reading a results file is
 * src/results' (below: the model this layer computes over); writing what it computes, and
 * reading the tables it checks against (claims, diary, between.tsv), is src/fitio's (above).
 * It uses src/common and src/results (Makefile fit_USES).
 *
 * Modules, one line each:
 *   fit         weighted and unweighted least squares (this header)
 *   plotseries  results turned into per subject x format x host series along one axis
 *   plotstyle   each subject's look in every figure, its legend name
 *   fitreport   every series fitted and compared with the baseline (fitreport_pair.c: its
 *               comparisons paired per round, as --compare's)
 *   reliability which fits of a report should not be believed (the predicates)
 *   interference whether the host took the CPU from a sweep (the reference's spread), in words
 *   claims      published statements about two tools' lines: parsed, and checked against fits
 *   diary       a diary's sentences parsed, each matched with the release pair it describes best
 *   compare     a baseline subject against a candidate, with verdicts (rarplot --compare;
 *               compare_sweeps.c: over several sweeps)
 *   countcompare the same on counted instructions: the verdict --compare's exit status rests on
 *   changepoint steps between adjacent releases, t tests under Holm's control
 *   paired      two subjects compared from runs paired in time, bootstrap over rounds
 *   between     the between-sweep variation of a comparison (between.tsv's rows, parsed)
 *   acrosshosts one comparison's values over hosts combined: mean, spread, a new machine
 *   verdict     improved / regressed / no change / inconclusive of a ratio, the change it
 *               could detect, and its wording
 *   kernelcost  a host's kernel-side prices (rarkref's, from a parsed results tree) and a
 *               run's time split by them
 *   profilefit  profile counters fitted, compared between runs (profilefit_tsv.c: the
 *               profile TSVs parsed from a buffer)
 */
#ifndef RARPERF_FIT_H
#define RARPERF_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"

/* Fewer distinct x values than this is "too few points to fit". */
#define FIT_MIN_DISTINCT_X 3

/*
 * The line y = intercept + slope * x fitted to n points. The standard
 * errors are gnuplot's "asymptotic standard errors": the diagonal of
 * (X'WX)^-1 scaled by WSSR / (n - 2), so they do not depend on the absolute
 * scale of the weights. r2 is 1 - WSSR / WSST around the weighted mean
 * (1 when every y is equal and the line passes through them).
 */
struct fit_line {
	double intercept, slope;
	double intercept_se, slope_se;
	double cov; /* covariance of intercept and slope, scaled like the standard errors */
	double r2;
	double wssr; /* weighted sum of squared residuals */
	size_t n;    /* points used */
	size_t n_distinct_x;
	bool weighted;
};

/*
 * Fits x[i], y[i] (i < n) by least squares. sigma NULL is an unweighted
 * fit; otherwise point i has weight 1 / sigma[i]^2 and every sigma must be
 * finite and > 0. The line is lsq_fit's (src/common/lsq.h: long double sums
 * around the weighted means, exact to well below 1e-9 relative for large x
 * with small slopes). Returns 0 and fills out, or -1 and fills eb when a
 * value is not finite, a sigma is not positive, or fewer than
 * FIT_MIN_DISTINCT_X distinct x values are given.
 */
int fit_linear(const double *x, const double *y, const double *sigma, size_t n,
	       struct fit_line *out, struct errbuf *eb);

/*
 * The two-sided 95 % quantile of Student's t with df degrees of freedom
 * (12.706 for 1, 2.179 for 12, 1.960 as df grows); df 0 gives NAN. Pure.
 */
double fit_t95(size_t df);

/*
 * How line a compares with line base (two independent fits), each value with
 * its standard error by the delta method (first-order propagation of the fits'
 * standard errors and intercept-slope covariances) and its 95 % interval
 * (value ± t95(df) · se, df = the smaller of the two fits' n - 2):
 *   raw_pct      100 (a.intercept - base.intercept) / base.intercept
 *   slope_pct    100 (a.slope - base.slope) / |base.slope|
 *   crossover    the x where the lines meet, (base.intercept - a.intercept) /
 *                (a.slope - base.slope); has_crossover false when parallel.
 * A difference is significant when its interval excludes 0.
 */
struct fit_estimate {
	double value, se, lo, hi;
};
struct fit_comparison {
	struct fit_estimate raw_pct, slope_pct, crossover;
	bool has_crossover;
	size_t df;
};
void fit_compare(const struct fit_line *a, const struct fit_line *base, struct fit_comparison *out);

/* Whether the 95 % interval of e excludes 0. */
bool fit_significant(const struct fit_estimate *e);

#endif
