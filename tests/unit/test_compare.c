/* test_compare: rarplot --compare's computation on the synthetic results of
 * tests/fixtures/compare (gen.py): verdicts, pairing, and the bad inputs it refuses. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_print.h"
#include "harness.h"

#define FIXTURES "tests/fixtures/compare/"

static struct results *load(const char *a, const char *b)
{
	struct results *res = results_new();
	struct errbuf eb = {{0}};

	if (res == NULL)
		return NULL;
	if (results_load_file(res, a, &eb) != 0 || (b != NULL && results_load_file(res, b, &eb))) {
		fprintf(stderr, "  %s\n", eb.msg);
		results_free(res);
		return NULL;
	}
	return res;
}

static struct compare_opts opts(void)
{
	struct compare_opts o = {"base", "cand", "nb_tasks", 0.02, NULL,
				 0,      false,  true,       500,  SIZE_MAX};

	return o;
}

static void test_paired_verdicts(void)
{
	struct results *res = load(FIXTURES "paired.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK(compare_compute(res, &o, &out, &eb) == 0);
	CHECK(out.paired);
	CHECK_INT_EQ(out.n_points, 8);
	CHECK_INT_EQ(out.n_q, 3);
	CHECK_STR_EQ(out.q[2].name, "time at 3000 tasks");
	CHECK_INT_EQ(out.q[0].verdict, VERDICT_REGRESSED);
	CHECK_INT_EQ(out.q[1].verdict, VERDICT_IMPROVED);
	CHECK(out.regressed && out.improved);
	/* The truth (1.2, 0.75) lies in the paired intervals. */
	CHECK(out.q[0].paired.lo <= 1.2 && 1.2 <= out.q[0].paired.hi);
	CHECK(out.q[1].paired.lo <= 0.75 && 0.75 <= out.q[1].paired.hi);
	/* Pairing removes the drift the two fits see as noise. */
	CHECK(out.q[1].paired.hi - out.q[1].paired.lo <
	      out.q[1].unpaired.hi - out.q[1].unpaired.lo);
	f = open_memstream(&text, &len);
	compare_print(&out, &o, f);
	fclose(f);
	CHECK(strstr(text, "intercept +20 % [") != NULL);
	CHECK(strstr(text, "(regressed), slope \u221225 % [") != NULL);
	CHECK(strstr(text, "Verdict: regressed.") != NULL);
	free(text);
	results_free(res);
}

