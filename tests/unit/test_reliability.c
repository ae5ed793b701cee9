/* test_reliability: the notes that call a report's fits unreliable, and when they stay silent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "reliability.h"
#include "reliability_print.h"
#include "results.h"

static void test_hosts_disagree(void)
{
	double b_same[3] = {1.00, 1.01, 0.99}, b_far[3] = {1.0, 1.5, 0.5};
	double s[3] = {0.02, 0.02, 0.02}, zero[3] = {0.02, 0, 0.02}, q;

	CHECK(!reliability_hosts_disagree(b_same, s, 3, &q));
	CHECK(q < 9.21);
	CHECK(reliability_hosts_disagree(b_far, s, 3, &q));
	CHECK(fabs(q - 1250) < 1e-6); /* (0 + 0.5^2 + 0.5^2) / 0.02^2 */
	CHECK(!reliability_hosts_disagree(b_far, zero, 3, &q));
	CHECK(!reliability_hosts_disagree(b_far, s, 1, &q));
}

/* A report of three fits: a good one, a flat one with a poor R², and a good one on a 2nd host. */
static void test_print(void)
{
	struct plotseries ser[3] = {{"sudo", "sudoers", "h1", NULL, 0, 0, 0, 0, false},
				    {"doas", "doas", "h1", NULL, 0, 0, 0, 0, false},
				    {"sudo", "sudoers", "h2", NULL, 0, 0, 0, 0, false}};
	struct plotseries_set set = {NULL, NULL, ser, 3, 2};
	struct fitreport_row rows[3];
	struct fitreport rep = {
	    .set = &set, .res = NULL, .baseline = "sudo", .rows = rows, .n_rows = 3};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 3; i++) {
		rows[i].series = &ser[i];
		rows[i].fit = (struct fit_line){1, 0.002, 0.01, 0.00001, 0, 0.99, 0, 14, 14, true};
	}
	rows[1].fit.slope = -0.0001;
	rows[1].fit.r2 = 0.07;
	rows[2].fit.slope = 0.004; /* twice h1's, 200 standard errors away */
	f = open_memstream(&text, &len);
	reliability_print(&rep, f);
	fclose(f);
	CHECK(strstr(text,
		     "unreliable: doas doas on h1: shape: R² 0.07, the points do not lie on a "
		     "line (") != NULL);
	CHECK(strstr(text, "; slope: its 95 % interval reaches 0 or below (") != NULL);
	CHECK(strstr(text, "unreliable: sudo sudoers: its 2 hosts' slopes disagree") != NULL);
	CHECK(strstr(text, "unreliable: sudo sudoers on") == NULL);
	free(text);
	/* Nothing to say: nothing printed (the report stays as it was). */
	rows[1].fit = rows[0].fit;
	rows[2].fit = rows[0].fit;
	text = NULL;
	f = open_memstream(&text, &len);
	reliability_print(&rep, f);
	fclose(f);
	CHECK_INT_EQ(len, 0);
	free(text);
}

/*
 * A fit on shaky points says which reason (contention or interval width) and the remedy of each:
 * issue 46's demo said "contended or noisy ... measure again on a quiet host" for points of which
 * 0-8 % of runs were contended and whose intervals were wide.
 */
