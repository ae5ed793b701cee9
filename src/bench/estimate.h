/* estimate: the central estimate of a point's runs (median, mean, trimmed mean, minimum) with its
 * 95 % confidence interval, and the precision rule (pure, no I/O, no allocation). */
#ifndef RARPERF_ESTIMATE_H
#define RARPERF_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>

/* The fraction trimmed from each end by ESTIMATE_TRIMMED (Wilcox's 20 %). */
#define ESTIMATE_TRIM_FRACTION 0.2
/* Fewer runs than this never meet a precision target (a CI from 2 runs is not evidence). */
#define ESTIMATE_PRECISION_MIN_RUNS 6

/* The per-point statistic; named by estimate_kind_name (the table lists them in enum order). */
enum estimate_kind {
	ESTIMATE_MEDIAN,  /* distribution-free order-statistic interval (binomial ranks) */
	ESTIMATE_MEAN,    /* Student's t interval */
	ESTIMATE_TRIMMED, /* 20 % trimmed mean, Tukey-McLaughlin interval (winsorized variance) */
	ESTIMATE_MIN,     /* the smallest run, Robson-Whitlock interval for the lower end point */
	/* The median of the runs' CPU time (user + system of the program and the children it
	 * reaped), not of their wall time, with the median's interval: no wait for a CPU, a child
	 * or I/O is in it, so a busy host moves every tool alike (doc/precision.md: -6 to +2 %
	 * beside two CPU hogs where the wall-time median moved +24 to +154 %). */
	ESTIMATE_CPU_MEDIAN
};
#define ESTIMATE_KIND_COUNT 5

/*
 * An estimate over n values, in their unit. lo and hi bound the 95 %
 * interval; they are NAN when n is too small for one (median: n < 6,
 * mean and trimmed mean: n < 2, minimum: n < 2).
 */
struct estimate {
	double value, lo, hi;
	size_t n;
};

/*
 * What the estimate does with a contended run (contention.h: one whose
 * off-CPU time exceeds its point's baseline by more than the slack):
 *   keep:    takes its wall time as measured (the default: the raw median,
 *            hyperfine's view; the only treatment selfbench/contention.sh found
 *            neutral between tools, doc/precision.md);
 *   correct: counts it as its CPU time plus the baseline off-CPU time. A tool
 *            that forks, waits for a child or reads files has off-CPU time that
 *            varies without any contention, so it is "corrected" more than a
 *            tool that does not: an option, named in the export and the report;
 *   drop:    leaves it out (falling back to every run below 6 clean ones).
 */
enum estimate_contended {
	ESTIMATE_CONTENDED_CORRECT,
	ESTIMATE_CONTENDED_DROP,
	ESTIMATE_CONTENDED_KEEP
};
/* Every program's default (rarbench -N, manifests, the runner). */
#define ESTIMATE_CONTENDED_DEFAULT ESTIMATE_CONTENDED_KEEP
#define ESTIMATE_CONTENDED_COUNT 3

/* "correct", "drop", "keep"; "?" out of range. */
const char *estimate_contended_name(enum estimate_contended c);

/* "median", "mean", "trimmed", "min", "cpu-median"; "?" out of range. */
const char *estimate_kind_name(enum estimate_kind k);

/* Parses a name into *k. Returns 0, or -1 when s names none. */
int estimate_kind_parse(const char *s, enum estimate_kind *k);

/*
 * The estimate of kind k over x[0..n) into *out. scratch must hold n
 * doubles and alias nothing (x is not modified). n == 0 gives value NAN.
 *   median:  the middle value (mean of the two middle ones); interval from the
 *            k-th smallest to the k-th largest value, k from student_median_rank95
 *            (>= 95 % coverage whatever the distribution);
 *   mean:    mean +/- t95(n - 1) * s / sqrt(n);
 *   trimmed: mean of the middle 1 - 2 * 20 %; +/- t95(n - 2g - 1) * s_w /
 *            ((1 - 2 * 0.2) * sqrt(n)), g = floor(0.2 n), s_w the standard
 *            deviation of the winsorized values;
 *   min:     the smallest value x1; interval [x1 - 19 (x2 - x1), x1] (Robson
 *            and Whitlock's 95 % interval for the end point of a distribution);
 *   cpu-median: as median (the caller passes CPU times: contention_estimate).
 */
void estimate_of(const double *x, size_t n, enum estimate_kind k, double *scratch,
		 struct estimate *out);

/*
 * The half-width of e's interval relative to its value, (hi - lo) / 2 /
 * |value|; INFINITY when the interval is unknown or the value is 0.
 */
double estimate_rel_halfwidth(const struct estimate *e);

/*
 * The precision rule: e meets target (a relative half-width, 0.01 = 1 %)
 * when it rests on at least ESTIMATE_PRECISION_MIN_RUNS values and its
 * relative half-width is at most target. A target <= 0 is never met.
 */
bool estimate_meets(const struct estimate *e, double target);

#endif
