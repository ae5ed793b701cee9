/* test_fitreport: fits per series, the baseline comparison, crossover, fits.tsv and the table. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "compare.h"
#include "fitreport.h"
#include "fitreport_write.h"
#include "harness.h"

/* Exact lines (ms): sudo 3.2 + 0.00016 t, doas 2.0 + 0.0003 t, sr 1.1 + 0.000054 t, on each host.
 */
static struct results *exact_results(int n_hosts)
{
	static char doc[1 << 17];
	static const struct {
		const char *subject, *format;
		double a_ms, b_ms;
	} lines[] = {{"sudo", "sudoers", 3.2, 0.00016},
		     {"doas", "doas", 2.0, 0.0003},
		     {"sr", "rar-cbor", 1.1, 0.000054}};
	const int tasks[] = {1, 10, 100, 1000, 10000};
	struct errbuf eb = {{0}};
	struct results *res = results_new();
	size_t used, i, j;
	int h;

	used = (size_t)snprintf(doc, sizeof(doc), "{\"results\":[");
	for (h = 0; h < n_hosts; h++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < 5; j++) {
				double y = (lines[i].a_ms + lines[i].b_ms * tasks[j]) *
					   (1 + 0.1 * h) / 1e3;
				used += (size_t)snprintf(doc + used, sizeof(doc) - used,
							 "%s{\"command\":\"c\",\"mean\":%.17g,"
							 "\"stddev\":null,\"median\":"
							 "%.17g,\"min\":%.17g,\"max\":%.17g,"
							 "\"parameters\":{\"nb_tasks\":"
							 "\"%d\",\"subject\":\"%s\",\"format\":\"%"
							 "s\",\"host\":\"h%d\"}}",
							 used > 13 ? "," : "", y, y, y, y, tasks[j],
							 lines[i].subject, lines[i].format, h);
			}
	snprintf(doc + used, sizeof(doc) - used, "]}");
	if (results_parse(res, doc, strlen(doc), "exact.json", &eb) != 0) {
		fprintf(stderr, "  %s\n", eb.msg);
		results_free(res);
		return NULL;
	}
	return res;
}

static int near(double a, double b, double tol)
{
	if (fabs(a - b) <= tol * fabs(b))
		return 1;
	fprintf(stderr, "  %.17g vs %.17g\n", a, b);
	return 0;
}

static void test_compare_with_baseline(void)
{
	struct results *res = exact_results(1);
	struct plotseries_set *set = NULL;
	struct fitreport *rep = NULL;
	struct errbuf eb = {{0}};

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), 0);
	CHECK_INT_EQ(fitreport_compute(set, "sudo", true, res, &rep, &eb), 0);
	if (rep != NULL) {
		const struct fitreport_row *sudo = &rep->rows[0], *doas = &rep->rows[1],
					   *sr = &rep->rows[2];

		CHECK_INT_EQ(rep->n_rows, 3);
		CHECK(sudo->baseline == sudo);
		CHECK(doas->baseline == sudo);
		CHECK(near(doas->fit.slope, 0.0003, 1e-9));
		CHECK(near(doas->raw_diff_pct, -37.5, 1e-9));
		CHECK(near(doas->slope_diff_pct, 87.5, 1e-9));
		CHECK(doas->has_crossover);
		CHECK(near(doas->crossover_x, 1.2 / 0.00014, 1e-9));
		/* sr is cheaper everywhere: the lines would meet at a negative size */
		CHECK(!sr->has_crossover);
		CHECK(near(sr->slope_diff_pct, 100.0 * (0.000054 - 0.00016) / 0.00016, 1e-9));
		CHECK(!sr->fit.weighted); /* stddev null: unweighted */
	}
	fitreport_free(rep);
	rep = NULL;
	CHECK_INT_EQ(fitreport_compute(set, "nobody", true, res, &rep, &eb), 0);
	if (rep != NULL)
		CHECK(rep->rows[0].baseline == NULL);
	fitreport_free(rep);
	plotseries_set_free(set);
	results_free(res);
}