static void test_no_change(void)
{
	struct results *res = load(FIXTURES "same.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};
	double at[2] = {10, 3000};

	CHECK(res != NULL);
	if (res == NULL)
		return;
	o.at = at;
	o.n_at = 2;
	CHECK(compare_compute(res, &o, &out, &eb) == 0);
	CHECK_INT_EQ(out.n_q, 4);
	for (size_t i = 0; i < out.n_q; i++)
		CHECK_INT_EQ(out.q[i].verdict, VERDICT_NO_CHANGE);
	CHECK(!out.regressed && !out.improved && !out.inconclusive);
	/* A noise threshold of 0 and an interval that excludes 1 would call it: the interval
	 * here is narrow but holds 1. */
	CHECK(out.q[1].paired.lo <= 1 && 1 <= out.q[1].paired.hi);
	results_free(res);
}

/*
 * The same lines with a threshold of 0: every interval holds 1 and reaches across 0: inconclusive,
 * said with the detectable change and what would narrow it.
 */
static void test_inconclusive(void)
{
	struct results *res = load(FIXTURES "same.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};
	char *text = NULL, d[32], want[96];
	size_t len = 0;
	FILE *f;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	o.noise = 0;
	CHECK(compare_compute(res, &o, &out, &eb) == 0);
	CHECK_INT_EQ(out.q[0].verdict, VERDICT_INCONCLUSIVE);
	CHECK(out.inconclusive && !out.regressed && !out.improved);
	f = open_memstream(&text, &len);
	compare_print(&out, &o, f);
	fclose(f);
	CHECK(strstr(text, "(inconclusive)") != NULL);
	CHECK(strstr(text, "(no change)") == NULL);
	verdict_format_detectable(&out.q[0].paired, d, sizeof(d));
	snprintf(want, sizeof(want), "half-width): intercept %s, slope ", d);
	CHECK(strstr(text, want) != NULL);
	CHECK(strstr(text, "\nInconclusive: the intervals of intercept (detectable ") != NULL);
	CHECK(strstr(text, "Verdict: inconclusive (nothing regressed") != NULL);
	free(text);
	results_free(res);
}

static void test_bad_input(void)
{
	struct results *res = load(FIXTURES "points.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK(compare_compute(res, &o, &out, &eb) == -1);
	CHECK(strstr(eb.msg, "different points") != NULL);
	CHECK(strstr(eb.msg, "nb_tasks=3000") != NULL);
	o.candidate = "sr-cbor";
	CHECK(compare_compute(res, &o, &out, &eb) == -1);
	CHECK(strstr(eb.msg, "candidate sr-cbor: not in the results (subjects: base, cand)") !=
	      NULL);
	o.candidate = "base";
	CHECK(compare_compute(res, &o, &out, &eb) == -1);
	results_free(res);
}

static void test_unpaired(void)
{
	struct results *res = load(FIXTURES "base-only.json", FIXTURES "cand-only.json");
	struct results *nr = load(FIXTURES "norounds.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};

	CHECK(res != NULL && nr != NULL);
	if (res == NULL || nr == NULL)
		goto out;
	CHECK(compare_compute(res, &o, &out, &eb) == -1);
	CHECK(strstr(eb.msg, "not paired") != NULL);
	CHECK(strstr(eb.msg, "different files") != NULL);
	CHECK(compare_compute(nr, &o, &out, &eb) == -1);
	CHECK(strstr(eb.msg, "no per-round estimates") != NULL);
	o.allow_unpaired = true;
	CHECK(compare_compute(res, &o, &out, &eb) == 0);
	CHECK(!out.paired);
	CHECK_INT_EQ(out.q[0].verdict, VERDICT_REGRESSED);
	CHECK(isfinite(out.q[1].unpaired.lo));
out:
	results_free(nr);
	results_free(res);
}

/* Figures that should not be believed say so: a step off the line, a sweep mostly contended. */
static void test_unreliable(void)
{
	struct results *step = load(FIXTURES "step.json", NULL);
	struct results *busy = load(FIXTURES "contended.json", NULL);
	struct results *fine = load(FIXTURES "paired.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};

	CHECK(step != NULL && busy != NULL && fine != NULL);
	if (step == NULL || busy == NULL || fine == NULL)
		goto out;
	CHECK(compare_compute(step, &o, &out, &eb) == 0);
	CHECK_INT_EQ(out.n_notes, 1);
	CHECK(strstr(out.notes[0],
		     "unreliable: the candidate's time at 500 is +10 % off its line") != NULL);
	CHECK(compare_compute(busy, &o, &out, &eb) == 0);
	CHECK_INT_EQ(out.n_notes, 1);
	CHECK(strstr(out.notes[0], "8 of 8 points had most of their runs contended") != NULL);
	CHECK(compare_compute(fine, &o, &out, &eb) == 0);
	CHECK_INT_EQ(out.n_notes, 0);
out:
	results_free(fine);
	results_free(busy);
	results_free(step);
}

/* Two sweeps of both subjects: each compared, then their mean, spread and coverage. */
static void test_sweeps(void)
{
	struct results *res = load(FIXTURES "paired.json", FIXTURES "paired-b.json");
	struct compare_opts o = opts();
	struct compare_outcome per[2];
	struct compare_across a;
	struct errbuf eb = {{0}};
	size_t source[COMPARE_MAX_SWEEPS];

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(compare_sweeps_find(res, &o, source), 2);
	CHECK(compare_sweeps(res, &o, source, 2, per, &a, &eb) == 0);
	CHECK_INT_EQ(a.k, 2);
	CHECK_INT_EQ(a.n_q, 3);
	CHECK(fabs(a.mean[1] - (per[0].q[1].paired.value + per[1].q[1].paired.value) / 2) < 1e-12);
	CHECK(a.sd[1] / a.mean[1] < 0.01);
	CHECK(a.next[1].hi - a.next[1].lo > a.ci[1].hi - a.ci[1].lo);
	CHECK_INT_EQ(a.verdict[0], VERDICT_REGRESSED);
	CHECK_INT_EQ(a.verdict[1], VERDICT_IMPROVED);
	CHECK(a.held[1] <= 2);
	/* The sweeps the same spread needs for the interval of the mean to fit within 2 %. */
	for (size_t j = 0; j < a.n_q; j++)
		if (a.needed[j] != SIZE_MAX) {
			size_t k = a.needed[j];

			CHECK(k >= 2 && fit_t95(k - 1) * a.sd[j] / sqrt((double)k) <= 0.02);
			CHECK(k == 2 || fit_t95(k - 2) * a.sd[j] / sqrt((double)(k - 1)) > 0.02);
		}
	results_free(res);
	/* A file with one subject only: not sweeps of both. */
	res = load(FIXTURES "paired.json", FIXTURES "base-only.json");
	CHECK(res != NULL && compare_sweeps_find(res, &o, source) == 0);
	results_free(res);
}

/* rarbench.round_estimates that are not what rarbench writes: one-line errors naming them. */
static void test_rounds_parse(void)
{
	static const char *bad[] = {
	    "\"round_estimates\": 3",
	    "\"round_estimates\": [{\"round\": 0, \"estimate\": 0.1}]",
	    "\"round_estimates\": [{\"round\": 1, \"estimate\": -1}]",
	    "\"round_estimates\": [{\"round\": 1, \"estimate\": 0.1}, {\"round\": 1, "
	    "\"estimate\": 0.1}]",
	};
	char doc[512];
	struct errbuf eb = {{0}};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct results *res = results_new();

		snprintf(doc, sizeof(doc),
			 "{\"results\": [{\"command\": \"a\", \"mean\": 1, \"median\": 1, \"min\": "
			 "1, \"max\": 1, \"rarbench\": {\"estimator\": \"median\", \"estimate\": "
			 "1, \"ci95\": [1, 1], %s}}]}",
			 bad[i]);
		CHECK(results_parse(res, doc, strlen(doc), "x.json", &eb) == -1);
		CHECK(strstr(eb.msg, "x.json: results[0]: rarbench.round_estimates") != NULL);
		CHECK_INT_EQ(res->n_points, 0);
		results_free(res);
	}
}

/* compare_print's text of out, malloc'd. */
static char *printed(const struct compare_outcome *out, const struct compare_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f == NULL)
		return NULL;
	compare_print(out, o, f);
	fclose(f);
	return text;
}

/* Lines that would meet at a negative size: "none in range", never a crossover at -4000. */
static void test_crossover_outside(void)
{
	struct results *res = load(FIXTURES "outside.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};
	char *text;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK(compare_compute(res, &o, &out, &eb) == 0);
	CHECK(out.crossover.value < out.x_min); /* (1.2 - 1) / (0.002 - 0.0021) = -2000 */
	text = printed(&out, &o);
	CHECK(text != NULL &&
	      strstr(text, "Crossover (nb_tasks): none in range (1 to 3000).") != NULL);
	CHECK(text != NULL && strstr(text, "The lines meet") == NULL);
	free(text);
	results_free(res);
}

/* paired.json's lines meet at 399.5 [394, 405] (1..3000): within the sizes, a crossing measured. */
static void test_crossover_inside(void)
{
	struct results *res = load(FIXTURES "paired.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};
	char *text;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK(compare_compute(res, &o, &out, &eb) == 0);
	text = printed(&out, &o);
	CHECK(text != NULL && strstr(text, "The lines meet at nb_tasks = 399.5 [39") != NULL);
	free(text);
	results_free(res);
}

/*
 * Advice that contradicts a verdict (issue 55): "Too few sweeps for a gate" printed under an
 * intercept judged regressed at +13 % [+11, +16] over 2 sweeps. Only an inconclusive quantity
 * (here the slope, +1 % [-2, +4]) gets it.
 */
static void test_too_few_only_inconclusive(void)
{
	struct compare_opts o = opts();
	struct compare_outcome per[2];
	struct compare_across a;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(per, 0, sizeof(per));
	memset(&a, 0, sizeof(a));
	a.k = 2;
	a.n_q = 2;
	snprintf(a.names[0], COMPARE_NAME_MAX, "intercept");
	snprintf(a.names[1], COMPARE_NAME_MAX, "slope");
	a.ci[0] = (struct paired_ratio){1.13, 1.11, 1.16};
	a.next[0] = a.ci[0];
	a.mean[0] = 1.13;
	a.sd[0] = 0.002;
	a.ci[1] = (struct paired_ratio){1.01, 0.98, 1.04};
	a.next[1] = a.ci[1];
	a.mean[1] = 1.01;
	a.sd[1] = 0.002;
	for (size_t j = 0; j < 2; j++) {
		a.verdict[j] = verdict_judge(&a.ci[j], o.noise);
		a.needed[j] = 4;
	}
	CHECK_INT_EQ(a.verdict[0], VERDICT_REGRESSED);
	CHECK_INT_EQ(a.verdict[1], VERDICT_INCONCLUSIVE);
	a.regressed = a.inconclusive = true;
	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	if (f == NULL)
		return;
	compare_sweeps_print(&a, per, &o, f);
	fclose(f);
	CHECK(strstr(text, "Too few sweeps for a gate at ±2 %: the interval of the slope") != NULL);
	CHECK(strstr(text, "the interval of the intercept") == NULL);
	free(text);
}

/* --at beyond the sweep (1..3000): said in the quantity's name and in a note. */
static void test_extrapolated(void)
{
	struct results *res = load(FIXTURES "paired.json", NULL);
	struct compare_opts o = opts();
	struct compare_outcome out;
	struct errbuf eb = {{0}};
	const double at[] = {1, 10000};
	char *text;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	o.at = at;
	o.n_at = 2;
	CHECK(compare_compute(res, &o, &out, &eb) == 0);
	CHECK_STR_EQ(out.q[2].name, "time at 1 task");
	CHECK_STR_EQ(out.q[3].name, "time at 10000 tasks (extrapolated)");
	CHECK_INT_EQ(out.n_extrapolated, 1);
	text = printed(&out, &o);
	CHECK(text != NULL &&
	      strstr(text, "extrapolated: 1 of the --at sizes lie outside the sizes measured (1 to "
			   "3000)") != NULL);
	free(text);
	results_free(res);
}

/* A ratio over a zero intercept is undefined, never "-nan%". */
static void test_zero_base(void)
{
	struct paired_ratio r = {NAN, NAN, NAN}, ok = {1.05, 1.03, 1.07};
	char buf[96];

	verdict_format_change(&r, 0.0, "intercept", 0.02, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "undefined: intercept 0");
	verdict_format_change(&r, NAN, "slope", 0.02, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "undefined: slope 0");
	verdict_format_change(&ok, 2.0, "slope", 0.02, buf, sizeof(buf));
	CHECK_STR_EQ(buf, "+5.0 % [+3.0, +7.0] (regressed)");
	CHECK(strstr(buf, "nan") == NULL);
}

int main(void)
{
	RUN(test_paired_verdicts);
	RUN(test_no_change);
	RUN(test_inconclusive);
	RUN(test_bad_input);
	RUN(test_unpaired);
	RUN(test_unreliable);
	RUN(test_sweeps);
	RUN(test_rounds_parse);
	RUN(test_crossover_outside);
	RUN(test_crossover_inside);
	RUN(test_too_few_only_inconclusive);
	RUN(test_extrapolated);
	RUN(test_zero_base);
	return HARNESS_EXIT();
}
