/* test_verdict: criterion's rule on a ratio's interval and the changelog wording. */
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
	CHECK_INT_EQ(verdict_judge(&flat, 0.02), VERDICT_NO_CHANGE);
	/* The interval reaches within the noise: no change, however far its value. */
	CHECK_INT_EQ(verdict_judge(&edge, 0.02), VERDICT_NO_CHANGE);
	CHECK_INT_EQ(verdict_judge(&edge, 0.01), VERDICT_REGRESSED);
	CHECK_INT_EQ(verdict_judge(&none, 0.02), VERDICT_UNKNOWN);
	CHECK_STR_EQ(verdict_name(VERDICT_NO_CHANGE), "no change");
	CHECK_STR_EQ(verdict_name(VERDICT_REGRESSED), "regressed");
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
	RUN(test_format);
	return HARNESS_EXIT();
}