static void test_outputs(void)
{
	struct results *res = exact_results(3);
	struct plotseries_set *set = NULL;
	struct fitreport *rep = NULL;
	struct errbuf eb = {{0}};
	char dir[] = "/tmp/test_fitreport.XXXXXX", path[128], line[512], *table = NULL;
	size_t table_len = 0, rows = 0;
	FILE *f;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), 0);
	CHECK_INT_EQ(fitreport_compute(set, "sudo", true, res, &rep, &eb), 0);
	if (rep == NULL) {
		plotseries_set_free(set);
		results_free(res);
		return;
	}
	CHECK_INT_EQ(rep->n_rows, 9);
	/* each host compares with its own sudo */
	CHECK(rep->rows[4].baseline == &rep->rows[3]);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/fits.tsv", dir);
	CHECK_INT_EQ(fitreport_write_tsv(rep, path, &eb), 0);
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f != NULL && fgets(line, sizeof(line), f) != NULL)
		/* The original ten columns first, in place; the 95 % intervals after them. */
		CHECK_STR_EQ(line, "subject\tformat\thost\tx\tn\tintercept_ms\tintercept_se_ms\t"
				   "slope_us\tslope_se_us\tr2\tintercept_lo_ms\tintercept_hi_ms\t"
				   "slope_lo_us\tslope_hi_us\n");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		char subject[32], format[32], host[32], x[32];
		double a, ase, b, bse, r2, alo, ahi, blo, bhi;
		int n;

		if (sscanf(
			line,
			"%31s\t%31s\t%31s\t%31s\t%d\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf\t%lf",
			subject, format, host, x, &n, &a, &ase, &b, &bse, &r2, &alo, &ahi, &blo,
			&bhi) == 14 &&
		    rows++ == 3) {
			/* exact lines: the intervals collapse onto the values */
			CHECK(near(alo, a, 1e-9) && near(ahi, a, 1e-9));
			CHECK(near(blo, b, 1e-9) && near(bhi, b, 1e-9));
			CHECK_STR_EQ(subject, "sudo");
			CHECK_STR_EQ(host, "h1");
			CHECK_STR_EQ(x, "nb_tasks");
			CHECK_INT_EQ(n, 5);
			CHECK(near(a, 3.2 * 1.1, 1e-9));
			CHECK(near(b, 0.16 * 1.1, 1e-9));
			CHECK(bse < 1e-9 && r2 > 0.999999999);
		}
	}
	CHECK_INT_EQ(rows, 9);
	if (f != NULL)
		fclose(f);
	unlink(path);
	rmdir(dir);

	f = open_memstream(&table, &table_len);
	CHECK(f != NULL);
	if (f != NULL) {
		fitreport_print_table(rep, f);
		fclose(f);
		if (strstr(table, "(regressed) | 8571 [8571, 8571] |") == NULL)
			fprintf(stderr, "%s", table);
		CHECK(strstr(table, "| subject | format | host | points | intercept (ms) | slope "
				    "(µs/task) | R² | raw vs sudo | slope vs sudo | crossover "
				    "(nb_tasks) |") != NULL);
		CHECK(strstr(table, "| doas | doas | h0 | 5 | 2.0000 ± 0.0000 [2.0000, 2.0000] | "
				    "0.3 ± 0 [0.3, 0.3] "
				    "| 1.00000 | \u221238 % [\u22123") != NULL);
		/* -37.5 % and +87.5 % exactly, rounded as rarplot --compare rounds (no decimal
		 * above 10 %): an end of an exact interval may round either way */
		CHECK(strstr(table, "] (improved) | +8") != NULL);
		CHECK(strstr(table, "] (regressed) | 8571 [8571, 8571] |") != NULL);
		CHECK(strstr(table, "| sudo | sudoers | h0 | 5 |") != NULL &&
		      strstr(table, "| baseline | baseline | - |") != NULL);
		/* across hosts: slopes 0.16 x 1, 1.1, 1.2 */
		CHECK(strstr(table, "| sudo | sudoers | 3 | 0.16 | 0.176 | 0.192 | 18.2% |") !=
		      NULL);
		/* exact fits: no within-host noise, all of the spread is between hosts; mean
		 * 0.176, sd 0.016, t(2) = 4.3027: [0.1363, 0.2157] */
		if (strstr(table, "| 0.176 [0.1363, 0.2157] | 0 | 0.016 | 100% |") == NULL)
			fprintf(stderr, "%s", table);
		CHECK(strstr(table, "| 0.176 [0.1363, 0.2157] | 0 | 0.016 | 100% |") != NULL);
		CHECK(strstr(table, "| sr | rar-cbor | 3 |") != NULL);
	}
	free(table);
	fitreport_free(rep);
	plotseries_set_free(set);
	results_free(res);
}

