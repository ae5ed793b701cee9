/* test_lsq: the one least squares (fit's lines and runcost's estimate) on sums worked by hand. */
#include <math.h>

#include "harness.h"
#include "lsq.h"

static int near(long double got, double want)
{
	return fabsl(got - want) <= 1e-12 * fabs(want) + 1e-15;
}

/* x 0 1 2, y 0 2 1: means 1 and 1, sxx 2, sxy 1, syy 2; the line 0.5 + 0.5 x, residuals
 * -0.5, 1, -0.5. */
static void test_unweighted_sums_by_hand(void)
{
	const double x[] = {0, 1, 2}, y[] = {0, 2, 1};
	struct lsq_sums l;

	lsq_fit(x, y, NULL, 3, &l);
	CHECK(near(l.sw, 3) && near(l.xbar, 1) && near(l.ybar, 1));
	CHECK(near(l.sxx, 2) && near(l.sxy, 1) && near(l.syy, 2));
	CHECK(near(l.slope, 0.5) && near(l.intercept, 0.5));
	CHECK(near(l.wssr, 1.5));
}

/* Points on a line are fitted exactly, weighted or not; large x, small slope (runcost's sizes). */
static void test_points_on_a_line(void)
{
	const double x[] = {1, 1000, 10000, 100000}, sigma[] = {1e-4, 2e-4, 1e-3, 5e-3};
	double y[4];
	struct lsq_sums l;

	for (int i = 0; i < 4; i++)
		y[i] = 0.002 + 3e-6 * x[i];
	lsq_fit(x, y, NULL, 4, &l);
	CHECK(near(l.slope, 3e-6) && near(l.intercept, 0.002));
	CHECK(l.wssr < 1e-20);
	lsq_fit(x, y, sigma, 4, &l);
	CHECK(near(l.slope, 3e-6) && near(l.intercept, 0.002));
}

/* Weights 1/sigma²: the heavy points pull the line. x 0 1 2, y 0 0 3, sigma 1 1 2 (weights 1 1
 * 0.25): sw 2.25, xbar 1.5/2.25, ybar 0.75/2.25. */
static void test_weights_are_inverse_variances(void)
{
	const double x[] = {0, 1, 2}, y[] = {0, 0, 3}, sigma[] = {1, 1, 2};
	struct lsq_sums l;
	double xbar = 1.5 / 2.25, ybar = 0.75 / 2.25, sxx = 0, sxy = 0;

	for (int i = 0; i < 3; i++) {
		double w = 1 / (sigma[i] * sigma[i]);

		sxx += w * (x[i] - xbar) * (x[i] - xbar);
		sxy += w * (x[i] - xbar) * (y[i] - ybar);
	}
	lsq_fit(x, y, sigma, 3, &l);
	CHECK(near(l.sw, 2.25) && near(l.xbar, xbar) && near(l.ybar, ybar));
	CHECK(near(l.slope, sxy / sxx) && near(l.intercept, ybar - sxy / sxx * xbar));
}

/* One size only: no slope, the mean (runcost's flat line). */
static void test_one_x_is_a_flat_line_through_the_mean(void)
{
	const double x[] = {10, 10}, y[] = {0.0015, 0.0025};
	struct lsq_sums l;

	lsq_fit(x, y, NULL, 2, &l);
	CHECK(l.sxx == 0 && l.slope == 0);
	CHECK(near(l.intercept, 0.002));
	lsq_fit(x, y, NULL, 0, &l);
	CHECK(l.sw == 0 && l.slope == 0 && l.intercept == 0);
}

int main(void)
{
	RUN(test_unweighted_sums_by_hand);
	RUN(test_points_on_a_line);
	RUN(test_weights_are_inverse_variances);
	RUN(test_one_x_is_a_flat_line_through_the_mean);
	return HARNESS_EXIT();
}
