/* Tests for stats: mean, stddev, median, quartiles, min/max and hyperfine's modified Z-scores. */
#include <math.h>

#include "harness.h"
#include "stats.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static void test_summary_odd(void)
{
	double x[] = {5, 1, 4, 2, 3}, scratch[5];
	struct stats_summary s;

	stats_summarize(x, 5, scratch, &s);
	CHECK_INT_EQ(s.n, 5);
	CHECK(NEAR(s.mean, 3.0));
	CHECK(NEAR(s.stddev, sqrt(2.5)));
	CHECK(NEAR(s.median, 3.0));
	CHECK(NEAR(s.q1, 2.0));
	CHECK(NEAR(s.q3, 4.0));
	CHECK(NEAR(s.min, 1.0));
	CHECK(NEAR(s.max, 5.0));
	CHECK(NEAR(x[0], 5.0)); /* input untouched */
}

static void test_summary_even_median_and_quartiles(void)
{
	double x[] = {4, 1, 3, 2}, scratch[4];
	struct stats_summary s;

	stats_summarize(x, 4, scratch, &s);
	CHECK(NEAR(s.median, 2.5));
	/* numpy.percentile([1,2,3,4], 25) == 1.75, 75 -> 3.25 */
	CHECK(NEAR(s.q1, 1.75));
	CHECK(NEAR(s.q3, 3.25));
}

static void test_one_sample(void)
{
	double x[] = {7}, scratch[1];
	struct stats_summary s;

	stats_summarize(x, 1, scratch, &s);
	CHECK(NEAR(s.mean, 7));
	CHECK(isnan(s.stddev));
	CHECK(NEAR(s.median, 7));
	CHECK(NEAR(s.q1, 7));
}

static void test_empty(void)
{
	struct stats_summary s;
	double scratch[1];

	stats_summarize(NULL, 0, scratch, &s);
	CHECK_INT_EQ(s.n, 0);
	CHECK(isnan(s.mean));
	CHECK(NEAR(stats_mean(NULL, 0), 0.0));
}

static void test_u64(void)
{
	uint64_t x[] = {1000, 3000, 2000};
	double scratch[3];
	struct stats_summary s;

	stats_summarize_u64(x, 3, scratch, &s);
	CHECK(NEAR(s.mean, 2000));
	CHECK(NEAR(s.median, 2000));
	CHECK(NEAR(s.stddev, 1000));
	CHECK(NEAR(s.min, 1000));
	CHECK(NEAR(s.max, 3000));
}

/*
 * stats_summarize_u64 is stats_summarize over the converted samples, bit for
 * bit, and a scratch that is x itself gives what a separate one gives.
 */
static void test_u64_is_summarize(void)
{
	uint64_t x[257];
	double d[257], in_place[257], scratch[257];
	struct stats_summary a, b, c;
	uint64_t v = 88172645463325252ull;

	for (size_t n = 0; n <= 257; n += 1 + n / 3) {
		for (size_t i = 0; i < n; i++) {
			v ^= v << 13; /* xorshift64: ns-sized values with all bits in play */
			v ^= v >> 7;
			v ^= v << 17;
			x[i] = v >> (i % 40);
			d[i] = in_place[i] = (double)x[i];
		}
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		memset(&c, 0, sizeof(c));
		stats_summarize_u64(x, n, scratch, &a);
		stats_summarize(d, n, scratch, &b);
		stats_summarize(in_place, n, in_place, &c);
		CHECK(memcmp(&a, &b, sizeof(a)) == 0);
		CHECK(memcmp(&b, &c, sizeof(b)) == 0);
	}
}

/* The samples report.c flags: |modified Z-score| above STATS_OUTLIER_THRESHOLD. */
static size_t outliers(const double *z, size_t n)
{
	size_t count = 0;

	for (size_t i = 0; i < n; i++)
		if (fabs(z[i]) > STATS_OUTLIER_THRESHOLD)
			count++;
	return count;
}

static void test_zscores_and_outliers(void)
{
	/* median 10, deviations 0,1,1,1,1,0,90 -> MAD 1; z(100) = 90 > 14.826 */
	double x[] = {10, 9, 11, 9, 11, 10, 100}, scratch[14], z[7];

	stats_modified_zscores(x, 7, scratch, z);
	CHECK(NEAR(z[0], 0.0));
	CHECK(NEAR(z[1], -1.0));
	CHECK(NEAR(z[6], 90.0));
	CHECK_INT_EQ(outliers(z, 7), 1);
}

static void test_zscores_mad_zero(void)
{
	/* hyperfine replaces MAD 0 by DBL_EPSILON: any differing value is an outlier. */
	double x[] = {1, 1, 1, 1, 2}, scratch[10], z[5];

	stats_modified_zscores(x, 5, scratch, z);
	CHECK(z[4] > 1e10);
	CHECK(NEAR(z[0], 0.0));
	CHECK_INT_EQ(outliers(z, 5), 1);
}

static void test_quantile_bounds(void)
{
	double x[] = {1, 2, 3};

	CHECK(NEAR(stats_quantile_sorted(x, 3, 0.0), 1));
	CHECK(NEAR(stats_quantile_sorted(x, 3, 1.0), 3));
	CHECK(NEAR(stats_quantile_sorted(x, 3, 0.5), 2));
	CHECK(isnan(stats_quantile_sorted(x, 0, 0.5)));
}

int main(void)
{
	RUN(test_summary_odd);
	RUN(test_summary_even_median_and_quartiles);
	RUN(test_one_sample);
	RUN(test_empty);
	RUN(test_u64);
	RUN(test_u64_is_summarize);
	RUN(test_zscores_and_outliers);
	RUN(test_zscores_mad_zero);
	RUN(test_quantile_bounds);
	return HARNESS_EXIT();
}
