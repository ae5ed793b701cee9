/* test_fit: the least-squares module against exact lines and an independent QR solution. */
#include <math.h>
#include <stdlib.h>

#include "fit.h"
#include "harness.h"

static int rel_close(double got, double want, double tol)
{
	double scale = fabs(want) > 1e-300 ? fabs(want) : 1.0;

	if (fabs(got - want) <= tol * scale)
		return 1;
	fprintf(stderr, "  got %.17g, want %.17g (rel %.3g)\n", got, want,
		fabs(got - want) / scale);
	return 0;
}

/*
 * The independent reference: scale each row of [1 x | y] by sqrt(w), take a
 * modified Gram-Schmidt QR of the 2-column design, back-substitute, and get
 * the covariance from R^-1 R^-T. No normal equations, no centring.
 */
struct ref_fit {
	double a, b, se_a, se_b;
};

static void ref_qr_fit(const double *x, const double *y, const double *sigma, size_t n,
		       struct ref_fit *out)
{
	double *q0 = calloc(n, sizeof(double)), *q1 = calloc(n, sizeof(double));
	double *yy = calloc(n, sizeof(double));
	double r00 = 0, r01 = 0, r11 = 0, qty0 = 0, qty1 = 0, rss = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double sw = sigma ? 1.0 / sigma[i] : 1.0;

		q0[i] = sw;
		q1[i] = sw * x[i];
		yy[i] = sw * y[i];
	}
	for (i = 0; i < n; i++)
		r00 += q0[i] * q0[i];
	r00 = sqrt(r00);
	for (i = 0; i < n; i++)
		q0[i] /= r00;
	for (i = 0; i < n; i++)
		r01 += q0[i] * q1[i];
	for (i = 0; i < n; i++)
		q1[i] -= r01 * q0[i];
	for (i = 0; i < n; i++)
		r11 += q1[i] * q1[i];
	r11 = sqrt(r11);
	for (i = 0; i < n; i++)
		q1[i] /= r11;
	for (i = 0; i < n; i++) {
		qty0 += q0[i] * yy[i];
		qty1 += q1[i] * yy[i];
	}
	out->b = qty1 / r11;
	out->a = (qty0 - r01 * out->b) / r00;
	for (i = 0; i < n; i++) {
		double sw = sigma ? 1.0 / sigma[i] : 1.0;
		double r = sw * (y[i] - out->a - out->b * x[i]);

		rss += r * r;
	}
	/* Rinv = [[1/r00, -r01/(r00 r11)], [0, 1/r11]]; cov = Rinv Rinv^T * s^2. */
	double s2 = rss / (double)(n - 2);
	double i00 = 1.0 / r00, i01 = -r01 / (r00 * r11), i11 = 1.0 / r11;

	out->se_a = sqrt((i00 * i00 + i01 * i01) * s2);
	out->se_b = sqrt(i11 * i11 * s2);
	free(q0);
	free(q1);
	free(yy);
}

/* A deterministic pseudo-random sequence in [-1, 1) (no libc rand state). */
static double noise(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return ((double)((*state >> 8) & 0xffff) / 32768.0) - 1.0;
}

static void test_exact_line(void)
{
	double x[] = {1, 2, 5, 10, 100, 1000};
	double y[6];
	struct fit_line f;
	struct errbuf eb = {{0}};
	size_t i;

	for (i = 0; i < 6; i++)
		y[i] = 3.25 + 0.5 * x[i];
	CHECK_INT_EQ(fit_linear(x, y, NULL, 6, &f, &eb), 0);
	CHECK(rel_close(f.intercept, 3.25, 1e-12));
	CHECK(rel_close(f.slope, 0.5, 1e-12));
	CHECK(f.slope_se < 1e-12);
	CHECK(f.intercept_se < 1e-10);
	CHECK(rel_close(f.r2, 1.0, 1e-12));
	CHECK_INT_EQ(f.n, 6);
	CHECK_INT_EQ(f.n_distinct_x, 6);
	CHECK(!f.weighted);
}

/* The seed's regime: ms-scale times, µs-scale slopes, sizes up to 10000. */
static void test_exact_line_seed_scale(void)
{
	double x[] = {1, 2, 3, 5, 9, 15, 26, 46, 82, 146, 261, 464, 825, 1467, 2610, 4641, 10000};
	double y[17];
	struct fit_line f;
	struct errbuf eb = {{0}};
	size_t i;

	for (i = 0; i < 17; i++)
		y[i] = 3.2e-3 + 1.7e-7 * x[i];
	CHECK_INT_EQ(fit_linear(x, y, NULL, 17, &f, &eb), 0);
	CHECK(rel_close(f.intercept, 3.2e-3, 1e-9));
	CHECK(rel_close(f.slope, 1.7e-7, 1e-9));
}

