/* verdict: improved / regressed / no change / inconclusive of a ratio with its interval, the
 * change it could have detected, and its changelog wording (pure). */
#ifndef RARPERF_VERDICT_H
#define RARPERF_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "paired.h"

#define VERDICT_DEFAULT_NOISE 0.02

/*
 * The rule, with t the threshold (--noise, 2 %) and [lo, hi] the interval of the change
 * (ratio - 1): regressed when lo > t (the whole interval above the threshold: it excludes 0 and
 * every value in it is a change beyond t); improved when hi < -t; no change when -t <= lo and
 * hi <= t (equivalence: every value in the interval is within the threshold); otherwise
 * inconclusive (the interval reaches across +t or -t: it cannot tell a change beyond the
 * threshold from one within it). "No change" therefore never means "could not tell".
 */
enum verdict_kind {
	VERDICT_NO_CHANGE,    /* the whole interval within [-t, +t] */
	VERDICT_IMPROVED,     /* the whole interval below -t: the candidate is faster */
	VERDICT_REGRESSED,    /* the whole interval above +t: the candidate is slower */
	VERDICT_INCONCLUSIVE, /* the interval reaches across -t or +t */
	VERDICT_UNKNOWN       /* no interval (or no value): nothing can be said */
};

/*
 * The verdict on r (a ratio of times candidate / baseline: lower is better)
 * with the threshold noise (0.02 = 2 %), by the rule above; unknown when the
 * value or an end of the interval is not finite.
 */
enum verdict_kind verdict_judge(const struct paired_ratio *r, double noise);

/* "improved", "regressed", "no change", "inconclusive", "unknown". */
const char *verdict_name(enum verdict_kind v);

/*
 * The smallest change r's comparison could have detected, as a fraction
 * (0.031 = 3.1 %): the half-width of its 95 % interval, (hi - lo) / 2. A true
 * change smaller than this cannot be told from none; "no change" needs it at
 * or below the threshold, and a change must exceed threshold + it to come out
 * regressed or improved. NaN without an interval.
 */
double verdict_detectable(const struct paired_ratio *r);

/*
 * "-21 % [-25, -17]" (with U+2212 minus signs and explicit plus signs) for
 * the ratio r as a percent change: one decimal when every number is below
 * 10 in magnitude, none otherwise; "n/a" parts when not finite. Into buf.
 */
void verdict_format_pct(const struct paired_ratio *r, char *buf, size_t size);

/* The same from the percentages v, lo, hi (100 (ratio - 1) each). */
void verdict_format_pct_values(double v, double lo, double hi, char *buf, size_t size);

/* "±3.1 %" (one decimal below 10, none above; "n/a" without an interval): verdict_detectable. */
void verdict_format_detectable(const struct paired_ratio *r, char *buf, size_t size);

/*
 * One comparison as every reader prints it (report.md's tables, its claims,
 * rarplot --compare): "+4.6 % [+4.1, +5.1] (regressed)", verdict_judge with
 * noise; "undefined: WHAT 0" when base (the baseline's intercept or slope,
 * WHAT) is 0 or not finite, where a ratio means nothing.
 */
void verdict_format_change(const struct paired_ratio *r, double base, const char *what,
			   double noise, char *buf, size_t size);

/*
 * verdict_name's words between two different tools: one tool does not regress against another,
 * it costs more or less, "higher" for regressed, "lower" for improved, "no difference" for no
 * change (the rest as verdict_name). tools false: verdict_name (versions of one tool, an A/A).
 */
const char *verdict_name_tools(enum verdict_kind v, bool tools);

/* verdict_format_change in verdict_name_tools' words: "+56 % [+52, +60] (higher)". */
void verdict_format_change_tools(const struct paired_ratio *r, double base, const char *what,
				 double noise, bool tools, char *buf, size_t size);

#endif
