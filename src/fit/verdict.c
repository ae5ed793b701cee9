/* verdict: improved / regressed / no change / inconclusive of a ratio with its interval
 * (verdict.h). */
#include "verdict.h"

#include <math.h>
#include <stdio.h>

/* An end this close to the threshold is on it: 0.98 - 1 is not exactly -0.02 in binary. */
#define VERDICT_EDGE 1e-12

enum verdict_kind verdict_judge(const struct paired_ratio *r, double noise)
{
	if (!isfinite(r->value) || !isfinite(r->lo) || !isfinite(r->hi))
		return VERDICT_UNKNOWN;
	if (r->lo - 1 > noise + VERDICT_EDGE)
		return VERDICT_REGRESSED;
	if (r->hi - 1 < -noise - VERDICT_EDGE)
		return VERDICT_IMPROVED;
	if (r->lo - 1 >= -noise - VERDICT_EDGE && r->hi - 1 <= noise + VERDICT_EDGE)
		return VERDICT_NO_CHANGE;
	return VERDICT_INCONCLUSIVE;
}

double verdict_detectable(const struct paired_ratio *r)
{
	if (!isfinite(r->lo) || !isfinite(r->hi))
		return NAN;
	return (r->hi - r->lo) / 2;
}

const char *verdict_name(enum verdict_kind v)
{
	switch (v) {
	case VERDICT_IMPROVED:
		return "improved";
	case VERDICT_REGRESSED:
		return "regressed";
	case VERDICT_NO_CHANGE:
		return "no change";
	case VERDICT_INCONCLUSIVE:
		return "inconclusive";
	case VERDICT_UNKNOWN:
		break;
	}
	return "unknown";
}

/* One signed number, rounded to decimals first so that -0.04 prints as 0.0. */
static void verdict_signed(double pct, int decimals, char *buf, size_t size)
{
	double scale = decimals ? 10.0 : 1.0, v = round(pct * scale) / scale;

	if (!isfinite(pct))
		snprintf(buf, size, "n/a");
	else if (v < 0)
		snprintf(buf, size, "\u2212%.*f", decimals, -v);
	else if (v > 0)
		snprintf(buf, size, "+%.*f", decimals, v);
	else
		snprintf(buf, size, "%.*f", decimals, 0.0);
}

void verdict_format_pct_values(double v, double lo, double hi, char *buf, size_t size)
{
	double big = fabs(v);
	char a[32], b[32], c[32];
	int d;

	if (isfinite(lo) && fabs(lo) > big)
		big = fabs(lo);
	if (isfinite(hi) && fabs(hi) > big)
		big = fabs(hi);
	d = big >= 9.95 ? 0 : 1;
	verdict_signed(v, d, a, sizeof(a));
	verdict_signed(lo, d, b, sizeof(b));
	verdict_signed(hi, d, c, sizeof(c));
	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, size, "%s %% [%s, %s]", a, b, c);
	else
		snprintf(buf, size, "%s %% [no interval]", a);
}

void verdict_format_detectable(const struct paired_ratio *r, char *buf, size_t size)
{
	double d = 100 * verdict_detectable(r);

	if (!isfinite(d))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "\u00b1%.*f %%", d < 9.95 ? 1 : 0, d);
}

void verdict_format_pct(const struct paired_ratio *r, char *buf, size_t size)
{
	verdict_format_pct_values(100 * (r->value - 1), 100 * (r->lo - 1), 100 * (r->hi - 1), buf,
				  size);
}

const char *verdict_name_tools(enum verdict_kind v, bool tools)
{
	if (tools && v == VERDICT_REGRESSED)
		return "higher";
	if (tools && v == VERDICT_IMPROVED)
		return "lower";
	if (tools && v == VERDICT_NO_CHANGE)
		return "no difference";
	return verdict_name(v);
}

void verdict_format_change(const struct paired_ratio *r, double base, const char *what,
			   double noise, char *buf, size_t size)
{
	verdict_format_change_tools(r, base, what, noise, false, buf, size);
}

void verdict_format_change_tools(const struct paired_ratio *r, double base, const char *what,
				 double noise, bool tools, char *buf, size_t size)
{
	char pct[96];

	if (base == 0 || !isfinite(base)) {
		/* A ratio over 0 is no number: -nan% said nothing. */
		snprintf(buf, size, "undefined: %s 0", what);
		return;
	}
	verdict_format_pct(r, pct, sizeof(pct));
	snprintf(buf, size, "%s (%s)", pct, verdict_name_tools(verdict_judge(r, noise), tools));
}