static void test_reasons(void)
{
	struct plotseries_point wide[3] = {
	    {.x = 1, .y_ms = 2, .ci_lo_ms = 1.8, .ci_hi_ms = 2.2, .contended_share = 0.0},
	    {.x = 10, .y_ms = 2, .ci_lo_ms = 1.8, .ci_hi_ms = 2.2, .contended_share = 0.08},
	    {.x = 100, .y_ms = 2.2, .ci_lo_ms = 2.19, .ci_hi_ms = 2.21, .contended_share = 0.02}};
	struct plotseries_point busy[3] = {
	    {.x = 1, .y_ms = 2, .ci_lo_ms = 1.99, .ci_hi_ms = 2.01, .contended_share = 0.9},
	    {.x = 10, .y_ms = 2, .ci_lo_ms = 1.8, .ci_hi_ms = 2.2, .contended_share = 0.7},
	    {.x = 100, .y_ms = 2.2, .ci_lo_ms = 2.0, .ci_hi_ms = 2.4, .contended_share = 0.1}};
	struct plotseries ser[2] = {{"sudo", "sudoers", "-", wide, 3, 0, 1, 100, true},
				    {"doas", "doas", "-", busy, 3, 0, 1, 100, true}};
	struct plotseries_set set = {NULL, NULL, ser, 2, 1};
	struct fitreport_row rows[2];
	struct fitreport rep = {
	    .set = &set, .res = NULL, .baseline = "sudo", .rows = rows, .n_rows = 2};
	char *text;

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 2; i++) {
		rows[i].series = &ser[i];
		rows[i].fit = (struct fit_line){2, 0.002, 0.01, 0.00001, 0, 0.99, 0, 3, 3, true};
	}
	CHECK(reliability_point_noisy(&wide[0]) && !reliability_point_contended(&wide[1]));
	CHECK(reliability_point_contended(&busy[0]) && !reliability_point_noisy(&busy[0]));
	HARNESS_PRINTED(text, reliability_print(&rep, f));
	CHECK(strstr(text, "unreliable: sudo sudoers: the fit rests mostly on shaky points (2 of "
			   "3): interval width: 2 with a 95 % interval wider than ±5 %") != NULL);
	CHECK(strstr(text, "wider than ±5 % (0–8 % of their runs contended, under the half that "
			   "flags a point): more runs per point (min_runs, rounds) or precision "
			   "mode") != NULL);
	/* The wide intervals' fit is not sent to a quiet host. */
	CHECK(strstr(text, "sudo sudoers: the fit rests mostly on shaky points (2 of 3): "
			   "contention") == NULL);
	CHECK(strstr(text, "unreliable: doas doas: the fit rests mostly on shaky points (3 of 3): "
			   "contention: 2 contended (") != NULL);
	CHECK(strstr(text, "measure again on a quieter host (doc/precision.md); interval width: 1 "
			   "with a 95 % interval wider than ±5 % (10 % of their runs contended,") !=
	      NULL);
	free(text);
	/* Issue 55: "(few of their runs contended)" beside a table of 22-39 % contended. */
	wide[0].contended_share = 0.22;
	wide[1].contended_share = 0.39;
	HARNESS_PRINTED(text, reliability_print(&rep, f));
	CHECK(strstr(text, "few of their runs") == NULL);
	CHECK(strstr(text, "wider than ±5 % (22–39 % of their runs contended, under the half that "
			   "flags a point): a quieter host, more runs per point") != NULL);
	free(text);
	/* Shares unknown (plain hyperfine results): no share claimed. */
	wide[0].contended_share = wide[1].contended_share = NAN;
	HARNESS_PRINTED(text, reliability_print(&rep, f));
	CHECK(strstr(text, "wider than ±5 % (not flagged contended): more runs") != NULL);
	free(text);
}

/* The contended-runs table says what "contended" meant for the files it describes: the judge
 * rarbench recorded (meta.environment.contention_source), not one from an older rarbench. */
static char *shares_text(const struct fitreport *rep)
{
	char *text;

	HARNESS_PRINTED(text, reliability_print_shares(rep, f));
	return text;
}

static void test_shares_name_their_judge(void)
{
	struct plotseries_point pts[2] = {
	    {.x = 1, .y_ms = 2, .ci_lo_ms = 1.99, .ci_hi_ms = 2.01, .contended_share = 0.04},
	    {.x = 10, .y_ms = 2, .ci_lo_ms = 1.99, .ci_hi_ms = 2.01, .contended_share = 0.6}};
	struct plotseries ser = {"sudo", "sudoers", "-", pts, 2, 0, 1, 10, true};
	struct plotseries_set set = {NULL, NULL, &ser, 1, 1};
	struct fitreport_row row;
	struct results *res = results_new();
	struct fitreport rep = {
	    .set = &set, .res = res, .baseline = "sudo", .rows = &row, .n_rows = 1};
	char *text;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	memset(&row, 0, sizeof(row));
	row.series = &ser;
	snprintf(res->contention_source, sizeof(res->contention_source), "schedstat");
	text = shares_text(&rep);
	CHECK(text != NULL &&
	      strstr(text, "waited for a CPU (the run delay of /proc/PID/schedstat") != NULL);
	CHECK(text != NULL && strstr(text, "more than max(200 µs, 1 % of the wall time)") != NULL);
	CHECK(text != NULL && strstr(text, "off-CPU") == NULL);
	CHECK(text != NULL && strstr(text, "| sudo | sudoers | 4 % | 60 % ! |") != NULL);
	free(text);
	snprintf(res->contention_source, sizeof(res->contention_source), "off-cpu");
	text = shares_text(&rep);
	CHECK(text != NULL &&
	      strstr(text, "whose off-CPU time exceeded the subject's best by more than "
			   "max(50 µs, 1 % of the wall time)") != NULL);
	free(text);
	snprintf(res->contention_source, sizeof(res->contention_source), "%s", RESULTS_MIXED);
	text = shares_text(&rep);
	CHECK(text != NULL && strstr(text, "the input files differ in how, or do not say") != NULL);
	free(text);
	results_free(res);
}

int main(void)
{
	RUN(test_hosts_disagree);
	RUN(test_print);
	RUN(test_reasons);
	RUN(test_shares_name_their_judge);
	return HARNESS_EXIT();
}
