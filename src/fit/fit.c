/* fit: weighted and unweighted straight-line least squares with standard errors (pure, no I/O). */
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int fit_cmp_double(const void *a, const void *b)
{
	double da = *(const double *)a, db = *(const double *)b;

	return (da > db) - (da < db);
}

/* Counts distinct values of x; 0 on allocation failure. */
static size_t fit_count_distinct(const double *x, size_t n)
{
	double *sorted = NULL;
	size_t i, distinct = 0;

	sorted = malloc(n * sizeof(*sorted));
	if (sorted == NULL)
		return 0;
	memcpy(sorted, x, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), fit_cmp_double);
	for (i = 0; i < n; i++)
		if (i == 0 || sorted[i] != sorted[i - 1])
			distinct++;
	free(sorted);
	return distinct;
}

int fit_linear(const double *x, const double *y, const double *sigma, size_t n,
	       struct fit_line *out, struct errbuf *eb)
{
	long double sw = 0, swx = 0, swy = 0, sxx = 0, sxy = 0, syy = 0, wssr = 0;
	long double xbar, ybar, slope, intercept, s2;
	size_t i, distinct;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(y[i]))
			return errbuf_set(eb, "point %zu: x or y is not a finite number", i + 1);
		if (sigma != NULL && !(isfinite(sigma[i]) && sigma[i] > 0))
			return errbuf_set(eb, "point %zu: sigma %g is not a positive number", i + 1,
					  sigma[i]);
	}
	distinct = n == 0 ? 0 : fit_count_distinct(x, n);
	if (n > 0 && distinct == 0)
		return errbuf_set(eb, "out of memory");
	if (distinct < FIT_MIN_DISTINCT_X)
		return errbuf_set(eb, "only %zu distinct x value%s, at least %d needed to fit",
				  distinct, distinct == 1 ? "" : "s", FIT_MIN_DISTINCT_X);

	for (i = 0; i < n; i++) {
		long double w = sigma == NULL ? 1.0L : 1.0L / ((long double)sigma[i] * sigma[i]);

		sw += w;
		swx += w * x[i];
		swy += w * y[i];
	}
	xbar = swx / sw;
	ybar = swy / sw;
	/* Second pass around the means: no cancellation between large sums. */
	for (i = 0; i < n; i++) {
		long double w = sigma == NULL ? 1.0L : 1.0L / ((long double)sigma[i] * sigma[i]);
		long double dx = x[i] - xbar, dy = y[i] - ybar;

		sxx += w * dx * dx;
		sxy += w * dx * dy;
		syy += w * dy * dy;
	}
	slope = sxy / sxx;
	intercept = ybar - slope * xbar;
	for (i = 0; i < n; i++) {
		long double w = sigma == NULL ? 1.0L : 1.0L / ((long double)sigma[i] * sigma[i]);
		long double r = y[i] - (intercept + slope * x[i]);

		wssr += w * r * r;
	}
	s2 = wssr / (long double)(n - 2);

	out->intercept = (double)intercept;
	out->slope = (double)slope;
	out->slope_se = (double)sqrtl(s2 / sxx);
	out->intercept_se = (double)sqrtl(s2 * (1.0L / sw + xbar * xbar / sxx));
	out->r2 = syy > 0 ? (double)(1.0L - wssr / syy) : 1.0;
	out->wssr = (double)wssr;
	out->n = n;
	out->n_distinct_x = distinct;
	out->weighted = sigma != NULL;
	return 0;
}

int fit_crossover(const struct fit_line *a, const struct fit_line *b, double *x_out)
{
	double dslope = a->slope - b->slope;

	if (dslope == 0)
		return -1;
	*x_out = (b->intercept - a->intercept) / dslope;
	return 0;
}