static void test_hosts_split(void)
{
	double b[] = {1, 2, 3}, se[] = {0.5, 0.5, 0.5};
	struct fitreport_hosts h;

	/* var(b) = 1, within = 0.25: between = 0.75 of it */
	fitreport_hosts_split(b, se, 3, &h);
	CHECK_INT_EQ(h.hosts, 3);
	CHECK(near(h.mean, 2.0, 1e-12));
	CHECK(near(h.within_sd, 0.5, 1e-12));
	CHECK(near(h.between_sd, sqrt(0.75), 1e-12));
	CHECK(near(h.between_share, 0.75, 1e-12));
	CHECK(near(h.lo, 2.0 - 4.3027 / sqrt(3.0), 1e-9));
	CHECK(near(h.hi, 2.0 + 4.3027 / sqrt(3.0), 1e-9));
	/* the hosts differ less than one host's fit is uncertain: nothing between them */
	se[0] = se[1] = se[2] = 2.0;
	fitreport_hosts_split(b, se, 3, &h);
	CHECK(near(h.between_sd, 0.0, 0) && near(h.between_share, 0.0, 0));
	fitreport_hosts_split(b, se, 1, &h);
	CHECK(near(h.mean, 1.0, 0) && isnan(h.within_sd) && isnan(h.lo));
}

static void test_units(void)
{
	CHECK_STR_EQ(fitreport_unit("nb_tasks"), "task");
	CHECK_STR_EQ(fitreport_unit("nb_roles"), "role");
	CHECK_STR_EQ(fitreport_unit(PLOTSERIES_AXIS_BOTH), "role×task");
	CHECK_STR_EQ(fitreport_unit("size"), "size");
}

/* A file's whole text (at most 64 KiB), or NULL. */
static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Whether every '<' of s has a backslash before it (no HTML tag can open). */
static int no_live_tag(const char *s)
{
	for (const char *p = strchr(s, '<'); p != NULL; p = strchr(p + 1, '<'))
		if (p == s || p[-1] != '\\')
			return 0;
	return 1;
}

/*
 * report.md (and the table on stdout) for names that are HTML and Markdown, a note with a tag
 * in it, and an input whose name holds a backtick: all text; and the method names the estimator,
 * the contended runs' treatment, the error bars and the weights that were used.
 */
