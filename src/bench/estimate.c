/* estimate: the central estimate of a point's runs with its 95 % confidence interval, and the
 * precision rule (pure, no I/O, no allocation). */
#include "estimate.h"

#include <math.h>
#include <string.h>

#include "stats.h"
#include "student.h"

/* Robson and Whitlock: P(theta >= x1 - (1 - a) / a * (x2 - x1)) = 1 - a, a = 0.05. */
#define ESTIMATE_MIN_SPAN_FACTOR 19.0

static const char *const estimate_names[ESTIMATE_KIND_COUNT] = {"median", "mean", "trimmed", "min",
								"cpu-median"};

static const char *const estimate_contended_names[ESTIMATE_CONTENDED_COUNT] = {"correct", "drop",
									       "keep"};

const char *estimate_contended_name(enum estimate_contended c)
{
	return (unsigned)c < ESTIMATE_CONTENDED_COUNT ? estimate_contended_names[c] : "?";
}

const char *estimate_kind_name(enum estimate_kind k)
{
	return (unsigned)k < ESTIMATE_KIND_COUNT ? estimate_names[k] : "?";
}

int estimate_kind_parse(const char *s, enum estimate_kind *k)
{
	for (size_t i = 0; i < ESTIMATE_KIND_COUNT; i++)
		if (strcmp(s, estimate_names[i]) == 0) {
			*k = (enum estimate_kind)i;
			return 0;
		}
	return -1;
}

static void estimate_median(const double *sorted, size_t n, struct estimate *out)
{
	size_t k = student_median_rank95(n);

	out->value = stats_quantile_sorted(sorted, n, 0.5);
	if (k == 0)
		return;
	out->lo = sorted[k - 1];
	out->hi = sorted[n - k];
}

static void estimate_mean(const double *x, size_t n, struct estimate *out)
{
	double m = stats_mean(x, n), sd, half;

	out->value = m;
	if (n < 2)
		return;
	sd = stats_stddev(x, n, m);
	half = student_t95(n - 1) * sd / sqrt((double)n);
	out->lo = m - half;
	out->hi = m + half;
}

static void estimate_trimmed(const double *sorted, size_t n, struct estimate *out)
{
	size_t g = (size_t)floor(ESTIMATE_TRIM_FRACTION * (double)n), i;
	double sum = 0, wmean = 0, wvar = 0, half;

	for (i = g; i < n - g; i++)
		sum += sorted[i];
	out->value = sum / (double)(n - 2 * g);
	if (n < 2 || n - 2 * g < 2)
		return;
	/* Winsorized: the g smallest become sorted[g], the g largest sorted[n - g - 1]. */
	for (i = 0; i < n; i++)
		wmean += sorted[i < g ? g : i >= n - g ? n - g - 1 : i];
	wmean /= (double)n;
	for (i = 0; i < n; i++) {
		double d = sorted[i < g ? g : i >= n - g ? n - g - 1 : i] - wmean;

		wvar += d * d;
	}
	wvar /= (double)(n - 1);
	half = student_t95(n - 2 * g - 1) * sqrt(wvar) /
	       ((1.0 - 2.0 * ESTIMATE_TRIM_FRACTION) * sqrt((double)n));
	out->lo = out->value - half;
	out->hi = out->value + half;
}

static void estimate_min(const double *sorted, size_t n, struct estimate *out)
{
	out->value = sorted[0];
	if (n < 2)
		return;
	out->lo = sorted[0] - ESTIMATE_MIN_SPAN_FACTOR * (sorted[1] - sorted[0]);
	out->hi = sorted[0];
}

void estimate_of(const double *x, size_t n, enum estimate_kind k, double *scratch,
		 struct estimate *out)
{
	out->value = out->lo = out->hi = NAN;
	out->n = n;
	if (n == 0)
		return;
	if (k == ESTIMATE_MEAN) {
		estimate_mean(x, n, out);
		return;
	}
	memcpy(scratch, x, n * sizeof(*x));
	stats_sort(scratch, n);
	if (k == ESTIMATE_TRIMMED)
		estimate_trimmed(scratch, n, out);
	else if (k == ESTIMATE_MIN)
		estimate_min(scratch, n, out);
	else
		estimate_median(scratch, n, out);
}

double estimate_rel_halfwidth(const struct estimate *e)
{
	if (!isfinite(e->lo) || !isfinite(e->hi) || !isfinite(e->value) || e->value == 0)
		return INFINITY;
	return (e->hi - e->lo) / 2.0 / fabs(e->value);
}

bool estimate_meets(const struct estimate *e, double target)
{
	return target > 0 && e->n >= ESTIMATE_PRECISION_MIN_RUNS &&
	       estimate_rel_halfwidth(e) <= target;
}
