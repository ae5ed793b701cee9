/* Tests for profilefit: counters fitted against the size, missing counters as 0, counts that
 * differ between repetitions and hosts, refused files, the report's findings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claims.h"
#include "harness.h"
#include "profilefit.h"
#include "profilefit_report.h"
#include "profileload.h"

#define HEADER "subject\tnb_roles\tnb_users\tnb_tasks\tnb_commands\trepetition\tcounter\tvalue\n"

/* A subject reading one byte per call: read(2) = 100 + 355 x tasks. */
static char *trace_rows(const char *subject, unsigned rep, unsigned extra_close)
{
	static const unsigned tasks[] = {1, 10, 100, 1000};
	char *buf = malloc(8192);
	size_t used = 0;

	used += (size_t)snprintf(buf + used, 8192 - used, HEADER);
	for (size_t i = 0; i < 4; i++) {
		unsigned t = tasks[i];

		used += (size_t)snprintf(buf + used, 8192 - used,
					 "%s\t1\t1\t%u\t1\t%u\tcalls\t%u\n"
					 "%s\t1\t1\t%u\t1\t%u\tsys.read\t%u\n"
					 "%s\t1\t1\t%u\t1\t%u\tpolicy_bytes\t%u\n"
					 "%s\t1\t1\t%u\t1\t%u\tfail.close\t%u\n"
					 "%s\t1\t1\t%u\t1\t%u\tminflt\t%u\n",
					 subject, t, rep, 500 + 355 * t, subject, t, rep,
					 100 + 355 * t, subject, t, rep, 355 * t, subject, t, rep,
					 1019 + (t == 100 ? extra_close : 0), subject, t, rep,
					 200 + rep);
		/* /etc/passwd opened only from 10 tasks on: absent rows count 0. */
		if (t >= 10)
			used += (size_t)snprintf(buf + used, 8192 - used,
						 "%s\t1\t1\t%u\t1\t%u\topen./etc/passwd\t%u\n",
						 subject, t, rep, 2 * t);
	}
	return buf;
}

static void test_fit_and_findings(void)
{
	struct profilefit *pf = profilefit_new("nb_tasks");
	struct errbuf eb = {{0}};
	const struct profilefit_line *l;
	char *t = trace_rows("sr-json", 1, 0), *out = NULL;
	size_t outlen = 0;
	const char costs[] = "syscall\tns\tmeasured\nsyscall\t100\tx\nread\t300\tx\n";
	struct profilefit_time tm = {"sr-json", 0.2, 5.0};
	FILE *f;

	CHECK(pf != NULL);
	CHECK_INT_EQ(profilefit_add_tsv(pf, t, strlen(t), "a/results.json", &eb), 0);
	CHECK_INT_EQ(profilefit_add_costs(pf, costs, strlen(costs), "costs", &eb), 0);
	CHECK_INT_EQ(profilefit_compute(pf, &eb), 0);
	CHECK_STR_EQ(eb.msg, "");
	l = profilefit_find(pf, "sr-json", "sys.read");
	CHECK(l != NULL && fabs(l->slope - 355) < 1e-9 && fabs(l->intercept - 100) < 1e-6);
	l = profilefit_find(pf, "sr-json", "fail.close");
	CHECK(l != NULL && l->slope == 0 && l->intercept == 1019);
	l = profilefit_find(pf, "sr-json", "open./etc/passwd");
	CHECK(l != NULL && l->n == 4 && l->min == 0 && fabs(l->slope - 2) < 0.01);
	CHECK_INT_EQ(pf->n_diffs_total, 0);
	f = open_memstream(&out, &outlen);
	profilefit_print_markdown(pf, &tm, 1, f);
	fclose(f);
	CHECK(strstr(out, "one read(2) per policy byte: unbuffered reading") != NULL);
	CHECK(strstr(out, "close(2) once per possible descriptor: 1019 failed") != NULL);
	CHECK(strstr(out, "an NSS lookup per task") != NULL);
	/* 355 reads x 300 ns = 106.5 us of a 200 us slope. */
	CHECK(strstr(out, "106 µs per task, 53 % of its time slope") != NULL);
	free(out);
	free(t);
	profilefit_free(pf);
}

/* Two hosts (or repetitions) with one count that differs: named with where each was seen. */
static void test_diffs(void)
{
	struct profilefit *pf = profilefit_new("nb_tasks");
	struct errbuf eb = {{0}};
	char *a = trace_rows("doas", 1, 0), *b = trace_rows("doas", 1, 3), *out = NULL;
	size_t outlen = 0;
	FILE *f;

	CHECK_INT_EQ(profilefit_add_tsv(pf, a, strlen(a), "host-a", &eb), 0);
	CHECK_INT_EQ(profilefit_add_tsv(pf, b, strlen(b), "host-b", &eb), 0);
	CHECK_INT_EQ(profilefit_compute(pf, &eb), 0);
	/* minflt differs too (200 + rep is equal here) but is never compared; fail.close is. */
	CHECK_INT_EQ(pf->n_diffs_total, 1);
	CHECK_STR_EQ(pf->diffs[0].counter, "fail.close");
	CHECK_STR_EQ(pf->diffs[0].hi_source, "host-b repetition 1");
	CHECK(pf->diffs[0].lo == 1019 && pf->diffs[0].hi == 1022);
	f = open_memstream(&out, &outlen);
	profilefit_print_markdown(pf, NULL, 0, f);
	fclose(f);
	CHECK(strstr(out, "1 count differ") != NULL);
	CHECK(strstr(out, "host-b repetition 1") != NULL);
	/* two hosts: which of them is the odd one is unknown */
	CHECK(pf->diffs[0].odd_source == NULL);
	free(out);
	free(a);
	free(b);
	profilefit_free(pf);
}

