/* verdict: improved / regressed / no change of a ratio with its interval, as criterion.rs decides,
 * and its changelog wording (pure). */
#ifndef RARPERF_VERDICT_H
#define RARPERF_VERDICT_H

#include <stddef.h>

#include "paired.h"

#define VERDICT_DEFAULT_NOISE 0.02

enum verdict_kind {
	VERDICT_NO_CHANGE, /* the interval reaches into [-noise, +noise] */
	VERDICT_IMPROVED,  /* the whole interval below -noise: the candidate is faster */
	VERDICT_REGRESSED, /* the whole interval above +noise: the candidate is slower */
	VERDICT_UNKNOWN    /* no interval (or no value): nothing can be said */
};

/*
 * The verdict on r (a ratio of times candidate / baseline: lower is better)
 * with the noise threshold noise (0.02 = 2 %): regressed when r.lo - 1 >
 * noise, improved when r.hi - 1 < -noise, else no change; unknown when the
 * value or an end of the interval is not finite.
 */
enum verdict_kind verdict_judge(const struct paired_ratio *r, double noise);

/* "improved", "regressed", "no change", "unknown". */
const char *verdict_name(enum verdict_kind v);

/*
 * "-21 % [-25, -17]" (with U+2212 minus signs and explicit plus signs) for
 * the ratio r as a percent change: one decimal when every number is below
 * 10 in magnitude, none otherwise; "n/a" parts when not finite. Into buf.
 */
void verdict_format_pct(const struct paired_ratio *r, char *buf, size_t size);

/* The same from the percentages v, lo, hi (100 (ratio - 1) each). */
void verdict_format_pct_values(double v, double lo, double hi, char *buf, size_t size);

/*
 * One comparison as every reader prints it (report.md's tables, its claims,
 * rarplot --compare): "+4.6 % [+4.1, +5.1] (regressed)", verdict_judge with
 * noise; "undefined: WHAT 0" when base (the baseline's intercept or slope,
 * WHAT) is 0 or not finite, where a ratio means nothing.
 */
void verdict_format_change(const struct paired_ratio *r, double base, const char *what,
			   double noise, char *buf, size_t size);

#endif
