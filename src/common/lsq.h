/* lsq: the one straight-line least squares, y = intercept + slope x, weighted or not (pure). */
#ifndef RARPERF_LSQ_H
#define RARPERF_LSQ_H

#include <stddef.h>

/*
 * The sums of one fit, kept in long double so that each user derives what it
 * needs (fit's standard errors and R², runcost's flat line for one size)
 * from the same numbers. With weights w[i] = 1 / sigma[i]² (1 unweighted):
 *   sw          the sum of the weights (n when unweighted)
 *   xbar, ybar  the weighted means
 *   sxx, syy    the weighted sums of squares around the means
 *   sxy         the weighted sum of cross products around the means
 *   slope       sxy / sxx (0 when sxx is 0: every x equal, a flat line)
 *   intercept   ybar - slope xbar
 *   wssr        the weighted sum of squared residuals of that line
 */
struct lsq_sums {
	long double sw, xbar, ybar, sxx, syy, sxy;
	long double slope, intercept, wssr;
};

/*
 * Fits x[i], y[i] (i < n, n >= 1) by least squares; sigma NULL is an
 * unweighted fit, else point i weighs 1 / sigma[i]². The sums run around the
 * weighted means (two passes, then the residuals), which keeps large x with
 * small slopes exact to well below 1e-9 relative. The caller checks its
 * inputs: every value finite, every sigma > 0. Pure.
 */
void lsq_fit(const double *x, const double *y, const double *sigma, size_t n, struct lsq_sums *out);

#endif
