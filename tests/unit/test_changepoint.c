/* Tests for changepoint: t p values, Holm's adjustment, a known step found in place, and the
 * false-alarm rate on A/A histories (no step) held at alpha. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "changepoint.h"
#include "harness.h"

/* A fixed generator, so that every run of the test draws the same numbers. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double uniform01(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double normal01(void)
{
	return sqrt(-2.0 * log(uniform01())) * cos(2.0 * M_PI * uniform01());
}

/* An estimate as a fit gives it: value ~ N(mu, se_true), se estimated with df degrees. */
static void draw(double mu, double se_true, int df, double *value, double *se)
{
	double chi2 = 0.0;

	for (int k = 0; k < df; k++) {
		double z = normal01();

		chi2 += z * z;
	}
	*value = mu + se_true * normal01();
	*se = se_true * sqrt(chi2 / df);
}

static void test_t_p_values(void)
{
	CHECK(fabs(changepoint_t_p(12.706, 1) - 0.05) < 1e-4);
	CHECK(fabs(changepoint_t_p(2.228, 10) - 0.05) < 1e-4);
	CHECK(fabs(changepoint_t_p(-2.228, 10) - 0.05) < 1e-4);
	CHECK(fabs(changepoint_t_p(4.303, 2) - 0.05) < 1e-4);
	CHECK(fabs(changepoint_t_p(1.96, 1e9) - 0.05) < 1e-4);
	CHECK(fabs(changepoint_t_p(0.0, 5) - 1.0) < 1e-12);
	CHECK(changepoint_t_p(INFINITY, 3) == 0.0);
	CHECK(isnan(changepoint_t_p(1.0, 0)));
	CHECK(isnan(changepoint_t_p(NAN, 3)));
	/* Non-integer df (Welch): between its neighbours. */
	CHECK(changepoint_t_p(2.5, 3.5) < changepoint_t_p(2.5, 3) &&
	      changepoint_t_p(2.5, 3.5) > changepoint_t_p(2.5, 4));
}

static void test_holm(void)
{
	struct changepoint_test t[4] = {{0}};
	const double p[4] = {0.01, 0.04, 0.03, 0.005};

	for (int i = 0; i < 4; i++) {
		t[i].p = p[i];
		t[i].rel_pct = 50.0;
	}
	changepoint_holm(t, 4, 0.05, 3.0);
	/* Sorted .005 .01 .03 .04 -> x4 x3 x2 x1 = .02 .03 .06 .04, running maximum. */
	CHECK(fabs(t[0].p_holm - 0.03) < 1e-12);
	CHECK(fabs(t[1].p_holm - 0.06) < 1e-12);
	CHECK(fabs(t[2].p_holm - 0.06) < 1e-12);
	CHECK(fabs(t[3].p_holm - 0.02) < 1e-12);
	CHECK(t[0].step && !t[1].step && !t[2].step && t[3].step);
	/* Certain but small: no step. */
	t[3].rel_pct = -2.0;
	changepoint_holm(t, 4, 0.05, 3.0);
	CHECK(!t[3].step && t[0].step);
}

/* Twelve releases, 3 ms each, one step of +0.5 ms after the seventh: found there, only there. */
static void test_known_step(void)
{
	double v[12], se[12], df[12];
	struct changepoint_test t[11];
	size_t n;

	for (int i = 0; i < 12; i++) {
		draw(i < 7 ? 3.0 : 3.5, 0.02, 2, &v[i], &se[i]);
		df[i] = 2;
	}
	n = changepoint_adjacent(v, se, df, 12, 0, t);
	CHECK_INT_EQ(n, 11);
	changepoint_holm(t, n, CHANGEPOINT_ALPHA, CHANGEPOINT_MIN_REL_PCT);
	for (size_t i = 0; i < n; i++) {
		CHECK_INT_EQ(t[i].after, i);
		CHECK(t[i].step == (i == 6));
	}
	CHECK(t[6].diff > 0.4 && t[6].rel_pct > 10.0);
}

/* A step of 10 standard errors among 6 releases, in 200 seeds: found, alone and in place, in at
 * least 70 % (df 2, as a fit of 4 sizes has: few degrees make wide t intervals). */
static void test_step_found_every_time(void)
{
	int found = 0;

	for (int trial = 0; trial < 200; trial++) {
		double v[6], se[6], df[6];
		struct changepoint_test t[5];

		for (int i = 0; i < 6; i++) {
			draw(i < 3 ? 2.0 : 2.2, 0.02, 2, &v[i], &se[i]);
			df[i] = 2;
		}
		changepoint_holm(t, changepoint_adjacent(v, se, df, 6, 0, t), 0.05, 3.0);
		found += t[2].step && !t[0].step && !t[1].step && !t[3].step && !t[4].step;
	}
	fprintf(stderr, "  a 10-se step among 6 releases, df 2: found alone in %d of 200\n", found);
	CHECK(found >= 140);
}

/*
 * A/A: the same build entered as two releases, 2000 times; then histories of 20 identical
 * releases (19 tests each), 500 times. The false-alarm rate (any step in a history) must stay near
 * alpha = 5 % even without the minimum effect (0 %): at most 7 %.
 */
static void test_false_alarms_aa(void)
{
	int alarms2 = 0, alarms20 = 0;

	for (int trial = 0; trial < 2000; trial++) {
		double v[2], se[2], df[2] = {2, 2};
		struct changepoint_test t[1];

		draw(3.0, 0.02, 2, &v[0], &se[0]);
		draw(3.0, 0.02, 2, &v[1], &se[1]);
		changepoint_holm(t, changepoint_adjacent(v, se, df, 2, 0, t), 0.05, 0.0);
		alarms2 += t[0].step;
	}
	for (int trial = 0; trial < 500; trial++) {
		double v[20], se[20], df[20];
		struct changepoint_test t[19];
		bool any = false;

		for (int i = 0; i < 20; i++) {
			draw(3.0, 0.02, 2, &v[i], &se[i]);
			df[i] = 2;
		}
		changepoint_holm(t, changepoint_adjacent(v, se, df, 20, 0, t), 0.05, 0.0);
		for (int i = 0; i < 19; i++)
			any = any || t[i].step;
		alarms20 += any;
	}
	fprintf(stderr, "  A/A false alarms: %d of 2000 pairs, %d of 500 histories of 20\n",
		alarms2, alarms20);
	CHECK(alarms2 <= 140);
	CHECK(alarms20 <= 35);
}

static void test_unusable_pairs(void)
{
	const double v[3] = {1.0, NAN, 1.5}, se[3] = {0.01, 0.01, 0.0}, df[3] = {2, 2, 2};
	struct changepoint_test t[2];

	CHECK_INT_EQ(changepoint_adjacent(v, se, df, 3, 7, t), 2);
	CHECK(t[0].p == 1.0 && t[1].p == 1.0 && t[0].series == 7);
	changepoint_holm(t, 2, 0.05, 0.0);
	CHECK(!t[0].step && !t[1].step);
	CHECK_INT_EQ(changepoint_adjacent(v, se, df, 1, 0, t), 0);
}

int main(void)
{
	RUN(test_t_p_values);
	RUN(test_holm);
	RUN(test_known_step);
	RUN(test_step_found_every_time);
	RUN(test_false_alarms_aa);
	RUN(test_unusable_pairs);
	return HARNESS_EXIT();
}
