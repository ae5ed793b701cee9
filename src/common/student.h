/* student: quantiles of Student's t and of the binomial(n, 1/2) for 95 % intervals (pure). */
#ifndef RARPERF_STUDENT_H
#define RARPERF_STUDENT_H

#include <stddef.h>

/*
 * The two-sided 95 % quantile of Student's t with df degrees of freedom
 * (the upper 0.975 point): 12.706 for 1, 2.179 for 12, 1.960 as df grows.
 * Exact to 4 decimals for df <= 30 (a table), a Cornish-Fisher expansion
 * within 1e-4 above. df 0 gives NAN.
 */
double student_t95(size_t df);

/*
 * The ranks of the distribution-free 95 % interval of a median from n
 * samples: the interval runs from the k-th smallest to the k-th largest
 * sample, k the largest rank with P(Binomial(n, 1/2) < k) <= 0.025.
 * Returns k (1-based), or 0 when n < 6, where no pair of order statistics
 * reaches 95 %. Exact (log-space binomial sums) up to 10^6 samples, the
 * normal approximation above.
 */
size_t student_median_rank95(size_t n);

#endif
