/* reliability: which fits of a report should not be believed, and why (reliability.h). */
#include "reliability.h"

#include <math.h>

bool reliability_hosts_disagree(const double *b, const double *s, size_t h, double *q)
{
	double sw = 0, swb = 0, m, df = (double)h - 1, z = 2.326, a;

	*q = 0;
	if (h < 2)
		return false;
	for (size_t i = 0; i < h; i++) {
		if (!(s[i] > 0))
			return false;
		sw += 1 / (s[i] * s[i]);
		swb += b[i] / (s[i] * s[i]);
	}
	m = swb / sw;
	for (size_t i = 0; i < h; i++)
		*q += (b[i] - m) * (b[i] - m) / (s[i] * s[i]);
	a = 1 - 2 / (9 * df) + z * sqrt(2 / (9 * df));
	return *q > df * a * a * a;
}

bool reliability_point_contended(const struct plotseries_point *p)
{
	return p->contended || p->contended_share > 0.5;
}

bool reliability_point_noisy(const struct plotseries_point *p)
{
	double lo = p->ci_lo_ms, hi = p->ci_hi_ms;

	/* An interval unknown (too few runs) says nothing either way. */
	return isfinite(lo) && isfinite(hi) && p->y_ms > 0 &&
	       fmax(p->y_ms - lo, hi - p->y_ms) > RELIABILITY_NOISY_REL * p->y_ms;
}

bool reliability_point_shaky(const struct plotseries_point *p)
{
	return reliability_point_contended(p) || reliability_point_noisy(p);
}

bool reliability_series_unreliable(const struct plotseries *s, size_t *shaky)
{
	*shaky = 0;
	for (size_t i = 0; i < s->n; i++)
		*shaky += reliability_point_shaky(&s->pts[i]);
	return 2 * *shaky > s->n;
}