static void test_report_markdown(void)
{
	static const char *const inputs[] = {"a.json", "we`ird.json"};
	static const char *const notes[] = {"perf_roles not drawn: <script>x</script>"};
	static char doc[8192];
	struct results *res = results_new();
	struct plotseries_set *set = NULL;
	struct fitreport *rep = NULL;
	struct fitreport_context ctx;
	struct errbuf eb = {{0}};
	char dir[] = "/tmp/test_fitreport.XXXXXX", path[128];
	const char *md;
	size_t used = 0;
	int i, k;

	used += (size_t)snprintf(doc, sizeof(doc), "{\"results\":[");
	for (k = 0; k < 2; k++)
		for (i = 1; i <= 4; i++)
			used += (size_t)snprintf(
			    doc + used, sizeof(doc) - used,
			    "%s{\"command\":\"c\",\"mean\":%d,\"stddev\":0.1,\"median\":%d,"
			    "\"min\":1,\"max\":9,\"times\":[1,2],\"parameters\":{\"nb_tasks\":"
			    "\"%d\",\"subject\":\"%s\",\"format\":\"f*\"},\"rarbench\":{"
			    "\"estimator\":\"median\",\"estimate\":%d,\"ci95\":[%d,%d.5]}}",
			    used > 13 ? "," : "", i + k, i + k, i * 10,
			    k ? "<img src=x onerror=alert(1)>" : "sudo", i + k, i + k, i + k);
	snprintf(doc + used, sizeof(doc) - used,
		 "],\"meta\":{\"measure\":{\"estimator\":\"median\",\"contended\":\"drop\"},"
		 "\"skipped_subjects\":[{\"id\":\"d<b>\",\"reason\":\"<i>gone</i>\"},"
		 "{\"id\":\"d<b>\",\"reason\":\"<i>gone</i>\"}]}}");
	CHECK(res != NULL);
	CHECK(mkdtemp(dir) != NULL);
	if (res == NULL || results_parse(res, doc, strlen(doc), "a.json", &eb) != 0 ||
	    plotseries_build(res, "nb_tasks", PLOTSERIES_ESTIMATE, &set, &eb) != 0 ||
	    fitreport_compute(set, "sudo", true, res, &rep, &eb) != 0) {
		fprintf(stderr, "  %s\n", eb.msg);
		CHECK(0);
		goto out;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.inputs = inputs;
	ctx.n_inputs = 2;
	ctx.stat = "median estimate";
	ctx.stat_kind = PLOTSERIES_ESTIMATE;
	ctx.use_weights = true;
	ctx.notes = notes;
	ctx.n_notes = 1;
	snprintf(path, sizeof(path), "%s/report.md", dir);
	CHECK_INT_EQ(fitreport_write_markdown(rep, &ctx, path, &eb), 0);
	md = slurp(path);
	CHECK(md != NULL);
	if (md == NULL)
		goto out;
	CHECK(strstr(md, "\n| \\<img src=x onerror=alert(1)\\> | f\\* | 4 |") != NULL);
	CHECK(strstr(md, "- perf_roles not drawn: \\<script\\>x\\</script\\>\n") != NULL);
	CHECK(strstr(md, "Inputs: `a.json`, we\\`ird.json.\n") != NULL);
	/* the question first, the subjects named as text; a skipped subject once, with its reason
	 */
	CHECK(strncmp(strstr(md, "\n## "), "\n## The question\n", 17) == 0);
	CHECK(strstr(md, "\n- \\<img src=x onerror=alert(1)\\>, f\\* policy\n") != NULL);
	CHECK(strstr(md, "\n- subject d\\<b\\> not measured: \\<i\\>gone\\</i\\> (`a.json`)\n") !=
	      NULL);
	CHECK(strstr(strstr(md, "d\\<b\\> not measured") + 1, "d\\<b\\> not measured") == NULL);
	CHECK(no_live_tag(md));
	/* the method: estimator, contended runs, error bars, weights, the ± */
	CHECK(strstr(md,
		     "**rarbench's estimator** (from the results' meta): `median` (the median of"
		     " the runs); **contended runs** (runs that waited for a CPU another task"
		     " held): `drop` (left out of the estimate") != NULL);
	CHECK(strstr(md, "**Error bars** in the figures: each point's 95 % interval, rarbench's "
			 "interval of its estimate") != NULL);
	CHECK(strstr(md, "σ its standard error: the half-width of its 95 % interval ÷ 1.96") !=
	      NULL);
	CHECK(strstr(md, "stddev/√runs") == NULL);
	CHECK(strstr(md, "**±** in the tables: the standard error of the intercept or the slope") !=
	      NULL);
	unlink(path);
	fitreport_free(rep);
	rep = NULL;
	plotseries_set_free(set);
	set = NULL;
	results_free(res);
	res = NULL;

	/* a file that does not say how it was measured: unknown; the median's weights */
	res = exact_results(1);
	if (res == NULL || plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb) != 0 ||
	    fitreport_compute(set, "sudo", true, res, &rep, &eb) != 0) {
		CHECK(0);
		goto out;
	}
	ctx.stat = "median";
	ctx.stat_kind = PLOTSERIES_MEDIAN;
	ctx.n_notes = 0;
	CHECK_INT_EQ(fitreport_write_markdown(rep, &ctx, path, &eb), 0);
	md = slurp(path);
	CHECK(md != NULL);
	if (md == NULL)
		goto out;
	CHECK(strstr(md, "to the median wall time of each point") != NULL);
	CHECK(strstr(md, "(from the results' meta): unknown (the results do not say); **contended "
			 "runs** (runs that waited for a CPU another task held): unknown") != NULL);
	CHECK(strstr(md, "σ its standard error: stddev/√runs") != NULL);
	CHECK(strstr(md, "order statistics") != NULL);
	unlink(path);
out:
	rmdir(dir);
	fitreport_free(rep);
	plotseries_set_free(set);
	results_free(res);
}

