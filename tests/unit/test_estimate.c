/* Tests for estimate: each estimator and its 95 % interval against hand-computed values, and the
 * precision rule. */
#include <math.h>
#include <string.h>

#include "estimate.h"
#include "harness.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

static void test_names(void)
{
	enum estimate_kind k = ESTIMATE_MEAN;

	CHECK_STR_EQ(estimate_kind_name(ESTIMATE_MEDIAN), "median");
	CHECK_STR_EQ(estimate_kind_name(ESTIMATE_TRIMMED), "trimmed");
	CHECK_STR_EQ(estimate_kind_name((enum estimate_kind)9), "?");
	CHECK_INT_EQ(estimate_kind_parse("min", &k), 0);
	CHECK_INT_EQ(k, ESTIMATE_MIN);
	CHECK_INT_EQ(estimate_kind_parse("cpu-median", &k), 0);
	CHECK_INT_EQ(k, ESTIMATE_CPU_MEDIAN);
	CHECK_STR_EQ(estimate_kind_name(ESTIMATE_CPU_MEDIAN), "cpu-median");
	CHECK_INT_EQ(estimate_kind_parse("mode", &k), -1);
	/* The names manifests spell (manifest_precision.c parses them through this table). */
	CHECK_STR_EQ(estimate_contended_name(ESTIMATE_CONTENDED_CORRECT), "correct");
	CHECK_STR_EQ(estimate_contended_name(ESTIMATE_CONTENDED_DROP), "drop");
	CHECK_STR_EQ(estimate_contended_name(ESTIMATE_CONTENDED_KEEP), "keep");
	CHECK_STR_EQ(estimate_contended_name((enum estimate_contended)ESTIMATE_CONTENDED_COUNT),
		     "?");
}

static void test_mean_t_interval(void)
{
	double x[] = {5, 1, 4, 2, 3}, scratch[5];
	struct estimate e;

	/* mean 3, s = sqrt(2.5), t(4) = 2.7764: 3 -/+ 2.7764 * 1.58114 / sqrt(5) */
	estimate_of(x, 5, ESTIMATE_MEAN, scratch, &e);
	CHECK(NEAR(e.value, 3.0, 1e-12));
	CHECK(NEAR(e.lo, 3.0 - 2.7764 * sqrt(2.5) / sqrt(5.0), 1e-9));
	CHECK(NEAR(e.hi, 3.0 + 2.7764 * sqrt(2.5) / sqrt(5.0), 1e-9));
	CHECK_INT_EQ(e.n, 5);
	estimate_of(x, 1, ESTIMATE_MEAN, scratch, &e);
	CHECK(NEAR(e.value, 5.0, 0) && isnan(e.lo) && isnan(e.hi));
}

static void test_median_order_statistics(void)
{
	double x[] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, scratch[10];
	struct estimate e;

	/* n = 10: ranks 2 and 9 (coverage 97.9 %) */
	estimate_of(x, 10, ESTIMATE_MEDIAN, scratch, &e);
	CHECK(NEAR(e.value, 5.5, 1e-12));
	CHECK(NEAR(e.lo, 2.0, 0) && NEAR(e.hi, 9.0, 0));
	CHECK(NEAR(x[0], 10.0, 0)); /* input untouched */
	/* n = 5: no pair of order statistics reaches 95 % */
	estimate_of(x, 5, ESTIMATE_MEDIAN, scratch, &e);
	CHECK(NEAR(e.value, 8.0, 0) && isnan(e.lo) && isnan(e.hi));
}

static void test_trimmed_tukey_mclaughlin(void)
{
	double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, scratch[10];
	struct estimate e;

	/* g = 2: mean of 3..8 = 5.5; winsorized sd = sqrt(42.5 / 9); se = sd / (0.6 sqrt(10));
	 * df = 10 - 4 - 1 = 5, t = 2.5706: half-width 2.94411 */
	estimate_of(x, 10, ESTIMATE_TRIMMED, scratch, &e);
	CHECK(NEAR(e.value, 5.5, 1e-12));
	CHECK(NEAR(e.hi - e.value, 2.94411, 1e-4));
	CHECK(NEAR(e.value - e.lo, 2.94411, 1e-4));
}

static void test_min_robson_whitlock(void)
{
	double x[] = {9, 5, 7}, scratch[3];
	struct estimate e;

	estimate_of(x, 3, ESTIMATE_MIN, scratch, &e);
	CHECK(NEAR(e.value, 5.0, 0));
	CHECK(NEAR(e.lo, 5.0 - 19.0 * 2.0, 1e-12));
	CHECK(NEAR(e.hi, 5.0, 0));
}

static void test_precision_rule(void)
{
	struct estimate e = {.value = 100, .lo = 99, .hi = 101, .n = 6};

	CHECK(NEAR(estimate_rel_halfwidth(&e), 0.01, 1e-12));
	CHECK(estimate_meets(&e, 0.01));
	CHECK(!estimate_meets(&e, 0.0099));
	CHECK(!estimate_meets(&e, 0)); /* no target: never met */
	e.n = 5;                       /* too few runs to be evidence */
	CHECK(!estimate_meets(&e, 0.5));
	e.n = 50;
	e.lo = NAN;
	CHECK(isinf(estimate_rel_halfwidth(&e)));
	CHECK(!estimate_meets(&e, 0.5));
}

int main(void)
{
	RUN(test_names);
	RUN(test_mean_t_interval);
	RUN(test_median_order_statistics);
	RUN(test_trimmed_tukey_mclaughlin);
	RUN(test_min_robson_whitlock);
	RUN(test_precision_rule);
	return HARNESS_EXIT();
}
