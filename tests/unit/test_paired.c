/* test_paired: the paired estimator against exact lines, drift, and its determinism. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "paired.h"

#define NPTS 8
#define NROUNDS 6

static const double xs[NPTS] = {1, 3, 10, 30, 100, 300, 1000, 3000};

/* Per point and round: a host speed factor that drifts from round to round and point to point,
 * and a small noise of each subject's own (deterministic). */
static double drift(size_t p, size_t r)
{
	return 1.0 + 0.04 * sin(1.7 * (double)p + 0.9 * (double)r) + 0.01 * (double)(p % 3);
}

static double own_noise(size_t p, size_t r, unsigned who)
{
	return 1.0 + 0.002 * sin(3.1 * (double)(p * 7 + r * 3 + who * 11));
}

struct fixture {
	double br[NPTS][NROUNDS], cr[NPTS][NROUNDS];
	struct paired_point pts[NPTS];
};

/* Baseline 1 + 0.002 x ms, candidate 1.2 + 0.0015 x ms (intercept ratio 1.2, slope 0.75). */
static void fixture_build(struct fixture *f, bool with_drift, bool own)
{
	for (size_t p = 0; p < NPTS; p++) {
		double sb = 0, sc = 0;

		for (size_t r = 0; r < NROUNDS; r++) {
			double d = with_drift ? drift(p, r) : 1.0;

			f->br[p][r] = d * (1.0 + 0.002 * xs[p]) * (own ? own_noise(p, r, 0) : 1);
			f->cr[p][r] = d * (1.2 + 0.0015 * xs[p]) * (own ? own_noise(p, r, 1) : 1);
			sb += f->br[p][r];
			sc += f->cr[p][r];
		}
		f->pts[p] = (struct paired_point){xs[p], sb / NROUNDS, sc / NROUNDS, NAN,
						  NAN,   f->br[p],     f->cr[p],     NROUNDS};
	}
}

static void test_exact_lines(void)
{
	struct fixture f;
	struct paired_opts o = {500, 7, false, (const double[]){1000}, 1};
	struct paired_result r;
	struct errbuf eb = {{0}};

	fixture_build(&f, false, false);
	CHECK(paired_compare(f.pts, NPTS, &o, &r, &eb) == 0);
	CHECK(fabs(r.intercept.value - 1.2) < 1e-9);
	CHECK(fabs(r.slope.value - 0.75) < 1e-9);
	CHECK(fabs(r.at[0].value - (1.2 + 1.5) / (1.0 + 2.0)) < 1e-9);
	CHECK_INT_EQ(r.paired_points, NPTS);
	/* Every round equal: every replicate is the estimate itself. */
	CHECK(fabs(r.slope.hi - r.slope.lo) < 1e-9);
}

/* Drift common to both subjects: the paired interval stays narrow and holds the truth; the two
 * independent fits see the drift as noise. */
static void test_drift_cancels(void)
{
	struct fixture f;
	struct paired_opts o = {2000, PAIRED_DEFAULT_SEED, false, NULL, 0};
	struct paired_result r, u;
	struct errbuf eb = {{0}};

	fixture_build(&f, true, true);
	CHECK(paired_compare(f.pts, NPTS, &o, &r, &eb) == 0);
	CHECK(r.slope.lo <= 0.75 && 0.75 <= r.slope.hi);
	CHECK(r.intercept.lo <= 1.2 && 1.2 <= r.intercept.hi);
	CHECK(fabs(r.slope.value - 0.75) < 0.005);
	CHECK(r.slope.hi - r.slope.lo < 0.02);
	paired_unpaired(&r.cand, &r.base, NULL, 0, &u);
	CHECK(u.slope.hi - u.slope.lo > r.slope.hi - r.slope.lo);
	CHECK_INT_EQ(r.resamples, 2000);
}

static void test_deterministic(void)
{
	struct fixture f;
	struct paired_opts o = {300, 42, false, (const double[]){10, 3000}, 2};
	struct paired_result a, b;
	struct errbuf eb = {{0}};

	fixture_build(&f, true, true);
	CHECK(paired_compare(f.pts, NPTS, &o, &a, &eb) == 0);
	CHECK(paired_compare(f.pts, NPTS, &o, &b, &eb) == 0);
	CHECK(a.slope.lo == b.slope.lo && a.slope.hi == b.slope.hi);
	CHECK(a.at[1].lo == b.at[1].lo && a.intercept.hi == b.intercept.hi);
	CHECK_INT_EQ(a.n_at, 2);
	o.seed = 43;
	CHECK(paired_compare(f.pts, NPTS, &o, &b, &eb) == 0);
	CHECK(a.slope.value == b.slope.value);
}

/* Points with one round each: the value, and no interval (nothing to resample). */
static void test_single_rounds(void)
{
	struct fixture f;
	struct paired_opts o = {100, 1, false, NULL, 0};
	struct paired_result r;
	struct errbuf eb = {{0}};

	fixture_build(&f, true, false);
	for (size_t p = 0; p < NPTS; p++)
		f.pts[p].n_rounds = 1;
	CHECK(paired_compare(f.pts, NPTS, &o, &r, &eb) == 0);
	CHECK_INT_EQ(r.paired_points, 0);
	CHECK(isnan(r.slope.lo) && isnan(r.slope.hi));
	CHECK(isfinite(r.slope.value));
}

static void test_bad_input(void)
{
	struct fixture f;
	struct paired_opts o = {100, 1, false, NULL, 0};
	struct paired_result r;
	struct errbuf eb = {{0}};

	fixture_build(&f, false, false);
	CHECK(paired_compare(f.pts, 2, &o, &r, &eb) == -1);
	f.pts[3].base_s = 0;
	eb.msg[0] = '\0';
	CHECK(paired_compare(f.pts, NPTS, &o, &r, &eb) == -1);
	CHECK(strstr(eb.msg, "baseline") != NULL);
	o.n_at = PAIRED_MAX_AT + 1;
	CHECK(paired_compare(f.pts, NPTS, &o, &r, &eb) == -1);
}

/* The unpaired figure: the delta method on two exact fits gives the exact ratios. */
static void test_unpaired(void)
{
	struct fit_line b = {1.0, 0.002, 0.01, 0.0001, 0, 1, 0, 10, 10, false};
	struct fit_line c = {1.2, 0.0015, 0.01, 0.0001, 0, 1, 0, 10, 10, false};
	struct paired_result u;

	paired_unpaired(&c, &b, (const double[]){1000}, 1, &u);
	CHECK(fabs(u.intercept.value - 1.2) < 1e-12);
	CHECK(fabs(u.slope.value - 0.75) < 1e-12);
	CHECK(u.slope.lo < 0.75 && u.slope.hi > 0.75);
	CHECK(fabs(u.at[0].value - 0.9) < 1e-12);
	CHECK(fabs(u.crossover.value - 400) < 1e-9);
}

int main(void)
{
	RUN(test_exact_lines);
	RUN(test_drift_cancels);
	RUN(test_deterministic);
	RUN(test_single_rounds);
	RUN(test_bad_input);
	RUN(test_unpaired);
	return HARNESS_EXIT();
}