/* fitreport_print_table into a malloc'd string. */
static char *table_of(const struct fitreport *rep)
{
	char *t;

	HARNESS_PRINTED(t, fitreport_print_table(rep, f));
	return t;
}

/*
 * One verdict per comparison: on a sweep with rounds, the table's "raw vs" and "slope vs" are
 * rarplot --compare's paired ratios, printed as the same string.
 */
static void test_paired_as_compare(void)
{
	struct results *res = results_new();
	struct plotseries_set *set = NULL;
	struct fitreport *rep = NULL;
	struct errbuf eb = {{0}};
	struct compare_opts o = {"base", "cand", "nb_tasks", VERDICT_DEFAULT_NOISE, NULL, 0, false,
				 true,   0,      SIZE_MAX};
	struct compare_outcome out;
	char want[128], pct[96], *table = NULL;

	CHECK(res != NULL &&
	      results_load_file(res, "tests/fixtures/compare/paired.json", &eb) == 0);
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_ESTIMATE, &set, &eb), 0);
	CHECK_INT_EQ(fitreport_compute(set, "base", true, res, &rep, &eb), 0);
	CHECK_INT_EQ(compare_compute(res, &o, &out, &eb), 0);
	if (rep == NULL || set == NULL)
		goto out;
	CHECK(!rep->rows[1].paired); /* until asked: the delta method */
	CHECK_INT_EQ(fitreport_pair(rep, true, true), 1);
	CHECK(rep->rows[1].paired);
	table = table_of(rep);
	CHECK(table != NULL);
	for (size_t q = 0; q < 2 && table != NULL; q++) {
		verdict_format_pct(&out.q[q].paired, pct, sizeof(pct));
		snprintf(want, sizeof(want), "| %s (%s) |", pct, verdict_name(out.q[q].verdict));
		if (strstr(table, want) == NULL)
			fprintf(stderr, "  want %s in\n%s", want, table);
		CHECK(strstr(table, want) != NULL);
	}
	/* the crossover is the paired one: (1.2 - 1) / (0.002 - 0.0015) = 400 */
	CHECK(rep->rows[1].has_crossover && fabs(rep->rows[1].crossover_x - 400) < 40);
	free(table);
	/* median y: rounds are estimates, so nothing is paired and the delta method says so */
	CHECK_INT_EQ(fitreport_pair(rep, false, true), 0);
	CHECK(!rep->rows[1].paired);
	table = table_of(rep);
	CHECK(table != NULL && strstr(table, "†") == NULL);
out:
	free(table);
	fitreport_free(rep);
	plotseries_set_free(set);
	results_free(res);
}

