/* stats: pure descriptive statistics over samples (no I/O, no allocation). */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_mean(const double *x, size_t n)
{
	double sum = 0.0;

	if (n == 0)
		return 0.0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double stats_stddev(const double *x, size_t n, double mean)
{
	double sum = 0.0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += (x[i] - mean) * (x[i] - mean);
	return sqrt(sum / (double)(n - 1));
}

static int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof(*x), stats_cmp_double);
}

double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (n == 0)
		return NAN;
	if (q <= 0.0)
		return sorted[0];
	if (q >= 1.0)
		return sorted[n - 1];
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	/* Exact for the median of an even count: (a + b) / 2 with frac 0.5. */
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void stats_summarize(const double *x, size_t n, double *scratch, struct stats_summary *out)
{
	out->n = n;
	if (n == 0) {
		out->mean = out->stddev = out->median = NAN;
		out->q1 = out->q3 = out->min = out->max = NAN;
		return;
	}
	out->mean = stats_mean(x, n);
	out->stddev = stats_stddev(x, n, out->mean);
	if (scratch != x)
		memcpy(scratch, x, n * sizeof(*x));
	stats_sort(scratch, n);
	out->median = stats_quantile_sorted(scratch, n, 0.5);
	out->q1 = stats_quantile_sorted(scratch, n, 0.25);
	out->q3 = stats_quantile_sorted(scratch, n, 0.75);
	out->min = scratch[0];
	out->max = scratch[n - 1];
}

void stats_summarize_u64(const uint64_t *x, size_t n, double *scratch, struct stats_summary *out)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = (double)x[i];
	stats_summarize(scratch, n, scratch, out);
}

void stats_modified_zscores(const double *x, size_t n, double *scratch, double *z)
{
	double median, mad;

	if (n == 0)
		return;
	memcpy(scratch, x, n * sizeof(*x));
	stats_sort(scratch, n);
	median = stats_quantile_sorted(scratch, n, 0.5);
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(x[i] - median);
	stats_sort(scratch, n);
	mad = stats_quantile_sorted(scratch, n, 0.5);
	if (!(mad > 0.0))
		mad = DBL_EPSILON;
	for (size_t i = 0; i < n; i++)
		z[i] = (x[i] - median) / mad;
}
