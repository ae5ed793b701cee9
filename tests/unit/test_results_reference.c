/* test_results_reference: rarbench's "reference" read beside the results, and times in its units.
 */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "results.h"

/* sudo at 1 and 10 tasks (the second with two rounds), a point at 100 tasks without a
 * reference, and the reference at 1 and 10 tasks: 2 ms, then 4 ms (rounds 3 and 5 ms). */
static const char doc[] =
    "{\"results\":["
    "{\"command\":\"sudo\",\"mean\":0.01,\"stddev\":0.001,\"median\":0.01,\"min\":0.009,"
    "\"max\":0.011,\"parameters\":{\"subject\":\"sudo\",\"nb_tasks\":\"1\"}},"
    "{\"command\":\"sudo\",\"mean\":0.02,\"stddev\":0.002,\"median\":0.02,\"min\":0.018,"
    "\"max\":0.022,\"parameters\":{\"subject\":\"sudo\",\"nb_tasks\":\"10\"},"
    "\"rarbench\":{\"estimate\":0.02,\"ci95\":[0.019,0.021],\"estimator\":\"median\","
    "\"round_estimates\":[{\"round\":1,\"estimate\":0.018},{\"round\":2,\"estimate\":0.02}]}},"
    "{\"command\":\"sudo\",\"mean\":0.03,\"stddev\":0.002,\"median\":0.03,\"min\":0.028,"
    "\"max\":0.032,\"parameters\":{\"subject\":\"sudo\",\"nb_tasks\":\"100\"}}],"
    "\"reference\":{\"command\":\"rarref 10\",\"units\":10,\"results\":["
    "{\"command\":\"rarref 10\",\"mean\":0.002,\"stddev\":0.0001,\"median\":0.002,"
    "\"min\":0.0019,\"max\":0.0021,\"parameters\":{\"nb_tasks\":\"1\"}},"
    "{\"command\":\"rarref 10\",\"mean\":0.004,\"stddev\":0.0001,\"median\":0.004,"
    "\"min\":0.0039,\"max\":0.0041,\"parameters\":{\"nb_tasks\":\"10\"},"
    "\"rarbench\":{\"estimate\":0.004,\"ci95\":[0.0039,0.0041],\"estimator\":\"median\","
    "\"round_estimates\":[{\"round\":1,\"estimate\":0.003},{\"round\":2,\"estimate\":0.005}]}}"
    "]}}";

static void test_normalise(void)
{
	struct results *res = results_new();
	struct errbuf eb = {{0}};
	size_t dropped = 9;

	CHECK(res != NULL);
	CHECK_INT_EQ(results_parse(res, doc, strlen(doc), "in.json", &eb), 0);
	CHECK_INT_EQ((int)res->n_points, 3);
	CHECK_INT_EQ((int)res->n_refs, 2);
	CHECK_STR_EQ(res->refs[1].command, "rarref 10");
	/* The reference is no subject of the results. */
	CHECK(!results_has_subject(res, "rarref"));
	CHECK_INT_EQ((int)results_normalise(res, &dropped, &eb), 2);
	CHECK_INT_EQ((int)dropped, 1);
	CHECK_INT_EQ((int)res->n_points, 2);
	/* 10 ms / 2 ms = 5 reference runs, held in the "seconds" field as 5 / 1000. */
	CHECK(fabs(res->points[0].median_s - 0.005) < 1e-12);
	CHECK(fabs(res->points[0].min_s - 0.0045) < 1e-12);
	/* 20 ms / 4 ms = 5; each round by its own reference: 18 / 3 = 6, 20 / 5 = 4. */
	CHECK(fabs(res->points[1].estimate_s - 0.005) < 1e-12);
	CHECK(fabs(res->points[1].estimate_lo_s - 0.00475) < 1e-12);
	CHECK(fabs(res->points[1].rounds[0].estimate_s - 0.006) < 1e-12);
	CHECK(fabs(res->points[1].rounds[1].estimate_s - 0.004) < 1e-12);
	results_free(res);
}

static void test_none_and_bad(void)
{
	struct results *res = results_new();
	struct errbuf eb = {{0}};
	const char plain[] = "{\"results\":[{\"command\":\"sudo\",\"mean\":0.01,\"stddev\":null,"
			     "\"median\":0.01,\"min\":0.01,\"max\":0.01}]}";
	const char bad[] = "{\"results\":[{\"command\":\"sudo\",\"mean\":0.01,\"stddev\":null,"
			   "\"median\":0.01,\"min\":0.01,\"max\":0.01}],"
			   "\"reference\":{\"results\":[{\"command\":\"r\"}]}}";
	const char notobj[] = "{\"results\":[{\"command\":\"sudo\",\"mean\":0.01,\"stddev\":null,"
			      "\"median\":0.01,\"min\":0.01,\"max\":0.01}],\"reference\":[]}";
	size_t dropped = 9;

	CHECK_INT_EQ(results_parse(res, plain, strlen(plain), "p.json", &eb), 0);
	CHECK_INT_EQ((int)results_normalise(res, &dropped, &eb), 0);
	CHECK_INT_EQ((int)res->n_points, 1);
	CHECK(res->points[0].median_s == 0.01);
	CHECK_INT_EQ(results_parse(res, bad, strlen(bad), "b.json", &eb), -1);
	CHECK(strstr(eb.msg, "b.json: reference.results[0]") != NULL);
	CHECK_INT_EQ((int)res->n_points, 1);
	CHECK_INT_EQ((int)res->n_refs, 0);
	CHECK_INT_EQ((int)res->n_sources, 1);
	CHECK_INT_EQ(results_parse(res, notobj, strlen(notobj), "n.json", &eb), -1);
	CHECK(strstr(eb.msg, "reference: not an object") != NULL);
	results_free(res);
}

int main(void)
{
	RUN(test_normalise);
	RUN(test_none_and_bad);
	return HARNESS_EXIT();
}
