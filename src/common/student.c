/* student: quantiles of Student's t and of the binomial(n, 1/2) for 95 % intervals (pure). */
#include "student.h"

#include <math.h>

/* Above this many samples the median's ranks come from the normal approximation. */
#define STUDENT_EXACT_MAX_N 1000000u

double student_t95(size_t df)
{
	/* Two-sided 95 % (upper 0.975) quantiles for 1..30 degrees of freedom. */
	static const double t[] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
				   2.2622,  2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
				   2.1098,  2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
				   2.0595,  2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
	double z = 1.959964, g1, g2, v;

	if (df == 0)
		return NAN;
	if (df <= sizeof(t) / sizeof(t[0]))
		return t[df - 1];
	/* Cornish-Fisher expansion: within 1e-4 of the exact quantile above 30 df. */
	v = (double)df;
	g1 = (z * z * z + z) / 4.0;
	g2 = (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / 96.0;
	return z + g1 / v + g2 / (v * v);
}

size_t student_median_rank95(size_t n)
{
	double logp, cdf = 0.0, lhalf = (double)n * log(0.5);
	size_t k;

	if (n < 6)
		return 0;
	if (n > STUDENT_EXACT_MAX_N) {
		double r = floor(((double)n - 1.959964 * sqrt((double)n)) / 2.0);

		return r < 1 ? 1 : (size_t)r;
	}
	/* P(X <= j) for X ~ Binomial(n, 1/2), j = 0, 1, ...: stop before it passes 0.025. The
	 * log of each term avoids overflow of the binomial coefficients. */
	for (k = 0; k < n; k++) {
		logp = lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) +
		       lhalf;
		if (cdf + exp(logp) > 0.025)
			break;
		cdf += exp(logp);
	}
	/* cdf = P(X <= k - 1) <= 0.025: the k-th order statistic (1-based) is the lower end. */
	return k;
}