static void test_noisy_vs_qr(void)
{
	enum { N = 40 };
	double x[N], y[N];
	struct fit_line f;
	struct ref_fit ref;
	struct errbuf eb = {{0}};
	unsigned st = 7;
	size_t i;

	for (i = 0; i < N; i++) {
		x[i] = floor(pow(10000.0, (double)i / (N - 1)));
		y[i] = 4.1 + 0.00037 * x[i] + 0.2 * noise(&st);
	}
	CHECK_INT_EQ(fit_linear(x, y, NULL, N, &f, &eb), 0);
	ref_qr_fit(x, y, NULL, N, &ref);
	CHECK(rel_close(f.intercept, ref.a, 1e-9));
	CHECK(rel_close(f.slope, ref.b, 1e-9));
	CHECK(rel_close(f.intercept_se, ref.se_a, 1e-6));
	CHECK(rel_close(f.slope_se, ref.se_b, 1e-6));
	CHECK(f.r2 > 0.9 && f.r2 < 1.0);
	/* The true slope is within a few standard errors. */
	CHECK(fabs(f.slope - 0.00037) < 5 * f.slope_se);
}

static void test_weighted_vs_qr(void)
{
	enum { N = 25 };
	double x[N], y[N], s[N];
	struct fit_line f, fu;
	struct ref_fit ref;
	struct errbuf eb = {{0}};
	unsigned st = 99;
	size_t i;

	for (i = 0; i < N; i++) {
		x[i] = 1 + 40.0 * i;
		s[i] = 0.01 + 0.002 * x[i];
		y[i] = 1.5 + 0.02 * x[i] + s[i] * noise(&st);
	}
	CHECK_INT_EQ(fit_linear(x, y, s, N, &f, &eb), 0);
	ref_qr_fit(x, y, s, N, &ref);
	CHECK(f.weighted);
	CHECK(rel_close(f.intercept, ref.a, 1e-9));
	CHECK(rel_close(f.slope, ref.b, 1e-9));
	CHECK(rel_close(f.intercept_se, ref.se_a, 1e-6));
	CHECK(rel_close(f.slope_se, ref.se_b, 1e-6));
	/* Weighting changes the answer on heteroscedastic data. */
	CHECK_INT_EQ(fit_linear(x, y, NULL, N, &fu, &eb), 0);
	CHECK(fu.intercept != f.intercept);
}

/* Scaling every sigma by a constant leaves the line and its errors alone. */
static void test_weight_scale_invariance(void)
{
	double x[] = {1, 2, 4, 8, 16}, y[] = {1.1, 1.9, 4.2, 7.8, 16.3};
	double s1[] = {0.1, 0.2, 0.3, 0.4, 0.5}, s2[5];
	struct fit_line a, b;
	struct errbuf eb = {{0}};
	size_t i;

	for (i = 0; i < 5; i++)
		s2[i] = s1[i] * 1000;
	CHECK_INT_EQ(fit_linear(x, y, s1, 5, &a, &eb), 0);
	CHECK_INT_EQ(fit_linear(x, y, s2, 5, &b, &eb), 0);
	CHECK(rel_close(a.slope, b.slope, 1e-12));
	CHECK(rel_close(a.slope_se, b.slope_se, 1e-9));
	CHECK(rel_close(a.intercept_se, b.intercept_se, 1e-9));
}

static void test_too_few_points(void)
{
	double x[] = {1, 1, 2, 2}, y[] = {1, 2, 3, 4};
	struct fit_line f;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(fit_linear(x, y, NULL, 4, &f, &eb), -1);
	CHECK(strstr(eb.msg, "2 distinct x values") != NULL);
	CHECK_INT_EQ(fit_linear(x, y, NULL, 0, &f, &eb), -1);
}

static void test_bad_values(void)
{
	double x[] = {1, 2, 3}, y[] = {1, NAN, 3}, y2[] = {1, 2, 3}, s[] = {1, 0, 1};
	struct fit_line f;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(fit_linear(x, y, NULL, 3, &f, &eb), -1);
	CHECK(strstr(eb.msg, "point 2") != NULL);
	CHECK_INT_EQ(fit_linear(x, y2, s, 3, &f, &eb), -1);
	CHECK(strstr(eb.msg, "sigma") != NULL);
}

/* Where two lines meet, as fit_compare gives it (the crossover of a against baseline b). */
static void test_crossover(void)
{
	struct fit_line a = {.intercept = 3.0, .slope = 0.001, .n = 10};
	struct fit_line b = {.intercept = 1.0, .slope = 0.003, .n = 10};
	struct fit_comparison cmp;

	fit_compare(&a, &b, &cmp);
	CHECK(cmp.has_crossover);
	CHECK(rel_close(cmp.crossover.value, 1000.0, 1e-12));
	b.slope = a.slope;
	fit_compare(&a, &b, &cmp);
	CHECK(!cmp.has_crossover);
}

int main(void)
{
	RUN(test_exact_line);
	RUN(test_exact_line_seed_scale);
	RUN(test_noisy_vs_qr);
	RUN(test_weighted_vs_qr);
	RUN(test_weight_scale_invariance);
	RUN(test_too_few_points);
	RUN(test_bad_values);
	RUN(test_crossover);
	return HARNESS_EXIT();
}
