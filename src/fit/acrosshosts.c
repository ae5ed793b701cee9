/* acrosshosts: one comparison's values over hosts combined (acrosshosts.h, pure). */
#include "acrosshosts.h"

#include <math.h>

#include "student.h"

/* The 97.5 % point of the normal: a 95 % interval's half-width in standard errors. */
#define ACROSSHOSTS_Z95 1.959963984540054

/* v on the working scale, or NaN when it has no place there. */
static double acrosshosts_scale(double v, bool log_scale)
{
	if (!isfinite(v))
		return NAN;
	if (!log_scale)
		return v;
	return v > 0 ? log(v) : NAN;
}

static double acrosshosts_unscale(double v, bool log_scale)
{
	return log_scale ? exp(v) : v;
}

int acrosshosts_combine(const struct acrosshosts_value *v, size_t k, bool log_scale,
			struct acrosshosts_summary *out)
{
	double sum = 0, ss = 0, within = 0, mean, half;
	bool within_known = true;
	size_t i;

	out->hosts = k;
	out->log_scale = log_scale;
	out->sd = out->within_sd = out->between_sd = NAN;
	out->predict_lo = out->predict_hi = NAN;
	if (k == 0)
		return -1;
	for (i = 0; i < k; i++) {
		double y = acrosshosts_scale(v[i].value, log_scale);
		double lo = acrosshosts_scale(v[i].lo, log_scale);
		double hi = acrosshosts_scale(v[i].hi, log_scale);

		if (isnan(y))
			return -1;
		sum += y;
		if (isnan(lo) || isnan(hi) || hi < lo)
			within_known = false;
		else
			within += pow((hi - lo) / (2 * ACROSSHOSTS_Z95), 2);
	}
	mean = sum / (double)k;
	out->mean = acrosshosts_unscale(mean, log_scale);
	if (k == 1) {
		out->mean_lo = v[0].lo;
		out->mean_hi = v[0].hi;
		if (within_known)
			out->within_sd = sqrt(within);
		return 0;
	}
	for (i = 0; i < k; i++)
		ss += pow(acrosshosts_scale(v[i].value, log_scale) - mean, 2);
	out->sd = sqrt(ss / (double)(k - 1));
	half = student_t95(k - 1) * out->sd / sqrt((double)k);
	out->mean_lo = acrosshosts_unscale(mean - half, log_scale);
	out->mean_hi = acrosshosts_unscale(mean + half, log_scale);
	half = student_t95(k - 1) * out->sd * sqrt(1 + 1 / (double)k);
	out->predict_lo = acrosshosts_unscale(mean - half, log_scale);
	out->predict_hi = acrosshosts_unscale(mean + half, log_scale);
	if (within_known) {
		within /= (double)k;
		out->within_sd = sqrt(within);
		out->between_sd = sqrt(fmax(0, out->sd * out->sd - within));
	}
	return 0;
}
