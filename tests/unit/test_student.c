/* Tests for student: t quantiles and the ranks of the median's distribution-free 95 % interval. */
#include <math.h>

#include "harness.h"
#include "student.h"

static void test_t95(void)
{
	CHECK(isnan(student_t95(0)));
	CHECK(fabs(student_t95(1) - 12.7062) < 1e-4);
	CHECK(fabs(student_t95(12) - 2.1788) < 1e-4);
	CHECK(fabs(student_t95(30) - 2.0423) < 1e-4);
	/* scipy.stats.t.ppf(0.975, 100) = 1.98397 */
	CHECK(fabs(student_t95(100) - 1.98397) < 1e-4);
	CHECK(fabs(student_t95(1000000) - 1.959964) < 1e-4);
}

/* Exact binomial ranks (python: the largest k with sum_{j<k} C(n,j)/2^n <= 0.025). */
static void test_median_ranks(void)
{
	CHECK_INT_EQ(student_median_rank95(0), 0);
	CHECK_INT_EQ(student_median_rank95(5), 0);
	CHECK_INT_EQ(student_median_rank95(6), 1);
	CHECK_INT_EQ(student_median_rank95(7), 1);
	CHECK_INT_EQ(student_median_rank95(10), 2);
	CHECK_INT_EQ(student_median_rank95(20), 6);
	CHECK_INT_EQ(student_median_rank95(30), 10);
	CHECK_INT_EQ(student_median_rank95(100), 40);
	CHECK_INT_EQ(student_median_rank95(1000), 469);
	/* above 10^6 samples: the normal approximation */
	CHECK_INT_EQ(student_median_rank95(2000000), 998614);
}

int main(void)
{
	RUN(test_t95);
	RUN(test_median_ranks);
	return HARNESS_EXIT();
}
