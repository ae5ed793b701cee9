/* Tests for profilebudget: predictions from the traced points, the budget's yes and no. */
#include <math.h>

#include "harness.h"
#include "profilebudget.h"

#define MS 1000000ull

static void test_first_point_always_traced(void)
{
	struct profilebudget b;
	struct errbuf eb = {0};
	double p = -1;

	CHECK_INT_EQ(profilebudget_init(&b, 2, 15, 1000 * MS, &eb), 0);
	CHECK(fabs(b.limit_ns - 150.0 * MS) < 1);
	profilebudget_spend(&b, 10000 * MS); /* far over */
	CHECK(profilebudget_allows(&b, 0, 1000, &p));
	CHECK(p == 0);
	profilebudget_record(&b, 0, 1000, 1000, 10 * MS);
	CHECK(!profilebudget_allows(&b, 0, 1000, NULL));
	CHECK(profilebudget_allows(&b, 1, 5000, NULL));
	profilebudget_clear(&b);
}

static void test_affine_prediction(void)
{
	struct profilebudget b;
	struct errbuf eb = {0};

	CHECK_INT_EQ(profilebudget_init(&b, 1, 15, 1000 * MS, &eb), 0);
	/* One read per byte plus 100 calls; 10 us a call. */
	profilebudget_record(&b, 0, 1000, 1100, 11 * MS);
	/* One point: proportional to the policy (overestimates the 100 fixed calls). */
	CHECK(fabs(profilebudget_predict(&b, 0, 2000) - 22.0 * MS) < 1);
	profilebudget_record(&b, 0, 2000, 2100, 21 * MS);
	/* Two: the affine fit of the counts, times the last time per call. */
	CHECK(fabs(profilebudget_predict(&b, 0, 10000) - 10100 * (21.0 * MS / 2100)) < 1);
	CHECK(fabs(b.spent_ns - 32.0 * MS) < 1);
	/* 32 ms spent of 150: 101 ms predicted fits, 1 001 ms does not. */
	CHECK(profilebudget_allows(&b, 0, 10000, NULL));
	CHECK(!profilebudget_allows(&b, 0, 100000, NULL));
	profilebudget_clear(&b);
}

static void test_flat_cost_stays_flat(void)
{
	struct profilebudget b;
	struct errbuf eb = {0};

	CHECK_INT_EQ(profilebudget_init(&b, 1, 15, 1000 * MS, &eb), 0);
	profilebudget_record(&b, 0, 300, 200, 40 * MS);
	profilebudget_record(&b, 0, 600, 200, 42 * MS);
	/* The calls do not grow with the policy: the next point costs what the last did. */
	CHECK(fabs(profilebudget_predict(&b, 0, 3000000) - 42.0 * MS) < 1);
	/* Counts that fell (another path) never predict a negative cost. */
	profilebudget_record(&b, 0, 900, 150, 30 * MS);
	CHECK(profilebudget_predict(&b, 0, 3000000) >= 0);
	profilebudget_clear(&b);
}

static void test_no_budget(void)
{
	struct profilebudget b;
	struct errbuf eb = {0};

	CHECK_INT_EQ(profilebudget_init(&b, 1, 0, 1000 * MS, &eb), 0);
	profilebudget_record(&b, 0, 10, 10, 1000 * MS);
	CHECK(profilebudget_allows(&b, 0, 1u << 30, NULL));
	profilebudget_clear(&b);
	profilebudget_clear(&b); /* a cleared budget clears again */
}

/* A point's cost beyond its runs (policies, grants) is spent, and refuses the next point when
 * it no longer fits; the reason names what was spent. */
static void test_point_overhead(void)
{
	struct profilebudget b;
	struct errbuf eb = {{0}};
	char why[200];

	/* 10 % of 100 s: 10 s */
	CHECK_INT_EQ(profilebudget_init(&b, 1, 10, 100000000000ull, &eb), 0);
	profilebudget_record(&b, 0, 100, 1000, 2000000000ull);
	/* the point took 5 s, 2 s of it runs: 3 s of policy writes spent too */
	profilebudget_point_done(&b, 5000000000ull, 2000000000ull);
	CHECK(fabs(b.spent_ns - 5e9) < 1);
	CHECK(fabs(b.point_overhead_ns - 3e9) < 1);
	CHECK(profilebudget_point_allowed(&b)); /* 5 + 3 <= 10 */
	profilebudget_spend(&b, 3000000000ull);
	CHECK(!profilebudget_point_allowed(&b)); /* 8 + 3 > 10 */
	profilebudget_explain(&b, 10, why, sizeof(why));
	CHECK_STR_EQ(why, "profile budget: 8.0 s spent, 2.0 s left of 10.0 s (10 % of 100.0 s of "
			  "timed runs)");
	profilebudget_clear(&b);
	/* no budget: every point */
	CHECK_INT_EQ(profilebudget_init(&b, 1, 0, 100000000000ull, &eb), 0);
	profilebudget_point_done(&b, 50000000000ull, 0);
	CHECK(profilebudget_point_allowed(&b));
	profilebudget_clear(&b);
}

int main(void)
{
	RUN(test_point_overhead);
	RUN(test_first_point_always_traced);
	RUN(test_affine_prediction);
	RUN(test_flat_cost_stays_flat);
	RUN(test_no_budget);
	return HARNESS_EXIT();
}
