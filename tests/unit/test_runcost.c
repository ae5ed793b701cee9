/* test_runcost: a subject's cost per run from a sweep's results (least squares in the policy's
 * entries), from facts.json, and the built-in priors. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "runcost.h"

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-15;
}

/* Points on known lines: sudo 2 ms + 3 us per entry (the estimate wins over the median), doas one
 * size only (its mean), the reference 2.1 ms; entries are R*T*C + R*U. */
static void test_sweep_lines(void)
{
	static const char doc[] =
	    "{\"results\": ["
	    "{\"median\": 9, \"rarbench\": {\"estimate\": 0.002006}, \"parameters\": {\"subject\": "
	    "\"sudo\", \"nb_roles\": \"1\", \"nb_users\": \"1\", \"nb_tasks\": \"1\", "
	    "\"nb_commands\": \"1\"}},"
	    "{\"median\": 9, \"rarbench\": {\"estimate\": 0.005003}, \"parameters\": {\"subject\": "
	    "\"sudo\", \"nb_roles\": \"1\", \"nb_users\": \"1\", \"nb_tasks\": \"1000\", "
	    "\"nb_commands\": \"1\"}},"
	    "{\"median\": 0.0015, \"parameters\": {\"subject\": \"doas\", \"nb_tasks\": \"10\"}},"
	    "{\"mean\": 0.0025, \"parameters\": {\"subject\": \"doas\", \"nb_tasks\": \"10\"}},"
	    "{\"median\": -1, \"parameters\": {\"subject\": \"neg\"}},"
	    "{\"median\": 0.001, \"parameters\": {\"nb_tasks\": \"1\"}}],"
	    "\"reference\": {\"results\": [{\"median\": 0.0021, \"parameters\": {}}]}}";
	struct runcost_sweep *sw = NULL;
	struct runcost c;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(runcost_sweep_parse(doc, strlen(doc), &sw, &eb), 0);
	if (sw == NULL)
		return;
	CHECK(runcost_sweep_line(sw, "sudo", &c));
	CHECK(c.source == RUNCOST_SWEEP);
	CHECK(near(c.slope_s, 3e-6));
	CHECK(near(c.intercept_s, 0.002));
	CHECK(near(runcost_at(&c, runcost_entries(1, 1, 100, 1)), 0.002303));
	CHECK(runcost_sweep_line(sw, "doas", &c));
	CHECK(near(c.intercept_s, 0.002) && c.slope_s == 0);
	CHECK(!runcost_sweep_line(sw, "neg", &c));
	CHECK(!runcost_sweep_line(sw, "sr-cbor", &c));
	CHECK(runcost_sweep_line(sw, NULL, &c));
	CHECK(near(c.intercept_s, 0.0021));
	runcost_sweep_free(sw);
	CHECK_INT_EQ(runcost_sweep_parse("{\"results\": 3}", 14, &sw, &eb), -1);
	CHECK_STR_EQ(eb.msg, "no \"results\" array");
	CHECK_INT_EQ(runcost_sweep_parse("{\"results\": [", 13, &sw, &eb), -1);
	CHECK_STR_EQ(eb.msg, "not valid JSON");
	CHECK(sw == NULL);
}

static void test_facts_and_priors(void)
{
	cJSON *tool = cJSON_Parse("{\"run_cost\": {\"intercept_ms\": 2.5, \"slope_us\": 4}}");
	cJSON *bad = cJSON_Parse("{\"run_cost\": {\"intercept_ms\": -1, \"slope_us\": 4}}");
	struct runcost c;

	CHECK(runcost_from_facts(tool, &c));
	CHECK(c.source == RUNCOST_FACTS && near(c.intercept_s, 2.5e-3) && near(c.slope_s, 4e-6));
	CHECK(!runcost_from_facts(bad, &c));
	CHECK(!runcost_from_facts(NULL, &c));
	/* The published fits: dosr-json 3.3.4's 192 us per task, 4.0.3's CBOR its own line. */
	CHECK(runcost_prior("dosr-json", &c) && near(c.slope_s, 191.7e-6));
	CHECK(runcost_prior("dosr-4.0.3-cbor", &c) && near(c.intercept_s, 6.72e-3));
	CHECK(runcost_prior("dosr-dev-it62-cbor", &c) && near(c.intercept_s, 2.60e-3));
	CHECK(runcost_prior("sudo-rs", &c) && near(c.slope_s, 7.75e-6));
	CHECK(runcost_prior("sudo-pam", &c) && near(c.intercept_s, 4.78e-3));
	CHECK(!runcost_prior("run0", &c) && c.source == RUNCOST_PRIOR && c.intercept_s > 0);
	runcost_reference_prior(10, &c);
	CHECK(near(c.intercept_s, 2.11e-3));
	cJSON_Delete(tool);
	cJSON_Delete(bad);
}

int main(void)
{
	RUN(test_sweep_lines);
	RUN(test_facts_and_priors);
	return HARNESS_EXIT();
}
