/* test_verdict: the rule on a ratio's interval (equivalence for no change, inconclusive across
 * the threshold), the detectable change, and the changelog wording. */
#include <math.h>

#include "harness.h"
#include "verdict.h"

static void test_judge(void)
{
	struct paired_ratio up = {1.21, 1.17, 1.25}, down = {0.79, 0.75, 0.83};
	struct paired_ratio flat = {1.004, 0.982, 1.026}, edge = {1.03, 1.019, 1.04};
	struct paired_ratio none = {1.1, NAN, NAN};

	CHECK_INT_EQ(verdict_judge(&up, 0.02), VERDICT_REGRESSED);
	CHECK_INT_EQ(verdict_judge(&down, 0.02), VERDICT_IMPROVED);
	/* Within ±2 % on both sides: equivalence, no change. */
	CHECK_INT_EQ(verdict_judge(&flat, 0.01 + 0.026), VERDICT_NO_CHANGE);
	CHECK_INT_EQ(verdict_judge(&flat, 0.02), VERDICT_INCONCLUSIVE);
	/* The interval reaches across +2 %: could be a change of 1.9 % or of 4 %: inconclusive,
	 * never "no change" (it was before issue 46). */
	CHECK_INT_EQ(verdict_judge(&edge, 0.02), VERDICT_INCONCLUSIVE);
	CHECK_INT_EQ(verdict_judge(&edge, 0.01), VERDICT_REGRESSED);
	CHECK_INT_EQ(verdict_judge(&none, 0.02), VERDICT_UNKNOWN);
	CHECK_STR_EQ(verdict_name(VERDICT_NO_CHANGE), "no change");
	CHECK_STR_EQ(verdict_name(VERDICT_REGRESSED), "regressed");
	CHECK_STR_EQ(verdict_name(VERDICT_INCONCLUSIVE), "inconclusive");
}

/* Between two tools a verdict is a cost, higher or lower (issue 55: "sudo-rs +56 % (regressed)"
 * against sudo); within one tool, a regression or an improvement. */
static void test_tool_words(void)
{
	struct paired_ratio up = {1.56, 1.52, 1.60};
	char buf[128];

	CHECK_STR_EQ(verdict_name_tools(VERDICT_REGRESSED, true), "higher");
	CHECK_STR_EQ(verdict_name_tools(VERDICT_IMPROVED, true), "lower");
	CHECK_STR_EQ(verdict_name_tools(VERDICT_NO_CHANGE, true), "no difference");
	CHECK_STR_EQ(verdict_name_tools(VERDICT_INCONCLUSIVE, true), "inconclusive");
	CHECK_STR_EQ(verdict_name_tools(VERDICT_REGRESSED, false), "regressed");
	CHECK_STR_EQ(verdict_name_tools(VERDICT_IMPROVED, false), "improved");
	verdict_format_change_tools(&up, 1.0, "intercept", 0.02, true, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "+56 % [+52, +60] (higher)");
	verdict_format_change(&up, 1.0, "intercept", 0.02, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "+56 % [+52, +60] (regressed)");
}

/* The two cases: they said "no change" and could not tell. */
static void test_inconclusive(void)
{
	struct paired_ratio slope = {2.52, -0.78, 5.82}, gate = {0.97, 0.79, 1.19};
	struct paired_ratio aa = {1.002, 0.995, 1.009}, lower = {0.985, 0.97, 0.999};
	struct paired_ratio at_edge = {1.0, 0.98, 1.02};

	CHECK_INT_EQ(verdict_judge(&slope, 0.02), VERDICT_INCONCLUSIVE);
	CHECK_INT_EQ(verdict_judge(&gate, 0.02), VERDICT_INCONCLUSIVE);
	/* A precise A/A: no change. */
	CHECK_INT_EQ(verdict_judge(&aa, 0.02), VERDICT_NO_CHANGE);
	/* Significantly lower, but maybe by less than the threshold: inconclusive, not improved. */
	CHECK_INT_EQ(verdict_judge(&lower, 0.02), VERDICT_INCONCLUSIVE);
	/* The interval's ends on the threshold count as within it. */
	CHECK_INT_EQ(verdict_judge(&at_edge, 0.02), VERDICT_NO_CHANGE);
	/* Threshold 0: only a single point is no change; anything excluding 1 is a change. */
	CHECK_INT_EQ(verdict_judge(&aa, 0.0), VERDICT_INCONCLUSIVE);
	CHECK_INT_EQ(verdict_judge(&lower, 0.0), VERDICT_IMPROVED);
}

static void test_detectable(void)
{
	struct paired_ratio gate = {0.97, 0.79, 1.19}, aa = {1.002, 0.995, 1.009};
	struct paired_ratio none = {1.1, NAN, NAN};
	char buf[32];

	CHECK(fabs(verdict_detectable(&gate) - 0.20) < 1e-12);
	CHECK(fabs(verdict_detectable(&aa) - 0.007) < 1e-12);
	CHECK(isnan(verdict_detectable(&none)));
	verdict_format_detectable(&gate, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "\u00b120 %");
	verdict_format_detectable(&aa, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "\u00b10.7 %");
	verdict_format_detectable(&none, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "n/a");
}

static void test_format(void)
{
	struct paired_ratio a = {0.79, 0.75, 0.83}, b = {1.004, 0.982, 1.026};
	struct paired_ratio c = {1.0, 0.9996, 1.0004}, d = {1.1, NAN, NAN};
	char buf[96];

	verdict_format_pct(&a, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "\u221221 % [\u221225, \u221217]");
	verdict_format_pct(&b, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "+0.4 % [\u22121.8, +2.6]");
	verdict_format_pct(&c, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "0.0 % [0.0, 0.0]");
	verdict_format_pct(&d, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "+10 % [no interval]");
}

int main(void)
{
	RUN(test_judge);
	RUN(test_tool_words);
	RUN(test_inconclusive);
	RUN(test_detectable);
	RUN(test_format);
	return HARNESS_EXIT();
}