/* A baseline line through 0: the raw ratio is undefined, never "-nan%" or a huge number. */
static void test_zero_intercept(void)
{
	const char *doc =
	    "{\"results\":["
	    "{\"command\":\"a\",\"mean\":0.001,\"median\":0.001,\"min\":0.001,"
	    "\"max\":0.001,\"parameters\":{\"nb_tasks\":\"1\",\"subject\":\"sudo\"}},"
	    "{\"command\":\"a\",\"mean\":0.01,\"median\":0.01,\"min\":0.01,"
	    "\"max\":0.01,\"parameters\":{\"nb_tasks\":\"10\",\"subject\":\"sudo\"}},"
	    "{\"command\":\"a\",\"mean\":0.1,\"median\":0.1,\"min\":0.1,"
	    "\"max\":0.1,\"parameters\":{\"nb_tasks\":\"100\",\"subject\":\"sudo\"}},"
	    "{\"command\":\"a\",\"mean\":0.003,\"median\":0.003,\"min\":0.003,"
	    "\"max\":0.003,\"parameters\":{\"nb_tasks\":\"1\",\"subject\":\"x\"}},"
	    "{\"command\":\"a\",\"mean\":0.021,\"median\":0.021,\"min\":0.021,"
	    "\"max\":0.021,\"parameters\":{\"nb_tasks\":\"10\",\"subject\":\"x\"}},"
	    "{\"command\":\"a\",\"mean\":0.201,\"median\":0.201,\"min\":0.201,"
	    "\"max\":0.201,\"parameters\":{\"nb_tasks\":\"100\",\"subject\":\"x\"}}]}";
	struct results *res = results_new();
	struct plotseries_set *set = NULL;
	struct fitreport *rep = NULL;
	struct errbuf eb = {{0}};
	char *table = NULL;

	CHECK(res != NULL && results_parse(res, doc, strlen(doc), "zero.json", &eb) == 0);
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), 0);
	CHECK_INT_EQ(fitreport_compute(set, "sudo", true, res, &rep, &eb), 0);
	if (rep != NULL) {
		table = table_of(rep);
		CHECK(table != NULL && strstr(table, "| undefined: intercept 0 |") != NULL);
		/* slope 2 us/task against 1: +100 % */
		CHECK(table != NULL &&
		      strstr(table, "| +100 % [+100, +100] (regressed) |") != NULL);
		CHECK(table != NULL && strstr(table, "nan") == NULL);
		if (table != NULL && strstr(table, "undefined: intercept 0") == NULL)
			fprintf(stderr, "%s", table);
	}
	free(table);
	fitreport_free(rep);
	plotseries_set_free(set);
	results_free(res);
}

/* In reference units, the table says so (normalised.md): mref per task, not µs. */
static void test_reference_units(void)
{
	struct results *res = exact_results(1);
	struct plotseries_set *set = NULL;
	struct fitreport *rep = NULL;
	struct errbuf eb = {{0}};
	char *table = NULL;

	CHECK(res != NULL);
	if (res == NULL)
		return;
	CHECK_INT_EQ(plotseries_build(res, "nb_tasks", PLOTSERIES_MEDIAN, &set, &eb), 0);
	CHECK_INT_EQ(fitreport_compute(set, "sudo", true, res, &rep, &eb), 0);
	if (rep != NULL) {
		rep->yunit = "ref";
		rep->yunit_small = "mref";
		table = table_of(rep);
		CHECK(table != NULL &&
		      strstr(table, "| intercept (ref) | slope (mref/task) |") != NULL);
		CHECK(table != NULL && strstr(table, "µs") == NULL);
	}
	free(table);
	fitreport_free(rep);
	plotseries_set_free(set);
	results_free(res);
}

int main(void)
{
	RUN(test_paired_as_compare);
	RUN(test_zero_intercept);
	RUN(test_reference_units);
	RUN(test_compare_with_baseline);
	RUN(test_outputs);
	RUN(test_units);
	RUN(test_hosts_split);
	RUN(test_report_markdown);
	return HARNESS_EXIT();
}
