/* test_acrosshosts: the across-host combination, and its prediction interval's coverage over
 * synthetic hosts (random host effects and within-host noise, fixed seed). */
#include <math.h>
#include <stdint.h>

#include "acrosshosts.h"
#include "harness.h"

#define Z95 1.959963984540054

/* splitmix64: a fixed, portable stream (the coverage must not depend on libc's rand). */
static uint64_t rng_state;
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rng_uniform(void)
{
	return ((double)(rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal draw (Box-Muller; one of the pair is enough here). */
static double rng_normal(void)
{
	return sqrt(-2 * log(rng_uniform())) * cos(2 * M_PI * rng_uniform());
}

/* One host measured: its true log ratio mu + host effect, seen through noise of sd within;
 * the interval a sweep reports, ±1.96 within on the log scale. */
static struct acrosshosts_value host_measured(double mu, double between, double within)
{
	double y = mu + between * rng_normal() + within * rng_normal();

	return (struct acrosshosts_value){exp(y), exp(y - Z95 * within), exp(y + Z95 * within)};
}

/* 4 000 draws of k hosts and one new host: the new host's measured ratio falls inside the
 * prediction interval at 95 % ± 2 %; the mean's interval covers the true centre at 95 % ± 2 %. */
static void coverage(size_t k, double between, double within)
{
	enum { DRAWS = 4000 };
	struct acrosshosts_value v[8];
	struct acrosshosts_summary s;
	const double mu = log(1.2);
	size_t covered = 0, mean_covered = 0, d, i;
	double between_sum = 0;

	for (d = 0; d < DRAWS; d++) {
		struct acrosshosts_value next;

		for (i = 0; i < k; i++)
			v[i] = host_measured(mu, between, within);
		next = host_measured(mu, between, within);
		CHECK_INT_EQ(acrosshosts_combine(v, k, true, &s), 0);
		covered += next.value >= s.predict_lo && next.value <= s.predict_hi;
		mean_covered += exp(mu) >= s.mean_lo && exp(mu) <= s.mean_hi;
		between_sum += s.between_sd;
	}
	fprintf(stderr, "  k=%zu between=%g within=%g: prediction covers %.4f, mean %.4f\n", k,
		between, within, (double)covered / DRAWS, (double)mean_covered / DRAWS);
	CHECK(fabs((double)covered / DRAWS - 0.95) <= 0.02);
	CHECK(fabs((double)mean_covered / DRAWS - 0.95) <= 0.02);
	CHECK(between_sum / DRAWS >= 0); /* never negative, never NaN */
}

static void test_prediction_covers_new_host(void)
{
	static const size_t ks[] = {2, 3, 5};

	rng_state = 43;
	for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		coverage(ks[i], 0.08, 0.03); /* machines differ more than sweeps */
		coverage(ks[i], 0.02, 0.04); /* noise dominates */
	}
}

/* Hand-computed: logs -0.1, 0, 0.1 -> sd 0.1, t(2) = 4.3027; within sd 0.05 each. */
static void test_known_values(void)
{
	struct acrosshosts_value v[3];
	struct acrosshosts_summary s;
	double w = 0.05, t2 = 4.302653, half;

	for (int i = 0; i < 3; i++) {
		double y = 0.1 * (i - 1);
		v[i] = (struct acrosshosts_value){exp(y), exp(y - Z95 * w), exp(y + Z95 * w)};
	}
	CHECK_INT_EQ(acrosshosts_combine(v, 3, true, &s), 0);
	CHECK_INT_EQ((int)s.hosts, 3);
	CHECK(fabs(s.mean - 1) < 1e-12);
	CHECK(fabs(s.sd - 0.1) < 1e-12);
	CHECK(fabs(s.within_sd - 0.05) < 1e-9);
	CHECK(fabs(s.between_sd - sqrt(0.01 - 0.0025)) < 1e-9);
	half = t2 * 0.1 / sqrt(3);
	CHECK(fabs(log(s.mean_hi) - half) < 1e-4);
	CHECK(fabs(log(s.mean_lo) + half) < 1e-4);
	half = t2 * 0.1 * sqrt(1 + 1.0 / 3);
	CHECK(fabs(log(s.predict_hi) - half) < 1e-4);
	/* Hosts that agree better than their noise: no between part, not a negative one. */
	for (int i = 0; i < 3; i++) {
		v[i].lo /= 10;
		v[i].hi *= 10;
	}
	CHECK_INT_EQ(acrosshosts_combine(v, 3, true, &s), 0);
	CHECK(s.between_sd == 0);
	/* Linear scale (a crossover in tasks): plain mean and sd. */
	v[0] = (struct acrosshosts_value){700, NAN, NAN};
	v[1] = (struct acrosshosts_value){900, 800, 1000};
	CHECK_INT_EQ(acrosshosts_combine(v, 2, false, &s), 0);
	CHECK(fabs(s.mean - 800) < 1e-9);
	CHECK(fabs(s.sd - sqrt(20000)) < 1e-9);
	CHECK(isnan(s.between_sd)); /* one host's interval unknown */
	CHECK(isfinite(s.predict_lo));
}

/* One host: its own value and interval, nothing across; bad values refused. */
static void test_one_host_and_bad_values(void)
{
	struct acrosshosts_value v[2] = {{1.5, 1.4, 1.6}, {0, 0, 0}};
	struct acrosshosts_summary s;

	CHECK_INT_EQ(acrosshosts_combine(v, 1, true, &s), 0);
	CHECK(s.mean == 1.5 && s.mean_lo == 1.4 && s.mean_hi == 1.6);
	CHECK(isnan(s.sd) && isnan(s.between_sd) && isnan(s.predict_lo) && isnan(s.predict_hi));
	CHECK_INT_EQ(acrosshosts_combine(v, 2, true, &s), -1); /* a ratio of 0 has no log */
	CHECK_INT_EQ(acrosshosts_combine(v, 0, true, &s), -1);
	v[1].value = NAN;
	CHECK_INT_EQ(acrosshosts_combine(v, 2, false, &s), -1);
}

int main(void)
{
	RUN(test_prediction_covers_new_host);
	RUN(test_known_values);
	RUN(test_one_host_and_bad_values);
	return HARNESS_EXIT();
}