/* A lab of four hosts where one counts 3 more close(2) failures at 100 tasks: that host is
 * named alone, with the counter, its value and the others'. */
static void test_odd_host(void)
{
	static const char *const names[] = {"host lab-1", "host lab-2", "host lab-3", "host lab-4"};
	struct profilefit *pf = profilefit_new("nb_tasks");
	struct errbuf eb = {{0}};
	char *rows[4];

	for (size_t i = 0; i < 4; i++) {
		rows[i] = trace_rows("sudo", 1, i == 2 ? 3 : 0);
		CHECK_INT_EQ(profilefit_add_tsv(pf, rows[i], strlen(rows[i]), names[i], &eb), 0);
	}
	CHECK_INT_EQ(profilefit_compute(pf, &eb), 0);
	CHECK_INT_EQ(pf->n_diffs_total, 1);
	CHECK_STR_EQ(pf->diffs[0].counter, "fail.close");
	CHECK_STR_EQ(pf->diffs[0].point, "nb_roles=1,nb_users=1,nb_tasks=100,nb_commands=1");
	CHECK(pf->diffs[0].odd_source != NULL);
	CHECK_STR_EQ(pf->diffs[0].odd_source ? pf->diffs[0].odd_source : "", "host lab-3");
	CHECK(pf->diffs[0].odd_value == 1022 && pf->diffs[0].usual_value == 1019);
	profilefit_free(pf);
	/* and when the others do not agree among themselves, no host is named */
	pf = profilefit_new("nb_tasks");
	for (size_t i = 0; i < 4; i++) {
		free(rows[i]);
		rows[i] = trace_rows("sudo", 1, i == 2 ? 3 : i == 0 ? 1 : 0);
		CHECK_INT_EQ(profilefit_add_tsv(pf, rows[i], strlen(rows[i]), names[i], &eb), 0);
	}
	CHECK_INT_EQ(profilefit_compute(pf, &eb), 0);
	CHECK_INT_EQ(pf->n_diffs_total, 1);
	CHECK(pf->diffs[0].odd_source == NULL);
	for (size_t i = 0; i < 4; i++)
		free(rows[i]);
	profilefit_free(pf);
}

static void test_refusals(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
	    {"", "f: empty"},
	    {"subject\tcounter\n", "f: line 1: not a profile.tsv header"},
	    {"subject\tnb_roles\trepetition\tcounter\tvalue\n", "f: line 1: no column nb_tasks"},
	    {HEADER "x\t1\t1\t10\t1\t1\tcalls\n", "f: line 2: 7 fields, expected 8"},
	    {HEADER "x\t1\t1\t10\t1\t1\tcalls\t-3\n", "f: line 2: bad field"},
	    {HEADER "x\t1\t1\tten\t1\t1\tcalls\t3\n", "f: line 2: bad field"},
	    {HEADER "x\t1\t1\t10\t1\t1\tcalls\tnan\n", "f: line 2: bad field"},
	    {HEADER "\t1\t1\t10\t1\t1\tcalls\t3\n", "f: line 2: bad field"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct profilefit *pf = profilefit_new("nb_tasks");
		struct errbuf eb = {{0}};

		CHECK_INT_EQ(profilefit_add_tsv(pf, bad[i].text, strlen(bad[i].text), "f", &eb),
			     -1);
		CHECK_STR_EQ(eb.msg, bad[i].msg);
		profilefit_free(pf);
	}
}

/*
 * A claim explained: sr-json reads 355 more bytes per task than "flat" (a
 * subject whose counts do not grow), at 300 ns a read: 106.5 of a 200 µs
 * slope difference; a point not traced (the budget) is said.
 */
