/* test_plotseries: series along an axis from results: held axes, error bars, weights, hosts, TSV.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "plotseries.h"
#include "plotseries_tsv.h"

/* Appends one result (seconds) to a JSON "results" array under construction. */
static void add(char *buf, size_t len, const char *subject, const char *host, int roles, int tasks,
		double median, double stddev_or_neg)
{
	size_t used = strlen(buf);
	char sd[32];

	if (stddev_or_neg < 0)
		snprintf(sd, sizeof(sd), "null");
	else
		snprintf(sd, sizeof(sd), "%.17g", stddev_or_neg);
	snprintf(buf + used, len - used,
		 "%s{\"command\":\"x\",\"mean\":%.17g,\"stddev\":%s,\"median\":%.17g,\"min\":%.17g,"
		 "\"max\":%.17g,\"times\":[%.17g,%.17g,%.17g,%.17g],\"parameters\":{\"nb_roles\":"
		 "\"%d\",\"nb_users\":\"1\",\"nb_tasks\":\"%d\",\"subject\":\"%s\",\"format\":\"f\""
		 "%s%s%s}}",
		 used > 12 ? "," : "", median + 1e-4, sd, median, median - 2e-4, median + 6e-4,
		 median - 2e-4, median - 1e-4, median + 1e-4, median + 6e-4, roles, tasks, subject,
		 host ? ",\"host\":\"" : "", host ? host : "", host ? "\"" : "");
}

static struct results *parse(const char *body)
{
	static char doc[65536];
	struct errbuf eb = {{0}};
	struct results *res = results_new();

	snprintf(doc, sizeof(doc), "%s]}", body);
	if (results_parse(res, doc, strlen(doc), "t.json", &eb) != 0) {
		fprintf(stderr, "  %s\n", eb.msg);
		results_free(res);
		return NULL;
	}
	return res;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) + 1e-300);
}

static void test_held_axes_and_error_bars(void)
{
	char body[65536] = "{\"results\":[";
	struct plotseries_set *set = NULL;
	struct errbuf eb = {{0}};
	struct results *res;
	const int tasks[] = {100, 1, 10};
	size_t i;

	for (i = 0; i < 3; i++) {
		add(body, sizeof(body), "sudo", NULL, 1, tasks[i], 3e-3 + 1e-7 * tasks[i], 1e-4);
		add(body, sizeof(body), "sudo", NULL, 4, tasks[i], 9e-3, 1e-4); /* held out */
	}
	res = parse(body);
	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), 0);
	if (set != NULL) {
		const struct plotseries *s = &set->series[0];

		CHECK_INT_EQ(set->n_series, 1);
		CHECK_INT_EQ(set->n_hosts, 1);
		CHECK_STR_EQ(set->held, "nb_roles=1, nb_users=1");
		CHECK_INT_EQ(s->n, 3);
		CHECK(s->pts[0].x == 1 && s->pts[1].x == 10 && s->pts[2].x == 100);
		CHECK(near(s->pts[2].y_ms, 3.01));
		/* quartiles of the four times, by linear interpolation */
		CHECK(near(s->pts[0].ylow_ms, (3e-3 + 1e-7 - 1.25e-4) * 1e3));
		CHECK(near(s->pts[0].yhigh_ms, (3e-3 + 1e-7 + 2.25e-4) * 1e3));
		CHECK(near(s->pts[0].sigma_ms, 1e-4 * 1e3 / 2));
		CHECK_INT_EQ(s->pts[0].runs, 4);
		CHECK(s->weighted);
		CHECK(s->x_min == 1 && s->x_max == 100);
		CHECK_STR_EQ(s->host, "-");
	}
	plotseries_set_free(set);
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEAN, &set, &eb), 0);
	if (set != NULL) {
		const struct plotseries_point *p = &set->series[0].pts[0];

		CHECK(near(p->y_ms, (3e-3 + 1e-7 + 1e-4) * 1e3));
		CHECK(near(p->ylow_ms, (3e-3 + 1e-7) * 1e3));
		CHECK(near(p->yhigh_ms, (3e-3 + 1e-7 + 2e-4) * 1e3));
	}
	plotseries_set_free(set);
	results_free(res);
}

