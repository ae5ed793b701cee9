/* test_countcompare: results' counts read (results_entry.c), fitted and compared (countcompare),
 * and fits.tsv's counted columns (fitreport). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "countcompare.h"
#include "countcompare_print.h"
#include "fitreport.h"
#include "fitreport_write.h"
#include "harness.h"
#include "plotseries.h"
#include "results.h"

/* Appended to the candidate's counts objects (a "repeats" member), or "". */
static const char *cand_extra = "";

/* One result of subject at tasks, with instructions a + b tasks (counted) or none. */
static void result(char *buf, size_t len, size_t *used, const char *subject, int tasks, double a,
		   double b, bool counted)
{
	char counts[320] = "";

	if (counted)
		snprintf(counts, sizeof(counts),
			 ", \"counts\": {\"status\": \"ok\", \"instructions\": %.0f, "
			 "\"instrument\": \"callgrind\"%s}",
			 a + b * tasks, strcmp(subject, "cand") == 0 ? cand_extra : "");
	*used += (size_t)snprintf(
	    buf + *used, len - *used,
	    "%s{\"command\": \"%s\", \"mean\": 0.002, \"stddev\": 0.0001, \"median\": 0.002, "
	    "\"min\": 0.0019, \"max\": 0.0021, \"times\": [0.0019, 0.002, 0.0021], "
	    "\"parameters\": {\"subject\": \"%s\", \"nb_tasks\": \"%d\"}%s}",
	    *used > 20 ? ", " : "", subject, subject, tasks, counts);
}

/* A sweep of base and cand at 1, 10, 100, 1000 tasks: base 2 481 733 + 16 900 per task. */
static struct results *sweep(double cand_factor_call, double cand_factor_task, bool cand_counted)
{
	static char buf[16384];
	struct results *res = results_new();
	struct errbuf eb = {{0}};
	size_t used = (size_t)snprintf(buf, sizeof(buf), "{\"results\": [");
	const int sizes[] = {1, 10, 100, 1000};

	for (size_t i = 0; i < 4; i++) {
		result(buf, sizeof(buf), &used, "sudo", sizes[i], 2481733, 16900, true);
		result(buf, sizeof(buf), &used, "cand", sizes[i], 2481733 * cand_factor_call,
		       16900 * cand_factor_task, cand_counted);
	}
	used += (size_t)snprintf(buf + used, sizeof(buf) - used, "]}");
	if (results_parse(res, buf, used, "sweep.json", &eb) != 0)
		fprintf(stderr, "  %s\n", eb.msg);
	return res;
}

static void test_aa_is_exactly_no_change(void)
{
	struct results *res = sweep(1.0, 1.0, true);
	struct countcompare c;
	struct errbuf eb = {{0}};

	CHECK(res->n_points == 8 && res->points[0].counted);
	CHECK_INT_EQ(countcompare_compute(res, "sudo", "cand", "nb_tasks", &c, &eb), 0);
	CHECK(c.available);
	CHECK(c.q[0].ratio.value == 1.0);
	CHECK_INT_EQ(c.q[0].verdict, VERDICT_NO_CHANGE);
	CHECK_INT_EQ(c.q[1].verdict, VERDICT_NO_CHANGE);
	CHECK(!c.regressed && !c.improved);
	CHECK(fabs(c.q[0].base - 2481733) < 1e-3 && fabs(c.q[1].base - 16900) < 1e-6);
	results_free(res);
}

/* A candidate whose repeated counts spread 0.5 %: its 0.5 % change is no longer "regressed";
 * a spread out of [0, 1] is refused. */
static void test_repeated_spread_widens(void)
{
	struct results *res;
	struct countcompare c;
	struct errbuf eb = {{0}};
	char buf[4096] = "";
	FILE *f;

	cand_extra = ", \"repeats\": {\"instructions\": [1, 2], \"spread\": 0.005}";
	res = sweep(1.005, 1.0, true);
	cand_extra = "";
	CHECK(res->n_points == 8 && fabs(res->points[1].count_spread - 0.005) < 1e-12);
	CHECK(res->points[0].count_spread == 0);
	CHECK_INT_EQ(countcompare_compute(res, "sudo", "cand", "nb_tasks", &c, &eb), 0);
	CHECK(fabs(c.spread - 0.005) < 1e-12);
	CHECK(c.q[0].ratio.lo < 1.0 && c.q[0].verdict != VERDICT_REGRESSED && !c.regressed);
	f = tmpfile();
	CHECK(f != NULL);
	if (f != NULL) {
		countcompare_print(&c, "sudo", "cand", "nb_tasks", f);
		rewind(f);
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
		fclose(f);
	}
	CHECK(strstr(buf, "the largest spread recorded, 0.500 %, widens every interval") != NULL);
	results_free(res);
	cand_extra = ", \"repeats\": {\"spread\": 2}";
	res = sweep(1.0, 1.0, true);
	cand_extra = "";
	CHECK_INT_EQ(res->n_points, 0);
	results_free(res);
}

