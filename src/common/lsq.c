/* lsq: the one straight-line least squares (pure): fit's lines and runcost's estimate. */
#include "lsq.h"

#include <string.h>

/* Point i's weight: 1 / sigma[i]², or 1 without sigmas. */
static long double lsq_weight(const double *sigma, size_t i)
{
	return sigma == NULL ? 1.0L : 1.0L / ((long double)sigma[i] * sigma[i]);
}

void lsq_fit(const double *x, const double *y, const double *sigma, size_t n, struct lsq_sums *out)
{
	long double swx = 0, swy = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	for (i = 0; i < n; i++) {
		long double w = lsq_weight(sigma, i);

		out->sw += w;
		swx += w * x[i];
		swy += w * y[i];
	}
	out->xbar = swx / out->sw;
	out->ybar = swy / out->sw;
	/* Second pass around the means: no cancellation between large sums. */
	for (i = 0; i < n; i++) {
		long double w = lsq_weight(sigma, i);
		long double dx = x[i] - out->xbar, dy = y[i] - out->ybar;

		out->sxx += w * dx * dx;
		out->sxy += w * dx * dy;
		out->syy += w * dy * dy;
	}
	out->slope = out->sxx > 0 ? out->sxy / out->sxx : 0;
	out->intercept = out->ybar - out->slope * out->xbar;
	for (i = 0; i < n; i++) {
		long double r = y[i] - (out->intercept + out->slope * x[i]);

		out->wssr += lsq_weight(sigma, i) * r * r;
	}
}