static void test_unweighted_when_a_stddev_is_null(void)
{
	char body[65536] = "{\"results\":[";
	struct plotseries_set *set = NULL;
	struct errbuf eb = {{0}};
	struct results *res;

	add(body, sizeof(body), "doas", NULL, 1, 1, 2e-3, 1e-4);
	add(body, sizeof(body), "doas", NULL, 1, 2, 2e-3, -1);
	add(body, sizeof(body), "doas", NULL, 1, 3, 2e-3, 1e-4);
	res = parse(body);
	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEAN, &set, &eb), 0);
	if (set != NULL) {
		CHECK(!set->series[0].weighted);
		CHECK(isnan(set->series[0].pts[1].sigma_ms));
		/* no stddev: the mean's bar falls back to min..max */
		CHECK(near(set->series[0].pts[1].ylow_ms, 1.8));
	}
	plotseries_set_free(set);
	results_free(res);
}

static void test_both_axis_and_errors(void)
{
	char body[65536] = "{\"results\":[";
	struct plotseries_set *set = NULL;
	struct errbuf eb = {{0}};
	struct results *res;

	add(body, sizeof(body), "sr", NULL, 2, 3, 1e-3, 1e-5);
	add(body, sizeof(body), "sr", NULL, 1, 1, 1e-3, 1e-5);
	add(body, sizeof(body), "sr", NULL, 4, 10, 1e-3, 1e-5);
	res = parse(body);
	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(plotseries_build(res, PLOTSERIES_AXIS_BOTH, PLOTSERIES_MEDIAN, &set, &eb), 0);
	if (set != NULL) {
		CHECK(set->series[0].pts[0].x == 1 && set->series[0].pts[1].x == 6 &&
		      set->series[0].pts[2].x == 40);
		CHECK(set->series[0].pts[2].nb_roles == 4 && set->series[0].pts[2].nb_tasks == 10);
	}
	plotseries_set_free(set);
	set = NULL;
	CHECK_INT_EQ(plotseries_build(res, "nb_commands", PLOTSERIES_MEDIAN, &set, &eb), -1);
	CHECK(set == NULL);
	CHECK(strstr(eb.msg, "t.json: no result has the parameter nb_commands") != NULL);
	CHECK_INT_EQ(plotseries_build(res, "nb_users", PLOTSERIES_MEDIAN, &set, &eb), -1);
	CHECK(strstr(eb.msg,
		     "t.json: subject sr format f host -: only 1 distinct nb_users value") != NULL);
	/* nb_roles varies but nb_tasks is held at 1: only one point is left */
	CHECK_INT_EQ(plotseries_build(res, "nb_roles", PLOTSERIES_MEDIAN, &set, &eb), -1);
	CHECK(strstr(eb.msg, "only 1 distinct") != NULL);
	results_free(res);

	res = parse("{\"results\":[{\"command\":\"x\",\"mean\":1,\"median\":1,\"min\":1,\"max\":1,"
		    "\"parameters\":{\"nb_tasks\":\"ten\"}}");
	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), -1);
	CHECK(strstr(eb.msg, "t.json: results[0].parameters.nb_tasks: \"ten\" is not a size") !=
	      NULL);
	results_free(res);
}

