/* stats: pure descriptive statistics over samples (no I/O, no allocation). */
#ifndef RARPERF_STATS_H
#define RARPERF_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Modified Z-score threshold above which a sample is an outlier: 1.4826 * 10,
 * hyperfine's OUTLIER_THRESHOLD (|x - median| / MAD > 14.826).
 */
#define STATS_OUTLIER_THRESHOLD 14.826

/* A summary of n samples, in the unit of the input (nanoseconds for times). */
struct stats_summary {
	size_t n;
	double mean;
	double stddev; /* sample standard deviation (n - 1); NAN when n < 2 */
	double median; /* middle value, or the mean of the two middle values */
	double q1,
	    q3; /* quartiles, linear interpolation between order statistics (numpy default) */
	double min, max;
};

/* Arithmetic mean of x[0..n); 0 for n == 0. */
double stats_mean(const double *x, size_t n);

/* Sample standard deviation around mean (n - 1 in the denominator); NAN for n < 2. */
double stats_stddev(const double *x, size_t n, double mean);

/* Sorts x in place, ascending. */
void stats_sort(double *x, size_t n);

/*
 * The q-quantile (0 <= q <= 1) of an ascending-sorted array, interpolating
 * linearly between the two nearest order statistics; NAN for n == 0.
 * q = 0.5 is the median.
 */
double stats_quantile_sorted(const double *sorted, size_t n, double q);

/*
 * Summarises x[0..n) into *out. scratch must hold n doubles; it is either x
 * itself (x is then left sorted) or aliases nothing else (x is not
 * modified). n == 0 gives n = 0 and NAN fields.
 */
void stats_summarize(const double *x, size_t n, double *scratch, struct stats_summary *out);

/* Same, for integer samples (nanoseconds): converts into scratch, then summarises scratch. */
void stats_summarize_u64(const uint64_t *x, size_t n, double *scratch, struct stats_summary *out);

/*
 * Modified Z-score of each sample, hyperfine's way: (x - median) / MAD,
 * MAD = median |x - median|, with MAD replaced by DBL_EPSILON when it is 0.
 * Writes n scores into z; scratch must hold n doubles.
 */
void stats_modified_zscores(const double *x, size_t n, double *scratch, double *z);

#endif
