/* changepoint: steps in a release history, by a t test of each adjacent pair of releases with
 * Holm's control of the family-wise error rate (pure, no I/O). */
#ifndef RARPERF_CHANGEPOINT_H
#define RARPERF_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The method (doc/history.md): the history is a sequence of releases in version order, each with
 * an estimate (a fitted intercept or slope), its standard error and its degrees of freedom, the
 * estimates independent of each other. Each adjacent pair i, i + 1 is tested: d = v[i+1] - v[i],
 * se = sqrt(se[i]^2 + se[i+1]^2), t = d / se with Welch-Satterthwaite's degrees of freedom, a
 * two-sided p value. Every test of the family (all series of a history: intercept and slope of
 * each storage) goes through Holm's step-down procedure, which keeps the probability of any
 * false step at most alpha whatever the tests' dependence. A step is a pair whose Holm-adjusted
 * p is below alpha AND whose change is at least min_rel_pct of the earlier release's value: a
 * difference that is certain but smaller than that is no step worth a name.
 *
 * Only adjacent pairs are tested, so a step is placed at the first release whose value differs
 * from the one before; a slow drift over many releases, each step below min_rel_pct, is not found
 * (a limit of the method, said in the report).
 */
struct changepoint_test {
	size_t series;  /* the caller's index of the series the test belongs to */
	size_t after;   /* the step lies between release after and after + 1 */
	double diff;    /* v[after + 1] - v[after] */
	double se;      /* its standard error */
	double df;      /* Welch-Satterthwaite degrees of freedom */
	double t;       /* diff / se */
	double p;       /* two-sided p value */
	double p_holm;  /* Holm-adjusted p value (changepoint_holm) */
	double rel_pct; /* 100 diff / |v[after]| (NAN when v[after] is 0) */
	bool step;      /* p_holm < alpha and |rel_pct| >= min_rel_pct */
};

/* The default family-wise error rate and smallest relative change (rarplot --history). */
#define CHANGEPOINT_ALPHA 0.05
#define CHANGEPOINT_MIN_REL_PCT 3.0

/*
 * The two-sided p value of Student's t with df degrees of freedom (df > 0, not necessarily an
 * integer): P(|T| >= |t|). df infinite or above 1e7 is the normal. NAN for a NAN t or df <= 0.
 */
double changepoint_t_p(double t, double df);

/*
 * Tests the n - 1 adjacent pairs of one series, value[i] ± se[i] with df[i] degrees of freedom
 * (i < n), into out[0 .. n-2], each with series = series; p_holm and step are left for
 * changepoint_holm. A pair with a value or se not finite, or an se or df not positive, gets
 * p = 1 (never a step). Returns the number of tests written (n - 1, or 0 when n < 2).
 */
size_t changepoint_adjacent(const double *value, const double *se, const double *df, size_t n,
			    size_t series, struct changepoint_test *out);

/*
 * Holm's step-down procedure over the n tests t (any order, any series): p_holm of the k-th
 * smallest p (k from 0) is the running maximum of min(1, (n - k) p); then step as described
 * above. Pure; t is reordered back as given.
 */
void changepoint_holm(struct changepoint_test *t, size_t n, double alpha, double min_rel_pct);

#endif