static void test_hosts_and_tsv(void)
{
	char body[65536] = "{\"results\":[";
	const char *hosts[] = {"h1", "h2", "h3"};
	const double scale[] = {1.0, 1.2, 0.9};
	struct plotseries_set *set = NULL, *agg = NULL;
	struct errbuf eb = {{0}};
	struct results *res;
	char dir[] = "/tmp/test_plotseries.XXXXXX", path[128], line[512];
	size_t h, t, lines = 0;
	FILE *f;

	for (h = 0; h < 3; h++)
		for (t = 1; t <= 3; t++)
			add(body, sizeof(body), "sudo", hosts[h], 1, (int)t, scale[h] * 1e-3 * t,
			    1e-5);
	res = parse(body);
	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), 0);
	if (set == NULL) {
		results_free(res);
		return;
	}
	CHECK_INT_EQ(set->n_series, 3);
	CHECK_INT_EQ(set->n_hosts, 3);
	CHECK_STR_EQ(set->series[1].host, "h2");
	CHECK_INT_EQ(plotseries_across_hosts(set, &agg, &eb), 0);
	if (agg != NULL) {
		const struct plotseries *s = &agg->series[0];

		CHECK_INT_EQ(agg->n_series, 1);
		CHECK_STR_EQ(s->host, "all");
		CHECK_INT_EQ(s->n, 3);
		CHECK(near(s->pts[1].y_ms, 2.0)); /* median of 2.0, 2.4, 1.8 */
		CHECK(near(s->pts[1].ylow_ms, 1.8));
		CHECK(near(s->pts[1].yhigh_ms, 2.4));
		CHECK(!s->weighted);
	}
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/s.tsv", dir);
	CHECK_INT_EQ(plotseries_write_tsv(&set->series[1], path, &eb), 0);
	f = fopen(path, "r");
	CHECK(f != NULL);
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (line[0] == '#')
			continue;
		if (lines++ == 2) {
			double x, y, v[6], lo, hi;

			CHECK_INT_EQ(sscanf(line,
					    "%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf", &x,
					    &y, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &lo, &hi),
				     10);
			CHECK(x == 3 && y == set->series[1].pts[2].y_ms); /* exact round trip */
			/* 4 times per point: too few for the median's interval */
			CHECK(isnan(lo) && isnan(hi));
		}
	}
	CHECK_INT_EQ(lines, 3);
	if (f != NULL)
		fclose(f);
	unlink(path);
	rmdir(dir);
	plotseries_set_free(agg);
	plotseries_set_free(set);
	results_free(res);
}

/* rarbench's estimate as y: its interval as error bars, its half-width / 1.96 as sigma. */
static void test_estimate_stat(void)
{
	char body[8192] = "{\"results\":[";
	struct plotseries_set *set = NULL;
	struct errbuf eb = {{0}};
	struct results *res;
	size_t used, t;

	for (t = 1; t <= 3; t++) {
		used = strlen(body);
		snprintf(
		    body + used, sizeof(body) - used,
		    "%s{\"command\":\"x\",\"mean\":1,\"stddev\":0.1,\"median\":1,\"min\":1,"
		    "\"max\":1,\"times\":[1,1,1,1,1,1],\"parameters\":{\"nb_tasks\":\"%zu\","
		    "\"subject\":\"s\"},\"rarbench\":{\"estimator\":\"median\",\"estimate\":%zu,"
		    "\"ci95\":[%g,%g]}}",
		    t > 1 ? "," : "", t, t, t - 0.0196, t + 0.0196);
	}
	res = parse(body);
	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK(plotseries_all_estimated(res));
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_ESTIMATE, &set, &eb), 0);
	if (set != NULL) {
		const struct plotseries_point *p = &set->series[0].pts[1];

		CHECK(near(p->y_ms, 2000.0));
		CHECK(near(p->ci_lo_ms, 1980.4) && near(p->ci_hi_ms, 2019.6));
		CHECK(fabs(p->sigma_ms - 19.6 / 1.959964) < 1e-6);
		CHECK(set->series[0].weighted);
	}
	plotseries_set_free(set);
	set = NULL;
	/* the median of the same points: the order-statistic interval of the times */
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), 0);
	if (set != NULL)
		CHECK(near(set->series[0].pts[1].ci_lo_ms, 1000.0) &&
		      near(set->series[0].pts[1].ci_hi_ms, 1000.0));
	plotseries_set_free(set);
	results_free(res);
}

int main(void)
{
	RUN(test_held_axes_and_error_bars);
	RUN(test_unweighted_when_a_stddev_is_null);
	RUN(test_both_axis_and_errors);
	RUN(test_hosts_and_tsv);
	RUN(test_estimate_stat);
	return HARNESS_EXIT();
}
