/* fit: weighted and unweighted straight-line least squares with standard errors (pure, no I/O). */
#include "fit.h"
#include "lsq.h"
#include "student.h"

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
	struct lsq_sums l;
	long double s2;
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

	lsq_fit(x, y, sigma, n, &l);
	s2 = l.wssr / (long double)(n - 2);

	out->intercept = (double)l.intercept;
	out->slope = (double)l.slope;
	out->slope_se = (double)sqrtl(s2 / l.sxx);
	out->intercept_se = (double)sqrtl(s2 * (1.0L / l.sw + l.xbar * l.xbar / l.sxx));
	out->cov = (double)(-s2 * l.xbar / l.sxx);
	out->r2 = l.syy > 0 ? (double)(1.0L - l.wssr / l.syy) : 1.0;
	out->wssr = (double)l.wssr;
	out->n = n;
	out->n_distinct_x = distinct;
	out->weighted = sigma != NULL;
	return 0;
}

double fit_t95(size_t df)
{
	return student_t95(df);
}

static void fit_interval(struct fit_estimate *e, double t)
{
	e->lo = e->value - t * e->se;
	e->hi = e->value + t * e->se;
}

void fit_compare(const struct fit_line *a, const struct fit_line *base, struct fit_comparison *out)
{
	double a0 = base->intercept, b0 = base->slope, a1 = a->intercept, b1 = a->slope;
	double va0 = base->intercept_se * base->intercept_se, vb0 = base->slope_se * base->slope_se;
	double va1 = a->intercept_se * a->intercept_se, vb1 = a->slope_se * a->slope_se;
	size_t n = a->n < base->n ? a->n : base->n;
	double t, db;

	memset(out, 0, sizeof(*out));
	out->df = n > 2 ? n - 2 : 0;
	t = fit_t95(out->df);
	/* Ratios: d(a1/a0) = da1/a0 - a1 da0/a0^2; the two fits are independent. */
	out->raw_pct.value = 100.0 * (a1 - a0) / a0;
	out->raw_pct.se = 100.0 * sqrt(va1 / (a0 * a0) + a1 * a1 * va0 / (a0 * a0 * a0 * a0));
	out->slope_pct.value = 100.0 * (b1 - b0) / fabs(b0);
	out->slope_pct.se = 100.0 * sqrt(vb1 / (b0 * b0) + b1 * b1 * vb0 / (b0 * b0 * b0 * b0));
	fit_interval(&out->raw_pct, t);
	fit_interval(&out->slope_pct, t);
	db = b1 - b0;
	out->has_crossover = db != 0;
	if (out->has_crossover) {
		double x = (a0 - a1) / db;
		/* x = (a0 - a1) / (b1 - b0): gradient (1/db, -1/db, x/db, -x/db) over (a0, a1, b0,
		 * b1); each fit's intercept and slope covary. */
		double var =
		    (va0 + va1 + x * x * (vb0 + vb1) + 2 * x * base->cov + 2 * x * a->cov) /
		    (db * db);

		out->crossover.value = x;
		out->crossover.se = var > 0 ? sqrt(var) : 0;
		fit_interval(&out->crossover, t);
	} else {
		out->crossover.value = out->crossover.se = out->crossover.lo = out->crossover.hi =
		    NAN;
	}
}

bool fit_significant(const struct fit_estimate *e)
{
	return e->lo > 0 || e->hi < 0;
}
