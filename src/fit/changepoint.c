/* changepoint: steps between adjacent releases, t tests under Holm's control (changepoint.h). */
#include "changepoint.h"

#include <float.h>
#include <math.h>

#define CHANGEPOINT_BETA_ITER_MAX 300
#define CHANGEPOINT_BETA_EPS 1e-15
#define CHANGEPOINT_TINY 1e-300

/* One step of the modified Lentz method with the fraction's next coefficient aa: updates c and d
 * (kept away from 0) and returns the factor the fraction's value takes. */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1.0 + aa * *d;
	*c = 1.0 + aa / *c;
	if (fabs(*d) < CHANGEPOINT_TINY)
		*d = CHANGEPOINT_TINY;
	if (fabs(*c) < CHANGEPOINT_TINY)
		*c = CHANGEPOINT_TINY;
	*d = 1.0 / *d;
	return *d * *c;
}

/* The continued fraction of the incomplete beta function (modified Lentz), for x < (a+1)/(a+b+2).
 */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	if (fabs(d) < CHANGEPOINT_TINY)
		d = CHANGEPOINT_TINY;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= CHANGEPOINT_BETA_ITER_MAX; m++) {
		double m2 = 2.0 * m, del;

		h *= lentz_step(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)), &c, &d);
		h *= del;
		if (fabs(del - 1.0) < CHANGEPOINT_BETA_EPS)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* The fraction converges fast only on one side of the mean: use the symmetry otherwise. */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

double changepoint_t_p(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0.0)
		return NAN;
	if (isinf(t))
		return 0.0;
	if (df > 1e7)
		return erfc(fabs(t) / sqrt(2.0));
	return beta_inc(df / 2.0, 0.5, df / (df + t * t));
}

size_t changepoint_adjacent(const double *value, const double *se, const double *df, size_t n,
			    size_t series, struct changepoint_test *out)
{
	if (n < 2)
		return 0;
	for (size_t i = 0; i + 1 < n; i++) {
		struct changepoint_test *c = &out[i];
		double va = se[i] * se[i], vb = se[i + 1] * se[i + 1];
		bool ok = isfinite(value[i]) && isfinite(value[i + 1]) && isfinite(se[i]) &&
			  isfinite(se[i + 1]) && se[i] > 0 && se[i + 1] > 0 && df[i] > 0 &&
			  df[i + 1] > 0;

		c->series = series;
		c->after = i;
		c->diff = value[i + 1] - value[i];
		c->rel_pct = value[i] != 0.0 ? 100.0 * c->diff / fabs(value[i]) : NAN;
		c->step = false;
		c->p_holm = 1.0;
		if (!ok) {
			c->se = c->df = c->t = NAN;
			c->p = 1.0;
			continue;
		}
		c->se = sqrt(va + vb);
		/* Welch-Satterthwaite: the two variances are estimated with their own df. */
		c->df = (va + vb) * (va + vb) / (va * va / df[i] + vb * vb / df[i + 1]);
		c->t = c->diff / c->se;
		c->p = changepoint_t_p(c->t, c->df);
		if (isnan(c->p))
			c->p = 1.0;
	}
	return n - 1;
}

/* Whether test j comes before test i in the ascending order of p (ties: the caller's order). */
static bool ranks_before(const struct changepoint_test *t, size_t j, size_t i)
{
	return (j < i && t[j].p <= t[i].p) || t[j].p < t[i].p;
}

void changepoint_holm(struct changepoint_test *t, size_t n, double alpha, double min_rel_pct)
{
	/* O(n^2) without a copy: a history has tens of releases, so hundreds of tests at most. */
	for (size_t i = 0; i < n; i++) {
		double adj = 0.0;

		for (size_t j = 0; j < n; j++) {
			size_t rank = 0;
			double a;

			if (j != i && !ranks_before(t, j, i))
				continue;
			for (size_t k = 0; k < n; k++)
				if (k != j && ranks_before(t, k, j))
					rank++;
			a = (double)(n - rank) * t[j].p;
			if (a > adj)
				adj = a;
		}
		t[i].p_holm = adj < 1.0 ? adj : 1.0;
	}
	for (size_t i = 0; i < n; i++)
		t[i].step = t[i].p_holm < alpha && isfinite(t[i].rel_pct) &&
			    fabs(t[i].rel_pct) >= min_rel_pct;
}