static void test_half_a_percent_detected(void)
{
	struct results *res = sweep(1.005, 1.0, true);
	struct countcompare c;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(countcompare_compute(res, "sudo", "cand", "nb_tasks", &c, &eb), 0);
	CHECK_INT_EQ(c.q[0].verdict, VERDICT_REGRESSED);
	CHECK_INT_EQ(c.q[1].verdict, VERDICT_NO_CHANGE);
	CHECK(c.regressed);
	results_free(res);
	res = sweep(1.0, 0.99, true);
	CHECK_INT_EQ(countcompare_compute(res, "sudo", "cand", "nb_tasks", &c, &eb), 0);
	CHECK_INT_EQ(c.q[1].verdict, VERDICT_IMPROVED);
	CHECK(c.improved && !c.regressed);
	results_free(res);
	/* Within the counts' own spread (0.1 %): no change. */
	res = sweep(1.001, 1.0, true);
	CHECK_INT_EQ(countcompare_compute(res, "sudo", "cand", "nb_tasks", &c, &eb), 0);
	CHECK_INT_EQ(c.q[0].verdict, VERDICT_NO_CHANGE);
	results_free(res);
}

static void test_uncounted_is_unavailable(void)
{
	struct results *res = sweep(1.0, 1.0, false);
	struct countcompare c;
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(countcompare_compute(res, "sudo", "cand", "nb_tasks", &c, &eb), 0);
	CHECK(!c.available);
	CHECK(!plotseries_all_counted(res));
	results_free(res);
}

static void test_bad_counts_refused(void)
{
	const char *bad = "{\"results\": [{\"command\": \"x\", \"mean\": 1, \"median\": 1, "
			  "\"min\": 1, \"max\": 1, \"counts\": {\"status\": \"ok\", "
			  "\"instructions\": \"many\"}}]}";
	const char *notok = "{\"results\": [{\"command\": \"x\", \"mean\": 1, \"median\": 1, "
			    "\"min\": 1, \"max\": 1, \"counts\": {\"status\": \"uncounted\"}}]}";
	struct results *res = results_new();
	struct errbuf eb = {{0}};

	CHECK_INT_EQ(results_parse(res, bad, strlen(bad), "bad.json", &eb), -1);
	CHECK(strstr(eb.msg, "counts") != NULL);
	CHECK_INT_EQ(results_parse(res, notok, strlen(notok), "notok.json", &eb), 0);
	CHECK(res->n_points == 1 && !res->points[0].counted);
	results_free(res);
}

/* fits.tsv gains the counted columns, each ratio over the baseline's. */
static void test_fits_tsv_columns(void)
{
	struct results *res = sweep(4.0, 0.8, true);
	struct plotseries_set *set = NULL, *cset = NULL;
	struct fitreport *rep = NULL, *crep = NULL;
	struct errbuf eb = {{0}};
	char path[] = "/tmp/test_countcompare.XXXXXX", line[1024];
	FILE *f;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	close(fd);
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), 0);
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_INSTRUCTIONS, &cset, &eb), 0);
	CHECK_INT_EQ(fitreport_compute(set, "sudo", false, res, &rep, &eb), 0);
	CHECK_INT_EQ(fitreport_compute(cset, "sudo", false, res, &crep, &eb), 0);
	rep->counts = crep;
	CHECK_INT_EQ(fitreport_write_tsv(rep, path, &eb), 0);
	f = fopen(path, "r");
	CHECK(f != NULL && fgets(line, sizeof(line), f) != NULL);
	CHECK(strstr(line, "\tinstr_per_call\tinstr_per_unit\tinstr_per_call_ratio\t"
			   "instr_per_unit_ratio\n") != NULL);
	CHECK(f != NULL && fgets(line, sizeof(line), f) != NULL); /* sudo */
	CHECK(strstr(line, "\t2481733\t16900\t1\t1\n") != NULL);
	CHECK(f != NULL && fgets(line, sizeof(line), f) != NULL); /* cand */
	CHECK(strstr(line, "\t9926932\t13520\t4\t0.8\n") != NULL);
	if (f != NULL)
		fclose(f);
	unlink(path);
	fitreport_free(crep);
	fitreport_free(rep);
	plotseries_set_free(cset);
	plotseries_set_free(set);
	results_free(res);
}

int main(void)
{
	RUN(test_aa_is_exactly_no_change);
	RUN(test_half_a_percent_detected);
	RUN(test_uncounted_is_unavailable);
	RUN(test_repeated_spread_widens);
	RUN(test_bad_counts_refused);
	RUN(test_fits_tsv_columns);
	return HARNESS_EXIT();
}
