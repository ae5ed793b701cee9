/* reliability: which fits of a report should not be believed, and why; pure (the report's lines on
 * them: src/fitio/reliability_print.h). */
#ifndef RARPERF_RELIABILITY_H
#define RARPERF_RELIABILITY_H

#include "fitreport.h"

/* A fit with R² below this is too poor for its intercept and slope to mean much. */
#define RELIABILITY_MIN_R2 0.9

/*
 * Whether H slopes b[h] with standard errors s[h] disagree beyond their
 * intervals: Cochran's Q = sum ((b - weighted mean) / s)^2 above the 99 %
 * quantile of chi-square with H - 1 degrees of freedom (Wilson-Hilferty).
 * *q gets Q. False for fewer than 2 slopes or a standard error that is not
 * > 0.
 */
bool reliability_hosts_disagree(const double *b, const double *s, size_t h, double *q);

/* A point whose 95 % interval is wider than this fraction of its value, either side, is noisy. */
#define RELIABILITY_NOISY_REL 0.05

/* Whether rarbench flagged point p contended or more than half of its runs were. */
bool reliability_point_contended(const struct plotseries_point *p);

/* Whether p's 95 % interval reaches more than RELIABILITY_NOISY_REL from its value. */
bool reliability_point_noisy(const struct plotseries_point *p);

/* Whether a fit should not rest on point p: contended or noisy (above). */
bool reliability_point_shaky(const struct plotseries_point *p);

/*
 * Whether s's fit rests mostly on shaky points (more than half of them);
 * *shaky gets how many are.
 */
bool reliability_series_unreliable(const struct plotseries *s, size_t *shaky);

#endif