static void test_claims_explained(void)
{
	struct profilefit *pf = profilefit_new("nb_tasks");
	struct errbuf eb = {{0}};
	char *a = trace_rows("sr-json", 1, 0), *out = NULL;
	const char flat[] = HEADER "flat\t1\t1\t1\t1\t1\tcalls\t500\n"
				   "flat\t1\t1\t1\t1\t1\tsys.read\t100\n"
				   "flat\t1\t1\t1000\t1\t1\tcalls\t500\n"
				   "flat\t1\t1\t1000\t1\t1\tsys.read\t100\n";
	const char costs[] = "syscall\tns\tmeasured\nsyscall\t100\tx\nread\t300\tx\n";
	struct profilefit_time tm[] = {{"sr-json", 0.2, 5.0}, {"flat", 0.0, 2.0}};
	struct claim c = {.id = "json-slope",
			  .subject = "sr-json",
			  .versus = "flat",
			  .quantity = CLAIMS_SLOPE_PCT};
	struct claims_check ck = {.claim = &c, .host = "-", .verdict = CLAIMS_DIRECTION_HOLDS};
	size_t outlen = 0;
	FILE *f;

	CHECK(pf != NULL);
	CHECK_INT_EQ(profilefit_add_tsv(pf, a, strlen(a), "a", &eb), 0);
	CHECK_INT_EQ(profilefit_add_tsv(pf, flat, strlen(flat), "a", &eb), 0);
	CHECK_INT_EQ(profilefit_add_costs(pf, costs, strlen(costs), "costs", &eb), 0);
	CHECK_INT_EQ(profilefit_add_untraced(pf, "flat", 10000, &eb), 0);
	CHECK_INT_EQ(profilefit_add_untraced(pf, "flat", 5000, &eb), 0);
	CHECK_INT_EQ(profilefit_compute(pf, &eb), 0);
	f = open_memstream(&out, &outlen);
	profilefit_print_markdown(pf, tm, 2, f);
	profilefit_explain_claims(pf, &ck, 1, tm, 2, f);
	fclose(f);
	CHECK(strstr(out, "Not traced at 2 point(s) from nb_tasks = 5000") != NULL);
	CHECK(strstr(out, "## The claims, explained by the profiles") != NULL);
	CHECK(strstr(out, "| json-slope | sr-json − flat, slope | +200 µs | +106.5 µs (53 %) | "
			  "read(2) +355 (+106.5 µs)") != NULL);
	if (out != NULL && strstr(out, "(+106.5 µs)") == NULL)
		fputs(out, stderr);
	/* A claim not measured, or of a subject without a profile, is left out. */
	free(out);
	out = NULL;
	ck.verdict = CLAIMS_NOT_MEASURED;
	f = open_memstream(&out, &outlen);
	profilefit_explain_claims(pf, &ck, 1, tm, 2, f);
	fclose(f);
	CHECK_INT_EQ(outlen, 0);
	free(out);
	free(a);
	profilefit_free(pf);
}

/*
 * A results file's peak RSS per point is the median of its timed runs' memory_usage_byte (in
 * KiB), not the profile's one untraced run; a file without it keeps the profile's value.
 */
static void test_peak_rss_from_the_timed_runs(void)
{
	char path[] = "/tmp/rarperf-test-profileload-XXXXXX";
	const char *doc =
	    "{\"results\":["
	    "{\"command\":\"a\",\"memory_usage_byte\":[2048000,2150400,2252800],"
	    "\"parameters\":{\"subject\":\"t\",\"nb_tasks\":\"1\"},"
	    "\"profile\":{\"status\":\"ok\",\"calls\":10,\"rusage\":{\"maxrss_kib\":9999}}},"
	    "{\"command\":\"a\",\"memory_usage_byte\":[3174400,3072000,3276800,3000000],"
	    "\"parameters\":{\"subject\":\"t\",\"nb_tasks\":\"10\"},"
	    "\"profile\":{\"status\":\"ok\",\"calls\":10,\"rusage\":{\"maxrss_kib\":9999}}},"
	    "{\"command\":\"a\",\"parameters\":{\"subject\":\"t\",\"nb_tasks\":\"100\"},"
	    "\"profile\":{\"status\":\"ok\",\"calls\":10,\"rusage\":{\"maxrss_kib\":4000}}}]}";
	struct profilefit *pf = profilefit_new("nb_tasks");
	struct errbuf eb = {{0}};
	double x[4], y[4];
	size_t found = 0, n;
	struct profileload_sink sink;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(pf != NULL && f != NULL);
	if (pf == NULL || f == NULL)
		goto out;
	fputs(doc, f);
	fclose(f);
	profilefit_sink(pf, &sink);
	CHECK_INT_EQ(profileload_file(&sink, path, NULL, "nb_tasks", &found, &eb), 0);
	CHECK_INT_EQ(found, 3);
	CHECK_INT_EQ(profilefit_compute(pf, &eb), 0);
	n = profilefit_points(pf, "t", "maxrss_kib", x, y, 4);
	CHECK_INT_EQ(n, 3);
	if (n == 3) {
		CHECK(fabs(y[0] - 2100) < 1e-9); /* median of 2000, 2100, 2200 KiB */
		CHECK(fabs(y[1] - 3050) < 1e-9); /* median of 2929.7, 3000, 3100, 3200 KiB */
		CHECK(fabs(y[2] - 4000) < 1e-9); /* no runs' values: the profile's */
	}
out:
	unlink(path);
	profilefit_free(pf);
}

int main(void)
{
	RUN(test_fit_and_findings);
	RUN(test_diffs);
	RUN(test_odd_host);
	RUN(test_refusals);
	RUN(test_claims_explained);
	RUN(test_peak_rss_from_the_timed_runs);
	return HARNESS_EXIT();
}
